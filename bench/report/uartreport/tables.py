"""Table rows: one column per log.

Each *_rows(analyses) function returns a list of Row; markdown.render() turns
rows into a Markdown table (ratios to a baseline inside the cells). Called by
report.py, headline.py and appendix.py (the Runs table is in runs.py, the
table of RX on the line in tables_rx.py). A Cell's src says which record and
key its number comes from; report.py collects each table shown as a Table
(both for report --json, json_out.py).
"""

from dataclasses import dataclass, field

from .model import num
from . import stats
from .analysis import DISAGREE, NOT_RECOMPUTABLE, P99_IS_MAX
from .markdown import render  # noqa: F401 (tables.render, as before)



@dataclass
class Cell:
    """One table cell: display text, the number used for ratios and where that
    number comes from (report --json, json_out.py)."""

    text: str = ""
    value: float | None = None
    src: tuple | None = None  # (record, key): ("diag=s20-single-byte", "p50_ms")
    comparable: bool = True  # False: no ratio in or against it (headline.marked)


@dataclass
class Row:
    """A table row: a label and one Cell per log."""

    label: str
    cells: list = field(default_factory=list)
    ratio: bool = True  # False: identifiers, settings, counts (markdown.render)


@dataclass
class Table:
    """A table as the report shows it: its title, its rows (marked, before the
    rows equal in every log leave it), the logs and labels of its columns and
    its baseline column (None: no ratios); report.build() collects them for
    report --json (json_out.py)."""

    title: str
    rows: list
    ans: list
    labels: list
    baseline: int | None = None


def fmt(value, unit=""):
    """Format a number: whole numbers as integers, else 3-4 significant digits."""
    if value is None:
        return ""
    mag = abs(value)
    if mag >= 1000 or (value == int(value) and mag < 1e15):
        text = "%.0f" % value
    elif mag >= 100:
        text = "%.1f" % value
    elif mag >= 10:
        text = "%.2f" % value
    elif mag >= 0.01:
        text = "%.3f" % value
    else:
        text = "%.3g" % value
    return text + (" " + unit if unit else "")


def _marks(lat, key):
    """Marker characters attached to one latency figure."""
    return "".join(sorted(lat.marks.get(key, ()))) if lat else ""


def lat_src(lat, key, over=None):
    """Cell.src of a latency figure: its summary line and key in the unit it
    prints (over: the key it is divided by); called here and by headline.py."""
    unit = lat.printed_unit
    return ("diag=" + lat.tag, "%s_%s" % (key, unit) + (" / %s_%s" % (over, unit) if over else ""))


def rate_src(lr, pct):
    """Cell.src of a line rate: its policy line and the keys the bytes/s come
    from, against the baud when pct; called here and by headline.py."""
    key = "100 x (%s) / (baud / 10)" % lr.method if pct else lr.method
    return ("policy=%s size=%s" % (lr.policy, lr.size), key)


def _union(keys_per_log):
    """Ordered union of several key lists."""
    seen, out = set(), []
    for keys in keys_per_log:
        for key in keys:
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


SKIP_KINDS = ("section", "samples", "hist", "payload-begin", "payload-end")


def _generic(ans, sids, skip_kinds=SKIP_KINDS):
    """Rows for every key=value of the records of sections sids (first value wins).

    Status lines, raw samples, histograms and payload witnesses have tables or
    notes of their own and are left out. A cell's src names the record where
    its first token does (diag=, counter=, method=, proxy=), and the key.
    """
    per_log = []
    for an in ans:
        found = {}
        for sid in sids:
            for rec in an.log.records(sid):
                if rec.kind in skip_kinds or (rec.kind == "diag" and rec.tag == sid):
                    continue
                group = "%s=%s " % (rec.kind, rec.tag) if rec.kind in (
                    "diag", "counter", "method", "proxy") else ""
                for key, value in rec.kv.items():
                    if group and key == rec.kind:
                        continue
                    found.setdefault("%s %s%s" % (sid, group, key),
                                     (value, (rec.selector() if group else None, key)))
        per_log.append(found)
    rows = []
    for key in _union(list(f) for f in per_log):
        rows.append(Row(key, [Cell(f[key][0], num(f[key][0]), f[key][1]) if key in f else Cell()
                              for f in per_log]))
    return rows


