#!/usr/bin/python3
"""scripts/qemu-run on a kernel it did not build (--kernel FILE, no
--image-dir): the firmware, privilege mode and command line the user
gives, the emulator's line, a far-end stream started by QEMU itself
(--far-end-stream), and the far end's ground truth collected at exit.

  check_foreign.py --kernel ELF --log LOG options
      an ELF (our own S-mode image without the wire model, booted as any
      other kernel with sections=S00): exit status 0, the manifest on the
      line at 115200/16, one ground-truth row of the stream, printed; the
      QEMU commands of --priv, --bios, --cmdline and of a Linux Image
      (dry runs); virtio-blk-device in the QEMU (a foreign kernel's root
      file system on a disk image); the refusals of bad options, before
      any boot
  check_foreign.py --kernel IMAGE --initrd CPIO --log LOG
      the Linux peer's Image and initramfs: powered off (status 0), its
      /init's line, one ground-truth row of the stream, printed
"""
import argparse
import json
import os
import re
import subprocess
import sys

from qemu_boot import report

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_RUN = os.path.join(HERE, "..", "..", "scripts", "qemu-run")
STREAM = (64, 1000000, 3)          # bytes, start ns, seed of the ELF's run
LINUX_STREAM = (2048, 50000000, 7)  # during the kernel's boot: nobody reads it


def qemu_run(args, timeout=120):
    """(status, stdout + stderr) of scripts/qemu-run args."""
    r = subprocess.run([sys.executable, QEMU_RUN] + args, capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=timeout, check=False)
    return r.returncode, r.stdout + r.stderr


def check_truth(log, stream, out, errors):
    """The far end's log beside LOG: one row of the stream, its bytes all
    sent and each either delivered or lost; qemu-run printed it."""
    n, start, seed = stream
    path = os.path.splitext(log)[0] + ".far-end.json"
    try:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except (OSError, ValueError) as e:
        errors.append(f"no ground truth in {path}: {e}")
        return
    if len(rows) != 1:
        errors.append(f"{path}: {len(rows)} rows, expected one")
        return
    r = rows[0]
    want = {"bytes": n, "t0_ns": start, "seed": seed, "sent": n}
    got = {k: r.get(k) for k in want}
    if got != want or r["delivered"] + r["lost"] != n or r["first_ns"] <= start:
        errors.append(f"ground truth {r}, expected {want}, delivered + lost = sent and the "
                      "first byte after the start")
    line = (f"far end stream 1: {n} bytes from {start} ns, seed {seed}: sent {n}, delivered "
            f"{r['delivered']}, lost {r['lost']}")
    if line not in out or f"ground truth: {path}" not in out:
        errors.append(f"qemu-run did not print the ground truth ({line!r}):\n{out}")


def dry(args, *opts):
    """The QEMU command qemu-run prints for opts (a dry run)."""
    return qemu_run(["--dry-run", "--log", args.log] + list(opts))


def check_commands(args, errors):
    """The QEMU commands of the firmware, privilege and command-line options."""
    image = os.path.join(os.path.dirname(os.path.abspath(args.log)), "fake-linux-Image")
    with open(image, "wb") as f:
        f.write(bytes(56) + b"RSC\x05" + bytes(64))
    cases = [
        ("--priv M", ["--kernel", args.kernel, "--priv", "M"], [r" -bios none "], [r"-no-reboot"]),
        ("--priv S", ["--kernel", args.kernel, "--priv", "S"], [r" -bios default "], []),
        ("--bios FILE", ["--kernel", args.kernel, "--bios", args.kernel],
         [r" -bios " + re.escape(os.path.abspath(args.kernel)) + " "], []),
        ("--cmdline", ["--kernel", args.kernel, "--cmdline", "a=1 b", "--append", "c=2"],
         [r" -append 'a=1 b qemu_mode=icount icount_shift=1 c=2' "], []),
        ("a Linux Image", ["--kernel", image],
         [r" -append 'console=ttyS0 panic=-1 earlycon quiet qemu_mode=icount icount_shift=1'",
          r" -no-reboot", r"serial-mm\.line-timing=on"], [r"-initrd"]),
    ]
    for name, opts, want, unwanted in cases:
        status, out = dry(args, *opts)
        bad = [rx for rx in want if not re.search(rx, out)] + \
              [rx for rx in unwanted if re.search(rx, out)]
        if status != 0 or bad:
            errors.append(f"{name}: status {status}, {bad} wrong in:\n{out}")
        else:
            print(f"ok: {name}")
    qemu = out.split()[0]
    devices = subprocess.run([qemu, "-device", "help"], capture_output=True, text=True,
                             check=False).stdout
    if 'name "virtio-blk-device"' not in devices:
        errors.append(f"{qemu} has no virtio-blk-device (a foreign kernel's disk)")
    else:
        print("ok: the QEMU has virtio-blk-device (a foreign kernel's root file system)")


