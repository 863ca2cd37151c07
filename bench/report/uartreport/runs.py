"""What each log ran at, and which comparisons that makes doubtful.

Figures compare only between runs at the same CPU clock, icount shift, wire
model and bench scale (RX on the line: RX trigger and peer too).
point() reads them from a manifest ("unknown" when a log does not say);
header() puts them under each column's label; mark() marks the table
rows that compare logs run at different (or unknown)
points, and the cells that come from an INVALID section. Called by
report.py; runs_rows() is the Runs table.
"""

import re

from . import series
from .tables import Cell, Row

POINT = ("CPU clock", "icount shift", "wire model", "bench scale")
# The RX side of the point (figures of RX on the line compare only within it).
RX_POINT = ("rx trigger", "peer")
DIFFERS = "◇"
INVALID = "§"
NO_LINE = "≁"
SID_RE = re.compile(r"^(S\d\d) ")


def hz_text(text):
    """cpu_hz as MHz or GHz (3 significant digits), "unknown" when not a number."""
    hz = series.uint(text or "")
    if not hz:
        return "unknown"
    return "%.3g GHz" % (hz / 1e9) if hz >= 1e9 else "%.3g MHz" % (hz / 1e6)


def point(log):
    """{field of POINT: text} of one log; "unknown" where the log does not say."""
    man = log.manifest
    shift = man.get("icount_shift")
    if shift is None:
        shift = {"realtime": "none (realtime)"}.get(man.get("qemu_mode"), "unknown")
        if man.get("board") == "d1":
            shift = "none (hardware)"
    off = "none" if man.get("wire_model") == "off" and man.get("line") != "device" else "unknown"
    wire = man.get("wire_model") or "unknown"
    if man.get("line") == "device":
        wire = "device %s (bus %s ns)" % (man.get("line_point", "?"), man.get("line_bus_ns", "?"))
    elif wire not in ("off", "unknown") and man.get("wire_clock"):
        # logs that print it: the model's time on the guest's clock or not
        wire += " (%s clock)" % man["wire_clock"].split()[0]
    return {"CPU clock": hz_text(man.get("cpu_hz")), "icount shift": shift,
            "wire model": wire,
            "bench scale": man.get("bench_scale") or "unknown",
            "rx trigger": man.get("wire_rx_trigger") or off, "peer": man.get("peer") or off}


def header(label, log):
    """A column header: the label, then the log's operating point (its RX side
    when the manifest prints it: logs with the wire model's far end)."""
    p = point(log)
    rx = ", rx trigger %s, peer %s" % (p["rx trigger"], p["peer"]) \
        if "wire_rx_trigger" in log.manifest else ""
    return "%s<br>CPU %s, icount shift %s, wire %s, %s scale%s" % (
        label, p["CPU clock"], p["icount shift"], p["wire model"], p["bench scale"], rx)


def differing(logs, fields=POINT):
    """Fields (of POINT) in which logs differ (an unknown value always differs)."""
    points = [point(log) for log in logs]
    return [f for f in fields if len({p[f] for p in points}) > 1 or
            any(p[f] == "unknown" for p in points)]


def _status(log, sid):
    """Status of section sid in log, or None."""
    rec = log.statuses.get(sid)
    return rec.get("status") if rec is not None else None


