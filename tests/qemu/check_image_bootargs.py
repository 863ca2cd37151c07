#!/usr/bin/python3
"""Boot arguments written into the image (scripts/image_bootargs.py, as
scripts/d1-flash --append does for the D1, which gets no device tree),
on QEMU: a copy of kernel.elf with the arguments at the image's magic,
booted with qemu-run --kernel. Checks:

- `far_end=outside` in the image stops the run before any section (101),
  naming the valid value: the kernel reads the image's arguments;
- `sections=S00` in the image and `sections=S10` on QEMU's command line:
  S00 alone runs (the image's come first)."""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.dont_write_bytecode = True
from image_bootargs import patch  # noqa: E402

QEMU_RUN = os.path.join(ROOT, "scripts", "qemu-run")


def boot(args, image_args, extra, tag):
    """Boot a copy of kernel.elf with image_args in it; (status, log text)."""
    with open(os.path.join(args.image_dir, "kernel.elf"), "rb") as fh:
        data = patch(fh.read(), image_args)
    kernel, log = f"{args.work}/{tag}.elf", f"{args.work}/{tag}.log"
    with open(kernel, "wb") as fh:
        fh.write(data)
    r = subprocess.run([sys.executable, QEMU_RUN, "--image-dir", args.image_dir, "--kernel",
                        kernel, "--log", log, "--quiet", "--timeout", "60"] + extra,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    with open(log, "rb") as fh:
        return r.returncode, fh.read().decode(errors="replace")


def main():
    """Both boots, every failure printed."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--work", required=True)
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    errors = []
    status, log = boot(args, ["far_end=outside"], [], "bad")
    if status != 101 or "bad boot argument far_end=outside; valid forms: external" not in log:
        errors.append(f"far_end=outside in the image: status {status}, log {log[-300:]!r}")
    status, log = boot(args, ["sections=S00"], ["--append", "sections=S10"], "first")
    ran = [line.split()[1] for line in log.splitlines() if line.startswith("=== [")]
    if status != 0 or ran != ["[S00]"]:
        errors.append(f"sections=S00 in the image, S10 on QEMU's line: status {status}, "
                      f"ran {ran}")
    for e in errors:
        print(f"FAIL: {e}")
    print("image boot arguments: " + ("FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
