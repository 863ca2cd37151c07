"""The headline as plain text for a terminal (DIR/headline.txt, which
scripts/compare prints at the end of the main job): the rows of
headline.compared() under short names (◇ kept), one column per log, its
figure alone (the report's cells add units, bytes/s and ratios), the whole
no wider than WIDTH columns; the columns numbered, under it each log's name
and short settings, and which settings differ between which columns;
page() adds the verdicts (verdicts.py) under the table. Called by
report.write()."""

import textwrap

from . import verdicts
from .runs import DIFFERS
from .tables import fmt

WIDTH = 100
# The headline's questions (headline.rows) by the start of their label.
SHORT = (("S10 line rate, 64 B", "S10 line rate % at 64 B"),
         ("S10 line rate, 1024 B", "S10 line rate % at 1024 B"),
         ("S20 1 B write + drain P50", "S20 1 B + drain P50, chars"),
         ("S20 1 B write + drain P99", "S20 1 B + drain P99, chars"),
         ("S21 worst", "S21 worst P99/P50"),
         ("S41 instructions per byte", "S41 instructions per byte"),
         ("S41 CPU", "S41 CPU % sending"),
         ("S42 overlap", "S42 overlap efficiency"),
         ("S43 timer overshoot P99, idle", "S43 overshoot P99 idle, us"),
         ("S43 timer overshoot P99, while", "S43 overshoot P99 sending, us"),
         ("S32 RX loss", "S32 RX loss %"),
         ("S33 RX loss", "S33 RX loss % sending"))


def short(label):
    """A headline row's short name (its own label if it has none), ◇ kept."""
    mark = " " + DIFFERS if label.endswith(" " + DIFFERS) else ""
    return next((s for p, s in SHORT if label.startswith(p)), label[:len(label) - len(mark)]) \
        + mark


def cell_text(cell):
    """A cell's figure alone, or - where the log has none."""
    if cell.value is not None:
        return fmt(cell.value)
    return cell.text.split(" ")[0] if cell.text else "-"


def _columns(cols):
    """[1]-[4], [6] of 0-based columns; called by differ_lines()."""
    runs, out = [], []
    for i in cols:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    for a, b in runs:
        out.append("[%d]" % (a + 1) if a == b else "[%d]-[%d]" % (a + 1, b + 1))
    return ", ".join(out)


def differ_lines(differ, width=WIDTH):
    """The ◇ note: differ is runs.groups()'s [(field, [(value, columns)])];
    called by lines()."""
    if not differ:
        return []
    text = "%s not like-for-like: %s." % (DIFFERS, "; ".join(
        "%s %s" % (field, " vs ".join("%s %s" % (_columns(cols), value) for value, cols in by))
        for field, by in differ))
    return textwrap.wrap(text, width, subsequent_indent="  ")


def lines(rows, labels, width=WIDTH, heads=(), differ=()):
    """The table's lines (rows: headline.Row), each at most width columns;
    heads: each column's short settings (settings.short: after its name, or on
    a line of its own when both do not fit), differ: see differ_lines()."""
    first = max([len(short(r.label)) for r in rows] + [8])
    n = max(len(labels), 1)
    col = max(6, min(18, (width - first - 1) // n - 1))
    fit = lambda t: t if len(t) <= col else t[:col - 1] + "~"   # noqa: E731
    out = [" " * first + "".join(" " + ("[%d]" % (i + 1)).rjust(col) for i in range(n))]
    for r in rows:
        out.append(short(r.label).ljust(first) +
                   "".join(" " + fit(cell_text(c)).rjust(col) for c in r.cells))
    for i, lb in enumerate(labels):
        name = "[%d] %s" % (i + 1, lb)
        if heads and len(name) + 2 + len(heads[i]) > width:
            out += [name, "    " + heads[i]]
        else:
            out.append(name + (": " + heads[i] if heads else ""))
    out += differ_lines(differ, width)
    return [ln.rstrip()[:width] for ln in out]


def page(rows, labels, width=WIDTH, heads=(), differ=()):
    """headline.txt's lines: the table (lines()), then a verdict per log
    (verdicts.py) wrapped to width, none without rows; called by
    report.write()."""
    return lines(rows, labels, width, heads, differ) + (
        [""] + verdicts.text_lines(rows, labels, width) if rows else [])
