"""Checks of a log's shape: sections, status lines, Done, manifest, records.

Called by check.check_log() with a check.Ctx; each function is one check of
check.CHECKS and calls ctx.fail / ctx.note / ctx.na.
"""

from . import check_expect as expect
from . import check_rx, series
from .analysis import ident

STATUSES = ("PASS", "FAIL", "TIMEOUT", "SKIPPED", "INVALID")
CPU_HZ_SOURCES = ("icount", "measured", "unknown")
CYCLES_UNITS = ("virtual-ns", "cpu-cycles", "host-ticks")
# What the manifest says by qemu_mode (and on the D1: key "d1").
SOURCE_BY_MODE = {"icount": "icount", "realtime": "unknown", "d1": "measured"}
# Under icount: cycles of the CPU clock on the project's QEMU (its counters
# patch), virtual ns in logs of a QEMU without it (whose instret counted
# 2^icount_shift per instruction: S41's instret_scale).
CYCLES_BY_MODE = {"icount": ("cpu-cycles", "virtual-ns"), "realtime": "host-ticks",
                  "d1": "cpu-cycles"}
FOREIGN = ("foreign_rx_bytes", "foreign_rx_irqs", "foreign_rx_instructions")


def _count(ctx, *states):
    """Number of status lines whose status is one of states."""
    return sum(1 for sid in ctx.log.statuses if ctx.status(sid) in states)


def structure(ctx):
    """Headers, their status lines, the Done line's counts, the suite's sections."""
    log = ctx.log
    for line, message in log.warnings:
        ctx.fail("-", "line-%d" % line if line else "file", "parse warning: " + message)
    if log.done is None:
        return  # the warning above says the Done line is missing
    for sid, rec in log.statuses.items():
        if rec.section != sid:
            ctx.fail(sid, "section=%s" % sid, "status line stands in %s: the %s header is "
                     "missing" % (rec.section, sid))
        if rec.get("status") not in STATUSES:
            ctx.fail(sid, "status", "%r is not one of %s" % (rec.get("status"), "|".join(STATUSES)))
        if rec.num("elapsed_ms") is None:
            ctx.fail(sid, "elapsed_ms", "missing or not a number in the status line")
    if not ctx.ours:
        if not log.statuses:
            ctx.note("structure: the %s format has no status lines and %s Done counts"
                     % (expect.flavor(log), "no" if not log.done else "its own"))
        return
    for sid in log.order:
        if sid not in log.statuses:
            ctx.fail(sid, "section=%s" % sid, "header without a status line")
    for sid in expect.selected(log):
        if sid not in log.sections:
            ctx.fail(sid, "header", "section of the suite missing (not in sections_skipped=)")
    done = log.done
    counts = {"sections": len(log.order), "status lines": len(log.statuses)}
    if not done:
        ctx.fail("-", "Done", "bare Done line: no sections= passed= failed= counts")
        return
    for what, value in counts.items():
        if done.get("sections") != str(value):
            ctx.fail("-", "Done.sections", "says %s, the log has %d %s"
                     % (done.get("sections"), value, what))
    v2 = any(k in done for k in ("invalid", "skipped", "timeout"))
    want = {"failed": _count(ctx, "FAIL", "TIMEOUT"),
            "passed": _count(ctx, "PASS") if v2 else _count(ctx, "PASS", "SKIPPED")}
    for key, value in want.items():
        if done.get(key) != str(value):
            ctx.fail("-", "Done." + key,
                     "says %s, the status lines give %d" % (done.get(key), value))


def done_v2(ctx):
    """The Done line's invalid= skipped= timeout= counts and P + F + I + S = N."""
    done = ctx.log.done or {}
    if not any(k in done for k in ("invalid", "skipped", "timeout")):
        ctx.na("Done line without invalid= skipped= timeout=")
        return
    want = {"invalid": _count(ctx, "INVALID"), "skipped": _count(ctx, "SKIPPED"),
            "timeout": _count(ctx, "TIMEOUT")}
    for key, value in want.items():
        if done.get(key) != str(value):
            ctx.fail("-", "Done." + key,
                     "says %s, the status lines give %d" % (done.get(key), value))
    parts = [series.uint(done.get(k, "")) for k in ("passed", "failed", "invalid", "skipped")]
    if None not in parts and str(sum(parts)) != done.get("sections"):
        ctx.fail("-", "Done.sections", "passed + failed + invalid + skipped = %d, not %s"
                 % (sum(parts), done.get("sections")))


