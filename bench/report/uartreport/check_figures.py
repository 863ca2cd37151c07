"""Checks of payload witnesses and raw samples (called by check.check_log()).

witnesses: every witness our sections print is there once, its CRC-32 and
length match the bytes between its markers, and its byte count is what the
section sends for the manifest's sizes and scale; one left without its end
marker by a section the runner stopped (TIMEOUT) is noted, not a finding,
and so is one without payload bytes in a log whose payloads went to the
far end of a tty (witness_bytes=far-end: a Linux run; the far end's
capture is checked against the markers). samples: every summary is
recomputed from its raw samples (distrib.py), and a summary of ours printed
without them is a finding.
"""

from . import check_expect as expect
from . import distrib
from .analysis import P99_IS_MAX

RAN = ("PASS", "INVALID")


def witnesses(ctx):
    """Payload witnesses: present, once, CRC and length, bytes the section sent."""
    log = ctx.log
    if not log.payloads and not ctx.ours:
        ctx.na("the %s format prints no payload witness" % expect.flavor(log))
        return
    far = log.manifest.get("witness_bytes") == "far-end"
    elsewhere = []
    for pay in log.payloads:
        verdict, detail = pay.verdict()
        if verdict != "match" and not pay.ended and ctx.status(pay.section) == "TIMEOUT":
            ctx.note("%s: payload witness %s cut by the section's TIMEOUT" % (pay.section,
                                                                              pay.tag))
        elif far and pay.ended and pay.data is None:
            elsewhere.append(pay.tag)
        elif verdict != "match":
            ctx.fail(pay.section, "payload-end=" + pay.tag, "%s: %s" % (verdict, detail))
    if elsewhere:
        ctx.note("witnesses: %d hold no payload bytes here (witness_bytes=far-end: the "
                 "payload went to the tty; its far end's capture holds the witnesses whole)"
                 % len(elsewhere))
    if not ctx.ours:
        return
    for sid, wanted in expect.witnesses(log).items():
        if sid not in log.sections or ctx.status(sid) not in RAN:
            continue
        found = {}
        for pay in log.payloads:
            if pay.section == sid:
                found.setdefault(pay.tag, []).append(pay)
        for tag, size, exact in wanted:
            pays = found.pop(tag, [])
            if not pays:
                ctx.fail(sid, "payload-begin=" + tag, "payload witness missing")
                continue
            if len(pays) > 1:
                ctx.fail(sid, "payload-begin=" + tag,
                         "payload witness printed %d times" % len(pays))
            got = pays[0].expected_bytes
            if got is not None and (got != size if exact else got < size):
                ctx.fail(sid, "payload-end=%s.bytes" % tag, "%d, but the section sends %s%d "
                         "bytes for the manifest's sizes and scale" % (got, "" if exact else
                                                                       "at least ", size))
        for tag in found:
            ctx.note("%s: payload witness %s is not one the suite prints" % (sid, tag))
    _written(ctx)


def _written(ctx):
    """Each TX record's witness holds the bytes the record counts (all of
    them: what a loop cut by a failed write wrote too, whatever the status):
    the S10-S14 policy lines, S33's diag=s33-tx."""
    log = ctx.log
    counted = [(sid, rec, expect.policy_witness(sid, rec.get("size")), "its policy line")
               for sid in expect.POLICY_WITNESS for rec in log.records(sid, kind="policy")]
    counted += [("S33", rec, "s33-tx", "diag=s33-tx")
                for rec in log.records("S33", kind="diag", tag="s33-tx")]
    for sid, rec, tag, what in counted:
        pays = [p for p in log.payloads if p.section == sid and p.tag == tag]
        got = pays[0].expected_bytes if pays else None
        if got is not None and rec.num("bytes") is not None and got != rec.num("bytes"):
            ctx.fail(sid, "payload-end=%s.bytes" % tag, "%d, but %s counts bytes=%s"
                     % (got, what, rec.get("bytes")))


def _summaries(log):
    """(record, series tag) of every summary in the log, S43 group summaries included."""
    out = []
    for sid in log.order:
        for rec in log.sections[sid].records:
            if rec.kind == "diag" and rec.tag and distrib.is_summary(rec):
                series = distrib.series_for(log, rec.tag)
                out.append((rec, series.tag if series else rec.tag.replace("-aggregate", "")))
            elif rec.kind.startswith("s43-") and rec.kind.endswith("-group-summary"):
                out.append((rec, rec.kind[:-len("-group-summary")]))
    return out


def samples(ctx):
    """Summaries against their raw samples; ours must print the samples."""
    log = ctx.log
    ctx.flags("samples")
    if not log.samples and not ctx.ours:
        ctx.na("the %s format prints no raw samples" % expect.flavor(log))
        tied = [t for t, lat in ctx.an.latency.items() if P99_IS_MAX in lat.marks.get("p99", ())]
        if tied:
            ctx.note("known defect of the %s benchmark: %d summaries print P99 = max (%s%s)"
                     % (expect.flavor(log), len(tied), ", ".join(tied[:4]),
                        " ..." if len(tied) > 4 else ""))
        return
    for rec, tag in _summaries(log):
        name = rec.tag or rec.kind
        if tag not in log.samples:
            ctx.fail(rec.section, name + ".samples", "summary printed without its raw samples "
                     "(samples tag=%s)" % tag)
    for tag, hist in log.hists.items():
        if tag not in log.samples:
            ctx.fail(hist.section, "hist(%s)" % tag, "histogram printed without its raw samples")
    if not ctx.ours:
        return
    it = expect.number(log, "iters")
    want = {"S10": it, "S14": it, "S20": expect.number(log, "tx_latency_iters", it),
            "S21": expect.number(log, "fifo_matrix_iters", it)}
    groups, per = expect.number(log, "s43_groups"), expect.number(log, "s43_samples")
    if groups and per:
        want["S43"] = groups * per
    for rec, _ in _summaries(log):
        n = want.get(rec.section)
        if rec.kind == "diag" and n is not None and ctx.status(rec.section) in RAN \
                and rec.get("n") != str(n):
            ctx.fail(rec.section, rec.tag + ".n", "%s samples, the manifest's scale gives %d"
                     % (rec.get("n"), n))
