"""Command line: report LOG... -o DIR [--label NAME ...] [--baseline X]
[--json FILE], or report --check LOG... (check.py), or report --sweep DIR
[-o OUT] (sweep.py).

Exit status: 0 when at least one log was usable, 1 when none was, 2 on
usage errors and when --json FILE cannot be written (the report is).
The path of report.md goes to stdout, warnings to stderr.
With --check: 0 when every log is consistent, 1 when one is not, 2 on
usage errors; findings and verdicts go to stdout.
"""

import argparse
import os
import sys

from . import check, json_out, merge, recompute, report

DESCRIPTION = """\
Turn UART benchmark logs (this project's format and the StarryOS benchmark's)
into a report: report.md, the same as one self-contained report.html (plots
inlined), and PNG plots. It opens with the answer: one headline table.

Each LOG becomes one column; LOG may be several boots of one build at one
operating point joined by '+' (MAIN.log+S32.log: the sections a later boot
ran where MAIN skipped them, for sections that need a boot of their own;
--check reads each log on its own). The tool reads the manifest (S00), every
section's key=value records, raw `samples` lines, `hist` lines and payload
witnesses; it recomputes percentiles (nearest rank) from raw samples and flags
printed figures that disagree, converts StarryOS line rates (KiB/s against
11.52) into bytes per second and true line rate (bytes_per_s / (baud/10), with
115200 baud for QEMU logs and 115384.6 for D1 logs), marks the StarryOS P99
that is the maximum, and marks S43 percentiles that cannot be recomputed.
Boot noise, ANSI escapes, CR/LF endings, cut or binary lines never stop it:
they become warnings (on stderr and in the report's Notes).

Writes DIR/report.md, DIR/report.html and DIR/*.png (1200x700 pixels);
prints the path of report.md. With --json FILE, also FILE: every figure of
the report's tables (table, row, column, value, unit, section, source record
and key, marks), each log's settings and the baseline, for a pipeline that
tracks a design over time. See docs/report.md and docs/log-format.md.

first the headline table (the answer: S10 line rate at 64 and 1024 B, 1 B
write + drain P50/P99 in character times, worst S21 P99/P50, S41 instructions
per byte of the driver alone and CPU %, S42 overlap, S43 overshoot P99 idle
and while sending, S32/S33 RX loss) and a verdict per log computed from it
(line rate, CPU, overlap, late timers, RX lost; the figures cited), then the
detail grouped by question, the plots and an appendix (payload CRCs, raw
records, S43 text histogram, notes).
tables (one column per LOG): runs; boot-time figures (StarryOS [BENCH] lines,
S05/S06); TX line rate S10-S14 (bytes/s, true line rate %); TX latency S20/S21
(P50, P99, max in ms and character times = 10/baud s, P99/P50); RX status
S30/S31; RX on the line S32/S33 (bytes read, lost and dropped, CRC,
instructions per byte, CPU %, line rates; a finding line per design that
loses RX bytes); per-section status; TX counters S40; S41 median instructions, cycles
per byte and CPU use %; S42 overlap efficiency; S43 sleep overshoot idle and
loaded; notes (conversions, flags, payload CRC32 match/mismatch/not checkable,
parse warnings). Cell marks: ! printed figure disagrees with raw samples,
† printed P99 equals max, ‡ not recomputable.

plots (written only when there is data, else the report says why): S20 and
S21 latency CDFs (raw samples), line rate by payload size, FIFO-boundary
P50/P99 by size, instructions per byte by log, S43 idle vs loaded histograms."""

