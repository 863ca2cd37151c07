"""The headline as plain text for a terminal (DIR/headline.txt, which
scripts/compare prints at the end of the main job): the rows of
headline.marked() under short names, one column per log, its figure
alone (the report's cells add units, bytes/s and ratios), the whole no
wider than WIDTH columns; the columns numbered, the logs' names under it;
page() adds the verdicts (verdicts.py) under the table. Called by
report.write()."""

from . import verdicts
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
    """A headline row's short name (its own label if it has none)."""
    return next((s for p, s in SHORT if label.startswith(p)), label)


def cell_text(cell):
    """A cell's figure alone, or - where the log has none."""
    if cell.value is not None:
        return fmt(cell.value)
    return cell.text.split(" ")[0] if cell.text else "-"


def lines(rows, labels, width=WIDTH):
    """The table's lines (rows: headline.Row), each at most width columns."""
    first = max([len(short(r.label)) for r in rows] + [8])
    n = max(len(labels), 1)
    col = max(6, min(18, (width - first - 1) // n - 1))
    fit = lambda t: t if len(t) <= col else t[:col - 1] + "~"   # noqa: E731
    out = [" " * first + "".join(" " + ("[%d]" % (i + 1)).rjust(col) for i in range(n))]
    for r in rows:
        out.append(short(r.label).ljust(first) +
                   "".join(" " + fit(cell_text(c)).rjust(col) for c in r.cells))
    out += ["[%d] %s" % (i + 1, lb) for i, lb in enumerate(labels)]
    return [ln.rstrip()[:width] for ln in out]


def page(rows, labels, width=WIDTH):
    """headline.txt's lines: the table, then a verdict per log (verdicts.py)
    wrapped to width, none without rows; called by report.write()."""
    return lines(rows, labels, width) + ([""] + verdicts.text_lines(rows, labels, width)
                                         if rows else [])
