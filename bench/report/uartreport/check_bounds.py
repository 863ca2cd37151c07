"""Physical bounds of the figures (the `bounds` check of check.check_log()).

On a real or modelled line nothing is faster than the line: line rate
<= 100 %, a write + drain of N bytes >= N character times, the S11 run >=
its line time. Everywhere: 0 <= overlap efficiency <= 1 (on Linux, whose
windows are not reproducible, only >= 0), instructions per
byte > 0, S20/S21 instructions per write + drain > 0, the wire model's
cost <= the total, CPU use <= 100 %. Each
bound allows one unit of the printed figure's last digit (or one timer
tick for times). Figures of INVALID sections are not held to them, nor a
Linux run on a pty (line=pty) or on QEMU's instant 16550 (line=instant, as
our images without the wire model) to the line's; a figure of a counter
Linux refused (`not-available`) is the records check's.
"""

from . import check_expect as expect
from . import check_rx, distrib, stats
from .analysis import ident
from .model import num

LATENCY_SECTIONS = ("S10", "S14", "S20", "S21")
# The printed figure a line rate comes from (recompute.LineRate.method).
INPUT = {"bytes / elapsed_ns": "elapsed_ns", "bytes_per_s": "bytes_per_s", "kbps x 1024": "kbps",
         "bytes / elapsed_ms": "elapsed_ms",
         "bytes / (enqueue_ms + final_drain_ms)": "final_drain_ms"}


def _physical(log):
    """True when the log ran on a real line or the wire model (QEMU's UART is
    instant); a Linux run (os=linux) on a serial port's driver on a real
    line (line=serial) or on the project's QEMU's line (line=device), not
    on a pty, which passes bytes at once whatever the baud (line=pty), nor
    on QEMU's instant 16550 (line=instant)."""
    if log.manifest.get("os") == "linux":
        return log.manifest.get("line") in ("serial", "device")
    if log.is_d1():
        return True
    return log.flavor == "ours" and log.line_point() is not None


def _unphysical_why(log):
    """Why the line bounds do not apply to a log that _physical() rejects."""
    if log.manifest.get("os") == "linux" and log.manifest.get("line") == "instant":
        return "line=instant: no wire model, QEMU's UART sends at once"
    if log.manifest.get("os") == "linux":
        return "line=%s: the tty keeps no line time" % log.manifest.get("line", "?")
    return "no wire model, QEMU's UART sends at once"


def _above(ctx, sid, key, text, limit, what):
    """Fail when the printed text exceeds limit by more than its last digit."""
    value = num(text)
    if value is not None and value > limit + stats.print_tolerance(text) * (1 + 1e-9):
        ctx.fail(sid, key, "%s %s" % (text, what))


def bounds(ctx):
    """Every bound that applies to this log; the line bounds only on a physical line."""
    log = ctx.log
    skip = [sid for sid in log.statuses if ctx.status(sid) == "INVALID"]
    if skip:
        ctx.note("bounds: %s INVALID, not held to the physical bounds" % ", ".join(skip))
    if _physical(log):
        _line(ctx, skip)
    else:
        ctx.note("bounds: line rate and latency bounds not applicable (%s)" % _unphysical_why(log))
    _work(ctx, skip)
    check_rx.bounds(ctx, skip, _above, _physical(log))


def _line(ctx, skip):
    """Line rate <= 100 %, latency >= the bytes' line time, S11 >= its line time."""
    log, an = ctx.log, ctx.an
    for lr in an.line_rates:
        if lr.section in skip or lr.pct_true is None:
            continue
        name = "%s(size=%s)" % (lr.policy, lr.size)
        if log.flavor == "ours" and lr.pct_printed is not None:
            _above(ctx, lr.section, name + ".line_rate_pct", lr.pct_printed, 100.0,
                   "% is above the line's 100 %")
        elif lr.pct_true > 100.0 + 0.05:
            ctx.fail(lr.section, "%s.%s" % (name, INPUT.get(lr.method, "bytes")),
                     "%.1f B/s (%s) is %.3f %% of the line, above 100 %%"
                     % (lr.bytes_per_s, lr.method, lr.pct_true))
    tick = 1e9 / (expect.number(log, "timebase_hz") or 1e9)
    milli = expect.number(log, "line_baud_milli")
    for rec in log.records("S11", kind="policy") if "S11" not in skip and milli else []:
        took = [rec.value(k) for k in ("enqueue_ns", "final_drain_ns", "bytes")]
        if None not in took and took[0] + took[1] + tick < took[2] * 1e13 / milli:
            ctx.fail("S11", ident(rec, "size") + ".final_drain_ns", "enqueue_ns + final_drain_ns "
                     "= %d ns, shorter than the line time %d ns of its %d bytes"
                     % (took[0] + took[1], took[2] * 1e13 / milli, took[2]))
    char = expect.number(log, "char_ns")
    for sid in LATENCY_SECTIONS:
        for rec in log.records(sid, kind="diag") if sid not in skip else []:
            series = distrib.series_for(log, rec.tag) if distrib.is_summary(rec) else None
            size = rec.tag.rsplit("-", 1)[-1] if rec.tag != "s20-single-byte" else "1"
            if series is None or series.unit != "ns" or not size.isdigit():
                continue
            timed = _timed(log, sid, rec.tag, int(size), series.values)
            line = rec.num("line_ns") or (char or 0) * int(size)
            if timed and min(timed) + tick < line:
                ctx.fail(sid, rec.tag + ".min", "a %s B write + drain took %d ns, less than its "
                         "%d ns on the line" % (size, min(timed), line))