CHECK_HELP = """\
--check LOG... writes no report: it tells whether each log's figures can be
trusted. One finding per line, `<log>: <section> <key>: <what is wrong>`
(section `-` when none), notes as `<log>: note: ...`, then one verdict line
per log: `<log>: ok (...)` or `<log>: FAIL (...)`, naming the checks that
ran and those that do not apply to the log, with the reason. Checks:
  structure       parse warnings; every header has its status line; the Done
                  line's sections/passed/failed equal the headers and statuses
                  (old form: skipped counted as passed); every section of our
                  suite is there unless the manifest's sections_selected=/
                  sections_skipped= leave it out
  done-counts-v2  Done invalid= skipped= timeout=; P + F + I + S = N
  quiet-line      foreign_rx_* of the status lines: PASS with foreign bytes or
                  INVALID without them is a finding (INVALID is not a failure)
  manifest        our manifest's keys; char_ns from line_baud_milli; the wire
                  model in S40 and S00 agree; S41 instret_scale = 2^icount_shift;
                  with S32/S33: rx_*_bytes, wire_rx_trigger (1/4/8/14), peer
  cpu-clock       cpu_hz (icount: 1e9 >> icount_shift; 0 exactly when
                  cpu_hz_source=unknown, QEMU without icount), cpu_hz_source,
                  cycles_unit against qemu_mode / board
  records         the fields and records each section prints for the
                  manifest's size lists and bench scale (PASS/INVALID sections)
  witnesses       every payload witness our sections print is there once; its
                  CRC-32 and length match the bytes between its markers (CR LF
                  inside a payload is data); its bytes = what the section
                  sends, and each S10-S14 policy line's bytes (S33: s33-tx)
  samples         every summary (percentiles, mean, min, max in every unit it
                  prints, slow counts, ratios, character times; S43 group
                  summaries and sample[i]) recomputes from its raw samples; ours
                  must print the samples; n = the manifest's iterations
  arithmetic      per-record figures: line_rate_pct, bytes_per_s, kbps, line
                  times; S41 instructions_per_byte (2 decimals) = instret_delta /
                  completed, excl_model = (instret_delta - wire_model_instret) /
                  completed, per write, cycles, CPU use; S41/S42 medians by the
                  log's median_rule; S42 efficiency = useful_iters / idle iters;
                  S43 aggregates against their groups; S31 PASS = CRCs equal;
                  S13 wire bytes = user bytes + one CR per newline; S41
                  instret_delta = rdinstret_delta // instret_scale -
                  idle_instret - rx_instret (or one less); a loop cut by a
                  failed write (write_errno): bytes and drains at most;
                  S32/S33 ratio fields exactly (thousandths, truncated);
                  StarryOS line_rate_pct = kbps / 11.52 (its unit defect, noted)
  rx-stream       S32/S33 against the far end's ground truth: received + lost
                  + dropped = sent, received and lost <= sent, overruns_model
                  <= lost, accounted and crc_check follow from the figures,
                  driver and model overruns agree, sent = the manifest's
                  stream; PASS with a broken check, or FAIL with another
                  reason than the first broken check's, is a finding;
                  SKIPPED needs its skip line, with the manifest's reason
  counters        TX counters: user_acc <= user_req, sent <= popped, refills
                  <= FIFO depth; async backend: ring_pop_bytes = hw_send_bytes,
                  user_acc + queued_at_reset = ring_pop_bytes + staged_bytes
                  (older logs: hw_send_bytes + staged_bytes - user_acc >= 0),
                  equal within one reset window, the window's payload
                  accepted and sent
  bounds          line rate <= 100 %, write + drain >= the bytes' line time,
                  S11 >= its line time, S32/S33 RX and TX line rates <= 100 %
                  (real or modelled line only; the
                  last sample of a loop cut by a failed write left out); 0 <=
                  overlap efficiency <= 1; instructions per byte > 0; model
                  cost <= total; CPU use <= 100 % (S32/S33: cpu_pct +
                  model_cpu_pct); one unit of the last printed
                  digit (one timer tick for times) allowed; INVALID sections
                  are not held to them"""

EPILOG = """\
exit status: 0 at least one log was usable, 1 no log was usable (no report
written), 2 usage error (bad option, unknown --baseline, too many --label,
output directory not writable, --json FILE that cannot be written: its
directory missing or not writable, FILE a directory; the report is written
all the same). With --check: 0 every log is consistent, 1 at least one is
not, 2 usage error.

""" + CHECK_HELP + """

examples:
  report qemu-async.log qemu-console.log -o out
  report d1-async.log starry-d1.log -o out --label ours --label starryos --baseline 2
  report qemu-async.log qemu-console.log -o out --json out/figures.json
  report --check build/qemu-virt-async/run.log
  report --sweep out/sweep -o out/sweep-report   (the frontier of a sweep's logs)"""


