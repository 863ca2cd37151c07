#!/usr/bin/python3
"""selftest=smp at -smp N under icount: boot the image twice with
scripts/qemu-run, require exit 0, `selftest=smp status=PASS`, the hart
count N on its first line, the harts shared (harts_many) once a task was
placed on another hart and not before, and the two logs byte-identical
from that line on (the run is deterministic: a difference is a race or a
host-time dependency)."""
import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_RUN = os.path.join(HERE, "..", "..", "scripts", "qemu-run")


def boot(args, log):
    """One boot; (status, the log from `selftest=smp harts=` on)."""
    cmd = [sys.executable, QEMU_RUN, "--image-dir", args.image_dir, "--log", log,
           "--timeout", str(args.timeout), "--smp", str(args.smp), "--quiet",
           "--append", "selftest=smp"]
    status = subprocess.run(cmd, stdin=subprocess.DEVNULL).returncode
    with open(log, "rb") as f:
        text = f.read().decode("utf-8", "replace").replace("\r\n", "\n")
    i = text.find("selftest=smp harts=")
    return status, text[i:] if i >= 0 else ""


def main():
    """Two boots, the checks, the verdict."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--smp", type=int, required=True)
    p.add_argument("--log", required=True, help="prefix: PREFIX-1.log, PREFIX-2.log")
    p.add_argument("--timeout", type=float, default=60)
    args = p.parse_args()
    errors, bodies = [], []
    for k in (1, 2):
        status, body = boot(args, f"{args.log}-{k}.log")
        print(body, end="")
        if status != 0:
            errors.append(f"run {k}: exit status {status}")
        if f"selftest=smp harts={args.smp} platform_harts={args.smp}\n" not in body:
            errors.append(f"run {k}: not `selftest=smp harts={args.smp} platform_harts={args.smp}`")
        shared = f"selftest=smp shared_before=0 shared_after={int(args.smp > 1)}\n"
        if shared not in body:      # the kernel marks its harts shared itself
            errors.append(f"run {k}: not `{shared.strip()}`")
        if "selftest=smp status=PASS\n" not in body:
            errors.append(f"run {k}: no `selftest=smp status=PASS`")
        bodies.append(body)
    if bodies[0] != bodies[1]:
        errors.append("the two runs' logs differ")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: selftest=smp PASS at -smp {args.smp}, two runs byte-identical")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
