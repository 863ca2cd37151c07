"""sweep.md: the frontier table(s), the plots, a table of points and notes.

write() is called by sweep.main(); the figures and the frontier come from
sweep.py, the plots' file names from sweep_plots.write_all().
"""

import os

from . import html_page
from .sweep import CPU_MAX_PCT, MODEL_BOUND_PCT, SECTIONS, TX_MIN_PCT, clock_text, setting_text
from .sweep_frontier import baud_text, clocks_in_order, rows_in_order

CELL_HELP = (
    "Cell: the highest baud of the tested ladder up to which every point passes, then "
    "(the next baud of the ladder: what broke there): `TX`, `RX`, `CPU`, or the run "
    "itself (`FAIL <reason>`, `TIMEOUT <reason>`, `INVALID`, `SKIPPED`, `incomplete`: "
    "no Done line, `missing`: no log for that point, `absent`: a section not run). "
    "`none`: even the lowest baud fails; `>= max (B)`: every baud of the ladder passes, "
    "up to B. Non-monotonic: `passes again at B` names the bauds above the first "
    "failure that pass; the frontier stays below the first failure. `model-bound`: at "
    "the failing point the wire model itself took at least %g %% of the CPU in a section "
    "(its simulation runs on the guest's CPU, between the driver's instructions): the "
    "verdict is partly the simulation's, not only the design's." % MODEL_BOUND_PCT)


def _num(value, digits=3):
    """A figure for a cell of the points table, `-` when there is none (_points_table)."""
    return "-" if value is None else "%.*f" % (digits, value)


def _frontier_table(cells, rows, clocks):
    """Markdown lines of one setting's frontier table (write)."""
    out = ["| backend | FIFO | " + " | ".join(clock_text(*c) for c in clocks) + " |",
           "|---|---|" + "---|" * len(clocks)]
    for row in rows:
        texts = [cells[row][c].text() if c in cells[row] else "not run" for c in clocks]
        out.append("| %s | %d | %s |" % (row[1], row[2], " | ".join(texts)))
    return out


def _status(point):
    """A point's status word: pass, fail or incomplete (_points_table)."""
    if point.passes():
        return "pass"
    return "fail" if point.complete else "incomplete"


def _points_table(points):
    """Markdown lines of the table of points, in frontier order (write)."""
    out = ["| point | backend | FIFO | CPU clock | baud | TX line rate % | RX loss % (B) "
           "| CPU % | model CPU % | status | what broke |",
           "|---|---|---|---|---:|---|---|---|---|---|---|"]
    order = sorted(points, key=lambda p: (p.setting, p.backend, p.fifo, -p.cpu_hz, p.baud,
                                          p.name))
    for p in order:
        tx = "%s (%s)" % (_num(p.tx), p.tx_from) if p.tx is not None else "-"
        rx = "%s (%d of %d)" % (_num(p.loss_pct()), p.rx_lost, p.rx_sent) \
            if p.loss_pct() is not None else "-"
        cpu = "%s (%s)" % (_num(p.cpu), p.cpu_from) if p.cpu is not None else "-"
        model = "%s (%s)" % (_num(p.model), p.model_from) if p.model is not None else "-"
        broke = "; ".join(detail for _, detail in p.broken) or "-"
        out.append("| %s | %s | %d | %s | %d | %s | %s | %s | %s | %s | %s |" % (
            p.name, p.backend, p.fifo, clock_text(p.cpu_hz, p.shift), p.baud, tx, rx, cpu,
            model, _status(p), broke))
    return out


