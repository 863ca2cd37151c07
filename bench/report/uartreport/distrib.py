"""Summaries (n, min, avg, percentiles, max) recomputed from raw samples.

Called by recompute.analyze(): every `diag=<tag> n= p50_<unit>= ...` record
whose `samples tag=<tag>` series exists is recomputed in every unit it
prints (ms and ns, instret, cycles), together with the latency line's
derived fields (slow counts, ratios, character times); S43 group summaries
are recomputed from their slice of the phase's series. Disagreements become
Flags; time summaries also become Lat objects for the tables.
"""

from . import stats
from .analysis import DISAGREE, P99_IS_MAX, Lat, ident, s43_phases
from .model import num

LAT_KEYS = ("avg", "p50", "p95", "p99", "max")
STAT_KEYS = ("n", "min") + LAT_KEYS
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
COUNT_UNITS = {"instret": "instructions", "instructions": "instructions", "cycles": "cycles"}
SLOW_NS = 10e6  # the original's 10 ms marks


def units_of(rec):
    """Units a summary record prints its percentiles in (p50_<unit> keys)."""
    return [k[4:] for k in rec.kv if k.startswith("p50_") and k[4:] in
            tuple(UNIT_NS) + tuple(COUNT_UNITS)]


def is_summary(rec):
    """True for a distribution summary: n= and at least one p50_<unit>=."""
    return "n" in rec.kv and bool(units_of(rec))


def series_for(log, tag):
    """The raw Series of a summary tag (`-aggregate` dropped), or None."""
    for cand in (tag, tag[:-len("-aggregate")] if tag.endswith("-aggregate") else None):
        if cand and cand in log.samples:
            return log.samples[cand]
    return None


def factor(series_unit, unit):
    """Multiplier from series_unit to unit, or None when they do not compare."""
    if series_unit in UNIT_NS and unit in UNIT_NS:
        return UNIT_NS[series_unit] / UNIT_NS[unit]
    if COUNT_UNITS.get(series_unit) is not None and COUNT_UNITS.get(series_unit) == \
            COUNT_UNITS.get(unit):
        return 1.0
    return None


def latencies(log, an):
    """Recompute every diag summary; time summaries also go to an.latency."""
    for sid in log.order:
        for rec in log.sections[sid].records:
            if rec.kind != "diag" or not rec.tag or not is_summary(rec):
                continue
            if rec.is_latency():
                an.latency[rec.tag] = _latency(log, an, rec)
            else:
                series = series_for(log, rec.tag)
                if series is not None:
                    check(an, rec, ident(rec), series.values, series)
    _s43_groups(log, an)


def _latency(log, an, rec):
    """Build one Lat from a latency record and its raw samples if any."""
    n = num(rec.get("n"))
    lat = Lat(section=rec.section, tag=rec.tag, n=int(n) if n is not None else None)
    unit = "ms" if "p50_ms" in rec.kv else "ns"
    lat.printed_unit = unit
    to_ms = 1.0 if unit == "ms" else 1e-6
    for key in LAT_KEYS:
        text = rec.get("%s_%s" % (key, unit))
        if text is not None:
            lat.printed[key] = text
            if num(text) is not None:
                lat.values[key] = num(text) * to_ms
    series = series_for(log, rec.tag)
    if series is not None:
        summ = check(an, rec, ident(rec), series.values, series)
        if summ is not None and series.unit in UNIT_NS:
            lat.source = "raw"
            lat.samples_ms = [v * UNIT_NS[series.unit] / 1e6 for v in series.values]
            for key in LAT_KEYS + ("min",):
                lat.values[key] = summ[key] * UNIT_NS[series.unit] / 1e6
                if key != "min" and rec.get("%s_%s" % (key, unit)) is not None and \
                        not stats.agrees(rec.get("%s_%s" % (key, unit)), lat.values[key] / to_ms):
                    lat.mark(key, DISAGREE)
    elif "p99" in lat.printed and lat.printed.get("p99") == lat.printed.get("max") \
            and (lat.n or 0) >= 2:
        lat.mark("p99", P99_IS_MAX)
    return lat


