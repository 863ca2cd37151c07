"""S41 CPU work, S42 compute overlap and S43 overshoot, from the rounds printed.

Called by recompute.analyze(). S41 and S42 print one line per round and a
summary of medians over the valid rounds (`median_rule=mean-of-middle-pair`,
the default): every `median_<key>` is recomputed from the rounds' `<key>`,
and each S41 round's instructions_per_byte from instret_delta / completed.
"""

from . import stats
from .analysis import NOT_RECOMPUTABLE, ident, s43_phases, s43_settings

RULES = ("mean-of-middle-pair", "lower-middle", "upper-middle")


def median(values, rule="mean-of-middle-pair"):
    """Median of values under a summary's median_rule (None if empty)."""
    vals = sorted(values)
    if not vals or rule == "mean-of-middle-pair":
        return stats.median(vals)
    mid = len(vals) // 2
    if len(vals) % 2:
        return vals[mid]
    return vals[mid - 1] if rule == "lower-middle" else vals[mid]


def s41_valid(rec):
    """True for an S41 round that the summary counts (all bytes sent, no error)."""
    return rec.get("completed") == rec.get("expected", rec.get("completed")) and \
        rec.get("drain_rc", "0") == "0" and rec.get("write_rc", "0") == "0"


def _medians(an, section, summary, rounds, name):
    """Compare each median_<key> of summary with the median of the rounds' <key>."""
    rule = summary.get("median_rule", RULES[0])
    if rule not in RULES:
        an.flag("arithmetic", section, name + ".median_rule",
                "unknown rule %r: medians not recomputed" % rule)
        return {}
    out = {}
    for key, text in summary.kv.items():
        if not key.startswith("median_") or key == "median_rule":
            continue
        values = [r.num(key[len("median_"):]) for r in rounds]
        if None in values:
            continue
        out[key[len("median_"):]] = value = median(values, rule)
        if value is not None and not stats.agrees(text, value):
            an.flag("arithmetic", section, "%s.%s" % (name, key),
                    "printed %s, %s of %d rounds is %.6g" % (text, rule, len(rounds), value))
    if "valid_rounds" in summary.kv and summary.get("valid_rounds") != str(len(rounds)):
        an.flag("arithmetic", section, name + ".valid_rounds",
                "printed %s, %d valid round lines" % (summary.get("valid_rounds"), len(rounds)))
    return out


def s41(log, an):
    """S41: per-round instructions per byte, medians per size over valid rounds."""
    valid = {}
    for rec in log.records("S41", kind="diag", tag="s41-valid"):
        size = rec.get("size", "?")
        entry = an.s41.setdefault(size, {"rounds": {}, "printed": {}, "median": {}})
        if s41_valid(rec):
            valid.setdefault(size, []).append(rec)
            for key, value in rec.kv.items():
                if rec.num(key) is not None and key not in ("size", "round"):
                    entry["rounds"].setdefault(key, []).append(rec.num(key))
        done = rec.num("completed") or rec.num("expected")
        ipb = rec.get("instructions_per_byte")
        delta = rec.value("instret_delta")
        if done and delta is not None and ipb is not None and not stats.agrees(ipb, delta / done):
            an.flag("arithmetic", "S41", ident(rec, "size", "round") + ".instructions_per_byte",
                    "printed %s, %s / completed = %.2f" % (ipb, rec.name("instret_delta"),
                                                            delta / done))
    for rec in log.records("S41", kind="diag", tag="s41-summary"):
        size = rec.get("size", "?")
        entry = an.s41.setdefault(size, {"rounds": {}, "printed": {}, "median": {}})
        entry["printed"] = {k[len("median_"):]: v for k, v in rec.kv.items()
                            if k.startswith("median_") and k != "median_rule"}
        entry["median"] = _medians(an, "S41", rec, valid.get(size, []), ident(rec, "size"))
    for size, entry in an.s41.items():
        if not entry["median"]:
            entry["median"] = {k: stats.median(v) for k, v in entry["rounds"].items()}
    _s41_phases(log, an, valid)


PHASE_TOTAL = ("isr", "other_tasks", "wire_model")   # beside the design's own phases


def _s41_phases(log, an, valid):
    """S41 `diag=s41-phases` (a design with CPU sub-accounts): instructions per
    byte of each phase in each valid round; they add up to instret_delta (the
    round's snapshots take a few instructions of their own: 0.1 % allowed)."""
    rounds = {(r.get("size"), r.get("round")): r for recs in valid.values() for r in recs}
    for rec in log.records("S41", kind="diag", tag="s41-phases"):
        vr = rounds.get((rec.get("size"), rec.get("round")))
        if vr is None or not vr.num("completed"):
            continue
        parts = {k: rec.num(k) for k in rec.kv if k not in ("diag", "size", "round", "unit")}
        if None in parts.values():
            an.flag("arithmetic", "S41", ident(rec, "size", "round"), "a phase is not a number")
            continue
        delta, total = vr.value("instret_delta"), sum(parts.values())
        if delta is not None and abs(total - delta) > max(200, delta / 1000):
            an.flag("arithmetic", "S41", ident(rec, "size", "round"),
                    "phases add up to %d instructions, the round's instret_delta is %d"
                    % (total, delta))
        per = an.s41_phases.setdefault(rec.get("size"), {})
        for key, value in parts.items():
            per.setdefault(key, []).append(value / vr.num("completed"))


def s42(log, an):
    """S42: medians over the PASS sample rounds against the summary."""
    rounds = [r for r in log.records("S42", kind="diag", tag="s42-sample")
              if r.get("completion", "PASS") == "PASS" and r.num("overlap_efficiency") is not None]
    summary = log.records("S42", kind="diag", tag="s42-summary")
    idle = log.records("S42", kind="idle")
    if not rounds and not summary:
        return
    eff = stats.median([r.num("overlap_efficiency") for r in rounds]) if rounds else None
    if summary:
        got = _medians(an, "S42", summary[0], rounds, "s42-summary")
        eff = got.get("overlap_efficiency", eff)
    wr = stats.median([r.num("write_return_us") for r in rounds
                       if r.num("write_return_us") is not None])
    an.s42 = {"rounds": len(rounds), "median": eff,
              "printed": summary[0].get("median_overlap_efficiency") if summary else None,
              "write_return_us": wr, "idle_iters": idle[0].get("iters") if idle else None}


def s43(log, an):
    """S43: idle/loaded (and further phases') overshoot from aggregates, raw
    samples when present; each phase's timer settings."""
    an.s43_settings = s43_settings(log)
    for phase in s43_phases(log):
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
