"""S32/S33: the RX stream of the modelled far end against its ground truth.

The wire model's far end sends a pattern stream and keeps what happened to
it (sent, lost to overrun, the overruns LSR reported, the CRC of what entered
the FIFO); the section prints that beside what the driver read (bench/s32_s33.c).
rx_stream() is the `rx-stream` check of check.CHECKS: the bytes add up, the
CRC verdict and `accounted` follow from the figures, the driver counted the
model's overruns, and the section's status (or its skip line) says what the
figures say. arithmetic() (called by check_values.arithmetic) recomputes the
ratio fields, bounds() (called by check_bounds.bounds) holds the line rates
to the line, manifest() (called by check_structure.manifest) the keys that
came with S32/S33.
"""

import re

from . import check_expect as expect
from . import series

SECTIONS = ("S32", "S33")
SKIP_REASONS = ("no-wire-model", "peer-off", "peer-busy", "stream-mismatch")
RX_REASON_RE = re.compile(r"^(rx-unaccounted|rx-crc-mismatch|overrun-count-mismatch|"
                          r"rx-pattern-mismatch|rx-none-arrived|stream-began-early|read-errno-\d+)$")
TX_REASON_RE = re.compile(r"^(write-errno-\d+|write-no-progress|drain-errno-\d+)$")
TRIGGERS = ("1", "4", "8", "14")
PEER_RE = re.compile(r"^(off|stream|burst:\d+:\d+ns|autonomous|external)$")
STREAM_RE = re.compile(r"^\d+@\d+ns:\d+$")
BLIND = ("sent", "received", "lost", "gaps", "first_offset")
NEW_KEYS = ("rx_sustained_bytes", "rx_duplex_bytes", "rx_peer_pattern")
WHOLE = ("sent", "received", "lost", "overruns_model", "overruns_driver", "accounted")


def _rec(log, sid, what):
    """The first `diag=<sxx>-<what>` record of section sid, or None."""
    recs = log.records(sid, kind="diag", tag="%s-%s" % (sid.lower(), what))
    return recs[0] if recs else None


def _int(text):
    """A printed whole number (a sign allowed: errno), else None."""
    if text and text[0] == "-":
        value = series.uint(text[1:])
        return -value if value is not None else None
    return series.uint(text or "")


def _whole(rec, key):
    """The whole number key of rec (None: no record, no key, not a number)."""
    return series.uint(rec.get(key, "")) if rec is not None else None


def _ground(rec):
    """{field: int} of a stream record; dropped None for `na`; None when damaged."""
    got = {k: series.uint(rec.get(k, "")) for k in WHOLE}
    got["read_errno"] = _int(rec.get("read_errno"))
    got["dropped"] = None if rec.get("dropped") == "na" else series.uint(rec.get("dropped", ""))
    if None in [v for k, v in got.items() if k != "dropped"] or \
            got["dropped"] is None and rec.get("dropped") != "na":
        return None
    return got


def _read_failed(v, rec):
    """[(reason, key, what)] of a read that failed (_broken, _blind): the
    section's first check, modelled or blind."""
    return [("read-errno-%d" % v["read_errno"], rec.tag + ".read_errno",
             "read() failed with errno %d" % v["read_errno"])] if v["read_errno"] else []


def _broken(v, rec, tx, burst):
    """[(reason, key, what)]: the section's own checks that fail, in its order
    (the first one is its reason=); tx, burst: S33's TX record and burst size."""
    out, name = _read_failed(v, rec), rec.tag + "."
    total = v["received"] + v["lost"] + (v["dropped"] or 0)
    if total != v["sent"]:
        out.append(("rx-unaccounted", name + "sent", "received + lost + dropped = %d, not "
                    "sent=%d" % (total, v["sent"])))
    if v["received"] > v["sent"]:
        out.append(("rx-unaccounted", name + "received", "%d, more than the far end sent (%d)"
                    % (v["received"], v["sent"])))
    if not v["dropped"] and rec.get("crc_rx") != rec.get("crc_delivered"):
        out.append(("rx-crc-mismatch", name + "crc_rx", "%s, the model delivered crc %s"
                    % (rec.get("crc_rx"), rec.get("crc_delivered"))))
    if v["overruns_model"] != v["overruns_driver"]:
        out.append(("overrun-count-mismatch", name + "overruns_driver", "%d, the model "
                    "reported %d" % (v["overruns_driver"], v["overruns_model"])))
    written = _whole(tx, "bytes")
    if written is not None and burst is not None and written < burst:
        out.append(("write-", tx.tag + ".bytes", "the TX burst wrote %d of %d bytes"
                    % (written, burst)))
    return out


