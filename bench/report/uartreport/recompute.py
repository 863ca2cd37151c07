"""Recompute figures from raw data and check them against the printed ones.

analyze(log) returns an Analysis: latency summaries (recomputed from raw
samples when present), true line rates, S41 medians, S42 overlap, S43
overshoot, payload CRC verdicts, histogram checks, notes and flags. It reads
a model.Log and never raises on odd content.
"""

import math

from . import distrib, starry, stats, work
from .analysis import P99_IS_MAX, Analysis, LineRate, ident
from .distrib import UNIT_NS


def analyze(log):
    """Build the Analysis of one parsed log."""
    rate, why = starry.baud(log)
    an = Analysis(log=log, baud=rate, baud_note=why, char_ms=10000.0 / rate)
    for step in (distrib.latencies, _line_rates, work.s41, work.s42, work.s43, _payloads,
                 _hists, _context):
        try:
            step(log, an)
        except Exception as exc:  # keep the rest of the report
            log.internal(0, "cannot analyse (%s)" % step.__name__.strip("_"), exc)
    return an


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
                an.flag("arithmetic", sid, ident(rec, "size") + ".line_rate_pct",
                        "printed %s, recomputed %.3f %% (%s against %.1f / 10)"
                        % (printed, pct, method, an.baud))


def _payloads(log, an):
    """Payload witnesses: CRC32 and length of the payload line vs payload-end."""
    for pay in log.payloads:
        verdict, detail = pay.verdict()
        an.payloads.append((pay.tag, verdict, detail))
        if verdict == "mismatch":
            an.flag("witnesses", pay.section or "-", "payload-end=" + pay.tag,
                    "CRC/length mismatch: " + detail)


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
            an.flag("samples", hist.section or "-", "hist(%s).counts" % tag,
                    "line %d disagrees with the histogram of its %d raw samples"
                    % (hist.line, len(series.values)))


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
        if qemu and log.line_point() is None:
            an.notes.append("No wire model: QEMU's UART sends at once, line rates above 100 % "
                            "are not physical.")
    if qemu and log.flavor == "starryos":
        an.notes.append("QEMU's UART sends at once (no wire model): line rates above 100 % "
                        "are not physical.")
