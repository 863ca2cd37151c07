"""The sweep frontier (`report --sweep DIR`): one log per operating point.

A sweep boots one image per point (backend x baud x FIFO depth x CPU clock
x peer traffic) with `sections=S10,S32,S33,S41`. load() reads every log of
the folder into a Point (what the manifest says it ran at, its three
figures and what broke), frontier() finds per row (setting, backend, FIFO
depth) and CPU clock the highest baud of the tested ladder up to which
every point passes (sweep_frontier.py). The figures and criteria are in
docs/report.md ("Sweep frontier"); sweep_md.py writes sweep.md,
sweep_plots.py the plots.
"""

import glob
import os
from dataclasses import dataclass, field

from . import parse, series, settings
from .stats import median
from .sweep_frontier import frontier

TX_MIN_PCT = 99.0  # TX line rate at least this
CPU_MAX_PCT = 50.0  # the driver's CPU share at most this
# A failing point whose wire model took at least this share of the CPU in
# one of the sections (its simulation runs on the guest's CPU) is marked
# model-bound: the verdict is partly the simulation's, not the design's.
MODEL_BOUND_PCT = 25.0
SECTIONS = ("S10", "S32", "S33", "S41")


@dataclass
class Point:
    """One log of the sweep: its operating point, figures and broken criteria."""

    path: str
    name: str
    backend: str = ""
    baud: int = 0
    fifo: int = 0
    cpu_hz: int = 0
    shift: str = ""
    setting: tuple = ()  # (board, bench scale, peer, rx trigger, wire clock or device
    #                      line): never mixed
    tx: float | None = None
    tx_from: str = ""
    rx_lost: int | None = None
    rx_sent: int | None = None
    cpu: float | None = None
    cpu_from: str = ""
    model: float | None = None  # the wire model's largest CPU share, %
    model_from: str = ""
    complete: bool = True
    broken: list = field(default_factory=list)  # (short name, detail)

    def passes(self):
        """True when the point ran whole and meets every criterion (frontier(), sweep_md)."""
        return not self.broken

    def loss_pct(self):
        """RX bytes lost or dropped over those sent, in %, or None (sweep_md, sweep_plots)."""
        if self.rx_lost is None or not self.rx_sent:
            return None
        return self.rx_lost * 100.0 / self.rx_sent

    def shorts(self):
        """The short names of what broke, in order, once each (frontier cells)."""
        out = []
        for short, _ in self.broken:
            if short not in out:
                out.append(short)
        return out


def find_logs(folder):
    """The sweep's log files: DIR/logs/*.log, else DIR/*.log (cli, tests)."""
    sub = os.path.join(folder, "logs")
    where = sub if os.path.isdir(sub) else folder
    return sorted(glob.glob(os.path.join(where, "*.log")))


def refusal(log):
    """Why log is no point of a sweep, or None (load())."""
    man = log.manifest
    if log.flavor != "ours" or not man.get("board"):
        return "not a log of this benchmark (no board= in its manifest)"
    if man.get("os") == "linux":
        return "a Linux run (uartbench-hosted): no modelled line"
    wire = (log.line_point() or "").split("/")
    if len(wire) != 2 or series.uint(wire[0]) is None or series.uint(wire[1]) is None:
        return "no timed line (wire_model=%s, line=%s): no baud ladder" % (
            man.get("wire_model", "?"), man.get("line", "?"))
    if not series.uint(man.get("cpu_hz", "")):
        return "no CPU clock (cpu_hz=%s: not run under icount)" % man.get("cpu_hz", "?")
    return None


def _rec(log, sid, tag):
    """The first `diag=<tag>` record of section sid, or None (the *_figure functions)."""
    recs = log.records(sid, kind="diag", tag=tag)
    return recs[0] if recs else None


def tx_figure(log):
    """(TX line rate %, source): the lesser of S10's line_rate_pct at its
    largest size and S33's tx_line_rate_pct; (None, "") without both (load())."""
    pols = [r for r in log.records("S10", kind="policy", tag="drain-each")
            if r.num("size") is not None and r.num("line_rate_pct") is not None]
    s33 = _rec(log, "S33", "s33-tx")
    if not pols or s33 is None or s33.num("tx_line_rate_pct") is None:
        return None, ""
    big = max(pols, key=lambda r: r.num("size"))
    parts = [(big.num("line_rate_pct"), "S10 %s B" % big.get("size")),
             (s33.num("tx_line_rate_pct"), "S33")]
    return min(parts, key=lambda p: p[0])