def _notes(points, refused, cells):
    """The Notes: incomplete points, section failures, left-out logs, odd cells (write)."""
    out = []
    cut = [p.name for p in points if not p.complete]
    if cut:
        out.append("Incomplete (no Done line: the run did not finish, e.g. killed by the "
                   "host timeout), so they do not pass: %s." % ", ".join(sorted(cut)))
    for p in sorted(points, key=lambda q: q.name):
        fails = [d for s, d in p.broken if s.split()[0] in ("FAIL", "TIMEOUT", "INVALID",
                                                            "SKIPPED", "absent")]
        if fails:
            out.append("%s: %s." % (p.name, "; ".join(fails)))
    for path, why in refused:
        out.append("Left out: `%s`: %s." % (os.path.basename(path), why))
    for row in rows_in_order(cells):
        for col, cell in sorted(cells[row].items(), key=lambda c: -c[0][0]):
            where = "%s FIFO %d at %s" % (row[1], row[2], clock_text(*col))
            if cell.missing:
                out.append("No log for %s at %s baud: counted as not passing (`missing`)."
                           % (where, ", ".join(baud_text(b) for b in cell.missing)))
            if cell.again:
                out.append("Non-monotonic: %s fails at %s but passes again at %s; the "
                           "frontier is %s." % (where, baud_text(cell.next_baud),
                                                ", ".join(baud_text(b) for b in cell.again),
                                                baud_text(cell.frontier) if cell.frontier
                                                else "none"))
    dups = {}
    for p in points:
        dups.setdefault((p.setting, p.backend, p.fifo, p.cpu_hz, p.baud), []).append(p.name)
    for names in dups.values():
        if len(names) > 1:
            out.append("Several logs of one point (it passes only if all do): %s."
                       % ", ".join(sorted(names)))
    if len({p.setting for p in points}) > 1:
        out.append("The folder mixes settings (board, bench scale, peer, RX trigger, wire clock): each "
                   "has its own frontier table and ladder; figures compare only within one.")
    return out


def write(folder, points, refused, cells, plots, outdir):
    """Write outdir/sweep.md and the same as one page, outdir/sweep.html (its
    plots inlined, side by side under the first frontier); returns the
    Markdown's path (sweep.main)."""
    lines = ["# Sweep frontier", "",
             "%d log(s) in `%s`: %d sweep point(s), %d left out. A point passes when its "
             "run finished with %s PASS, its TX line rate is at least %g %%, it lost no RX "
             "byte and the driver's CPU share (the wire model's excluded) is at most %g %% "
             "(docs/report.md, \"Sweep frontier\")." % (
                 len(points) + len(refused), folder, len(points), len(refused),
                 ", ".join(SECTIONS), TX_MIN_PCT, CPU_MAX_PCT), ""]
    counts = {}
    for p in points:
        counts[p.setting] = counts.get(p.setting, 0) + 1
    settings = sorted(counts, key=lambda s: (-counts[s], s))  # the sweep's own first
    drawn = [(t, name, html_page.slug(t)) for t, name, _ in plots if name]
    for k, setting in enumerate(settings):
        rows = [r for r in rows_in_order(cells) if r[0] == setting]
        clocks = clocks_in_order({r: cells[r] for r in rows})
        lines += ["## Frontier: %s" % setting_text(setting), ""]
        lines += _frontier_table(cells, rows, clocks)
        if k == 0 and len(drawn) >= 2:   # the plots beside the first frontier (html_page)
            lines += ["", html_page.glance(drawn)]
        ladder = next(iter(cells[rows[0]].values())).ladder
        lines += ["", "Ladder: %s baud." % ", ".join(str(b) for b in ladder), ""]
    lines += [CELL_HELP, "", "## Plots", ""]
    for title, name, why in plots:
        lines += ["### " + title, "", "![%s](%s)" % (title, name), ""] if name else [
            "%s: not drawn (%s)." % (title, why), ""]
    lines += ["## Points", ""] + _points_table(points) + [""]
    lines += ["TX line rate: the lesser of S10's `line_rate_pct` at its largest size and "
              "S33's `tx_line_rate_pct`. RX loss: `lost` + `dropped` of S32 and S33 over "
              "their `sent`. CPU: the largest of S32's and S33's `cpu_pct` and S41's "
              "driver share at its largest size (the source is in brackets).", ""]
    notes = _notes(points, refused, cells)
    lines += ["## Notes", ""] + (["- " + n for n in notes] or ["None."]) + [""]
    path = os.path.join(outdir, "sweep.md")
    text = "\n".join(lines)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    html_page.write(text, outdir, "sweep.html")
    return path
