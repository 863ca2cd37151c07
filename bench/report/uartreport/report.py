"""Assemble report.md and report.html from analysed logs: the headline
table first, then the detail grouped by question, the plots and the appendix.

Called by cli.py with the Analysis objects, their column labels, an optional
baseline column index and the output directory (plots are written there).
"""

import os

from . import (appendix, headline, headline_text, html_page, markdown, plots, runs, settings,
               tables, tables_rx)

INTRO = {
    "rate": "Bytes per second and true line rate = bytes_per_s / (baud_real / 10). "
            "S11 without bytes_per_s: bytes / (enqueue_ms + final_drain_ms).",
    "lat": "Write + drain latency. Values are recomputed (nearest rank) from raw samples "
           "when the log has them, else printed. In brackets: character times "
           "(1 char = 10 / baud_real s).",
    "rxline": "The line's far end (the wire model's, or QEMU's on the emulator's line) "
              "streams a pattern at the line's baud while the section reads (S32), and "
              "while it also writes a TX burst (S33); the far end keeps the ground truth. "
              "lost: bytes that found the RX FIFO full (overrun); dropped: bytes the driver "
              "took but found no room for in its RX ring (na: no RX counters); CPU %: the "
              "window's cycles outside idle and the model, model CPU %: the model's own. "
              "CRC check far-end: a stream the program read blind (peer autonomous: QEMU's "
              "far end started it by itself; peer external: a far end outside the board, "
              "scripts/far-end, sent it when asked), its loss counted from the pattern and "
              "its CRC held against the far end's log outside the program.",
    "rxpoint": "The same sections at more operating points (`report --rx-point`), a table "
               "each: ratios against the table's first column.",
    "status": "Per-section status lines (`section=Sxx status=... [reason=]`); INVALID: the "
              "line was not quiet (foreign RX bytes arrived), the section's figures are "
              "marked and not trustworthy, but it is not a failure.",
    "s41": "Median over rounds of the per-round figures (recomputed from the "
           "`diag=s41-valid` lines; `(printed)` when only the summary exists).",
    "phases": "For a design that charges its work to CPU sub-accounts (the copier: "
              "`diag=s41-phases`): median instructions per byte of each, and its share of "
              "the round; isr: interrupt handlers; other_tasks: the section, the POSIX "
              "layer and the tty core; wire_model: the modelled line's own cost "
              "(simulation).",
    "s42": "Useful work done during a transmission relative to an idle window of the "
           "same length (1.0 = the write cost nothing).",
    "s43": "How late clock_nanosleep(TIMER_ABSTIME) wakes up, every 5 ms, idle and "
           "during a 4096 B burst; on Linux the idle groups again at a timer slack of "
           "1 ns (idle-slack1: PR_SET_TIMERSLACK 1), the others at the process's "
           "(timer slack ns, 50000 by default).",
}

# (question, [(table title, intro key, row builder, ratios and comparison marks wanted)])
GROUPS = (
    ("Line rate: how fast does each design send?",
     (("TX line rate (S10-S14)", "rate", tables.line_rate_rows, True),)),
    ("Latency: how long does a write + drain take?",
     (("TX latency (S20/S21)", "lat", tables.latency_rows, True),)),
    ("CPU: what does sending cost?",
     (("CPU work per byte (S41)", "s41", tables.s41_rows, True),
      ("Where a design's instructions go (S41 phases)", "phases", tables.s41_phase_rows, True),
      ("Compute overlap (S42)", "s42", tables.s42_rows, True))),
    ("Timers: how late does a sleeping task wake while the UART sends?",
     (("Timer wake-up overshoot (S43)", "s43", tables.s43_rows, True),)),
    ("RX: does each design receive everything?",
     (("RX on the line (S32, S33)", "rxline", tables_rx.rx_line_rows, True),)),
    ("Runs: what ran where, and did every section pass?",
     (("Runs", None, runs.runs_rows, False),
      ("Section status", "status", tables.status_rows, False))),
)
# Tables whose figures also depend on the RX side of the operating point, and
# the findings written under a table (function(analyses, labels) -> lines).
RX_POINT_TABLES = (tables_rx.rx_line_rows,)
TABLE_NOTES = {tables_rx.rx_line_rows: tables_rx.rx_line_notes}


def default_baseline(ans):
    """The column ratios refer to without --baseline: the first console-backend
    log of ours (the synchronous baseline design) when there are two logs or
    more, else None; called by build()."""
    if len(ans) < 2:
        return None
    return next((i for i, an in enumerate(ans) if an.log.flavor == "ours"
                 and an.log.manifest.get("backend") == "console"), None)


