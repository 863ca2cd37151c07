"""The report's first table: the answer, one row per question, one column per log.

rows(analyses) gives the headline rows (line rate, 1 B write + drain P50/P99
in character times, worst S21 P99/P50, S41 instructions per byte of the
driver alone and CPU %, S42 overlap, S43 overshoot P99 idle and while
sending, S32/S33 RX loss), marked where the logs are not comparable (runs.mark,
runs.mark_no_line); section(analyses, labels, baseline, shown) the Markdown
lines of the table, its notes, the legend of the columns' settings and the
verdicts (verdicts.py; the table added to shown). Called by report.py.
"""

from . import markdown, runs, settings, tables_rx, verdicts
from .model import num
from .tables import S42_SRC, Cell, Row, Table, fmt, lat_src, rate_src, s21_sizes, s41_figure

TITLE = "The answer"


def _marks(lat, key):
    """The marks of a latency figure, with a leading space, or ""; called by the cells below."""
    got = "".join(sorted(lat.marks.get(key, ()))) if lat else ""
    return " " + got if got else ""


def _line_rate(an, size):
    """Cell of the S10 drain-each line rate at size, `% (bytes/s)`; called by rows()."""
    lr = next((x for x in an.line_rates if x.section == "S10" and x.size == size
               and x.pct_true is not None), None)
    if lr is None:
        return Cell()
    return Cell("%s %% (%s B/s)" % (fmt(lr.pct_true), fmt(lr.bytes_per_s)), lr.pct_true,
                rate_src(lr, True))


def _s20_chars(an, key):
    """Cell of an S20 1 B write + drain percentile in character times; called by rows()."""
    lat = an.latency.get("s20-single-byte")
    if lat is None or key not in lat.values:
        return Cell()
    value = lat.values[key] / an.char_ms
    return Cell(fmt(value) + _marks(lat, key), value, lat_src(lat, key))


def _worst_ratio(an, sizes):
    """Cell of the largest S21 P99/P50 and its write size; called by rows()."""
    best = None
    for size in sizes:
        lat = an.latency.get("s21-fifo-size-%s" % size)
        if lat is None or not lat.values.get("p50") or "p99" not in lat.values:
            continue
        ratio = lat.values["p99"] / lat.values["p50"]
        if best is None or ratio > best[0]:
            best = (ratio, size, lat_src(lat, "p99", "p50"))
    return Cell("%s at %s B" % (fmt(best[0]), best[1]), best[0], best[2]) if best else Cell()


def s41_size(ans):
    """The largest S41 write size every log with S41 has (None without S41);
    called by rows() and the tests."""
    have = [set(an.s41) for an in ans if an.s41]
    common = set.intersection(*have) if have else set()
    sized = [s for s in common if num(s)]
    return max(sized, key=num) if sized else None


def _s41(an, size, key):
    """Cell of S41's median of key at size (recomputed, else printed); called by rows()."""
    value, src = s41_figure(an, size, key)
    return Cell(fmt(value), value, src) if value is not None else Cell()


def _driver_ipb(an, size):
    """Cell of S41's instructions per byte of the driver alone (excl_model; without
    the split and without a wire model the total is the driver's); called by rows()."""
    cell = _s41(an, size, "instructions_per_byte_excl_model")
    if cell.text:
        return cell
    cell = _s41(an, size, "instructions_per_byte")
    model = an.log.manifest.get("wire_model")
    if cell.text and model not in (None, "off"):
        cell.text += " (with the model)"
    return cell


def _overshoot(an, phase):
    """Cell of the S43 overshoot P99 of phase in us; called by rows()."""
    lat = an.s43.get(phase)
    if lat is None or "p99" not in lat.values:
        return Cell()
    value = lat.values["p99"] * 1000.0
    return Cell(fmt(value) + _marks(lat, "p99"), value, lat_src(lat, "p99"))


def _rx_loss(an, sid):
    """Cell of S32/S33's RX loss %, else the section's status; called by rows()."""
    cpu = tables_rx._rec(an.log, sid, "cpu")
    if cpu is not None and cpu.num("loss_pct") is not None:
        return Cell(cpu.get("loss_pct"), cpu.num("loss_pct"), (cpu.selector(), "loss_pct"))
    status = tables_rx._status(an.log, sid)
    return Cell(status.lower() if status else "")


