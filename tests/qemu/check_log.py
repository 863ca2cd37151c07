#!/usr/bin/env python3
"""Boot an image with scripts/qemu-run (icount, host timeout) and assert on
its exit status and serial log: every --expect regex must match some line,
no --reject regex may match any line. Prints the log on failure."""
import re
import sys

from qemu_boot import arg_parser, boot, report


def main():
    """Run, check, report; exit 0 only if every assertion held."""
    p = arg_parser(__doc__, 60)
    p.add_argument("--status", type=int, required=True, help="expected exit status")
    p.add_argument("--append", action="append", default=[], help="boot argument")
    p.add_argument("--expect", action="append", default=[], help="regex a line must match")
    p.add_argument("--reject", action="append", default=[], help="regex no line may match")
    p.add_argument("--mode", default="icount")
    p.add_argument("--icount-shift", type=int, help="instead of the image's (qemu.json)")
    args = p.parse_args()

    status, text = boot(args.image_dir, args.log, args.append, args.timeout, args.mode,
                        args.icount_shift)
    lines = text.split("\n")
    errors = []
    if status != args.status:
        errors.append(f"exit status {status}, expected {args.status}")
    for rx in args.expect:
        if not any(re.search(rx, l) for l in lines):
            errors.append(f"no line matches {rx!r}")
    for rx in args.reject:
        hits = [l for l in lines if re.search(rx, l)]
        if hits:
            errors.append(f"line matches rejected {rx!r}: {hits[0]!r}")
    return report(text, errors, f"status {status}, {len(args.expect)} expected patterns, "
                                f"{len(args.reject)} rejected patterns")


if __name__ == "__main__":
    sys.exit(main())