def build(ans, labels, outdir, baseline=None, rx_points=(), shown=None, draw=True):
    """Write plots and return the Markdown text of the report; called by
    write(). rx_points: (analysis, label) of the --rx-point logs; shown: a
    list that gets a tables.Table per table of figures shown, in order;
    draw: false for no plots (--no-plots)."""
    shown = [] if shown is None else shown
    if baseline is None:
        baseline = default_baseline(ans)
    out = ["# UART driver benchmark report", ""]
    out.append("Logs: %s." % ", ".join("`%s` (%s)" % (lb, an.log.path.rsplit("/", 1)[-1])
                                        for an, lb in zip(ans, labels)))
    out.append("")
    written = plots.write_all(ans, labels, outdir, draw)
    out.extend(headline.section(ans, labels, baseline, shown, after_table=_glance(written)))
    out.append("## Detail")
    out.append("")
    out.append("Markers: " + tables.LEGEND + " %s the compared logs ran at a different (or "
               "not stated) CPU clock, icount shift, line or bench scale (the note under the "
               "table names which, between which columns); %s from an INVALID section; %s a "
               "Linux run's line rate on a line that keeps no line time (not comparable)."
               % (runs.DIFFERS, runs.INVALID, runs.NO_LINE))
    out.append("Column headers: label, board, design, CPU clock, line; every setting of each "
               "column is in the legend under the headline table.")
    if baseline is not None:
        out.append("In brackets after a figure: value / value of the baseline `%s` (none for "
                   "identifiers, settings and error counts)." % labels[baseline])
    out.append("Rows with the same value in every log are listed under their table.")
    out.append("")
    heads = [settings.header(lb, an.log) for an, lb in zip(ans, labels)]
    for question, group in GROUPS:
        out.append("## " + question)
        out.append("")
        for title, intro, func, ratios in group:
            out.extend(_table(ans, labels, baseline, heads, title, intro, func, ratios, shown))
            if func is tables_rx.rx_line_rows and rx_points:
                out.extend(_rx_points(rx_points, shown))
    out.extend(_plots(written))
    out.extend(appendix.section(ans, labels, baseline, shown))
    return "\n".join(out) + "\n"


def _table(ans, labels, baseline, heads, title, intro, func, ratios, shown, legend=False):
    """Lines of one detail table (title, intro, table, notes, equal rows; legend
    True: the columns' settings under it, else the notes refer to the
    headline's), the table added to shown; called by build() and _rx_points()."""
    out = ["### " + title, ""]
    if intro:
        out += [INTRO[intro], ""]
    try:
        rows = func(ans)
        fields = runs.POINT + (runs.RX_POINT if func in RX_POINT_TABLES else ())
        where = "the legend under " + ("this table" if legend else "the headline")
        notes = runs.mark(rows, ans, compare=ratios, point_fields=fields, labels=labels,
                          where=where) if func is not runs.runs_rows else []
        notes += TABLE_NOTES[func](ans, labels) if func in TABLE_NOTES and rows else []
        notes += runs.mark_no_line(rows, ans) if func is tables.line_rate_rows else []
    except Exception as exc:  # keep the other tables
        return out + ["_Table failed: %r_" % (exc,), ""]
    if not rows:
        return out + ["_No log has data for this table._", ""]
    shown.append(tables.Table(title, rows, ans, labels, baseline if ratios else None))
    rows, equal = markdown.collapse(rows)
    if rows:
        out.append(markdown.render(rows, labels, baseline if ratios else None, heads=heads))
    out.extend(notes)
    if equal:
        out.append(equal)
    return out + [""] + (settings.legend(ans, labels) if legend else [])


def _rx_points(rx_points, shown):
    """The --rx-point tables: one per operating point, ratios against its
    first column (added to shown); called by build()."""
    out = []
    for i, (title, p_ans, p_labels) in enumerate(tables_rx.point_groups(
            [a for a, _ in rx_points], [lb for _, lb in rx_points])):
        heads = [settings.header(lb, an.log) for an, lb in zip(p_ans, p_labels)]
        out.extend(_table(p_ans, p_labels, 0 if len(p_ans) > 1 else None, heads, title,
                          "rxpoint" if i == 0 else None, tables_rx.rx_line_rows, True, shown,
                          True))
    return out


# The plots of the headline's figures, shown beside it (in that order).
GLANCE = ("Line rate by payload size", "Instructions per byte", "Latency CDF, S20")


def _glance(written):
    """The headline's plots side by side right under its table, each a link
    to its full size under Plots (html_page.glance); none when fewer than
    two were written; called by build()."""
    names = {title: name for title, name, _ in written if name}
    shown = [(t, names[t], html_page.slug(t)) for t in GLANCE if t in names]
    if len(shown) < 2:
        return []
    return [html_page.glance(shown), ""]


def _plots(written):
    """Plot section: links to the PNGs written (plots.write_all's list),
    reasons for the others; called by build()."""
    out = ["## Plots", ""]
    for title, name, note in written:
        if name:
            out.append("### " + title)
            out.append("")
            out.append("![%s](%s)" % (title, name))
            out.append("")
        else:
            out.append("- %s: not written, %s." % (title, note))
    out.append("")
    return out


def write(ans, labels, outdir, baseline=None, rx_points=(), shown=None, draw=True):
    """Write outdir/report.md, outdir/report.html and the plots; returns the
    Markdown's path; called by cli.py. shown, draw: as build()'s."""
    text = build(ans, labels, outdir, baseline, rx_points, shown, draw)
    path = os.path.join(outdir, "report.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    with open(os.path.join(outdir, "headline.txt"), "w", encoding="utf-8") as fh:
        rows, _, found = headline.compared(ans, labels)
        sets = [settings.of(an.log) for an in ans]
        fh.write("".join(ln + "\n" for ln in headline_text.page(
            rows, labels, heads=[settings.short(s) for s in sets],
            differ=runs.groups(found, sets))))
    html_page.write(text, outdir)
    return path