def quiet_line(ctx):
    """foreign_rx_* of the status lines against INVALID (the line was not quiet)."""
    lines = [r for r in ctx.log.statuses.values() if any(k in r.kv for k in FOREIGN)]
    invalid = [sid for sid in ctx.log.statuses if ctx.status(sid) == "INVALID"]
    if not lines:
        ctx.na("no foreign_rx_* in the status lines")
        for sid in invalid:
            ctx.note("%s INVALID (reason=%s): its figures are not trustworthy"
                     % (sid, ctx.log.statuses[sid].get("reason", "?")))
        return
    for rec in lines:
        # `na`: a backend without RX interrupts (the console) counts bytes only
        missing = [k for k in FOREIGN if rec.num(k) is None and
                   (k == "foreign_rx_bytes" or rec.get(k) != "na")]
        if missing:
            ctx.fail(rec.tag, missing[0], "missing beside the other foreign_rx_* fields")
            continue
        foreign = rec.num("foreign_rx_bytes") > 0
        if foreign and rec.get("status") == "PASS":
            ctx.fail(rec.tag, "status", "PASS although foreign_rx_bytes=%s arrived (INVALID)"
                     % rec.get("foreign_rx_bytes"))
        if not foreign and rec.get("status") == "INVALID":
            ctx.fail(rec.tag, "status", "INVALID although foreign_rx_bytes=0")
    for sid in invalid:
        ctx.note("%s INVALID (reason=%s): its figures are not trustworthy"
                 % (sid, ctx.log.statuses[sid].get("reason", "?")))