def rx_figure(log):
    """(bytes lost + dropped, bytes sent) over S32 and S33; (None, None)
    unless both print their `diag=s3x-rx` line (load())."""
    lost = sent = 0
    for sid in ("S32", "S33"):
        rec = _rec(log, sid, "%s-rx" % sid.lower())
        if rec is None or rec.num("lost") is None or rec.num("sent") is None:
            return None, None
        dropped = rec.num("dropped") or 0  # `na`: the console has no RX ring counters
        lost += int(rec.num("lost") + dropped)
        sent += int(rec.num("sent"))
    return lost, sent


def clock_free(log):
    """True when the log's clock left the model's simulation out (manifest
    wire_clock=free): CPU shares are then of the guest's time, the window
    less the model's cycles (cpu_figure, judge)."""
    return log.manifest.get("wire_clock", "raw") == "free"


def _s41_median(log, ok, share):
    """The median of share(round) over S41's diag=s41-valid rounds at the
    largest size among those ok(round) holds for; None without any
    (s41_driver_cpu, model_figure)."""
    rounds = [r for r in log.records("S41", kind="diag", tag="s41-valid")
              if r.num("size") is not None and r.num("cycles_delta") and ok(r)]
    if not rounds:
        return None
    size = max(r.num("size") for r in rounds)
    return median([share(r) for r in rounds if r.num("size") == size])


def s41_driver_cpu(log):
    """The driver's CPU % in S41 at its largest size: the median over valid rounds
    of (cycles_delta - idle_cycles - wire_model_cycles) x 100 / cycles_delta, the
    model's cycles out of the divisor too with wire_clock=free (cpu_figure())."""
    free = clock_free(log)

    def ok(r):
        return (r.num("idle_cycles") is not None and r.num("wire_model_cycles") is not None
                and r.get("completed") == r.get("expected")
                and r.get("write_rc", "0") == "0" and r.get("drain_rc", "0") == "0")

    def share(r):
        window = r.num("cycles_delta") - (r.num("wire_model_cycles") if free else 0)
        busy = r.num("cycles_delta") - r.num("idle_cycles") - r.num("wire_model_cycles")
        return busy * 100.0 / window if window > 0 else 0.0

    return _s41_median(log, ok, share)


def cpu_figure(log):
    """(CPU %, source): the largest of S32's and S33's cpu_pct (guest_cpu_pct with
    wire_clock=free) and S41's driver share, all without the model's cycles;
    (None, "") unless all three are there (load())."""
    parts = []
    key = "guest_cpu_pct" if clock_free(log) else "cpu_pct"
    for sid in ("S32", "S33"):
        rec = _rec(log, sid, "%s-cpu" % sid.lower())
        if rec is None or rec.num(key) is None:
            return None, ""
        parts.append((rec.num(key), sid))
    s41 = s41_driver_cpu(log)
    if s41 is None:
        return None, ""
    parts.append((s41, "S41"))
    return max(parts, key=lambda p: p[0])


def model_figure(log):
    """(model CPU %, source): the largest of S32's and S33's model_cpu_pct and
    S41's median wire_model_cycles x 100 / cycles_delta at its largest size;
    (None, "") when no section prints it (load())."""
    parts = []
    for sid in ("S32", "S33"):
        rec = _rec(log, sid, "%s-cpu" % sid.lower())
        if rec is not None and rec.num("model_cpu_pct") is not None:
            parts.append((rec.num("model_cpu_pct"), sid))
    s41 = _s41_median(log, lambda r: r.num("wire_model_cycles") is not None,
                      lambda r: r.num("wire_model_cycles") * 100.0 / r.num("cycles_delta"))
    if s41 is not None:
        parts.append((s41, "S41"))
    return max(parts, key=lambda p: p[0]) if parts else (None, "")


def _run_breaks(log):
    """What stops the run counting: a cut log, sections absent or not PASS (judge())."""
    out = []
    if log.done is None:
        out.append(("incomplete", "incomplete: no Done line (the run did not finish: "
                                  "killed by the host timeout?)"))
    for sid in SECTIONS:
        rec = log.statuses.get(sid)
        if rec is None:
            if log.done is not None:
                state = "absent" if sid not in log.sections else "incomplete"
                out.append((state, "%s %s" % (sid, "not run" if state == "absent"
                                               else "has no status line")))
            continue
        status = rec.get("status", "?")
        if status != "PASS":
            reason = rec.get("reason")
            short = "%s %s" % (status, reason) if reason else status
            out.append((short, "%s %s" % (sid, short)))
    return out