def boot_rows(ans):
    """S05/S06: StarryOS startup figures and any S05/S06 key=value."""
    keys = _union(list(an.log.boot) for an in ans)
    rows = [Row("boot " + key, [Cell(an.log.boot.get(key, ""), num(an.log.boot.get(key)),
                                     ("[BENCH]", key)) for an in ans]) for key in keys]
    return rows + _generic(ans, ("S05", "S06"))


def line_rate_rows(ans):
    """S10-S14: bytes/s and true line rate per (section, policy, size)."""
    keys = _union([(lr.section, lr.policy, lr.size) for lr in an.line_rates] for an in ans)
    rows = []
    for sid, policy, size in keys:
        for what in ("bytes/s", "line rate %"):
            cells = []
            for an in ans:
                lr = next((x for x in an.line_rates
                           if (x.section, x.policy, x.size) == (sid, policy, size)), None)
                if lr is None:
                    cells.append(Cell())
                elif what == "bytes/s":
                    cells.append(Cell(fmt(lr.bytes_per_s), lr.bytes_per_s, rate_src(lr, False)))
                else:
                    cells.append(Cell(fmt(lr.pct_true), lr.pct_true, rate_src(lr, True)))
            rows.append(Row("%s %s %s B %s" % (sid, policy, size, what), cells))
    return rows


def _lat_cell(an, lat, key):
    """Latency cell: ms, character times and marks."""
    if lat is None or key not in lat.values:
        return Cell()
    ms = lat.values[key]
    mark = _marks(lat, key)
    return Cell("%s (%s ch)%s" % (fmt(ms), fmt(ms / an.char_ms), " " + mark if mark else ""), ms,
                lat_src(lat, key))


def s21_sizes(ans):
    """The S21 sizes, as strings, ascending: the manifests' fifo_matrix_sizes
    (ours and StarryOS' print it), else the sizes of the S21 summaries."""
    sizes = _union(an.log.manifest.get("fifo_matrix_sizes", "").split(",") for an in ans)
    if not any(s.isdigit() for s in sizes):
        sizes = _union([t.rsplit("-", 1)[-1] for t in an.latency
                        if t.startswith("s21-fifo-size-")] for an in ans)
    return sorted((s for s in sizes if s.isdigit()), key=int)


def _insns(an, tag):
    """The record of a write + drain series' instructions (`diag=<tag>-insns`)
    when it prints P50, P99 and max, or None."""
    recs = [r for sid in ("S20", "S21") for r in an.log.records(sid, kind="diag",
                                                                tag=tag + "-insns")]
    if not recs or None in [recs[0].num("%s_instructions" % k) for k in ("p50", "p99", "max")]:
        return None
    return recs[0]


def latency_rows(ans):
    """S20/S21: P50, P99, max (ms and character times) and P99/P50; the
    instructions of a write + drain (P50, P99) where the logs count them."""
    tags = [("S20 1 B", "s20-single-byte")]
    tags += [("S21 %s B" % s, "s21-fifo-size-%s" % s) for s in s21_sizes(ans)]
    extra = _union([t for t, l in an.latency.items() if l.section == "S21"
                    and t not in dict(tags).values()] for an in ans)
    tags += [("S21 " + t, t) for t in extra]
    rows = []
    for name, tag in tags:
        lats = [an.latency.get(tag) for an in ans]
        if not any(lats):
            continue
        rows.append(Row(name + " source", [Cell(("raw samples" if l.source == "raw"
                                                  else "printed") if l else "") for l in lats]))
        for key, title in (("p50", "P50"), ("p99", "P99"), ("max", "max")):
            rows.append(Row("%s %s ms (char times)" % (name, title),
                            [_lat_cell(an, l, key) for an, l in zip(ans, lats)]))
        cells = []
        for l in lats:
            ratio = None
            if l and l.values.get("p50") and "p99" in l.values:
                ratio = l.values["p99"] / l.values["p50"]
            cells.append(Cell(fmt(ratio), ratio, lat_src(l, "p99", "p50") if l else None))
        rows.append(Row(name + " P99/P50", cells))
        insns = [_insns(an, tag) for an in ans]
        for key, title in (("p50", "P50"), ("p99", "P99")) if any(insns) else ():
            key += "_instructions"
            rows.append(Row("%s write+drain instructions %s" % (name, title),
                            [Cell(fmt(i.num(key)), i.num(key), (i.selector(), key)) if i
                             else Cell() for i in insns]))
    return rows