def rx_stream(ctx):
    """S32/S33 against the model's ground truth, and their status."""
    log = ctx.log
    present = [sid for sid in SECTIONS if sid in log.sections]
    if not ctx.ours or not present:
        ctx.na("no S32/S33 in this log" if ctx.ours else
               "the %s suite has no S32/S33" % expect.flavor(log))
        return
    man = log.manifest
    for sid in present:
        if ctx.status(sid) == "SKIPPED":
            _skipped(ctx, sid)
            continue
        far = [] if man.get("peer") == "external" else \
            ["wire_model"] if log.line_point() is None else \
            ["peer"] if man.get("peer") == "off" else []
        if far or _rec(log, sid, "skip") is not None:
            ctx.fail(sid, "status", "%s, but %s: the section reports SKIPPED" % (
                ctx.status(sid), "the manifest has %s=%s" % (far[0], man.get(far[0], "off"))
                if far else "it printed its skip line"))
        rec = _rec(log, sid, "rx")
        if rec is None:
            continue  # the records check asks for it
        if rec.get("lost_source") == "pattern":
            _blind(ctx, sid, rec)
            continue
        v = _ground(rec)
        if v is None:
            ctx.fail(sid, rec.tag, "sent/received/lost/dropped/overruns/accounted/read_errno "
                     "not all whole numbers (dropped: or na)")
            continue
        _truth(ctx, sid, rec, v)
        burst = expect.number(log, "rx_duplex_bytes") if sid == "S33" else None
        _status(ctx, sid, rec, _broken(v, rec, _rec(log, sid, "tx"), burst))


def _blind(ctx, sid, rec):
    """A stream the program read blind (uartbench-hosted's far_end_stream=,
    or a far end outside: peer=external, scripts/far-end): its loss from
    the pattern adds up, what the guest cannot know is na, the status
    follows the pattern; what the far end sent and delivered is checked
    against its own log, outside."""
    name, man = rec.tag + ".", ctx.log.manifest
    if man.get("peer") not in ("autonomous", "external"):
        ctx.fail(sid, name + "lost_source", "pattern (a blind stream), but the manifest has "
                 "peer=%s, not autonomous or external" % man.get("peer"))
    v = {k: series.uint(rec.get(k, "")) for k in BLIND}
    v["read_errno"] = _int(rec.get("read_errno"))
    if None in v.values() or rec.get("pattern") not in ("in-order", "MISMATCH"):
        ctx.fail(sid, rec.tag, "sent/received/lost/gaps/first_offset/read_errno not all whole "
                 "numbers, or pattern not in-order|MISMATCH")
        return
    if v["received"] + v["lost"] != v["sent"]:
        ctx.fail(sid, name + "lost", "%d, but sent - received = %d" % (
            v["lost"], v["sent"] - v["received"]) if v["sent"] >= v["received"] else
            "received=%d, more than the stream's %d" % (v["received"], v["sent"]))
    for key, want in (("crc_delivered", "na"), ("crc_check", "far-end"), ("dropped", "na")):
        if rec.get(key) != want:
            ctx.fail(sid, name + key, "%s, but a blind stream's is %s" % (rec.get(key), want))
    broken = _read_failed(v, rec)
    if rec.get("pattern") != "in-order":
        broken.append(("rx-pattern-mismatch", name + "pattern", "a byte read is not the "
                       "stream's, in order"))
    if not v["received"] and not v["read_errno"]:
        broken.append(("rx-none-arrived", name + "received", "0: no far end answered"))
    if v["received"] and v["first_offset"]:
        broken.append(("stream-began-early", name + "first_offset", "%d: the stream's head "
                       "was gone before the section read" % v["first_offset"]))
    _status(ctx, sid, rec, broken)