def manifest(ctx):
    """Our manifest's keys and the figures derived from them."""
    if not ctx.ours:
        ctx.na("%s manifest: no board=, line or scale keys" % expect.flavor(ctx.log))
        return
    man = ctx.log.manifest
    for key in expect.MANIFEST_KEYS:
        if key not in man:
            ctx.fail("S00", key, "missing from the manifest")
    milli, char = expect.number(ctx.log, "line_baud_milli"), expect.number(ctx.log, "char_ns")
    if milli and char is not None and char != 10 ** 13 // milli:
        ctx.fail("S00", "char_ns", "%d, but 10 bits at line_baud_milli=%d take %d ns"
                 % (char, milli, 10 ** 13 // milli))
    wire = man.get("wire_model", "off")
    if wire != "off" and milli and wire.split("/")[0] + "000" != str(milli):
        ctx.fail("S00", "line_baud_milli", "%d, not the wire model's %s baud" % (milli, wire))
    for rec in ctx.log.records("S40", kind="counter", tag="wire-model"):
        printed = "off" if rec.get("baud") == "0" else "%s/%s" % (rec.get("baud"), rec.get("fifo"))
        if printed != wire:
            ctx.fail("S40", "wire-model.baud", "counters say %s, the manifest wire_model=%s"
                     % (printed, wire))
    check_rx.manifest(ctx)
    shift = expect.number(ctx.log, "icount_shift", 0 if man.get("qemu_mode") != "icount" else None)
    for key, limit in expect.SCALE_LIMITS.items():
        if (series.uint(man.get(key, "")) or 0) > limit:
            ctx.fail("S00", key, "%s is beyond what the suite can run (%d)" % (man[key], limit))
    if shift is not None and shift > 31:
        ctx.fail("S00", "icount_shift", "%d: QEMU takes a shift of at most 10" % shift)
        shift = None
    scale = None if shift is None else instret_scale(man, shift)
    for rec in ctx.log.records("S41", kind="s41-method"):
        if scale is not None and rec.get("instret_scale") != str(scale):
            ctx.fail("S41", "s41-method.instret_scale", "%s, but a run at icount_shift=%s with "
                     "cycles_unit=%s counts %d per instruction"
                     % (rec.get("instret_scale"), shift, man.get("cycles_unit"), scale))


def instret_scale(man, shift):
    """What rdinstret counts per instruction in a run at this icount shift:
    one on the project's QEMU (cycles_unit=cpu-cycles), 2^shift in a log of
    a QEMU whose instret counted virtual ns (cycles_unit=virtual-ns, or
    older logs that print no cycles_unit)."""
    return 1 if man.get("cycles_unit") == "cpu-cycles" else 1 << shift


def cpu_clock(ctx):
    """cpu_hz= cpu_hz_source= icount_shift= cycles_unit= of the manifest."""
    man = ctx.log.manifest
    if man.get("qemu_mode") == "icount" and "icount_shift" not in man:
        ctx.fail("S00", "icount_shift", "missing although qemu_mode=icount")
    if "cpu_hz" not in man and "cycles_unit" not in man:
        ctx.na("no cpu_hz= or cycles_unit= in the manifest")
        return
    hz, source = expect.number(ctx.log, "cpu_hz"), man.get("cpu_hz_source")
    if "cpu_hz" in man:
        _cpu_hz(ctx, hz, source)
    shift = expect.number(ctx.log, "icount_shift")
    if hz and source == "icount":
        if shift is None:
            ctx.fail("S00", "icount_shift", "missing although cpu_hz_source=icount")
        elif hz != 10 ** 9 >> shift:
            ctx.fail("S00", "cpu_hz", "%d, but icount shift %d gives 1e9 >> %d = %d"
                     % (hz, shift, shift, 10 ** 9 >> shift))
    _by_mode(ctx, "cycles_unit", CYCLES_UNITS, CYCLES_BY_MODE)


def _cpu_hz(ctx, hz, source):
    """cpu_hz a whole number, 0 exactly when cpu_hz_source=unknown (QEMU
    without icount), and the source the run's mode gives."""
    man = ctx.log.manifest
    if source is None:
        ctx.fail("S00", "cpu_hz_source", "missing beside cpu_hz")
    if hz is None:
        ctx.fail("S00", "cpu_hz", "%r is not a whole number" % man["cpu_hz"])
    elif (hz == 0) != (source == "unknown"):
        ctx.fail("S00", "cpu_hz", "%d with cpu_hz_source=%s: 0 means unknown, and only it"
                 % (hz, source))
    _by_mode(ctx, "cpu_hz_source", CPU_HZ_SOURCES, SOURCE_BY_MODE)


def _by_mode(ctx, key, values, by_mode):
    """Manifest key in values, and the one by_mode gives the run's qemu_mode (or the D1)."""
    man = ctx.log.manifest
    got = man.get(key)
    want = by_mode.get("d1" if man.get("board") == "d1" else man.get("qemu_mode"))
    want = (want,) if isinstance(want, str) else want
    if got is not None and got not in values:
        ctx.fail("S00", key, "%r is not one of %s" % (got, "|".join(values)))
    elif got is not None and want and got not in want:
        ctx.fail("S00", key, "%s, but qemu_mode=%s / board=%s give %s" % (
            got, man.get("qemu_mode"), man.get("board"), " or ".join(want)))


def _has(rec, fields):
    """True when rec holds every field (a tuple: any of its names)."""
    return all(any(n in rec.kv for n in (f if isinstance(f, tuple) else (f,))) for f in fields)


def records(ctx):
    """The fields and records each section of ours must print (PASS/INVALID sections)."""
    if not ctx.ours:
        ctx.na("the %s suite prints other records" % expect.flavor(ctx.log))
        return
    log = ctx.log
    ran = [sid for sid in log.order if ctx.status(sid) in ("PASS", "INVALID")]
    for sid in log.order:
        if sid not in ran:
            ctx.note("records: %s is %s, its records are not required" % (sid, ctx.status(sid)))
    for sid in ran:
        for fields in expect.REQUIRED.get(sid, []):
            if not any(_has(r, fields) for r in log.sections[sid].records):
                ctx.fail(sid, fields[0] if isinstance(fields[0], str) else fields[0][0],
                         "no record with all of %s" % ", ".join(
                             f if isinstance(f, str) else "/".join(f) for f in fields))
    for sid, kind, tag, match in expect.records(log):
        if sid in ran and not log.records(sid, kind=kind, tag=tag, **match):
            ctx.fail(sid, "%s=%s%s" % (kind, tag or "", "".join(
                ",%s=%s" % kv for kv in match.items())), "record missing")
    _counter_fields(ctx, ran)
    for rec in log.records("S11", kind="diag", tag="s11-txdbg-reset", ioctl_rc="0"):
        for phase in ("enqueue", "final-drain"):
            if "S11" in ran and not log.records("S11", kind="diag", tag="s11-txdbg",
                                                phase=phase, size=rec.get("size")):
                ctx.fail("S11", "s11-txdbg(phase=%s,size=%s)" % (phase, rec.get("size")),
                         "counters missing although the reset ioctl returned 0")


def _counter_fields(ctx, ran):
    """S41's counter figures: `not-available` exactly where the manifest says
    Linux refused that counter (counter_<name>=not-available), numbers elsewhere."""
    man = ctx.log.manifest
    for name, keys in expect.COUNTER_FIELDS.items():
        refused = man.get("counter_" + name) == expect.NOT_AVAILABLE
        for rec in ctx.log.records("S41", kind="diag") if "S41" in ran else ():
            for key in keys:
                text = rec.get(key)
                if text is None or (text == expect.NOT_AVAILABLE) == refused:
                    continue
                what = ("%s, but the manifest has counter_%s=%s" % (text, name, man.get(
                    "counter_" + name, "(none: it counts)"))) if not refused else \
                    "%s, from a counter the manifest says was refused (counter_%s=%s)" % (
                        text, name, expect.NOT_AVAILABLE)
                ctx.fail("S41", "%s.%s" % (ident(rec, "size", "round"), key), what)
