#!/usr/bin/python3
"""Boot an image with scripts/qemu-run (icount, host timeout) and assert on
its exit status and serial log: every --expect regex must match some line,
no --reject regex may match any line. Prints the log on failure."""
import sys

from qemu_boot import arg_parser, boot, match_lines, report


def main():
    """Run, check, report; exit 0 only if every assertion held."""
    p = arg_parser(__doc__, 60)
    p.add_argument("--status", type=int, required=True, help="expected exit status")
    p.add_argument("--append", action="append", default=[], help="boot argument")
    p.add_argument("--expect", action="append", default=[], help="regex a line must match")
    p.add_argument("--reject", action="append", default=[], help="regex no line may match")
    p.add_argument("--mode", default="icount")
    p.add_argument("--icount-shift", type=int, help="instead of the image's (qemu.json)")
    p.add_argument("--qemu-arg", action="append", default=[], metavar="ARG",
                   help="one more QEMU argument (repeatable), e.g. -machine, then its value")
    args = p.parse_args()

    status, text = boot(args.image_dir, args.log, args.append, args.timeout, args.mode,
                        args.icount_shift, extra=["--"] + args.qemu_arg if args.qemu_arg else ())
    errors = []
    if status != args.status:
        errors.append(f"exit status {status}, expected {args.status}")
    errors += match_lines(text, args.expect, args.reject)
    return report(text, errors, f"status {status}, {len(args.expect)} expected patterns, "
                                f"{len(args.reject)} rejected patterns")


if __name__ == "__main__":
    sys.exit(main())
