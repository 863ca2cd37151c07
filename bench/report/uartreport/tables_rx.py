"""The table of RX on the line (S32, S33) and its findings.

rx_line_rows(analyses) gives the rows of report.py's "RX on the line"
table (one column per log, as tables.py's), rx_line_notes() the lines
under it: a design that loses, drops or corrupts RX bytes is a finding of
that design, said in words. The figures are those the sections print
(report --check recomputes them, check_rx.py). point_groups() sorts the
logs of `report --rx-point` into one table per operating point.
"""

from . import runs
from .tables import Cell, Row

SECTIONS = ("S32", "S33")
# (section, record, key, row title)
FIGURES = (
    ("S32", "rx", "lost", "lost (overrun)"),
    ("S32", "cpu", "loss_pct", "loss %"),
    ("S32", "rx", "dropped", "dropped (RX ring full)"),
    ("S32", "rx", "crc_check", "CRC check"),
    ("S32", "cpu", "instructions_per_byte", "instructions per received byte"),
    # a Linux run's whole CPU (counters=cpuwide: every process, the kernel, idle)
    ("S32", "cpu", "cpuwide_instructions_per_byte",
     "instructions per received byte, whole CPU (idle included)"),
    ("S32", "cpu", "cpu_pct", "CPU %"),
    ("S32", "cpu", "model_cpu_pct", "model CPU %"),
    ("S32", "cpu", "rx_irqs_per_byte", "RX irqs per byte"),
    ("S32", "cpu", "rx_line_rate_pct", "RX line rate %"),
    ("S33", "tx", "tx_line_rate_pct", "TX line rate %"),
    ("S33", "cpu", "loss_pct", "RX loss %"),
    ("S33", "rx", "crc_check", "RX CRC check"),
    ("S33", "cpu", "cpu_pct", "CPU %"),
    ("S33", "cpu", "model_cpu_pct", "model CPU %"),
    ("S33", "cpu", "rx_line_rate_pct", "RX line rate %"),
)


def _rec(log, sid, what):
    """The first `diag=<sxx>-<what>` record of section sid, or None."""
    recs = log.records(sid, kind="diag", tag="%s-%s" % (sid.lower(), what))
    return recs[0] if recs else None


def rx_point(log):
    """`line <line>, rx trigger <n>, peer <shape>` of a log with S32 or S33, else ""."""
    if not any(sid in log.sections for sid in SECTIONS):
        return ""
    point = runs.point(log)
    return "line %s, rx trigger %s, peer %s" % (point["line"], point["rx trigger"],
                                                point["peer"])


def point_key(log):
    """(line, RX trigger) of a log's RX sections: the device line's point
    (`line_point`) or the wire model's, and `wire_rx_trigger`."""
    man = log.manifest
    line = man.get("line_point") if man.get("line") == "device" else man.get("wire_model")
    return (line or "unknown", man.get("wire_rx_trigger") or "unknown")


def point_groups(ans, labels):
    """[(title, analyses, labels)]: the logs at one (line, RX trigger), in
    the order their first log came; called by report.py for --rx-point."""
    groups = {}
    for an, label in zip(ans, labels):
        groups.setdefault(point_key(an.log), []).append((an, label))
    return [("RX at %s, RX trigger %s (S32, S33)" % key, [a for a, _ in g], [lb for _, lb in g])
            for key, g in groups.items()]


def _status(log, sid):
    """A section's status with its reason (a skip line's or the status line's)."""
    rec = log.statuses.get(sid)
    if rec is None:
        return ""
    text = rec.get("status", "?")
    skip = _rec(log, sid, "skip")
    reason = skip.get("reason") if skip is not None and text == "SKIPPED" else rec.get("reason")
    return "%s (%s)" % (text, reason) if reason else text


def rx_line_rows(ans):
    """Operating point, then per section: status, bytes read of sent and the figures."""
    if not any(sid in an.log.sections for an in ans for sid in SECTIONS):
        return []
    rows = [Row("operating point", [Cell(rx_point(an.log)) for an in ans])]
    for sid in SECTIONS:
        rows.append(Row("%s status" % sid, [Cell(_status(an.log, sid)) for an in ans]))
        cells = []
        for an in ans:
            rx = _rec(an.log, sid, "rx")
            cells.append(Cell("%s of %s" % (rx.get("received"), rx.get("sent")),
                              rx.num("received"), (rx.selector(), "received"))
                         if rx is not None else Cell())
        rows.append(Row("%s received of sent" % sid, cells))
        for fsid, what, key, title in FIGURES:
            if fsid != sid:
                continue
            recs = [_rec(an.log, sid, what) for an in ans]
            rows.append(Row("%s %s" % (sid, title), [Cell(r.get(key, ""), r.num(key),
                                                          (r.selector(), key))
                                                     if r is not None else Cell()
                                                     for r in recs]))
    return [r for r in rows if any(c.text for c in r.cells)]


def rx_line_notes(ans, labels):
    """Findings under the table: per log, RX bytes lost, dropped or corrupted."""
    out = []
    for an, label in zip(ans, labels):
        who = "%s (`%s`)" % (an.log.manifest.get("backend", "?"), label)
        for sid, when in (("S32", "at full line rate, with nothing to transmit"),
                          ("S33", "while it transmits")):
            rx, cpu = _rec(an.log, sid, "rx"), _rec(an.log, sid, "cpu")
            if rx is None:
                continue
            loss = cpu.get("loss_pct", "?") if cpu is not None else "?"
            if (rx.num("lost") or 0) > 0:
                out.append("Finding: %s loses %s %% of RX %s (%s: %s of %s bytes lost to "
                           "overrun)." % (who, loss, when, sid, rx.get("lost"), rx.get("sent")))
            if (rx.num("dropped") or 0) > 0:
                out.append("Finding: %s drops %s RX bytes in a full RX ring (%s)."
                           % (who, rx.get("dropped"), sid))
            if rx.get("crc_check") == "MISMATCH":
                out.append("Finding: %s delivers RX bytes that differ from those the line "
                           "delivered (%s: CRC mismatch)." % (who, sid))
    return out
