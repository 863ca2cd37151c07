"""Recompute figures from raw data and check them against the printed ones.

analyze(log) returns an Analysis: latency summaries (recomputed from raw
samples when present), true line rates, S41 medians, S42 overlap, S43
overshoot, payload CRC verdicts, histogram checks, notes and flags. It reads
a model.Log and never raises on odd content.
"""

from dataclasses import dataclass, field
import math

from . import starry, stats
from .model import num

LAT_KEYS = ("avg", "p50", "p95", "p99", "max")
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
NOT_RECOMPUTABLE = "‡"
DISAGREE = "!"
P99_IS_MAX = "†"


@dataclass
class Lat:
    """A latency summary in ms: printed values, recomputed values, marks."""

    section: str
    tag: str
    n: int | None
    printed: dict = field(default_factory=dict)  # key -> printed text
    printed_unit: str = "ms"
    values: dict = field(default_factory=dict)  # key -> ms (recomputed if raw, else printed)
    source: str = "printed"  # "raw" or "printed"
    samples_ms: list = field(default_factory=list)
    marks: dict = field(default_factory=dict)  # key -> set of mark characters

    def mark(self, key, symbol):
        """Attach a mark (see module constants) to one figure."""
        self.marks.setdefault(key, set()).add(symbol)


@dataclass
class LineRate:
    """One throughput record converted to bytes/s and true line rate."""

    section: str
    policy: str
    size: str
    bytes_per_s: float | None
    pct_true: float | None
    pct_printed: str | None
    method: str


@dataclass
class Analysis:
    """All derived figures of one log."""

    log: object
    baud: float
    baud_note: str
    char_ms: float
    latency: dict = field(default_factory=dict)  # tag -> Lat
    line_rates: list = field(default_factory=list)
    s41: dict = field(default_factory=dict)  # size -> dict
    s42: dict | None = None
    s43: dict = field(default_factory=dict)  # "idle"/"loaded" -> Lat
    s43_recomputable: str = ""
    payloads: list = field(default_factory=list)  # (tag, verdict, detail)
    notes: list = field(default_factory=list)
    flags: list = field(default_factory=list)


def analyze(log):
    """Build the Analysis of one parsed log."""
    rate, why = starry.baud(log)
    an = Analysis(log=log, baud=rate, baud_note=why, char_ms=10000.0 / rate)
    for step in (_latencies, _line_rates, _s41, _s42, _s43, _payloads, _hists, _context):
        try:
            step(log, an)
        except Exception as exc:  # keep the rest of the report
            log.warn(0, "cannot analyse (%s): %r" % (step.__name__.strip("_"), exc))
    return an


def _series_for(log, tag):
    """Return the raw Series belonging to a latency tag, or None."""
    for cand in (tag, tag[:-len("-aggregate")] if tag.endswith("-aggregate") else None):
        if cand and cand in log.samples:
            return log.samples[cand]
    return None


def _latencies(log, an):
    """Latency records (diag=<tag> n=.. p50_ms=..): recompute from raw samples."""
    for sid in log.order:
        for rec in log.sections[sid].records:
            if rec.kind != "diag" or not rec.is_latency() or not rec.tag:
                continue
            an.latency[rec.tag] = _latency(log, an, rec)


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
    series = _series_for(log, rec.tag)
    if series is not None:
        _check_raw(log, an, rec, lat, series, unit)
    elif "p99" in lat.printed and lat.printed.get("p99") == lat.printed.get("max") \
            and (lat.n or 0) >= 2:
        lat.mark("p99", P99_IS_MAX)
    return lat


def _check_raw(log, an, rec, lat, series, unit):
    """Recompute lat from series and flag printed figures that disagree."""
    if series.unit not in UNIT_NS:
        an.notes.append("samples tag=%s: unit %r is not a time unit, %s not recomputed"
                        % (series.tag, series.unit, rec.tag))
        return
    if series.gaps or (lat.n is not None and len(series.values) != lat.n):
        an.flags.append("%s %s: raw series has %d of n=%s samples (%s); not recomputed"
                        % (rec.section, rec.tag, len(series.values), rec.get("n"),
                           "; ".join(series.gaps) or "count differs"))
        return
    summ = stats.summary(series.values)
    if summ is None:
        return
    scale = UNIT_NS[series.unit] / UNIT_NS[unit]  # series unit -> printed unit
    lat.source = "raw"
    lat.samples_ms = [v * UNIT_NS[series.unit] / 1e6 for v in series.values]
    for key in LAT_KEYS + ("min",):
        value = summ[key] * scale
        lat.values[key] = value * (1.0 if unit == "ms" else 1e-6)
        text = lat.printed.get(key)
        if text is not None and not stats.agrees(text, value):
            lat.mark(key, DISAGREE)
            extra = ""
            if key == "p99" and stats.agrees(text, summ["max"] * scale):
                extra = " (the printed P99 is the maximum)"
            an.flags.append("%s %s: printed %s_%s=%s, recomputed %.6g from %d raw samples%s"
                            % (rec.section, rec.tag, key, unit, text, value, summ["n"], extra))


