"""The report's appendix: payload CRC verdicts, raw records, the S43 text
histogram, and per log the conversions, flags and parse warnings.

section(analyses, labels, baseline, shown) returns its Markdown lines (its
tables of records added to shown); called by report.py. buckets() (S43
overshoot per 1 us bucket) is shared with plots.py.
"""

from . import markdown, runs, tables

HIST_BUCKETS = 1000  # 1 us buckets, as cyclictest's default -h 1000; beyond: overflow
RAW = (("Boot-time figures (S05/S06)", tables.boot_rows),
       ("RX checks (S30/S31)", tables.rx_rows),
       ("TX counters (S40)", tables.counter_rows))


def crc_lines(ans, labels):
    """One line when every payload witness matches, else the per-witness list
    (witness, verdict per log, what differs); called by section() and the tests."""
    mine = [(an, lb) for an, lb in zip(ans, labels) if an.payloads]
    none = [lb for an, lb in zip(ans, labels) if not an.payloads]
    tail = [" No payload witness in %s." % ", ".join("`%s`" % lb for lb in none)] if none else []
    if not mine:
        return ["Payload witnesses: none in any log." if not ans else tail[0].strip(), ""]
    total = sum(len(an.payloads) for an, _ in mine)
    bad = [(lb, tag, verdict, detail) for an, lb in mine for tag, verdict, detail in an.payloads
           if verdict != "match"]
    if not bad:
        return ["Payload witnesses: all %d match (CRC-32 and length) in %s.%s"
                % (total, ", ".join("`%s`" % lb for _, lb in mine), "".join(tail)), ""]
    out = ["Payload witnesses: %d of %d do not match (CRC-32 and length).%s"
           % (len(bad), total, "".join(tail)), ""]
    tags = tables._union([t for t, _, _ in an.payloads] for an, _ in mine)
    out.append("| witness | " + " | ".join(markdown.esc(lb) for _, lb in mine) + " |")
    out.append("|" + "---|" * (len(mine) + 1))
    for tag in tags:
        cells = []
        for an, _ in mine:
            got = [(v, d) for t, v, d in an.payloads if t == tag]
            cells.append("" if not got else got[0][0] if got[0][0] == "match"
                         else "**%s** (%s)" % got[0])
        out.append("| %s | %s |" % (markdown.esc(tag), " | ".join(markdown.esc(c) for c in cells)))
    return out + [""]


def _raw_table(title, func, ans, labels, baseline, shown):
    """Lines of one raw-record table (equal rows as one line, rows one log prints
    as one line per log, the rest as a table), the table added to shown;
    called by section()."""
    rows = func(ans)
    if not rows:
        return []
    notes = runs.mark(rows, ans, compare=len(ans) > 1, labels=labels)
    shown.append(tables.Table(title, rows, ans, labels, baseline))
    rows, equal = markdown.collapse(rows)
    rows, lone = markdown.single(rows)
    out = ["### " + title, ""]
    if rows:
        out.append(markdown.render(rows, labels, baseline))
        out += notes + [""] if notes else []
    if equal:
        out += [equal, ""]
    for i, lb in enumerate(labels):
        only = ["%s **%s**" % (r.label, r.cells[i].text) for r in lone if r.cells[i].text]
        if only:
            out += ["Only `%s` prints: %s." % (lb, "; ".join(only)), ""]
    return out


def buckets(samples_ms, limit=HIST_BUCKETS):
    """({bucket: count}, overflow): overshoot samples (ms) per 1 us bucket
    (bucket b holds b us <= x < b + 1 us); called by text_hist() and plots.py."""
    counts, over = {}, 0
    for ms in samples_ms:
        b = int(round(ms * 1e6)) // 1000
        if b >= limit:
            over += 1
        else:
            counts[b] = counts.get(b, 0) + 1
    return counts, over


def text_hist(ans, labels):
    """S43's raw samples as cyclictest's --histogram output: one line per
    non-empty 1 us bucket, `us count count ...`, one column per log and
    phase, then totals, min, avg, max and overflows; called by section()."""
    cols = [("%s %s" % (lb, phase), lat.samples_ms) for an, lb in zip(ans, labels)
            for phase, lat in an.s43.items() if lat.samples_ms]
    if not cols:
        return []
    hists = [buckets(s) for _, s in cols]
    out = ["### S43 overshoot histogram (text)", "",
           "Counts per 1 us bucket, cyclictest's `--histogram` layout (buckets 0 to %d us; "
           "empty buckets left out; beyond: overflows; min, avg and max in whole us, "
           "rounded down as the buckets)." % (HIST_BUCKETS - 1), "", "```",
           "# columns: " + "; ".join("%d = %s" % (i + 1, name) for i, (name, _) in enumerate(cols)),
           "# Histogram"]
    for b in sorted({b for counts, _ in hists for b in counts}):
        out.append("%06d " % b + " ".join("%06d" % counts.get(b, 0) for counts, _ in hists))
    us = [[int(round(ms * 1e6)) // 1000 for ms in s] for _, s in cols]  # as the buckets
    out.append("# Total: " + " ".join("%09d" % len(v) for v in us))
    for name, func in (("Min", min), ("Avg", lambda v: sum(v) // len(v)), ("Max", max)):
        out.append("# %s Latencies: " % name + " ".join("%05d" % func(v) for v in us))
    out.append("# Histogram Overflows: " + " ".join("%05d" % over for _, over in hists))
    return out + ["```", ""]


def _notes(an, label):
    """Lines of one log's notes (baud, conversions, flags, warnings); called by section()."""
    log = an.log
    items = ["Line rate and character times use baud %.1f (%s)." % (an.baud, an.baud_note)]
    items += an.notes
    items += ["FLAG: " + f for f in an.flags]
    physical = log.is_d1() or (log.flavor == "ours" and log.line_point() is not None)
    fast = [lr for lr in an.line_rates if lr.pct_true and lr.pct_true > 100.5]
    if physical and fast:
        items.append("FLAG: %d line rates above 100 %% on a real or modelled line (max %.1f %%): "
                     "the clock runs fast or the baud differs." % (len(fast),
                                                                  max(l.pct_true for l in fast)))
    items.append("Parse warnings: %d%s" % (len(log.warnings), _warn_list(log)))
    return ["### Notes: %s" % label, ""] + ["- " + item for item in items] + [""]


def _warn_list(log, limit=10):
    """First few warnings as text; called by _notes()."""
    if not log.warnings:
        return "."
    shown = ["line %d: %s" % w if w[0] else w[1] for w in log.warnings[:limit]]
    more = " (and %d more)" % (len(log.warnings) - limit) if len(log.warnings) > limit else ""
    return ": " + "; ".join(shown) + more + "."


def section(ans, labels, baseline, shown=None):
    """Markdown lines of the whole appendix; called by report.py, which
    collects its tables of records in shown (a list of tables.Table)."""
    shown = [] if shown is None else shown
    out = ["## Appendix", "", "### Payload witnesses", ""] + crc_lines(ans, labels)
    for title, func in RAW:
        try:
            out += _raw_table(title, func, ans, labels, baseline, shown)
        except Exception as exc:  # keep the rest of the appendix
            out += ["### " + title, "", "_Table failed: %r_" % (exc,), ""]
    out += text_hist(ans, labels)
    for an, lb in zip(ans, labels):
        out += _notes(an, lb)
    return out