def rows(ans):
    """The headline rows (before marks); called by section() and the tests."""
    sizes = s21_sizes(ans)
    s41 = s41_size(ans)
    spec = [
        ("S10 line rate, 64 B writes (% of the line, bytes/s)", lambda an: _line_rate(an, "64")),
        ("S10 line rate, 1024 B writes (% of the line, bytes/s)",
         lambda an: _line_rate(an, "1024")),
        ("S20 1 B write + drain P50 (character times)", lambda an: _s20_chars(an, "p50")),
        ("S20 1 B write + drain P99 (character times)", lambda an: _s20_chars(an, "p99")),
        ("S21 worst P99/P50 (write size)", lambda an: _worst_ratio(an, sizes)),
        ("S41 instructions per byte, driver only (%s B writes)" % s41,
         lambda an: _driver_ipb(an, s41)),
        ("S41 CPU %% while sending (%s B writes)" % s41, lambda an: _s41(an, s41, "cpu_util_pct")),
        ("S42 overlap efficiency (1 = sending took no CPU from the computation)",
         lambda an: Cell(fmt(an.s42["median"]), an.s42["median"], S42_SRC)
         if an.s42 and an.s42.get("median") is not None else Cell()),
        ("S43 timer overshoot P99, idle (us)", lambda an: _overshoot(an, "idle")),
        ("S43 timer overshoot P99, while sending (us)", lambda an: _overshoot(an, "loaded")),
        ("S32 RX loss %, nothing to send", lambda an: _rx_loss(an, "S32")),
        ("S33 RX loss %, while sending", lambda an: _rx_loss(an, "S33")),
    ]
    out = [Row(title, [func(an) for an in ans]) for title, func in spec]
    return [r for r in out if any(c.text for c in r.cells)]


def compared(ans, labels=None):
    """(rows, notes, found): rows() with the comparability marks of runs.py
    (RX rows with the RX side of the point), the notes (the ◇ one first,
    naming the settings that differ between which of labels: default the
    logs' own) and runs.compare_rows()'s found; the line-rate rows of a
    Linux run on an instant line marked not comparable (no ratio); called
    by marked() and report.py."""
    got = rows(ans)
    labels = labels or [an.log.label for an in ans]
    rx = [r for r in got if r.label.startswith(("S32", "S33"))]
    tx = [r for r in got if r not in rx]
    notes = runs.mark(tx, ans, compare=False) + runs.mark(rx, ans, compare=False)
    notes = sorted(set(notes), key=notes.index)
    sets = [settings.of(an.log) for an in ans]
    found = runs.compare_rows(tx, sets)
    runs.compare_rows(rx, sets, runs.POINT + runs.RX_POINT, found)
    if found:
        notes.insert(0, runs.differ_note(found, sets, labels, "the legend under this table"))
    rates = [r for r in got if r.label.startswith("S10")]
    if runs.mark_no_line(rates, ans):
        which = ", ".join(runs.no_line(an.log) for an in ans if runs.no_line(an.log))
        notes.append("%s not comparable: a Linux run on QEMU's instant 16550 or a pty (%s) "
                     "measures how fast Linux's tty layer takes the bytes, not a line's rate."
                     % (runs.NO_LINE, which))
        for row in rates:
            for cell in row.cells:
                if cell.text.endswith(runs.NO_LINE):
                    cell.comparable = False
    return got, notes, found


def marked(ans, labels=None):
    """(rows, notes) of compared(); called by section() and the tests."""
    return compared(ans, labels)[:2]


def section(ans, labels, baseline, shown=None, after_table=()):
    """Markdown lines of the headline: heading, table, after_table (the
    lines report.py puts right under it: its plots), notes, legend,
    verdicts; called by report.py, which collects the table in shown (a
    list of tables.Table)."""
    got, notes = marked(ans, labels)
    out = ["## " + TITLE, ""]
    if not got:
        return out + ["_No log has any of the headline figures._", ""] + settings.legend(
            ans, labels)
    if shown is not None:
        shown.append(Table(TITLE, got, ans, labels, baseline))
    heads = [settings.header(lb, an.log) for an, lb in zip(ans, labels)]
    out.append(markdown.render(got, labels, baseline, first="Question", heads=heads))
    out.extend(after_table)
    if baseline is not None:
        notes.insert(0, "In brackets: value / value of the baseline `%s`." % labels[baseline])
    instant = ["`%s`" % lb for an, lb in zip(ans, labels) if an.log.flavor == "ours"
               and not an.log.is_d1() and not runs.no_line(an.log)
               and an.log.line_point() is None]
    if instant and any(r.label.startswith("S10") for r in got):
        notes.append("No wire model in %s: QEMU's UART sends at once, a line rate above "
                     "100 %% is the driver's speed, not a line's." % ", ".join(instant))
    out.extend(notes)
    out.append("")
    return out + settings.legend(ans, labels) + verdicts.markdown_lines(got, labels)