def _line_rates(log, an):
    """S10-S14 policy records -> bytes/s and line rate against baud/10."""
    wire_bps = an.baud / 10.0
    starryos = log.flavor == "starryos"
    for sid in ("S10", "S11", "S12", "S13", "S14"):
        for rec in log.records(sid, kind="policy"):
            size = rec.get("size") or rec.get("total_size") or "?"
            bps, method = None, ""
            if rec.num("bytes") and rec.num("elapsed_ns") and not starryos:
                bps, method = rec.num("bytes") * 1e9 / rec.num("elapsed_ns"), "bytes / elapsed_ns"
            elif rec.num("bytes_per_s") is not None and not starryos:
                bps, method = rec.num("bytes_per_s"), "bytes_per_s"
            elif starryos and rec.num("kbps") is not None:
                bps, method = rec.num("kbps") * 1024.0, "kbps x 1024"
            elif rec.num("bytes") and rec.num("elapsed_ms"):
                bps, method = rec.num("bytes") * 1000.0 / rec.num("elapsed_ms"), "bytes / elapsed_ms"
            elif rec.num("bytes") and rec.num("enqueue_ms") is not None \
                    and rec.num("final_drain_ms") is not None \
                    and rec.num("enqueue_ms") + rec.num("final_drain_ms") > 0:
                total = rec.num("enqueue_ms") + rec.num("final_drain_ms")
                bps, method = rec.num("bytes") * 1000.0 / total, "bytes / (enqueue_ms + final_drain_ms)"
            pct = 100.0 * bps / wire_bps if bps is not None else None
            printed = rec.get("line_rate_pct")
            lr = LineRate(sid, rec.tag or "", size, bps, pct, printed, method)
            an.line_rates.append(lr)
            if pct is not None and printed is not None and not starryos \
                    and not stats.agrees(printed, pct):
                an.flags.append("%s %s size=%s: printed line_rate_pct=%s, recomputed %.3f %% "
                                "(%s against %.1f / 10)" % (sid, lr.policy, size, printed,
                                                             pct, method, an.baud))


def _s41(log, an):
    """S41: medians of instructions/cycles per byte and CPU use over rounds."""
    for rec in log.records("S41", kind="diag", tag="s41-valid"):
        size = rec.get("size", "?")
        entry = an.s41.setdefault(size, {"rounds": {}, "printed": {}})
        for key in ("instructions_per_byte", "cycles_per_byte", "cpu_util_pct"):
            if rec.num(key) is not None:
                entry["rounds"].setdefault(key, []).append(rec.num(key))
        done = rec.num("completed") or rec.num("expected")
        ipb = rec.get("instructions_per_byte")
        if done and rec.num("instret_delta") is not None and ipb is not None \
                and not stats.agrees(ipb, rec.num("instret_delta") / done):
            an.flags.append("S41 size=%s round=%s: instret_delta/bytes = %.2f, printed "
                            "instructions_per_byte=%s" % (size, rec.get("round"),
                                                          rec.num("instret_delta") / done, ipb))
    for rec in log.records("S41", kind="diag", tag="s41-summary"):
        entry = an.s41.setdefault(rec.get("size", "?"), {"rounds": {}, "printed": {}})
        for key, value in rec.kv.items():
            if key.startswith("median_"):
                entry["printed"][key[len("median_"):]] = value
    for size, entry in an.s41.items():
        entry["median"] = {k: stats.median(v) for k, v in entry["rounds"].items()}
        for key, text in entry["printed"].items():
            value = entry["median"].get(key)
            if value is not None and not stats.agrees(text, value):
                an.flags.append("S41 size=%s: printed median_%s=%s, median of %d rounds is %.2f"
                                % (size, key, text, len(entry["rounds"][key]), value))


def _s42(log, an):
    """S42: median overlap efficiency over the sample rounds."""
    rounds = [r for r in log.records("S42", kind="diag", tag="s42-sample")
              if r.get("completion", "PASS") == "PASS" and r.num("overlap_efficiency") is not None]
    summary = log.records("S42", kind="diag", tag="s42-summary")
    idle = log.records("S42", kind="idle")
    if not rounds and not summary:
        return
    eff = stats.median([r.num("overlap_efficiency") for r in rounds]) if rounds else None
    printed = summary[0].get("median_overlap_efficiency") if summary else None
    wr = stats.median([r.num("write_return_us") for r in rounds
                       if r.num("write_return_us") is not None])
    an.s42 = {"rounds": len(rounds), "median": eff, "printed": printed,
              "write_return_us": wr,
              "idle_iters": idle[0].get("iters") if idle else None}
    if eff is not None and printed is not None and not stats.agrees(printed, eff):
        an.flags.append("S42: printed median_overlap_efficiency=%s, median of %d rounds is %.4f"
                        % (printed, len(rounds), eff))