def _timed(log, sid, tag, size, values):
    """The samples of a write + drain series that timed a whole write + drain.

    A failed write ends the loop, and the last sample timed it (no drain):
    the size's policy line says so (write_errno != 0); where the section
    prints none (S20, S21), its witness holds fewer than n writes of size.
    """
    pols = log.records(sid, kind="policy", size=str(size))
    pays = [p for p in log.payloads if p.section == sid and p.tag == tag]
    if pols:
        cut = pols[0].get("write_errno", "0") != "0"
    else:
        cut = bool(pays) and (pays[0].expected_bytes or 0) < size * len(values)
    return values[:-1] if cut else values


def _work(ctx, skip):
    """Overlap efficiency in [0, 1]; S41 instructions per byte > 0, model <= total."""
    log = ctx.log
    linux = log.manifest.get("os") == "linux"
    above_one = []
    if "S42" not in skip:
        for rec in log.records("S42", kind="diag"):
            for key in ("overlap_efficiency", "median_overlap_efficiency"):
                if rec.get(key) is None:
                    continue
                name = "%s.%s" % (ident(rec, "round"), key)
                if linux and (rec.num(key) or 0) > 1.0:
                    above_one.append("%s=%s" % (name, rec.get(key)))
                    continue
                _above(ctx, "S42", name, rec.get(key), 1.0,
                       "is above 1.0: more work than the idle calibration")
                if (rec.num(key) or 0) < 0:
                    ctx.fail("S42", "%s.%s" % (ident(rec, "round"), key), "is negative")
    if above_one:
        ctx.note("bounds: S42 %s above 1.0, not held to it on Linux (os=linux: the idle "
                 "calibration and each round are separate windows of a preemptive system, "
                 "whose other load on the CPU takes from either)" % ", ".join(above_one))
    for sid in ("S20", "S21"):
        for rec in log.records(sid, kind="diag") if sid not in skip else []:
            if rec.tag.endswith("-insns") and rec.num("min_instructions") is not None \
                    and not rec.num("min_instructions") > 0:
                ctx.fail(sid, rec.tag + ".min_instructions", "%s: a write + drain costs "
                         "instructions" % rec.get("min_instructions"))
    if "S41" in skip:
        return
    for rec in log.records("S41", kind="diag"):
        name = ident(rec, "size", "round")
        for key in ("instructions_per_byte", "median_instructions_per_byte"):
            if rec.get(key) not in (None, expect.NOT_AVAILABLE) and not (rec.num(key) or 0) > 0:
                ctx.fail("S41", "%s.%s" % (name, key), "%s: a transmission costs instructions"
                         % rec.get(key))
        for key in ("cpu_util_pct", "median_cpu_util_pct"):
            _above(ctx, "S41", "%s.%s" % (name, key), rec.get(key), 100.0, "% CPU use")
        for excl, total in (("instructions_per_byte_excl_model", "instructions_per_byte"),
                            ("median_instructions_per_byte_excl_model",
                             "median_instructions_per_byte")):
            if rec.num(excl) is not None and rec.num(total) is not None:
                _above(ctx, "S41", "%s.%s" % (name, excl), rec.get(excl), rec.num(total),
                       "is above the total %s=%s" % (total, rec.get(total)))
                if rec.num(excl) < 0:
                    ctx.fail("S41", "%s.%s" % (name, excl), "is negative")
        model, total = rec.value("wire_model_instret"), rec.value("instret_delta")
        if model is not None and total is not None and model > total:
            ctx.fail("S41", name + ".wire_model_instret", "%d, above the total instret_delta=%d"
                     % (model, total))