def build_parser():
    """The argparse parser of the tool."""
    p = argparse.ArgumentParser(prog="report", description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("logs", metavar="LOG", nargs="*", help="benchmark log files (UART captures)")
    p.add_argument("-o", "--output", metavar="DIR",
                   help="output directory, created if missing (report.md, report.html, "
                        "*.png); "
                        "required unless --check")
    p.add_argument("--check", action="store_true",
                   help="write no report: check that each LOG is consistent (see below)")
    p.add_argument("--sweep", metavar="DIR",
                   help="write OUT/sweep.md (OUT: -o, default DIR): the frontier of a sweep's "
                        "logs, DIR/logs/*.log or DIR/*.log (docs/report.md)")
    p.add_argument("--label", metavar="NAME", action="append", default=[],
                   help="column name of the n-th LOG (repeat in LOG order); default: from "
                        "the manifest (board/backend/wire-model, or starryos-<target>)")
    p.add_argument("--rx-point", metavar="LABEL=LOG", action="append", default=[],
                   help="a log of S32/S33 at another operating point (LOG may join boots "
                        "with '+'), shown only in a table of its point (line and RX trigger) "
                        "under the RX table, ratios against the point's first log; repeat")
    p.add_argument("--baseline", metavar="LABEL_OR_INDEX",
                   help="ratios value / value of this log inside the cells: a column label "
                        "or a 1-based LOG index (default: the first console-backend log)")
    p.add_argument("--no-plots", action="store_true",
                   help="draw no PNG plots (the report names each one as not asked for): "
                        "matplotlib is not loaded, and a report takes a fraction of the time")
    p.add_argument("--json", metavar="FILE",
                   help="also write FILE: every figure of the report's tables with its unit, "
                        "source and marks, each log's settings (docs/report.md)")
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


def _read(path):
    """The Log of one LOG argument, its parse warnings printed; called by main()."""
    log = merge.parse_column(path)
    for line, message in log.warnings:
        where = "%s:%d" % (path, line) if line else path
        print("%s: warning: %s" % (where, message), file=sys.stderr)
    return log


def main(argv=None):
    """Run the tool; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.sweep is not None:
        if args.logs or args.check or args.label or args.baseline or args.rx_point or args.json:
            parser.error("--sweep DIR reads the logs of DIR: no LOG, --check, --label, "
                         "--baseline, --rx-point or --json")
        from . import sweep
        return sweep.main(args.sweep, args.output, parser.error, not args.no_plots)
    if not args.logs:
        parser.error("the following arguments are required: LOG")
    if args.check:
        if (args.output or args.label or args.baseline or args.rx_point or args.json
                or args.no_plots):
            parser.error("--check writes no report: -o, --label, --baseline, --rx-point, "
                         "--json and --no-plots do not apply")
        return check.main(args.logs)
    if not args.output:
        parser.error("the following arguments are required: -o/--output (or use --check)")
    if len(args.label) > len(args.logs):
        parser.error("%d --label given for %d logs" % (len(args.label), len(args.logs)))
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as exc:
        parser.error("cannot create output directory %s: %s" % (args.output, exc.strerror))
    if not os.access(args.output, os.W_OK):
        parser.error("output directory %s is not writable" % args.output)

    points = []
    for arg in args.rx_point:
        label, sep, path = arg.partition("=")
        if not sep or not label or not path:
            parser.error("--rx-point %r: want LABEL=LOG" % arg)
        points.append((label, path))
    logs = [_read(path) for path in args.logs]
    rx_points = []
    for label, path in points:
        log = _read(path)
        if not log.usable():
            print("%s: warning: nothing usable in this log, left out" % log.path,
                  file=sys.stderr)
            continue
        rx_points.append((recompute.analyze(log), label))
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
    shown = []
    try:
        path = report.write(analyses, labels, args.output, base, rx_points, shown,
                            not args.no_plots)
    except OSError as exc:
        print("report: error: cannot write report: %s" % exc, file=sys.stderr)
        return 1
    print(path)
    return _json(args.json, shown, analyses, labels, base, path) if args.json else 0


def _json(path, shown, analyses, labels, base, md):
    """Write --json FILE once the report is written (md: its report.md):
    0, or 2 with the reason on stderr, the report left as it is; called by main()."""
    try:
        json_out.write(path, json_out.document(shown, analyses, labels, base))
    except OSError as exc:
        print("report: error: cannot write --json %s: %s (the report is written: %s)"
              % (path, json_out.why(path, exc), md), file=sys.stderr)
        return 2
    return 0
