"""Per-record arithmetic and physical bounds (called by check.check_log()).

arithmetic: every figure a record prints that follows from other printed
figures (RULES, one row per figure), the S31 and S43 relations, StarryOS'
own line-rate formula, and the Analysis' flags (line_rate_pct, S41
instructions per byte, S41/S42 medians). bounds: what physics allows
(line rate, latency, overlap efficiency, CPU work).
"""

from . import check_expect as expect
from . import check_rx, series, stats
from .analysis import ident, s43_phases
from .model import num

TPUT = ("S10", "S12", "S13", "S14")
# Figures that are whole-number arithmetic of whole numbers: no rounding allowed.
EXACT = ("bytes", "user_bytes", "total_size", "drain_calls", "drains", "expected_bytes",
         "instret_delta")
# S41's cpu_util_pct as the kernel takes it (its s41-method line's cpu_util=).
CYCLES_UTIL = "non-idle-cycles/window"
# Counts of a TX loop that a failed write (write_errno != 0) ends early: at most the figure.
CUT_BY_ERROR = ("bytes", "user_bytes", "drain_calls")


class _Missing(Exception):
    """An input of a rule is not in the record (the rule does not apply)."""


def _getter(rec, extra, bump=None):
    """get(key): rec's number for key (or its new name), else extra[key], else _Missing.

    get.decimals maps each input printed with decimals to one unit of its
    last digit (what rounding may have taken from it); bump (key, delta)
    adds delta to that input.
    """
    decimals = {}

    def get(key):
        """One input of a rule."""
        text = rec.get(rec.name(key))
        text = extra.get(key) if text is None else text
        value = num(text) if isinstance(text, str) else text
        if value is None:
            raise _Missing(key)
        if isinstance(text, str) and "." in text:
            decimals[key] = stats.print_tolerance(text)
        return value + bump[1] if bump and bump[0] == key else value
    get.decimals = decimals
    return get


def _slack(formula, rec, extra, value, decimals):
    """How far formula's value may be off from its inputs' rounding (one unit each)."""
    return sum(abs(formula(_getter(rec, extra, (key, tol))) - value)
               for key, tol in decimals.items())


def _div(a, b):
    """a / b, the rule does not apply when b is 0."""
    if not b:
        raise _Missing("zero")
    return a / b