def mark(rows, ans, compare=True, point_fields=POINT):
    """Mark rows comparing logs at different points, and INVALID sections' cells.

    Returns the note lines for under the table (empty when nothing is marked).
    compare False: only the INVALID marks (tables that compare no figures);
    point_fields: the parts of the point that must agree.
    """
    fields, invalid = [], set()
    for row in rows:
        m = SID_RE.match(row.label)
        sid = m.group(1) if m else None
        shown = [i for i, cell in enumerate(row.cells) if cell.text]
        for i in shown:
            if sid and _status(ans[i].log, sid) == "INVALID":
                row.cells[i].text += " " + INVALID
                invalid.add(sid)
        logs = [ans[i].log for i in shown]
        diff = differing(logs, point_fields) if compare and len(logs) > 1 else []
        if diff:
            row.label += " " + DIFFERS
            fields += [f for f in diff if f not in fields]
    notes = []
    if fields:
        notes.append("%s the logs compared in the marked rows differ in %s (see the column "
                     "headers): not a like-for-like comparison." % (DIFFERS, ", ".join(fields)))
    if invalid:
        notes.append("%s from a section marked INVALID (%s): the line was not quiet, the figure "
                     "is not trustworthy." % (INVALID, ", ".join(sorted(invalid))))
    return notes


def no_line(log):
    """Why log's line rates are no line's, or None: a Linux run on QEMU's
    instant 16550 (line=instant) or on a pty, where the tty layer takes
    the bytes at once whatever the baud."""
    line = log.manifest.get("line")
    if log.manifest.get("os") == "linux" and line in ("instant", "pty"):
        return "line=%s" % line
    return None


def mark_no_line(rows, ans):
    """Mark the line-rate cells of the logs no_line() names; the note line(s)."""
    which = [i for i, an in enumerate(ans) if no_line(an.log)]
    for row in rows:
        for i in which:
            if row.cells[i].text:
                row.cells[i].text += " " + NO_LINE
    if not which:
        return []
    return ["%s not comparable: Linux drove QEMU's instant 16550 or a pty (%s), whose tty "
            "layer takes the bytes at once whatever the baud; these figures are how fast "
            "Linux's serial stack takes them, not a line's rate (our images without the wire "
            "model send at once too, but through the driver under test alone)."
            % (NO_LINE, ", ".join("%s" % no_line(ans[i].log) for i in which))]


def runs_rows(ans):
    """The Runs table: what each log is, how it was read, where it ran."""
    def man(an, key):
        """Manifest value of key, empty if absent."""
        return an.log.manifest.get(key, "")
    spec = [
        ("file", lambda an: " + ".join(p.rsplit("/", 1)[-1] for p in
                                       [an.log.path] + [m[0] for m in an.log.merged])),
        ("format", lambda an: an.log.flavor),
        ("version", lambda an: man(an, "version")),
        ("board / target", lambda an: man(an, "board") or man(an, "target_mode")),
        ("backend", lambda an: man(an, "backend")),
        ("privilege", lambda an: man(an, "privilege")),
        ("CPU clock (source)", lambda an: "%s (%s)" % (point(an.log)["CPU clock"],
                                                        man(an, "cpu_hz_source") or "unknown")),
        ("icount shift", lambda an: point(an.log)["icount shift"]),
        ("cycles unit", lambda an: man(an, "cycles_unit") or "unknown"),
        ("wire model", lambda an: man(an, "wire_model")),
        ("rx trigger, peer", lambda an: "%s, %s" % (point(an.log)["rx trigger"],
                                                    point(an.log)["peer"])),
        ("qemu mode", lambda an: man(an, "qemu_mode")),
        ("bench scale", lambda an: man(an, "bench_scale")),
        ("baud used (1 char)", lambda an: "%.1f (%.4f ms)" % (an.baud, an.char_ms)),
        ("sections", lambda an: " ".join(an.log.order)),
        ("Done line", lambda an: _done_text(an.log)),
        ("parse warnings", lambda an: str(len(an.log.warnings))),
    ]
    return [Row(label, [Cell(func(an)) for an in ans]) for label, func in spec]


def _done_text(log):
    """Summary of the Done line, or why it is missing."""
    if log.done is None:
        return "missing (log cut?)"
    later = "".join("; %s from %s" % (" ".join(sids), path.rsplit("/", 1)[-1])
                    for path, sids in log.merged if sids)
    return (" ".join("%s=%s" % kv for kv in log.done.items()) or "Done.") + later