def check(an, rec, name, values, series):
    """Flag each printed figure of rec that values do not give; returns the summary.

    name: how flags call rec; series: where values come from (unit, gaps).
    None (and a flag) when the series cannot be used.
    """
    n = num(rec.get("n"))
    if series.gaps or (n is not None and len(values) != n):
        an.flag("samples", rec.section, name + ".n",
                "raw series %s has %d of n=%s samples (%s); not recomputed"
                % (series.tag, len(values), rec.get("n"),
                   "; ".join(series.gaps) or "count differs"))
        return None
    summ = stats.summary(values)
    if summ is None:
        return None
    for unit in units_of(rec):
        scale = factor(series.unit, unit)
        if scale is None:
            an.notes.append("samples tag=%s: unit %r does not compare with %s_%s, not "
                            "recomputed" % (series.tag, series.unit, rec.tag, unit))
            continue
        for key in STAT_KEYS[1:]:
            _compare(an, rec, name, "%s_%s" % (key, unit), summ[key] * scale, summ, scale)
    if series.unit in UNIT_NS:
        _derived(an, rec, name, [v * UNIT_NS[series.unit] for v in values], summ, series.unit)
    return summ


def _compare(an, rec, name, field, value, summ, scale):
    """Flag rec's printed field when it is not value (one unit of its last digit).

    A whole number printed in the samples' own unit is a sample: it must be exact.
    """
    text = rec.get(field)
    exact = scale == 1 and not field.startswith("avg_") and "." not in (text or ".")
    if text is None or (num(text) == value if exact else stats.agrees(text, value)):
        return
    extra = ""
    if field.startswith("p99_") and stats.agrees(text, summ["max"] * scale):
        extra = " (the printed P99 is the maximum)"
    an.flag("samples", rec.section, "%s.%s" % (name, field),
            "printed %s, recomputed %.6g from %d raw samples%s" % (text, value, summ["n"], extra))


def _derived(an, rec, name, ns, summ, unit):
    """The latency line's derived fields, from the samples in ns."""
    to_ns = UNIT_NS[unit]
    p50, p99, top = summ["p50"] * to_ns, summ["p99"] * to_ns, summ["max"] * to_ns
    line = rec.num("line_ns")
    char = num(an.log.manifest.get("char_ns"))
    want = {"slow_gt10ms": sum(1 for v in ns if v > SLOW_NS)}
    if line:
        want["slow_over_line_plus10ms"] = sum(1 for v in ns if v > line + SLOW_NS)
        want["max_line_ratio"] = top / line
    if p50:
        want["p99_p50_ratio"], want["max_p50_ratio"] = p99 / p50, top / p50
    if char:
        want["p50_chars"], want["p99_chars"] = p50 / char, p99 / char
    for field, value in want.items():
        text = rec.get(field)
        exact = field.startswith("slow_")  # counts of samples
        if text is not None and not (num(text) == value if exact else stats.agrees(text, value)):
            an.flag("samples", rec.section, "%s.%s" % (name, field),
                    "printed %s, the raw samples give %.6g" % (rec.get(field), value))


def _s43_groups(log, an):
    """S43 group summaries and their sample[i] from each group's slice of the series."""
    for phase in s43_phases(log):
        series = log.samples.get("s43-" + phase)
        summaries = log.records("S43", kind="s43-%s-group-summary" % phase)
        groups = log.records("S43", kind="diag", tag="s43-%s-group" % phase)
        if series is None or series.gaps or not summaries:
            continue
        first = 0
        for i, rec in enumerate(summaries):
            n = int(rec.num("n") or 0)
            part = series.values[first:first + n]
            name = "s43-%s-group-summary(group=%d)" % (phase, i + 1)
            check(an, rec, name, part, series)
            if i < len(groups):
                for k in range(3):
                    text = groups[i].get("sample[%d]" % k)
                    if text is not None and (k >= len(part) or num(text) != part[k]):
                        an.flag("samples", "S43", "%s.sample[%d]" % (ident(groups[i], "group"), k),
                                "printed %s, the series holds %s"
                                % (text, part[k] if k < len(part) else "nothing"))
            first += n