_LINE = [
    ("bytes_per_s", lambda g: _div(g("bytes") * 1e9, g("elapsed_ns")), "bytes x 1e9 / elapsed_ns"),
    ("kbps", lambda g: _div(g("bytes") * 1e6, g("elapsed_ns")), "bytes x 1e6 / elapsed_ns (kB/s)"),
    ("elapsed_ms", lambda g: g("elapsed_ns") / 1e6, "elapsed_ns / 1e6"),
    ("line_time_ns", lambda g: _div(g("bytes") * 1e13, g("line_baud_milli")),
     "10 bits x bytes at line_baud_milli"),
    ("line_time_ms", lambda g: _div(g("bytes") * 1e7, g("line_baud_milli")),
     "10 bits x bytes at line_baud_milli, in ms"),
]
# (sections, kind, tag, flavours, figure, formula(get), how)
RULES = [((s,), "policy", None, ("ours",)) + r for s in TPUT + ("S11",) for r in _LINE] + [
    (TPUT[:2] + ("S14", "S11"), "policy", None, ("ours",), "bytes",
     lambda g: g("size") * g("iters"), "size x iters"),
    (("S13",), "policy", None, ("starryos",), "bytes",
     lambda g: g("total_size") * g("iters"), "total_size x iters"),
    (("S13",), "policy", None, ("ours",), "bytes",
     lambda g: g("wire_bytes_per_write") * g("iters"), "wire_bytes_per_write x iters"),
    (("S13",), "policy", None, ("ours",), "user_bytes",
     lambda g: g("total_size") * g("iters"), "total_size x iters"),
    (("S13",), "policy", None, ("ours", "starryos"), "total_size",
     lambda g: g("fragments") * g("fragment_size"), "fragments x fragment_size"),
    (("S10", "S13", "S14"), "policy", None, ("ours", "starryos"), "drain_calls",
     lambda g: g("iters"), "one drain per write"),
    (("S12",), "policy", None, ("ours", "starryos"), "drains",
     lambda g: -(-g("iters") // g("batch")), "ceil(iters / batch)"),
    (("S12",), "policy", None, ("ours", "starryos"), "drain_calls", lambda g: g("drains"),
     "drains"),
    (("S11",), "policy", None, ("ours",), "enqueue_ms", lambda g: g("enqueue_ns") / 1e6,
     "enqueue_ns / 1e6"),
    (("S11",), "policy", None, ("ours",), "final_drain_ms", lambda g: g("final_drain_ns") / 1e6,
     "final_drain_ns / 1e6"),
    (("S11",), "policy", None, ("ours",), "enqueue_kbps",
     lambda g: _div(g("bytes") * 1e6, g("enqueue_ns")), "bytes x 1e6 / enqueue_ns"),
    (("S05",), "diag", "s05-ring", ("ours",), "kbps", lambda g: _div(g("bytes") * 1e6, g("ns")),
     "bytes x 1e6 / ns"),
    (("S05",), "diag", "s05-ring", ("ours",), "memcpy_kbps",
     lambda g: _div(g("bytes") * 1e6, g("memcpy_ns")), "bytes x 1e6 / memcpy_ns"),
    (("S05",), "diag", "s05-ring", ("ours",), "ring_over_memcpy",
     lambda g: _div(g("memcpy_ns"), g("ns")), "memcpy_ns / ns"),
    (("S06",), "diag", "s06-ring", ("ours",), "ring_mb_s",
     lambda g: _div(g("bytes") * 1e3, g("ring_ns")), "bytes x 1e3 / ring_ns"),
    (("S06",), "diag", "s06-ring", ("ours",), "memcpy_mb_s",
     lambda g: _div(g("bytes") * 1e3, g("memcpy_ns")), "bytes x 1e3 / memcpy_ns"),
    (("S06",), "diag", "s06-ring", ("ours",), "ring_over_memcpy",
     lambda g: _div(g("memcpy_ns"), g("ring_ns")), "memcpy_ns / ring_ns"),
    (("S41",), "s41-size", None, ("ours", "starryos"), "expected_bytes",
     lambda g: g("s41-size") * g("iters"), "size x iters"),
    (("S41",), "diag", "s41-valid", ("ours", "starryos"), "instret_delta",
     lambda g: g("instret_end") - g("instret_begin"), "instret_end - instret_begin"),
    (("S41",), "diag", "s41-valid", ("ours",), "instructions_per_write",
     lambda g: _div(g("instret_delta"), g("logical_writes")), "instret_delta / logical_writes"),
    (("S41",), "diag", "s41-valid", ("ours",), "cycles_per_byte",
     lambda g: _div(g("cycles_delta"), g("completed")), "cycles_delta / completed"),
    (("S41",), "diag", "s41-valid", ("ours",), "instructions_per_byte_excl_model",
     lambda g: _div(g("instret_delta") - g("wire_model_instret"), g("completed")),
     "(instret_delta - wire_model_instret) / completed"),
    (("S41",), "diag", "s41-valid", ("ours",), "cpu_util_pct",
     lambda g: _div((g("cycles_delta") - g("idle_cycles")) * 100, g("cycles_delta")),
     "(cycles_delta - idle_cycles) x 100 / cycles_delta"),
    (("S42",), "diag", ("s42-sample", "s42-warmup"), ("ours", "starryos"), "overlap_efficiency",
     lambda g: _div(g("useful_iters"), g("idle_iters")), "useful_iters / idle iters"),
    (("S42",), "diag", ("s42-sample", "s42-warmup"), ("ours", "starryos"),
     "total_over_line_ratio", lambda g: _div(g("total_duration_ms"), g("window_ms")),
     "total_duration_ms / idle window_ms"),
]


def _extra(log):
    """Inputs of rules that live in other records: line baud, S42 idle calibration."""
    idle = log.records("S42", kind="idle")
    out = {"line_baud_milli": expect.number(log, "line_baud_milli")}
    if idle:
        out["idle_iters"], out["window_ms"] = idle[0].num("iters"), idle[0].get("window_ms")
    return out


def arithmetic(ctx):
    """Printed figures that follow from other printed figures."""
    log = ctx.log
    ctx.flags("arithmetic")
    extra = _extra(log)
    cycles_util = _cycles_util(log)
    for sids, kind, tag, flavours, key, formula, how in RULES:
        if log.flavor not in flavours or key == "cpu_util_pct" and not cycles_util:
            continue
        tags = tag if isinstance(tag, tuple) else (tag,)
        for sid in sids:
            for rec in log.records(sid, kind=kind):
                printed = rec.name(key)
                if tag is not None and rec.tag not in tags or rec.get(printed) is None:
                    continue
                extra_rec = dict(extra, **{"s41-size": rec.value(rec.kind)})
                get = _getter(rec, extra_rec)
                try:
                    value = formula(get)
                    slack = _slack(formula, rec, extra_rec, value, get.decimals)
                except (_Missing, ArithmeticError):  # an input absent, or out of range
                    continue
                name = "%s.%s" % (ident(rec, "size", "round", "op", "chunk"), printed)
                if key in CUT_BY_ERROR and rec.get("write_errno", "0") != "0":
                    if rec.num(printed) is None or rec.num(printed) > value:
                        ctx.fail(sid, name, "printed %s, more than %s = %.6g, the most a loop cut "
                                 "by write_errno=%s can reach" % (rec.get(printed), how, value,
                                                                 rec.get("write_errno")))
                elif not (rec.num(printed) == value if key in EXACT else
                          stats.agrees(rec.get(printed), value, slack)):
                    ctx.fail(sid, name, "printed %s, %s = %.6g" % (rec.get(printed), how, value))
    if log.flavor == "ours":
        _s13(ctx)
    _s31(ctx)
    check_rx.arithmetic(ctx)
    _s41_counts(ctx)
    _s41_cpuwide(ctx)
    _s43(ctx)
    if log.flavor == "starryos":
        _starry_line_rate(ctx)


def _cycles_util(log):
    """Whether S41's cpu_util_pct is the kernel's non-idle cycles over the
    window's (s41-method cpu_util=; older logs print none), and not a Linux
    process's CPU time over the window's wall time (process-cputime/wall)."""
    method = log.records("S41", kind="s41-method")
    return not method or method[0].get("cpu_util", CYCLES_UTIL) == CYCLES_UTIL


def _s41_counts(ctx):
    """S41 instret_delta from the raw counter: rdinstret_delta counts
    instret_scale (2^icount_shift) per instruction; the kernel leaves out
    the idle account (idle_instret) and the RX account (rx_instret, foreign
    RX traffic; absent in older logs, which kept it in: 0), each printed as
    its counts over the scale, truncated. The RX account holds whole
    instructions, the idle one virtual time under icount, so instret_delta
    is rdinstret_delta // scale - idle_instret - rx_instret or one less.
    Logs older than the manifest's instret_exact printed rdinstret_delta
    over the scale already."""
    method = ctx.log.records("S41", kind="s41-method")
    scale = series.uint(method[0].get("instret_scale")) if method else None
    if "instret_exact" not in ctx.log.manifest:
        scale = 1
    for rec in ctx.log.records("S41", kind="diag", tag="s41-valid"):
        raw, idle, got, rx = (series.uint(rec.get(rec.name(k), "0" if k == "rx_instret" else None))
                              for k in ("rdinstret_delta", "idle_instret", "instret_delta",
                                        "rx_instret"))
        if None in (raw, idle, got, rx) or not scale:
            continue
        want = raw // scale - idle - rx
        if not want - 1 <= got <= want:
            ctx.fail("S41", "%s.%s" % (ident(rec, "size", "round"), rec.name("instret_delta")),
                     "printed %d, rdinstret_delta // instret_scale - idle_instret - rx_instret "
                     "= %d (or one less)" % (got, want))


def _counter_line(log, name):
    """The S00 record counter_<name>= (its scope=, cpu=), or None."""
    recs = [r for r in log.sections["S00"].records if r.kind == "counter_" + name] \
        if "S00" in log.sections else []
    return recs[0] if recs else None


def _s41_cpuwide(ctx):
    """S41's CPU-wide figures (a Linux run's cpuwide_*): per byte as the
    delta over completed; and where the process's instruction counter and
    the CPU's count the same modes (one scope) and the CPU counted is the
    one the process is pinned to, every instruction of the process is one
    of the CPU's, and the windows nest (the CPU's is read outside the
    process's): cpuwide_instret_delta >= instret_delta."""
    log = ctx.log
    mine, wide = _counter_line(log, "instructions"), _counter_line(log, "cpuwide_instructions")
    nested = mine is not None and wide is not None and mine.get("scope") is not None and \
        mine.get("scope") == wide.get("scope") and wide.get("cpu") is not None and \
        wide.get("cpu") == log.manifest.get("cpu_pinned")
    for rec in log.records("S41", kind="diag", tag="s41-valid"):
        delta, ipb = rec.num("cpuwide_instret_delta"), rec.num("cpuwide_instructions_per_byte")
        done = rec.num("completed")
        key = ident(rec, "size", "round")
        if done and delta is not None and ipb is not None and \
                not (ipb <= delta / done < ipb + 0.01 + 1e-9):
            ctx.fail("S41", key + ".cpuwide_instructions_per_byte", "printed %s, "
                     "cpuwide_instret_delta / completed = %.3f" % (ipb, delta / done))
        own = rec.num("instret_delta")
        if nested and delta is not None and own is not None and delta < own:
            ctx.fail("S41", key + ".cpuwide_instret_delta", "%d, less than the process's "
                     "instret_delta %d on the CPU it is pinned to (cpu=%s, scope=%s)" % (
                         delta, own, wide.get("cpu"), wide.get("scope")))


def _s13(ctx):
    """S13 (ours): the wire bytes are the user bytes plus one CR per newline
    sent (ONLCR), newlines_per_write per whole write, at most that many in
    the part of a write a failed one left."""
    for rec in ctx.log.records("S13", kind="policy"):
        user, wire, size, nl = (series.uint(rec.get(k, "")) for k in (
            "user_bytes", "bytes", "total_size", "newlines_per_write"))
        if None in (user, wire, size, nl) or not size:
            continue
        low, high = user // size * nl, -(-user // size) * nl
        if not low <= wire - user <= high:
            ctx.fail("S13", ident(rec, "size") + ".bytes", "printed %d for user_bytes=%d: "
                     "%d CRs added, not %d..%d (newlines_per_write=%d per write of %d)"
                     % (wire, user, wire - user, low, high, nl, size))


def _s31(ctx):
    """S31 status=PASS: every byte came back, CRCs equal."""
    for rec in ctx.log.records("S31"):
        if rec.get("status") != "PASS" or "received" not in rec.kv:
            continue
        if rec.get("received") != rec.get("rx_fixed_bytes"):
            ctx.fail("S31", "received", "%s of rx_fixed_bytes=%s, yet status=PASS"
                     % (rec.get("received"), rec.get("rx_fixed_bytes")))
        if rec.get("mismatched", "0") != "0" or rec.get("crc_tx") != rec.get("crc_rx"):
            ctx.fail("S31", "crc_rx", "crc_rx=%s mismatched=%s against crc_tx=%s, yet status=PASS"
                     % (rec.get("crc_rx"), rec.get("mismatched"), rec.get("crc_tx")))


def _s43(ctx):
    """S43 aggregates against their groups: n, min/max, percentiles between the groups'."""
    log = ctx.log
    for phase in s43_phases(log):
        groups = log.records("S43", kind="s43-%s-group-summary" % phase)
        diags = log.records("S43", kind="diag", tag="s43-%s-group" % phase)
        for g, d in zip(groups, diags):
            if d.get("valid") is not None and d.get("valid") != g.get("n"):
                ctx.fail("S43", ident(d, "group") + ".valid", "%s, its summary has n=%s"
                         % (d.get("valid"), g.get("n")))
        agg = log.records("S43", kind="diag", tag="s43-%s-aggregate" % phase)
        if not agg or not groups:
            continue
        agg = agg[0]
        name = agg.tag
        if agg.num("n") is not None and agg.num("n") != sum(g.num("n") or 0 for g in groups):
            ctx.fail("S43", name + ".n", "%s, the groups hold %d" % (
                agg.get("n"), sum(g.num("n") or 0 for g in groups)))
        if agg.get("valid_groups") not in (None, str(len(groups))):
            ctx.fail("S43", name + ".valid_groups", "%s, %d group summaries"
                     % (agg.get("valid_groups"), len(groups)))
        for key, pick in (("max_ns", max), ("min_ns", min)):
            vals = [g.num(key) for g in groups]
            if agg.get(key) is not None and None not in vals and agg.num(key) != pick(vals):
                ctx.fail("S43", "%s.%s" % (name, key), "%s, the groups' %s is %d" % (
                    agg.get(key), pick.__name__, pick(vals)))
        equal = len(set(g.get("n") for g in groups)) == 1
        for key in ("p50_ns", "p95_ns", "p99_ns"):
            vals = [g.num(key) for g in groups]
            if equal and agg.num(key) is not None and None not in vals and \
                    not min(vals) <= agg.num(key) <= max(vals):
                ctx.fail("S43", "%s.%s" % (name, key), "%s lies outside the groups' %s..%s"
                         % (agg.get(key), int(min(vals)), int(max(vals))))


def _starry_line_rate(ctx):
    """StarryOS: line_rate_pct = kbps / 11.52 (its KiB/s against kB/s defect)."""
    for lr_sid in TPUT + ("S11",):
        for rec in ctx.log.records(lr_sid, kind="policy"):
            if rec.num("kbps") is None or rec.get("line_rate_pct") is None:
                continue
            slack = stats.print_tolerance(rec.get("kbps")) / 11.52 * 100
            if not stats.agrees(rec.get("line_rate_pct"), rec.num("kbps") / 11.52 * 100, slack):
                ctx.fail(lr_sid, ident(rec, "size") + ".line_rate_pct", "printed %s, its own "
                         "formula kbps / 11.52 gives %.2f" % (rec.get("line_rate_pct"),
                                                             rec.num("kbps") / 11.52 * 100))
    ctx.note("known defect of the StarryOS benchmark: kbps is KiB/s but line_rate_pct = kbps / "
             "11.52 (kB/s), so its 100 % is 11796.5 B/s; the report converts it")
