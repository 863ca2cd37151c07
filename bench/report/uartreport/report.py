"""Assemble report.md from analysed logs: tables, plot links and notes.

Called by cli.py with the Analysis objects, their column labels, an optional
baseline column index and the output directory (plots are written there).
"""

import os

from . import plots, runs, tables, tables_rx

INTRO = {
    "boot": "Figures printed at boot (StarryOS `[BENCH]` lines) and in S05/S06: ring "
            "buffer speed and RX ring latency, as printed.",
    "rate": "Bytes per second and true line rate = bytes_per_s / (baud_real / 10). "
            "S11 without bytes_per_s: bytes / (enqueue_ms + final_drain_ms).",
    "lat": "Write + drain latency. Values are recomputed (nearest rank) from raw samples "
           "when the log has them, else printed. In brackets: character times "
           "(1 char = 10 / baud_real s).",
    "rx": "Status of the RX checks as printed, and the CRC32 check of each payload witness.",
    "rxline": "The wire model's far end streams a pattern at the modelled baud while the "
              "section reads (S32), and while it also writes a TX burst (S33); the model "
              "keeps the ground truth. lost: bytes that found the RX FIFO full (overrun); "
              "dropped: bytes the driver took but found no room for in its RX ring (na: no "
              "RX counters); CPU %: the window's cycles outside idle and the model, model "
              "CPU %: the model's own; line rates are of the modelled line.",
    "status": "Per-section status lines (`section=Sxx status=... [reason=]`); INVALID: the "
              "line was not quiet (foreign RX bytes arrived), the section's figures are "
              "marked and not trustworthy, but it is not a failure.",
    "s40": "TX counters as printed.",
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

# (title, intro key, row builder, ratio columns wanted)
SECTIONS = (
    ("Runs", None, runs.runs_rows, False),
    ("Boot-time figures (S05/S06)", "boot", tables.boot_rows, True),
    ("TX line rate (S10-S14)", "rate", tables.line_rate_rows, True),
    ("TX latency (S20/S21)", "lat", tables.latency_rows, True),
    ("RX status (S30/S31)", "rx", tables.rx_rows, False),
    ("RX on the modelled line (S32, S33)", "rxline", tables_rx.rx_line_rows, True),
    ("Section status", "status", tables.status_rows, False),
    ("TX counters (S40)", "s40", tables.counter_rows, True),
    ("CPU work per byte (S41)", "s41", tables.s41_rows, True),
    ("Where a design's instructions go (S41 phases)", "phases", tables.s41_phase_rows, True),
    ("Compute overlap (S42)", "s42", tables.s42_rows, True),
    ("Timer wake-up overshoot (S43)", "s43", tables.s43_rows, True),
)
# Tables whose figures also depend on the RX side of the operating point, and
# the findings written under a table (function(analyses, labels) -> lines).
RX_POINT_TABLES = (tables_rx.rx_line_rows,)
TABLE_NOTES = {tables_rx.rx_line_rows: tables_rx.rx_line_notes}


def build(ans, labels, outdir, baseline=None):
    """Write plots and return the Markdown text of the report."""
    out = ["# UART driver benchmark report", ""]
    out.append("Logs: %s." % ", ".join("`%s` (%s)" % (lb, an.log.path.rsplit("/", 1)[-1])
                                        for an, lb in zip(ans, labels)))
    if baseline is not None:
        out.append("Ratio columns `÷ %s` give value / value of the baseline log."
                   % labels[baseline])
    out.append("")
    out.append("Markers: " + tables.LEGEND + " %s the compared logs ran at different (or "
               "unknown) CPU clock, icount shift, wire model or bench scale (column headers); "
               "%s from an INVALID section; %s a Linux run's line rate on a line that keeps no "
               "line time (not comparable)." % (runs.DIFFERS, runs.INVALID, runs.NO_LINE))
    out.append("")
    heads = [runs.header(lb, an.log) for an, lb in zip(ans, labels)]
    for title, intro, func, ratios in SECTIONS:
        out.append("## " + title)
        out.append("")
        if intro:
            out.append(INTRO[intro])
            out.append("")
        try:
            rows = func(ans)
            fields = runs.POINT + (runs.RX_POINT if func in RX_POINT_TABLES else ())
            notes = runs.mark(rows, ans, compare=ratios, point_fields=fields) \
                if func is not runs.runs_rows else []
            notes += TABLE_NOTES[func](ans, labels) if func in TABLE_NOTES and rows else []
            notes += runs.mark_no_line(rows, ans) if func is tables.line_rate_rows else []
        except Exception as exc:  # keep the other tables
            rows, notes = [], []
            out.append("_Table failed: %r_" % (exc,))
        if rows:
            out.append(tables.render(rows, labels, baseline if ratios else None, heads=heads))
            out.extend(notes + [""] if notes else [])
        else:
            out.append("_No log has data for this table._")
            out.append("")
    out.extend(_plots(ans, labels, outdir))
    out.extend(_notes(ans, labels))
    return "\n".join(out) + "\n"


def _plots(ans, labels, outdir):
    """Plot section: links to the PNGs written, reasons for the others."""
    out = ["## Plots", ""]
    for title, name, note in plots.write_all(ans, labels, outdir):
        if name:
            out.append("")
            out.append("### " + title)
            out.append("")
            out.append("![%s](%s)" % (title, name))
            out.append("")
        else:
            out.append("- %s: not written, %s." % (title, note))
    out.append("")
    return out


def _notes(ans, labels):
    """Notes: conversions, flagged and not-recomputable figures, CRCs, warnings."""
    out = ["## Notes", ""]
    for an, lb in zip(ans, labels):
        log = an.log
        out.append("### %s" % lb)
        out.append("")
        items = ["Line rate and character times use baud %.1f (%s)." % (an.baud, an.baud_note)]
        items += an.notes
        items += ["FLAG: " + f for f in an.flags]
        physical = log.is_d1() or (log.flavor == "ours" and log.manifest.get("wire_model")
                                   not in (None, "off"))
        fast = [lr for lr in an.line_rates if lr.pct_true and lr.pct_true > 100.5]
        if physical and fast:
            items.append("FLAG: %d line rates above 100 %% on a real or modelled line (max %.1f %%): "
                         "the clock runs fast or the baud differs." % (len(fast),
                                                                      max(l.pct_true for l in fast)))
        for tag, verdict, detail in an.payloads:
            items.append("Payload `%s`: %s (%s)." % (tag, verdict, detail))
        if not an.payloads and log.flavor == "ours":
            items.append("No payload witness in this log.")
        items.append("Parse warnings: %d%s" % (len(log.warnings), _warn_list(log)))
        out.extend("- " + item for item in items)
        out.append("")
    return out


def _warn_list(log, limit=10):
    """First few warnings as text, for the Notes list."""
    if not log.warnings:
        return "."
    shown = ["line %d: %s" % w if w[0] else w[1] for w in log.warnings[:limit]]
    more = " (and %d more)" % (len(log.warnings) - limit) if len(log.warnings) > limit else ""
    return ": " + "; ".join(shown) + more + "."


def write(ans, labels, outdir, baseline=None):
    """Write outdir/report.md (and plots); returns its path."""
    text = build(ans, labels, outdir, baseline)
    path = os.path.join(outdir, "report.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return path
