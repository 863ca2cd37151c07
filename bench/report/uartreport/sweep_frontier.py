"""The sweep's frontier (`report --sweep`): per row (setting, backend,
FIFO depth) and CPU clock, the highest baud of the setting's tested ladder
below which every point passes. frontier() is called by sweep.main() and
the tests, the Cell texts and the order helpers by sweep_md.py and
sweep_plots.py; the points are sweep.py's.
"""

from dataclasses import dataclass, field


def baud_text(baud):
    """A baud in short: 115200, 921600, 3M, 1.5M, 12M (frontier cells, plots)."""
    return "%gM" % (baud / 1e6) if baud >= 1000000 and baud % 100000 == 0 else str(baud)


@dataclass
class Cell:
    """The frontier of one row (setting, backend, FIFO) at one CPU clock."""

    ladder: list  # the setting's tested bauds, ascending
    frontier: int | None = None  # None: even the lowest baud fails
    next_baud: int | None = None  # the first failing baud (None: all pass)
    next_broke: list = field(default_factory=list)  # short names of what broke there
    again: list = field(default_factory=list)  # bauds above next_baud that pass again
    missing: list = field(default_factory=list)  # bauds of the ladder with no log here

    def text(self):
        """The cell's text in sweep.md's frontier table and the heatmap."""
        if self.next_baud is None:
            return ">= max (%s)" % baud_text(self.ladder[-1])
        head = baud_text(self.frontier) if self.frontier is not None else "none"
        text = "%s (%s: %s)" % (head, baud_text(self.next_baud), ", ".join(self.next_broke))
        if self.again:
            text += "; passes again at %s" % ", ".join(baud_text(b) for b in self.again)
        return text


def frontier(points):
    """{(setting, backend, fifo): {(cpu_hz, shift): Cell}} over the points (sweep_md, plots).

    The ladder is every baud the setting's points ran at; a baud passes in a
    cell when it has a log there and every log of it passes (a missing log
    is `missing`), and the frontier is the highest baud below which all pass.
    """
    ladders, cells = {}, {}
    for p in points:
        ladders.setdefault(p.setting, set()).add(p.baud)
        cells.setdefault((p.setting, p.backend, p.fifo), {}).setdefault(
            (p.cpu_hz, p.shift), {}).setdefault(p.baud, []).append(p)
    out = {}
    for row, cols in cells.items():
        ladder = sorted(ladders[row[0]])
        out[row] = {}
        for col, by_baud in cols.items():
            cell = Cell(ladder=ladder)
            for baud in ladder:
                got = by_baud.get(baud, [])
                if not got:
                    cell.missing.append(baud)
                ok = bool(got) and all(p.passes() for p in got)
                if cell.next_baud is None and ok:
                    cell.frontier = baud
                elif cell.next_baud is None:
                    cell.next_baud = baud
                    broke = [s for p in got for s in p.shorts()] or ["missing"]
                    cell.next_broke = list(dict.fromkeys(broke))
                elif ok:
                    cell.again.append(baud)
            out[row][col] = cell
    return out


def rows_in_order(cells):
    """The frontier rows sorted: setting, backend, FIFO depth (sweep_md, plots)."""
    return sorted(cells, key=lambda r: (r[0], r[1], r[2]))


def clocks_in_order(cells):
    """Every CPU clock column, fastest first (sweep_md, plots)."""
    cols = {c for row in cells.values() for c in row}
    return sorted(cols, key=lambda c: -c[0])