def _truth(ctx, sid, rec, v):
    """What the figures of one stream record imply whatever the status."""
    name = rec.tag + "."
    if v["lost"] > v["sent"]:
        ctx.fail(sid, name + "lost", "%d, more than the far end sent (%d)" % (v["lost"], v["sent"]))
    if v["overruns_model"] > v["lost"]:
        ctx.fail(sid, name + "overruns_model", "%d overruns reported, but only %d bytes lost: "
                 "each needs one" % (v["overruns_model"], v["lost"]))
    adds = v["received"] + v["lost"] + (v["dropped"] or 0) == v["sent"]
    if v["accounted"] != int(adds):
        ctx.fail(sid, name + "accounted", "%d, but received + lost + dropped %s sent"
                 % (v["accounted"], "==" if adds else "!="))
    want = "skipped-ring-drops" if v["dropped"] else \
        "match" if rec.get("crc_rx") == rec.get("crc_delivered") else "MISMATCH"
    if rec.get("crc_check") != want:
        ctx.fail(sid, name + "crc_check", "%s, but crc_rx=%s crc_delivered=%s dropped=%s give %s"
                 % (rec.get("crc_check"), rec.get("crc_rx"), rec.get("crc_delivered"),
                    rec.get("dropped"), want))
    cpu = _rec(ctx.log, sid, "cpu")
    for key in ("rx_irqs", "rx_irqs_per_byte") if cpu is not None else ():
        if (cpu.get(key) == "na") != (rec.get("dropped") == "na"):
            ctx.fail(sid, "%s.%s" % (cpu.tag, key), "%s with dropped=%s: both come from the "
                     "driver's counters, na together" % (cpu.get(key), rec.get("dropped")))
    # The whole stream is sent unless the section stopped early: a read
    # error, a TIMEOUT, or INVALID (foreign bytes made up the count); never more.
    key = "rx_sustained_bytes" if sid == "S32" else "rx_duplex_bytes"
    want_sent = expect.number(ctx.log, key)
    early = v["read_errno"] or ctx.status(sid) in ("TIMEOUT", "INVALID")
    if want_sent is not None and (v["sent"] > want_sent or
                                  not early and v["sent"] != want_sent):
        ctx.fail(sid, name + "sent", "%d, the far end sends %s=%d (manifest)"
                 % (v["sent"], key, want_sent))


def _status(ctx, sid, rec, broken):
    """PASS: nothing broken; FAIL: a known reason, the first broken check's."""
    status = ctx.status(sid)
    reason = (ctx.log.statuses[sid].get("reason") or "") if sid in ctx.log.statuses else ""
    if status == "PASS":
        for _, key, what in broken:
            ctx.fail(sid, key, what + ", yet status=PASS")
    elif status == "FAIL":
        known = RX_REASON_RE.match(reason) or sid == "S33" and TX_REASON_RE.match(reason)
        if not known:
            ctx.fail(sid, "reason", "%r is not a reason %s fails with" % (reason, sid))
        elif broken and not reason.startswith(broken[0][0]):
            ctx.fail(sid, "reason", "%s, but its first failed check is %s (%s: %s)"
                     % ((reason, broken[0][0].rstrip("-")) + broken[0][1:]))
        elif not broken and not reason.startswith("drain-"):
            ctx.fail(sid, "reason", "%s, but the figures of %s add up" % (reason, rec.tag))


def _skipped(ctx, sid):
    """SKIPPED: its skip line, with a known reason the manifest agrees with."""
    rec, man = _rec(ctx.log, sid, "skip"), ctx.log.manifest
    if rec is None:
        ctx.fail(sid, "diag=%s-skip" % sid.lower(), "SKIPPED without its skip line")
        return
    reason = rec.get("reason")
    want = "stream-mismatch" if man.get("peer") == "autonomous" else \
        None if man.get("peer") == "external" else \
        "no-wire-model" if ctx.log.line_point() is None else \
        "peer-off" if man.get("peer") == "off" else None
    if reason not in SKIP_REASONS:
        ctx.fail(sid, rec.tag + ".reason", "%r is not one of %s" % (reason, "|".join(SKIP_REASONS)))
    elif want and reason != want or not want and reason in ("no-wire-model", "peer-off",
                                                            "stream-mismatch"):
        ctx.fail(sid, rec.tag + ".reason", "%s, but the manifest has wire_model=%s peer=%s"
                 % (reason, man.get("wire_model"), man.get("peer")))


def _milli(a, b):
    """floor(a x 1000 / b), as the kernel prints a ratio (0 when b is 0)."""
    return a * 1000 // b if b else 0