def rx_rows(ans):
    """S30/S31: every key of the RX checks' records (the appendix's raw records;
    the payload witnesses' verdicts are appendix.crc_lines())."""
    return _generic(ans, ("S30", "S31"))


def status_rows(ans):
    """Per-section status lines (section=Sxx status=...) of our logs."""
    sids = _union(list(an.log.statuses) for an in ans)
    rows = []
    for sid in sids:
        cells = []
        for an in ans:
            rec = an.log.statuses.get(sid)
            if rec is None:
                cells.append(Cell())
                continue
            text = rec.get("status", "")
            for key in ("reason", "foreign_rx_bytes"):
                if rec.get(key) is not None and (key == "reason" or rec.get("status") == "INVALID"):
                    text += " %s=%s" % (key, rec.get(key))
            if rec.get("elapsed_ms"):
                text += " (%s ms)" % rec.get("elapsed_ms")
            cells.append(Cell(text, rec.num("elapsed_ms"), (rec.selector(), "elapsed_ms")))
        rows.append(Row(sid or "?", cells))
    return rows


def counter_rows(ans):
    """S40: TX counters, whatever keys are present."""
    return _generic(ans, ("S40",))


def s41_figure(an, size, key):
    """(value, Cell.src) of S41's median of key at size: over the valid rounds
    (recomputed), else the summary's printed one, else (None, None); called by
    s41_rows() and headline.py."""
    entry = an.s41.get(size)
    if not entry:
        return None, None
    if entry["median"].get(key) is not None:
        return entry["median"][key], ("diag=s41-valid size=%s" % size, key)
    value = num(entry["printed"].get(key))
    return (value, ("diag=s41-summary size=%s" % size, "median_" + key)) if value is not None \
        else (None, None)


def s41_rows(ans):
    """S41: median instructions per byte, total and driver only (excl_model),
    cycles per byte and CPU use, per size; called by report.py."""
    sizes = sorted(_union(list(an.s41) for an in ans), key=lambda s: num(s) or 0)
    rows = []
    for key, title in (("instructions_per_byte", "instructions/byte"),
                       ("instructions_per_byte_excl_model", "instructions/byte, driver only "
                        "(without the wire model)"),
                       ("cycles_per_byte", "cycles/byte"), ("cpu_util_pct", "CPU use %")):
        for size in sizes:
            cells = []
            for an in ans:
                value, src = s41_figure(an, size, key)
                printed = " (printed)" if src and "s41-summary" in src[0] else ""
                cells.append(Cell(fmt(value) + printed if value is not None else "", value, src))
            if any(c.value is not None for c in cells):
                rows.append(Row("S41 %s B median %s" % (size, title), cells))
    for size in sizes:     # a Linux run's pinned CPU, its idle task in it
        got = [stats.median(e["rounds"]["cpuwide_instructions_per_byte"])
               if e and e["rounds"].get("cpuwide_instructions_per_byte") else None
               for e in (an.s41.get(size) for an in ans)]
        if any(v is not None for v in got):
            src = ("diag=s41-valid size=%s" % size, "cpuwide_instructions_per_byte")
            rows.append(Row("S41 %s B median CPU-wide instructions/byte (idle included)" % size,
                            [Cell(fmt(v) if v is not None else "", v, src) for v in got]))
    rounds = [Cell(", ".join("%s: %d" % (s, len(e["rounds"].get("instructions_per_byte", [])))
                             for s, e in an.s41.items())) for an in ans]
    if any(c.text for c in rounds):
        rows.append(Row("S41 rounds per size", rounds))
    return rows


