#!/usr/bin/python3
"""scripts/linux-peer/mkinitramfs: two archives of one program are the
same bytes, and the same as the build's; cpio(1), not our own reader,
lists exactly the expected entries (sorted, owner root, mtime 1970, the
device numbers of /dev/console and /dev/ttyS0), and /init extracted by
cpio is the program byte for byte."""
import argparse
import gzip
import os
import re
import subprocess
import sys

# cpio -itv lines, in order: mode, links, owner, group, size or major,minor.
EXPECTED = [
    r"^drwxr-xr-x +2 root +root +0 Jan  1  1970 dev$",
    r"^crw------- +1 root +root +5, +1 Jan  1  1970 dev/console$",
    r"^crw------- +1 root +root +4, +64 Jan  1  1970 dev/ttyS0$",
    r"^-rwxr-xr-x +1 root +root +{size} Jan  1  1970 init$",
]


def make(args, out):
    """One archive of the program; its bytes."""
    subprocess.run([sys.executable, args.mkinitramfs, "--init", args.init, "--out", out],
                   check=True, stdin=subprocess.DEVNULL)
    with open(out, "rb") as f:
        return f.read()


def cpio(archive, *opts):
    """cpio -i with opts on the uncompressed archive: stdout bytes."""
    r = subprocess.run(["cpio", "-i", "--quiet", *opts], input=gzip.decompress(archive),
                       capture_output=True, check=True, env=dict(os.environ, TZ="UTC",
                                                                 LC_ALL="C"))
    return r.stdout


def main():
    """Build twice, compare, list, extract."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--mkinitramfs", required=True)
    p.add_argument("--init", required=True, help="the program put in as /init")
    p.add_argument("--built", required=True, help="the build's archive of that program")
    p.add_argument("--work", required=True, help="scratch directory")
    args = p.parse_args()
    os.makedirs(args.work, exist_ok=True)
    errors = []
    a = make(args, os.path.join(args.work, "a.cpio.gz"))
    b = make(args, os.path.join(args.work, "b.cpio.gz"))
    with open(args.built, "rb") as f:
        built = f.read()
    if a != b:
        errors.append("two archives of the same program differ")
    if a != built:
        errors.append(f"{args.built} differs from an archive made now of the same program")
    with open(args.init, "rb") as f:
        program = f.read()
    listing = cpio(a, "-t", "-v").decode().splitlines()
    want = [rx.format(size=len(program)) for rx in EXPECTED]
    if len(listing) != len(want) or not all(re.match(rx, l) for rx, l in zip(want, listing)):
        errors.append("cpio -itv lists:\n  " + "\n  ".join(listing) +
                      "\nexpected:\n  " + "\n  ".join(want))
    if cpio(a, "--to-stdout", "init") != program:
        errors.append("/init extracted by cpio is not the program")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: {len(a)} bytes, twice the same, {len(listing)} entries as expected, "
              "/init = the program")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