def judge(point, log):
    """Fill point's figures and broken criteria from its log (load(), tests)."""
    point.complete = log.done is not None
    point.tx, point.tx_from = tx_figure(log)
    point.rx_lost, point.rx_sent = rx_figure(log)
    point.cpu, point.cpu_from = cpu_figure(log)
    point.broken = _run_breaks(log)
    ran = not point.broken
    if point.tx is None:
        if ran:
            point.broken.append(("TX", "TX: no figure (S10 or S33 record missing)"))
    elif point.tx < TX_MIN_PCT:
        point.broken.append(("TX", "TX %.3f %% < %g %% (%s)" % (point.tx, TX_MIN_PCT,
                                                               point.tx_from)))
    if point.rx_lost is None:
        if ran:
            point.broken.append(("RX", "RX: no figure (S32 or S33 record missing)"))
    elif point.rx_lost > 0:
        point.broken.append(("RX", "RX %d of %d B lost" % (point.rx_lost, point.rx_sent)))
    if point.cpu is None:
        if ran:
            point.broken.append(("CPU", "CPU: no figure (S32, S33 or S41 record missing)"))
    elif point.cpu > CPU_MAX_PCT:
        point.broken.append(("CPU", "CPU %.3f %% > %g %% (%s)" % (point.cpu, CPU_MAX_PCT,
                                                                 point.cpu_from)))
    point.model, point.model_from = model_figure(log)
    if point.broken and point.model is not None and point.model >= MODEL_BOUND_PCT \
            and not clock_free(log):
        point.broken.append(("model-bound", "model-bound: the wire model took %.3f %% of the "
                             "CPU (%s), at least %g %%" % (point.model, point.model_from,
                                                          MODEL_BOUND_PCT)))


def load(paths):
    """(points, refused): a Point per sweep log, (path, why) for the others (cli)."""
    points, refused = [], []
    for path in paths:
        log = parse.parse_file(path)
        why = refusal(log)
        if why is not None:
            refused.append((path, why))
            continue
        man = log.manifest
        baud, fifo = log.line_point().split("/")
        line = "device (bus %s ns)" % man.get("line_bus_ns", "?") if man.get("line") == "device" \
            else man.get("wire_clock", "raw")
        point = Point(path=path, name=os.path.basename(path)[:-len(".log")],
                      backend=man.get("backend", "?"), baud=int(baud), fifo=int(fifo),
                      cpu_hz=series.uint(man["cpu_hz"]), shift=man.get("icount_shift", "?"),
                      setting=(man.get("board"), man.get("bench_scale", "unknown"),
                               man.get("peer", "unknown"), man.get("wire_rx_trigger", "?"),
                               line))
        judge(point, log)
        points.append(point)
    return points, refused


def clock_text(hz, shift):
    """A CPU clock column's title, e.g. `125 MHz (shift 3)` (sweep_md, sweep_plots)."""
    return "%s (shift %s)" % (settings.hz_text(hz) if hz else "unknown", shift)


def line_text(line):
    """A setting's last field as text: `line device (bus 80 ns)` on the
    emulator's line, `wire clock raw|free` on the wire model (setting_text,
    sweep_plots)."""
    return "line %s" % line if line.startswith("device") else "wire clock %s" % line


def setting_text(setting):
    """`qemu-virt, quick scale, peer stream, rx trigger 1, wire clock raw`
    (sweep_md, sweep_plots)."""
    board, scale, peer, trig, line = setting
    return "%s, %s scale, peer %s, rx trigger %s, %s" % (board, scale, peer, trig,
                                                         line_text(line))


def main(folder, outdir, error, draw=True):
    """`report --sweep DIR [-o OUT]` (cli.main): write OUT/sweep.md and its
    plots (none when draw is false: --no-plots); error(message) is the
    parser's usage error (exit 2)."""
    import sys
    from . import sweep_md, sweep_plots
    if not os.path.isdir(folder):
        error("--sweep %s: no such directory" % folder)
    paths = find_logs(folder)
    if not paths:
        error("--sweep %s: no *.log in it (nor in %s)" % (folder, os.path.join(folder, "logs")))
    outdir = outdir or folder
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as exc:
        error("cannot create output directory %s: %s" % (outdir, exc.strerror))
    if not os.access(outdir, os.W_OK):
        error("output directory %s is not writable" % outdir)
    points, refused = load(paths)
    for path, why in refused:
        print("%s: warning: left out of the sweep: %s" % (path, why), file=sys.stderr)
    if not points:
        print("report: error: no log in %s is a sweep point" % folder, file=sys.stderr)
        return 1
    cells = frontier(points)
    plots = sweep_plots.write_all(points, cells, outdir, draw)
    try:
        path = sweep_md.write(folder, points, refused, cells, plots, outdir)
    except OSError as exc:
        print("report: error: cannot write sweep.md: %s" % exc, file=sys.stderr)
        return 1
    print(path)
    return 0
