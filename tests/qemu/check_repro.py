#!/usr/bin/env python3
"""Run one image under -icount and require byte-identical serial logs:
the run is deterministic, so a difference is a bug (a host-time
dependency, an uninitialised value, a race). Such a bug shows in most
runs; QEMU itself was seen, rarely and only on a loaded host, to shift an
idle period by tens of ns. So: two runs; if they differ, the difference
is printed and a third run decides: it must equal one of the two.
With --from REGEX only the log from the first line matching REGEX on is
compared (the Linux peer: from its /init's first line)."""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from qemu_boot import arg_parser  # noqa: E402


def show_difference(x, y):
    """Print where two logs first differ."""
    a, b = x.splitlines(), y.splitlines()
    first = next((i for i, (p, q) in enumerate(zip(a, b)) if p != q), min(len(a), len(b)))
    print(f"difference from line {first + 1}:")
    print(f"  run 1: {a[first][:200] if first < len(a) else '<end>'}")
    print(f"  run 2: {b[first][:200] if first < len(b) else '<end>'}")


def main():
    """Two runs, a third when they differ."""
    p = arg_parser(__doc__, 300, "prefix of the log files (-1.log, -2.log, -3.log)")
    p.add_argument("--from", dest="start", metavar="REGEX",
                   help="compare from the first line matching REGEX on")
    p.add_argument("--append", action="append", default=[], help="boot argument, each run")
    args = p.parse_args()
    logs = []
    for i in (1, 2, 3):
        path = f"{args.log}-{i}.log"
        rc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "qemu-run"),
                             "--image-dir", args.image_dir, "--log", path, "--quiet",
                             "--timeout", str(args.timeout)] +
                            [x for a in args.append for x in ("--append", a)],
                            stdin=subprocess.DEVNULL).returncode
        if rc != 0:
            print(f"FAIL: run {i} exit status {rc}")
            return 1
        with open(path, "rb") as f:
            log = f.read()
        if args.start:
            m = re.search(args.start.encode(), log, re.M)
            if m is None:
                print(f"FAIL: run {i}: no line matches {args.start!r}")
                return 1
            log = log[m.start():]
        logs.append(log)
        if len(logs) == 2 and logs[0] == logs[1]:
            break
        if len(logs) == 2:
            show_difference(logs[0], logs[1])
    if len(logs) == 3:
        if logs[2] not in (logs[0], logs[1]):
            print("FAIL: three runs, three different logs")
            return 1
        print("WARNING: runs 1 and 2 differed (above); run 3 repeats one of them")
    where = f" from {args.start!r} on" if args.start else ""
    print(f"ok: {len(logs)} runs, {len(logs[-1])} identical bytes{where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
