#!/usr/bin/python3
"""Bad paths and programs around the Linux peer stop with status 1 and a
message naming the problem, before QEMU boots anything:

  scripts/qemu-run    a kernel that does not exist; a file that is no
                      RISC-V Linux Image; an initrd that does not exist;
                      an initrd that is no cpio archive
  mkinitramfs         an /init that does not exist; one that is no ELF;
                      a host program; a dynamically linked riscv64 one
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def main():
    """Run every case; exit 0 only if each failed as expected."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--qemu-run", required=True)
    p.add_argument("--mkinitramfs", required=True)
    p.add_argument("--cc", required=True, help="riscv64-linux-gnu-gcc")
    p.add_argument("--image-dir", required=True, help="a Linux peer's run directory")
    p.add_argument("--probe", required=True, help="a static riscv64 program (not an Image)")
    p.add_argument("--work", required=True, help="scratch directory")
    args = p.parse_args()
    w = args.work
    os.makedirs(w, exist_ok=True)
    text = os.path.join(w, "not-elf")
    with open(text, "w") as f:
        f.write("echo this is no program\n")
    src = os.path.join(w, "dynamic.c")
    with open(src, "w") as f:
        f.write("int main(void) { return 0; }\n")
    dynamic = os.path.join(w, "dynamic")
    subprocess.run([args.cc, "-o", dynamic, src], check=True)
    host_program = shutil.which("true") or "/bin/true"
    missing = os.path.join(w, "no-such-file")
    log = os.path.join(w, "run.log")
    if os.path.exists(log):
        os.unlink(log)
    run = [sys.executable, args.qemu_run, "--log", log, "--timeout", "10", "--quiet",
           "--image-dir", args.image_dir]
    mk = [sys.executable, args.mkinitramfs, "--out", os.path.join(w, "x.cpio.gz"), "--init"]
    cases = [
        ("kernel missing", run + ["--kernel", missing],
         rf"^qemu-run: {re.escape(missing)} does not exist; build it first$"),
        ("kernel not an Image", run + ["--kernel", args.probe],
         rf"^qemu-run: {re.escape(args.probe)} is not a RISC-V Linux Image "),
        ("initrd missing", run + ["--initrd", missing],
         rf"^qemu-run: initrd {re.escape(missing)} does not exist; build it first"),
        ("initrd not a cpio archive", run + ["--initrd", text],
         rf"^qemu-run: initrd {re.escape(text)} is not a cpio archive"),
        ("init missing", mk + [missing],
         rf"^mkinitramfs: cannot read the /init program {re.escape(missing)}: "
         "No such file or directory$"),
        ("init not an ELF", mk + [text],
         rf"^mkinitramfs: {re.escape(text)} is not an ELF executable "),
        ("init for the host", mk + [host_program],
         rf"^mkinitramfs: {re.escape(host_program)} is an ELF for [^,]+, not riscv64 "),
        ("init dynamically linked", mk + [dynamic],
         rf"^mkinitramfs: {re.escape(dynamic)} is dynamically linked \(it asks for "
         r"/lib/ld-linux-riscv64-lp64d\.so\.1, .*link it with -static$"),
    ]
    errors = []
    for name, cmd, rx in cases:
        r = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                           check=False)
        out = r.stdout + r.stderr
        if r.returncode != 1 or not re.search(rx, out, re.M):
            errors.append(f"{name}: status {r.returncode}, expected 1 and a line matching "
                          f"{rx!r}; output:\n{out}")
        else:
            print(f"ok: {name}: {out.strip().splitlines()[-1]}")
    if os.path.exists(log):
        errors.append(f"QEMU ran: {log} exists")
    for e in errors:
        print(f"FAIL: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
