"""Command line: report LOG... -o DIR [--label NAME ...] [--baseline X].

Exit status: 0 when at least one log was usable, 1 when none was, 2 on
usage errors. The path of report.md goes to stdout, warnings to stderr.
"""

import argparse
import os
import sys

from . import parse, recompute, report

DESCRIPTION = """\
Turn UART benchmark logs (this project's format and the StarryOS benchmark's)
into a Markdown report with PNG plots.

Each LOG becomes one column. The tool reads the manifest (S00), every
section's key=value records, raw `samples` lines, `hist` lines and payload
witnesses; it recomputes percentiles (nearest rank) from raw samples and flags
printed figures that disagree, converts StarryOS line rates (KiB/s against
11.52) into bytes per second and true line rate (bytes_per_s / (baud/10), with
115200 baud for QEMU logs and 115384.6 for D1 logs), marks the StarryOS P99
that is the maximum, and marks S43 percentiles that cannot be recomputed.
Boot noise, ANSI escapes, CR/LF endings, cut or binary lines never stop it:
they become warnings (on stderr and in the report's Notes).

Writes DIR/report.md and DIR/*.png (1200x700 pixels); prints the path of
report.md. See docs/report.md and docs/log-format.md.

tables (one column per LOG): runs; boot-time figures (StarryOS [BENCH] lines,
S05/S06); TX line rate S10-S14 (bytes/s, true line rate %); TX latency S20/S21
(P50, P99, max in ms and character times = 10/baud s, P99/P50); RX status
S30/S31; per-section status; TX counters S40; S41 median instructions, cycles
per byte and CPU use %; S42 overlap efficiency; S43 sleep overshoot idle and
loaded; notes (conversions, flags, payload CRC32 match/mismatch/not checkable,
parse warnings). Cell marks: ! printed figure disagrees with raw samples,
† printed P99 equals max, ‡ not recomputable.

plots (written only when there is data, else the report says why): S20 and
S21 latency CDFs (raw samples), line rate by payload size, FIFO-boundary
P50/P99 by size, instructions per byte by log, S43 idle vs loaded histograms."""

EPILOG = """\
exit status: 0 at least one log was usable, 1 no log was usable (no report
written), 2 usage error (bad option, unknown --baseline, too many --label,
output directory not writable).

examples:
  report qemu-async.log qemu-console.log -o out
  report d1-async.log starry-d1.log -o out --label ours --label starryos --baseline 2"""


def build_parser():
    """The argparse parser of the tool."""
    p = argparse.ArgumentParser(prog="report", description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("logs", metavar="LOG", nargs="+", help="benchmark log files (UART captures)")
    p.add_argument("-o", "--output", metavar="DIR", required=True,
                   help="output directory, created if missing (report.md and *.png)")
    p.add_argument("--label", metavar="NAME", action="append", default=[],
                   help="column name of the n-th LOG (repeat in LOG order); default: from "
                        "the manifest (board/backend/wire-model, or starryos-<target>)")
    p.add_argument("--baseline", metavar="LABEL_OR_INDEX",
                   help="add ratio columns value / value of this log: a column label or "
                        "a 1-based LOG index")
    return p


def _unique(labels):
    """Make labels unique by appending ' (2)', ' (3)', ..."""
    seen, out = {}, []
    for label in labels:
        count = seen.get(label, 0) + 1
        seen[label] = count
        out.append(label if count == 1 else "%s (%d)" % (label, count))
    return out


def _baseline(choice, labels, parser):
    """Resolve --baseline to a column index (usage error if unknown)."""
    if choice is None:
        return None
    if choice in labels:
        return labels.index(choice)
    if choice.isdigit() and 1 <= int(choice) <= len(labels):
        return int(choice) - 1
    parser.error("--baseline %r is neither a label (%s) nor an index 1..%d"
                 % (choice, ", ".join(labels), len(labels)))
    return None


def main(argv=None):
    """Run the tool; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if len(args.label) > len(args.logs):
        parser.error("%d --label given for %d logs" % (len(args.label), len(args.logs)))
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as exc:
        parser.error("cannot create output directory %s: %s" % (args.output, exc.strerror))
    if not os.access(args.output, os.W_OK):
        parser.error("output directory %s is not writable" % args.output)

    logs = []
    for path in args.logs:
        log = parse.parse_file(path)
        for line, message in log.warnings:
            where = "%s:%d" % (path, line) if line else path
            print("%s: warning: %s" % (where, message), file=sys.stderr)
        logs.append(log)
    labels = [args.label[i] if i < len(args.label) else log.label for i, log in enumerate(logs)]
    kept = [(log, lb) for log, lb in zip(logs, labels) if log.usable()]
    for log, lb in zip(logs, labels):
        if not log.usable():
            print("%s: warning: nothing usable in this log, left out" % log.path,
                  file=sys.stderr)
    if not kept:
        print("report: error: no usable log", file=sys.stderr)
        return 1
    labels = _unique([lb for _, lb in kept])
    base = _baseline(args.baseline, labels, parser)
    analyses = [recompute.analyze(log) for log, _ in kept]
    for an in analyses:
        for flag in an.flags:
            print("%s: flag: %s" % (an.log.path, flag), file=sys.stderr)
    try:
        path = report.write(analyses, labels, args.output, base)
    except OSError as exc:
        print("report: error: cannot write report: %s" % exc, file=sys.stderr)
        return 1
    print(path)
    return 0