def s41_phase_rows(ans):
    """S41 phases: median instructions per byte of each CPU sub-account of a
    design that has them (the copier's slow poll, fast retries, ...), with its
    share of the round's instructions, per size."""
    rows = []
    sizes = sorted(_union(list(an.s41_phases) for an in ans), key=lambda s: num(s) or 0)
    for size in sizes:
        names = _union(list(an.s41_phases.get(size, {})) for an in ans)
        for name in names:
            cells = []
            for an in ans:
                per = an.s41_phases.get(size, {})
                med = {k: sorted(v)[len(v) // 2] for k, v in per.items() if v}
                value, total = med.get(name), sum(med.values())
                cells.append(Cell("%s (%.1f %%)" % (fmt(value), 100 * value / total)
                                  if value is not None and total else "", value,
                                  ("diag=s41-phases size=%s" % size, name)))
            rows.append(Row("S41 %s B %s instructions/byte" % (size, name), cells))
    return rows


# (row title, an.s42 key, Cell.src); S42_SRC: the median over the rounds' figure
S42_SRC = ("diag=s42-sample", "overlap_efficiency")
S42_ROWS = (("overlap efficiency (median)", "median", S42_SRC),
            ("printed median", "printed", ("diag=s42-summary", "median_overlap_efficiency")),
            ("write return us (median)", "write_return_us", ("diag=s42-sample",
                                                             "write_return_us")),
            ("rounds", "rounds", ("diag=s42-sample", None)),
            ("idle calibration iters", "idle_iters", ("idle", "iters")))


def s42_rows(ans):
    """S42: overlap efficiency (median of rounds) and write return time."""
    rows = []
    for title, key, src in S42_ROWS:
        cells = []
        for an in ans:
            value = an.s42.get(key) if an.s42 else None
            if isinstance(value, str) or value is None:
                cells.append(Cell(value or "", num(value), src))
            else:
                cells.append(Cell(fmt(value), value, src))
        if any(c.text for c in cells):
            rows.append(Row("S42 " + title, cells))
    return rows


def s43_rows(ans):
    """S43: sleep overshoot P50/P99/max, idle and loaded (and a platform's
    further phases: Linux's idle-slack1), in ms; each phase's timer slack
    where a log prints it."""
    rows = []
    phases = []
    for an in ans:
        phases += [p for p in an.s43 if p not in phases]
    for phase in phases:
        slack = [an.s43_settings.get(phase, "").partition("=")[2] for an in ans]
        if any(slack):
            src = ("s43-phase=%s" % phase, "timer_slack_ns")
            rows.append(Row("S43 %s timer slack ns" % phase,
                            [Cell(s, num(s), src) if s else Cell() for s in slack]))
        for key, title in (("p50", "P50"), ("p99", "P99"), ("max", "max")):
            cells = []
            for an in ans:
                lat = an.s43.get(phase)
                if lat is None or key not in lat.values:
                    cells.append(Cell())
                    continue
                mark = _marks(lat, key)
                cells.append(Cell(fmt(lat.values[key]) + (" " + mark if mark else ""),
                                  lat.values[key], lat_src(lat, key)))
            if any(c.text for c in cells):
                rows.append(Row("S43 %s overshoot %s ms" % (phase, title), cells))
    if rows:
        rows.append(Row("S43 percentiles", [Cell(an.s43_recomputable) for an in ans]))
    return rows


LEGEND = ("%s printed figure disagrees with the raw samples (the recomputed value is shown); "
          "%s printed P99 equals the maximum; %s not recomputable from the log."
          % (DISAGREE, P99_IS_MAX, NOT_RECOMPUTABLE))