def _s43(log, an):
    """S43: idle/loaded overshoot from aggregates, raw samples when present."""
    for phase in ("idle", "loaded"):
        lat = an.latency.get("s43-%s-aggregate" % phase)
        if lat is None:
            continue
        an.s43[phase] = lat
        if lat.source == "raw":
            continue
        groups = log.records("S43", kind="diag", tag="s43-%s-group" % phase)
        shown = sum(1 for g in groups for k in g.kv if k.startswith("sample["))
        total = sum(int(g.num("collected") or 0) for g in groups)
        per = (shown // len(groups), int(total // len(groups))) if groups else (0, 0)
        for key in lat.printed:
            lat.mark(key, NOT_RECOMPUTABLE)
        an.s43_recomputable = ("not recomputable (%d of %d samples)" % per if groups
                               else "not recomputable (no raw samples)")
    if an.s43 and all(l.source == "raw" for l in an.s43.values()):
        an.s43_recomputable = "recomputed from %s raw samples" % " + ".join(
            str(len(l.samples_ms)) for l in an.s43.values())
    elif an.s43:
        an.notes.append("S43 percentiles are printed by the kernel and %s: they cannot be "
                        "checked." % an.s43_recomputable)


def _payloads(log, an):
    """Payload witnesses: CRC32 and length of the payload line vs payload-end."""
    for pay in log.payloads:
        verdict, detail = pay.verdict()
        an.payloads.append((pay.tag, verdict, detail))
        if verdict == "mismatch":
            an.flags.append("payload %s: CRC/length mismatch: %s" % (pay.tag, detail))


def _hists(log, an):
    """Compare each hist line with the histogram of its raw samples."""
    for tag, hist in log.hists.items():
        series = log.samples.get(tag)
        if series is None or series.unit not in UNIT_NS or not hist.bucket_ns:
            an.notes.append("hist tag=%s: %d samples counted, no raw series to check it"
                            % (tag, hist.total()))
            continue
        counts, overflow = {}, 0
        for v in series.values:
            idx = v * UNIT_NS[series.unit] // hist.bucket_ns
            if not math.isfinite(idx):  # past every bucket (tiny bucket_ns, huge v)
                overflow += 1
                continue
            idx = int(idx)
            if hist.nbuckets is not None and idx >= hist.nbuckets:
                overflow += 1
            else:
                counts[idx] = counts.get(idx, 0) + 1
        if counts != hist.counts or overflow != hist.overflow:
            an.flags.append("hist tag=%s (line %d) disagrees with the histogram of its %d raw "
                            "samples" % (tag, hist.line, len(series.values)))


def _context(log, an):
    """Notes about conversions and measurement conditions of this log."""
    man = log.manifest
    qemu = not log.is_d1() and (log.flavor == "starryos" or man.get("board", "").startswith("qemu"))
    if log.flavor == "starryos":
        if any(lr.method == "kbps x 1024" for lr in an.line_rates):
            an.notes.append(
                "Line rate converted: the log's kbps is KiB/s and its line_rate_pct is kbps/11.52 "
                "(\"100 %%\" = 11796.5 B/s). Shown: bytes_per_s = kbps x 1024, line rate = "
                "bytes_per_s / (%.1f / 10) (%s)." % (an.baud, an.baud_note))
        tied = [l.tag for l in an.latency.values() if P99_IS_MAX in l.marks.get("p99", ())]
        if tied:
            an.notes.append("%d latency summaries print P99 = max (%s): the StarryOS P99 of 100 "
                            "samples is the maximum, not the 99th value." % (len(tied), P99_IS_MAX))
        if qemu and "S41" in log.sections:
            an.notes.append("S41 instret on QEMU counts host ticks unless QEMU ran with -icount; "
                            "the log does not say which.")
    else:
        tied = [l.tag for l in an.latency.values() if P99_IS_MAX in l.marks.get("p99", ())]
        if tied:
            an.notes.append("%d latency summaries without raw samples print P99 = max (%s): "
                            "cannot tell whether it is the 99th value." % (len(tied), P99_IS_MAX))
    if log.flavor == "ours":
        if qemu and man.get("qemu_mode") not in (None, "icount"):
            an.notes.append("qemu_mode=%s: instret and time are host noise, not guest work."
                            % man.get("qemu_mode"))
        if qemu and man.get("wire_model") in ("off", None):
            an.notes.append("No wire model: QEMU's 16550 sends at once, line rates above 100 % "
                            "are not physical.")
    if qemu and log.flavor == "starryos":
        an.notes.append("QEMU's 16550 sends at once (no wire model): line rates above 100 % "
                        "are not physical.")
