"""Raw sample series and histogram lines of a log (called by parse.py).

`samples tag= unit= first= values=` lines join into one Series per tag in
order of first=; `hist` lines become Hist objects. Bad lines are warned
about and left out, never raised on.
"""

import math
import re

from .model import Hist, Series

VALUES_RE = re.compile(r"^-?[0-9]+(?:\.[0-9]+)?$")
MAX_SAMPLES_PER_LINE = 32
MAX_UINT_DIGITS = 18  # counts, indices, sizes: anything longer is damage


def add_samples(log, rec):
    """Append one `samples` line to its Series (called by parse.py)."""
    tag, unit, first = rec.get("tag"), rec.get("unit", ""), rec.get("first")
    values_text = rec.get("values")
    if not tag or first is None or values_text is None or uint(first) is None:
        log.warn(rec.line, "samples line without tag=, first= or values= ignored")
        return
    items = [v for v in values_text.split(",") if v != ""]
    if not all(VALUES_RE.match(v) for v in items):
        log.warn(rec.line, "samples tag=%s: non-numeric value, line ignored" % tag)
        return
    if not all(math.isfinite(float(v)) for v in items):  # e.g. 400 digits
        log.warn(rec.line, "samples tag=%s: value out of range, line ignored" % tag)
        return
    if len(items) > MAX_SAMPLES_PER_LINE:
        log.warn(rec.line, "samples tag=%s: %d values on one line (limit %d)"
                 % (tag, len(items), MAX_SAMPLES_PER_LINE))
    values = [float(v) if "." in v else int(v) for v in items]
    series = log.samples.get(tag)
    if series is None:
        series = log.samples[tag] = Series(tag=tag, unit=unit)
    elif unit != series.unit:
        log.warn(rec.line, "samples tag=%s: unit %s differs from %s, line ignored"
                 % (tag, unit, series.unit))
        return
    series.chunks.append((uint(first), values, rec.line))
    _rebuild(series)


def add_hist(log, rec):
    """Store one `hist` line in log.hists (called by parse.py)."""
    tag = rec.get("tag")
    if not tag:
        log.warn(rec.line, "hist line without tag= ignored")
        return
    counts = {}
    for item in (rec.get("counts") or "").split(","):
        idx, sep, cnt = item.partition(":")
        if not item:
            continue
        if not sep or uint(idx) is None or uint(cnt) is None:
            log.warn(rec.line, "hist tag=%s: bad bucket %r ignored" % (tag, item[:20]))
            continue
        counts[uint(idx)] = counts.get(uint(idx), 0) + uint(cnt)
    overflow = rec.get("overflow", "0")
    nb = rec.get("nbuckets", "")
    log.hists[tag] = Hist(tag=tag, line=rec.line, bucket_ns=rec.num("bucket_ns"),
                          nbuckets=uint(nb), overflow=uint(overflow) or 0, counts=counts,
                          section=rec.section)


def uint(text):
    """text as an int when it is 1 to MAX_UINT_DIGITS ASCII digits, else None.

    str.isdigit() alone also accepts digits int() rejects ("\u00b2") and
    lengths int() refuses to convert (over 4300 digits).
    """
    if text and len(text) <= MAX_UINT_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def _rebuild(series):
    """Concatenate a Series' chunks in order of `first`, noting gaps and overlaps."""
    series.values, series.gaps = [], []
    for first, values, line in sorted(series.chunks, key=lambda c: (c[0], c[2])):
        have = len(series.values)
        if first > have:
            series.gaps.append("indices %d..%d missing before line %d" % (have, first - 1, line))
        elif first < have:
            series.gaps.append("line %d repeats indices from %d" % (line, first))
            series.values = series.values[:first]
        series.values.extend(values)