def check_refusals(args, errors):
    """Bad options: exit 2 and a message naming what is valid, no boot."""
    k = ["--kernel", args.kernel]
    cases = [
        ("--priv and --bios", k + ["--priv", "M", "--bios", "default"], r"give --priv or --bios"),
        ("--bios missing", k + ["--bios", "/no/such/firmware"],
         r"--bios /no/such/firmware: no such file \(valid values: default, none or a"),
        ("--priv bad", k + ["--priv", "U"], r"argument --priv: invalid choice: 'U'"),
        ("--far-end-stream bad", k + ["--far-end-stream", "0@1s"],
         r"bad --far-end-stream 0@1s; valid forms: BYTES@START\[:SEED\]"),
        ("--far-end-stream unit", k + ["--far-end-stream", "10@1h"], r"bad --far-end-stream 10@1h"),
        ("--far-end-stream without a far end", k + ["--far-end", "off", "--far-end-stream", "9@1s"],
         r"--far-end-stream needs the far end"),
        ("--far-end-stream on the instant UART", k + ["--line", "instant", "--far-end-stream",
                                                      "9@1s"], r"this run has QEMU's instant UART"),
        ("--cmdline with --image-dir", ["--image-dir", os.path.dirname(args.kernel), "--cmdline",
                                        "x"], r"--priv, --bios and --cmdline are for a kernel"),
        ("no kernel", [], r"give --image-dir, or --kernel"),
    ]
    for name, opts, rx in cases:
        status, out = dry(args, *opts)
        if status != 2 or not re.search(rx, out):
            errors.append(f"{name}: status {status}, expected 2 and {rx!r}:\n{out}")
        else:
            print(f"ok: refused: {name}")


def main():
    """Boot, check, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", help="the Linux peer's initramfs (then --kernel is its Image)")
    p.add_argument("--log", required=True)
    p.add_argument("--timeout", type=float, default=60, help="host seconds of the boot")
    args = p.parse_args()
    errors = []
    stream = LINUX_STREAM if args.initrd else STREAM
    opts = ["--kernel", args.kernel, "--log", args.log, "--quiet", "--timeout",
            str(args.timeout), "--far-end-stream", "%d@%dns:%d" % stream]
    if args.initrd:
        opts += ["--initrd", args.initrd]
        expect = [r"^init-probe: release=\S+ machine=riscv64 ", r"^reboot: Power down",
                  r"qemu-virt/linux exit status 0 \(powered off; "]
    else:
        opts += ["--append", "sections=S00"]
        expect = [r"^  line=device line_point=115200/16 line_bus_ns=80 line_source=device-tree$",
                  r"^Done\. sections=1 passed=1 ", r"qemu-virt/foreign exit status 0 \("]
    status, out = qemu_run(opts, args.timeout + 30)
    try:
        with open(args.log, encoding="utf-8", errors="replace") as f:
            text = f.read().replace("\r\n", "\n") + out
    except OSError:
        text = out
    if status != 0:
        errors.append(f"exit status {status}, expected 0:\n{out}")
    errors += [f"no line matches {rx!r}" for rx in expect if not re.search(rx, text, re.M)]
    check_truth(args.log, stream, out, errors)
    if not args.initrd:
        check_commands(args, errors)
        check_refusals(args, errors)
    return report(text, errors, f"{args.kernel} booted as a foreign kernel on the line, the "
                               "far end's ground truth collected")


if __name__ == "__main__":
    sys.exit(main())
