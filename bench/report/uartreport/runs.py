"""Which comparisons the logs' settings make doubtful, and the Runs table.

Figures compare only between runs at the same CPU clock, icount shift,
line and bench scale (RX on the line: RX trigger and peer too), the
settings settings.py reads. mark() marks the table rows whose compared
logs differ in one of them (or where one is not known) and the cells that
come from an INVALID section, and writes the notes naming which setting
differs between which columns. Called by report.py, headline.py and
appendix.py; runs_rows() is the Runs table.
"""

import re

from . import settings
from .tables import Cell, Row

POINT = ("CPU clock", "icount shift", "line", "scale")
# The RX side of the point (figures of RX on the line compare only within it).
RX_POINT = ("rx trigger", "peer")
DIFFERS = "◇"
INVALID = "§"
NO_LINE = "≁"
SID_RE = re.compile(r"^(S\d\d) ")


def point(log):
    """{field of POINT + RX_POINT: full text} of one log; called by tables_rx.py."""
    got = settings.of(log)
    return {f: got[f].text for f in POINT + RX_POINT}


def differing(got, fields=POINT):
    """The fields in which the settings got (settings.of() of each compared
    log) differ: two values, or one not known; called by compare_rows()."""
    return [f for f in fields if len({g[f].key for g in got}) > 1 or
            any(g[f].key is None for g in got)]


def _status(log, sid):
    """Status of section sid in log, or None."""
    rec = log.statuses.get(sid)
    return rec.get("status") if rec is not None else None


def compare_rows(rows, got, fields=POINT, found=None):
    """Mark the rows whose compared logs (the cells with text) differ in
    fields; returns found, {field: set of the columns compared in a row
    where it differs}; called by mark() and headline.py."""
    found = {} if found is None else found
    for row in rows:
        shown = [i for i, cell in enumerate(row.cells) if cell.text]
        diff = differing([got[i] for i in shown], fields) if len(shown) > 1 else []
        if diff:
            row.label += " " + DIFFERS
            for f in diff:
                found.setdefault(f, set()).update(shown)
    return found


def groups(found, got):
    """[(field, [(value, [columns])])] of compare_rows()'s found: the columns of
    each field grouped by value (its short form, the full text where two
    values share one); called by differ_note() and headline_text.py."""
    out = []
    for field in POINT + RX_POINT:
        if field not in found:
            continue
        by = {}
        for i in sorted(found[field]):
            value = got[i][field]
            by.setdefault(value.key if value.key is not None else ("?", value.text),
                          (value, []))[1].append(i)
        shorts = [v.short for v, _ in by.values()]
        out.append((field, [(v.short if shorts.count(v.short) == 1 else v.text, cols)
                            for v, cols in by.values()]))
    return out


def differ_note(found, got, labels, where="the legend under the headline"):
    """The note under a table with marked rows: which setting differs between
    which columns; called by mark() and headline.py."""
    parts = ["%s %s" % (field, " vs ".join("%s (%s)" % (value, ", ".join(
        "`%s`" % labels[i] for i in cols)) for value, cols in by))
             for field, by in groups(found, got)]
    return ("%s not a like-for-like comparison in the marked rows: %s (settings: %s)."
            % (DIFFERS, "; ".join(parts), where))


def mark(rows, ans, compare=True, point_fields=POINT, labels=None,
         where="the legend under the headline"):
    """Mark rows comparing logs whose settings differ, and INVALID sections' cells.

    Returns the note lines for under the table (empty when nothing is marked).
    compare False: only the INVALID marks (tables that compare no figures);
    point_fields: the settings that must agree; labels: the columns' names
    (default: the logs' own labels); where: where the settings are listed.
    """
    invalid = set()
    for row in rows:
        m = SID_RE.match(row.label)
        sid = m.group(1) if m else None
        for i, cell in enumerate(row.cells):
            if cell.text and sid and _status(ans[i].log, sid) == "INVALID":
                cell.text += " " + INVALID
                invalid.add(sid)
    got = [settings.of(an.log) for an in ans]
    found = compare_rows(rows, got, point_fields) if compare else {}
    notes = []
    if found:
        notes.append(differ_note(found, got, labels or [an.log.label for an in ans], where))
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
    def said(an, field):
        """The log's setting field (settings.py), in full."""
        return settings.of(an.log)[field].text
    spec = [
        ("file", lambda an: " + ".join(p.rsplit("/", 1)[-1] for p in
                                       [an.log.path] + [m[0] for m in an.log.merged])),
        ("format", lambda an: an.log.flavor),
        ("version", lambda an: man(an, "version")),
        ("board", lambda an: said(an, "board")),
        ("design (backend)", lambda an: said(an, "design")),
        ("privilege", lambda an: man(an, "privilege")),
        ("CPU clock (source)", lambda an: said(an, "CPU clock")),
        ("icount shift", lambda an: said(an, "icount shift")),
        ("cycles unit", lambda an: man(an, "cycles_unit") or settings.NOT_STATED),
        ("line", lambda an: said(an, "line")),
        ("wire model", lambda an: man(an, "wire_model")),
        ("rx trigger, peer", lambda an: "%s, %s" % (said(an, "rx trigger"), said(an, "peer"))),
        ("qemu mode", lambda an: man(an, "qemu_mode")),
        ("bench scale", lambda an: said(an, "scale")),
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
