#!/usr/bin/env python3
"""Run one image twice under -icount and require byte-identical serial
logs: the run is deterministic, so any difference is a bug (a host-time
dependency, an uninitialised value, a race)."""
import argparse
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def main():
    """Two runs, one comparison."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--log", required=True, help="prefix of the two log files")
    p.add_argument("--timeout", type=float, default=300)
    args = p.parse_args()
    logs = []
    for i in (1, 2):
        path = f"{args.log}-{i}.log"
        rc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "qemu-run"),
                             "--image-dir", args.image_dir, "--log", path, "--quiet",
                             "--timeout", str(args.timeout)], stdin=subprocess.DEVNULL).returncode
        if rc != 0:
            print(f"FAIL: run {i} exit status {rc}")
            return 1
        with open(path, "rb") as f:
            logs.append(f.read())
    if logs[0] != logs[1]:
        a, b = logs[0].splitlines(), logs[1].splitlines()
        first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        print(f"FAIL: logs differ from line {first + 1}:")
        print(f"  run 1: {a[first][:200] if first < len(a) else '<end>'}")
        print(f"  run 2: {b[first][:200] if first < len(b) else '<end>'}")
        return 1
    print(f"ok: two runs, {len(logs[0])} identical bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