def arithmetic(ctx):
    """Every ratio field of S32/S33 from its inputs, truncated to thousandths."""
    log = ctx.log
    char = expect.number(log, "char_ns")
    for sid in SECTIONS:
        rx, cpu, tx = (_rec(log, sid, w) for w in ("rx", "cpu", "tx"))
        got = _whole
        rules = [(cpu, "rx_line_rate_pct", got(rx, "received"), got(cpu, "window_ns"),
                  "received x char_ns x 100 / window_ns", 100 * (char or 0)),
                 (cpu, "instructions_per_byte", got(cpu, "instructions"), got(rx, "received"),
                  "instructions / received", 1),
                 (cpu, "rx_irqs_per_byte", got(cpu, "rx_irqs"), got(rx, "received"),
                  "rx_irqs / received", 1),
                 (cpu, "loss_pct", got(rx, "lost"), got(rx, "sent"), "lost x 100 / sent", 100),
                 (tx, "tx_line_rate_pct", got(tx, "bytes"), got(tx, "elapsed_ns"),
                  "bytes x char_ns x 100 / elapsed_ns", 100 * (char or 0))]
        for rec, key, a, b, how, scale in rules:
            if rec is None or a is None or b is None or not scale or rec.get(key) in (None, "na"):
                continue
            want = _milli(a * scale, b)
            if rec.get(key) != "%d.%03d" % divmod(want, 1000):
                ctx.fail(sid, "%s.%s" % (rec.tag, key), "printed %s, %s = %d.%03d (thousandths, "
                         "truncated)" % ((rec.get(key), how) + divmod(want, 1000)))
        guest_share(ctx, sid, cpu)


def guest_share(ctx, sid, cpu):
    """guest_cpu_pct (the window less the model's cycles) against cpu_pct x
    100 / (100 - model_cpu_pct), within what the three truncations allow."""
    if cpu is None or None in (cpu.num("guest_cpu_pct"), cpu.num("cpu_pct"),
                               cpu.num("model_cpu_pct")):
        return
    guest, busy, model = (cpu.num(k) for k in ("guest_cpu_pct", "cpu_pct", "model_cpu_pct"))
    if model >= 100.0:
        return
    want = busy * 100.0 / (100.0 - model)
    slack = 0.002 * 100.0 / (100.0 - model) + want * 0.001 / (100.0 - model) + 0.001
    if abs(guest - want) > slack:
        ctx.fail(sid, cpu.tag + ".guest_cpu_pct", "printed %.3f, cpu_pct x 100 / (100 - "
                 "model_cpu_pct) = %.3f" % (guest, want))


def bounds(ctx, skip, above, physical):
    """Line rates <= 100 % (physical line), CPU shares <= 100 % (above: check_bounds')."""
    for sid in SECTIONS:
        if sid in skip:
            continue
        cpu, tx = _rec(ctx.log, sid, "cpu"), _rec(ctx.log, sid, "tx")
        lines = [(cpu, "rx_line_rate_pct"), (tx, "tx_line_rate_pct")] if physical else []
        for rec, key in lines:
            if rec is not None:
                above(ctx, sid, "%s.%s" % (rec.tag, key), rec.get(key), 100.0,
                      "% is above the line's 100 %")
        if cpu is not None and cpu.num("cpu_pct") is not None and cpu.num("model_cpu_pct") \
                is not None:
            total = "%.3f" % (cpu.num("cpu_pct") + cpu.num("model_cpu_pct"))
            above(ctx, sid, cpu.tag + ".cpu_pct", total, 100.0, "% = cpu_pct + model_cpu_pct: "
                  "more than the window's cycles")
        if cpu is not None and cpu.get("guest_cpu_pct") is not None:
            above(ctx, sid, cpu.tag + ".guest_cpu_pct", cpu.get("guest_cpu_pct"), 100.0,
                  "% is more than the guest's time")


def manifest(ctx):
    """The manifest keys of S32/S33 in a log that has them; the RX trigger and
    the far end's traffic shape of the wire model."""
    log, man = ctx.log, ctx.log.manifest
    if not any(sid in log.sections for sid in SECTIONS) and "rx_sustained_bytes" not in man:
        return
    # (a Linux program does not know the trigger its kernel's driver set)
    timed = ("peer",) if man.get("os") == "linux" else ("wire_rx_trigger", "peer")
    for key in NEW_KEYS + (timed if log.line_point() is not None else ()):
        if key not in man:
            ctx.fail("S00", key, "missing from the manifest (S32/S33 need it)")
    if "wire_rx_trigger" in man and man["wire_rx_trigger"] not in TRIGGERS:
        ctx.fail("S00", "wire_rx_trigger", "%r is not an RX FIFO trigger level (%s)"
                 % (man["wire_rx_trigger"], "|".join(TRIGGERS)))
    if "peer" in man and not PEER_RE.match(man["peer"]):
        ctx.fail("S00", "peer", "%r is not off, stream, burst:N:<T>ns, autonomous or external"
                 % man["peer"])
    if (man.get("peer") == "autonomous") != ("far_end_stream" in man) or \
            "far_end_stream" in man and not STREAM_RE.match(man["far_end_stream"]):
        ctx.fail("S00", "far_end_stream", "%r with peer=%s: an autonomous far end names its "
                 "stream, BYTES@STARTns:SEED, and only it" % (man.get("far_end_stream"),
                                                               man.get("peer")))
