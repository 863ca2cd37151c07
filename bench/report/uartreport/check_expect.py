"""What our suite prints, derived from bench/*.c and the log's manifest.

Called by the checks (check_structure.py, check_figures.py): the sections of
the suite, the fields each section must print, and per section the payload
witnesses, records and distribution summaries the sections print for the
manifest's size lists and bench scale.
"""

from . import series
from .analysis import s43_phases, s43_settings, s43_skipped

SUITE = ("S00", "S05", "S06", "S10", "S11", "S12", "S13", "S14", "S20", "S21",
         "S30", "S31", "S32", "S33", "S41", "S42", "S43", "S40", "S50")
# Sections newer than the rest of the suite, with the manifest key that came
# with them: a log whose manifest lacks the key predates the section.
LATER = {"S32": "rx_sustained_bytes", "S33": "rx_duplex_bytes", "S50": "s50_phases"}
# The S32/S33 stream figures (diag=s32-rx / s32-cpu, s33-rx / s33-cpu).
RX_FIELDS = ["sent", "received", "lost", "dropped", "overruns_model", "overruns_driver",
             "crc_rx", "crc_delivered", "crc_check", "accounted", "read_errno"]
CPU_FIELDS = ["window_ns", "rx_line_rate_pct", "instructions", "instructions_per_byte",
              "cpu_pct", "rx_irqs", "rx_irqs_per_byte", "loss_pct", "model_instructions",
              "model_cpu_pct"]

# Fields each section must print: a record holding all of a list must exist.
# A tuple in a list is one field under any of its names (the CPU-work renames).
REQUIRED = {
    "S05": [["op", "kbps", "memcpy_kbps", "ring_over_memcpy"]],
    "S06": [["switches", ("instret_per_switch", "instructions_per_switch")]],
    "S10": [["policy", "size", "iters", "bytes", "short_writes", "drain_calls", "drain_errors",
             "last_drain_errno", "elapsed_ms", "line_time_ms", "kbps", "line_rate_pct",
             "bytes_per_s"],
            ["n", "avg_ms", "p50_ms", "p95_ms", "p99_ms", "max_ms", "slow_gt10ms",
             "slow_over_line_plus10ms", "max_line_ratio", "p99_p50_ratio", "max_p50_ratio"]],
    "S11": [["enqueue_ms", "final_drain_ms", "enqueue_kbps"]],
    "S12": [["batch", "drains", "line_rate_pct", "bytes_per_s"]],
    "S13": [["fragments", "fragment_size", "total_size", "line_rate_pct"]],
    "S14": [["policy", "line_rate_pct", "bytes_per_s"]],
    "S20": [["n", "p50_ms", "p99_ms", "max_ms"], ["drain_calls", "drain_errors"]],
    "S21": [["n", "p50_ms", "p99_ms", "p99_p50_ratio"]],
    "S30": [["method", "status", "result"]],
    "S31": [["status", "rx_fixed_bytes", "received", "crc_tx", "crc_rx"]],
    "S32": [RX_FIELDS, CPU_FIELDS],
    "S33": [["bytes", "elapsed_ns", "tx_line_rate_pct"], RX_FIELDS, CPU_FIELDS],
    "S40": [["telemetry_available", "ioctl_rc"]],
    "S41": [[("instret_delta", "instructions_delta"), "instructions_per_byte",
             "instructions_per_write", "cycles_per_byte", "cpu_util_pct"],
            ["median_instructions_per_byte"]],
    "S42": [["write_return_us", "useful_iters", "overlap_efficiency"],
            ["median_overlap_efficiency"]],
    "S43": [["p50_ns", "p95_ns", "p99_ns", "max_ns"]],
    # S50 (more than one hart; SKIPPED with one): the loopback phases, the
    # cross-hart drain, the locks' waits
    "S50": [["harts", "chunk", "chunks_per_hart", "bytes", "received", "bad_chunks",
             "missing_chunks", "drains", "drain_errors"],
            ["bytes", "drainers", "bad_drains", "line_ns"],
            ["port_acquired", "port_contended", "port_wait_cycles", "wire_acquired",
             "wire_contended", "wire_wait_cycles"]],
}

# S41's figures from each CPU counter: `not-available` where the manifest
# says counter_<name>=not-available (a Linux run that was refused the perf
# event; the kernel's counters always count and print no counter_ keys).
COUNTER_FIELDS = {
    "instructions": ("instret_begin", "instret_end", "instret_delta", "instructions_delta",
                     "instructions_per_byte", "instructions_per_write", "rdinstret_delta",
                     "task_instret", "isr_instret", "idle_instret", "wire_model_instret",
                     "instructions_per_byte_excl_model", "rx_instret",
                     "median_instructions_per_byte", "median_instructions_per_write",
                     "median_instructions_per_byte_excl_model"),
    "cycles": ("cycles_delta", "cycles_per_byte", "idle_cycles", "wire_model_cycles",
               "median_cycles_per_byte"),
    # the pinned CPU's counters (counter_cpuwide_<name>=): a Linux run's
    "cpuwide_instructions": ("cpuwide_instret_delta", "cpuwide_instructions_per_byte",
                             "cpuwide_process_pct"),
    "cpuwide_cycles": ("cpuwide_cycles_delta", "cpuwide_cycles_per_byte"),
}
NOT_AVAILABLE = "not-available"

MANIFEST_KEYS = ("version", "board", "backend", "privilege", "wire_model", "qemu_mode",
                 "bench_scale", "baud_real", "fifo_depth", "timebase_hz", "line_baud_milli",
                 "char_ns")

def flavor(log):
    """How findings and notes name the log's format: "StarryOS", "our", ..."""
    return {"starryos": "StarryOS", "ours": "our"}.get(log.flavor, log.flavor)


def sizes(log, key, default):
    """A comma-separated manifest size list (default when absent or bad)."""
    items = [s for s in log.manifest.get(key, "").split(",") if series.uint(s) is not None]
    return items or [str(s) for s in default]


# Scale keys and the most the kernel can print (bench/*.c array sizes, with room).
SCALE_LIMITS = {"iters": 100000, "rounds": 64, "s43_groups": 64, "s43_samples": 100000,
                "tx_latency_iters": 100000, "fifo_matrix_iters": 100000}


def number(log, key, default=None):
    """A whole manifest number (at most 18 digits: more is damage), or default.

    A scale key beyond SCALE_LIMITS gives default too (manifest() flags it),
    so a damaged manifest cannot ask for a billion expected records.
    """
    value = series.uint(log.manifest.get(key, ""))
    if value is None or value > SCALE_LIMITS.get(key, value):
        return default
    return value


def selected(log):
    """Sections the run was asked to run: manifest sections_selected= minus
    sections_skipped= (`none`: an empty list), less those newer than the
    log (LATER).

    A missing key means every section of the suite was selected.
    """
    def ids(key):
        return [s for s in log.manifest.get(key, "").split(",") if s and s != "none"]
    chosen = ids("sections_selected") or list(SUITE)
    skipped = set(ids("sections_skipped"))
    return [s for s in chosen
            if s not in skipped and (s not in LATER or LATER[s] in log.manifest)]


# The witness of each TX policy line (S10-S14; SIZE: its size=): it holds the bytes the
# line counts, a loop cut by a failed write included.
POLICY_WITNESS = {"S10": "drain-each-size-SIZE", "S11": "s11-size-SIZE", "S12": "s12-size-SIZE",
                  "S13": "s13-writev", "S14": "break-even-size-SIZE"}


def policy_witness(sid, size):
    """The witness tag of section sid's policy line of size (None: it prints none)."""
    pattern = POLICY_WITNESS.get(sid)
    return pattern.replace("SIZE", size or "") if pattern else None


def witnesses(log):
    """{sid: [(tag, bytes, exact)]}: the payload witnesses each section prints.

    exact False: at least that many bytes (S13's ONLCR may add CRs on the wire).
    """
    it = number(log, "iters", 100)
    rounds, groups = number(log, "rounds", 5), number(log, "s43_groups", 5)
    tput = sizes(log, "tx_throughput_sizes", (64, 256, 1024))
    out = {sid: [(policy_witness(sid, s), int(s) * it, True) for s in tput]
           for sid in ("S10", "S11", "S12")}
    out.update({
        "S13": [("s13-writev", number(log, "tx_writev_fragments", 4) *
                 number(log, "tx_writev_fragment_size", 64) * it, False)],
        "S14": [(policy_witness("S14", s), int(s) * it, True)
                for s in sizes(log, "tx_break_even_sizes", (64, 128, 256))],
        "S20": [("s20-single-byte", number(log, "tx_latency_size", 1) *
                 number(log, "tx_latency_iters", it), True)],
        "S21": [("s21-fifo-size-%s" % s, int(s) * number(log, "fifo_matrix_iters", it), True)
                for s in sizes(log, "fifo_matrix_sizes", (1, 15, 16, 17, 31, 32, 33, 48, 49))],
        "S41": [("s41-size-%s" % s, int(s) * it * rounds, True)
                for s in sizes(log, "s41_sizes", tput)],
        "S42": [("s42-overlap", number(log, "s42_payload", 64) * it * (rounds + 1), True)],
        "S43": [("s43-loaded-%d" % g, number(log, "s43_burst_bytes", 4096), True)
                for g in range(1, groups + 1) if "loaded" not in s43_skipped(log)],
        # the TX burst of S33 is as long as its RX stream (bench/s32_s33.c)
        "S33": [("s33-tx", number(log, "rx_duplex_bytes", 4096), True)],
        # the payload hart 0 queues and the other harts drain (bench/s50_smp.c)
        "S50": [("s50-drain", 256, True)],
    })
    return out


def records(log):
    """[(sid, kind, tag, match)]: the records each section prints for this manifest."""
    rounds, groups = number(log, "rounds", 5), number(log, "s43_groups", 5)
    tput = sizes(log, "tx_throughput_sizes", (64, 256, 1024))
    out = [("S05", "diag", "s05-ring", {"op": op}) for op in ("tx-write", "rx-read")]
    out += [("S06", "diag", t, {}) for t in ("s06-ctx-switch", "s06-wake-to-run",
                                               "s06-timer-overshoot")]
    for sid, policy, key, vals in (("S10", "drain-each", "size", tput),
                                   ("S11", "no-drain", "size", tput),
                                   ("S12", "batch-drain", "size", tput),
                                   ("S14", "drain-each", "size",
                                    sizes(log, "tx_break_even_sizes", (64, 128, 256)))):
        out += [(sid, "policy", policy, {key: s}) for s in vals]
    out += [("S11", "diag", "s11-txdbg-reset", {"size": s}) for s in tput]
    out.append(("S13", "policy", "writev-drain-each", {}))
    for sid, tags in summaries(log).items():
        out += [(sid, "diag", tag, {}) for tag in tags]
    out += [("S21", "diag", "fifo-size-%s" % s, {})
            for s in sizes(log, "fifo_matrix_sizes", (1, 15, 16, 17, 31, 32, 33, 48, 49))]
    for s in sizes(log, "s41_sizes", tput):
        out.append(("S41", "s41-size", s, {}))
        out += [("S41", "diag", "s41-valid", {"size": s, "round": str(r)})
                for r in range(1, rounds + 1)]
        out.append(("S41", "diag", "s41-summary", {"size": s}))
    out += [("S42", "idle", None, {}), ("S42", "overlap", None, {}),
            ("S42", "diag", "s42-warmup", {"round": "0"}), ("S42", "diag", "s42-summary", {})]
    out += [("S42", "diag", "s42-sample", {"round": str(r)}) for r in range(1, rounds + 1)]
    for phase in s43_phases_expected(log):
        out.append(("S43", "s43-phase", phase, {}))
        out += [("S43", "diag", "s43-%s-group" % phase, {"group": str(g)})
                for g in range(1, groups + 1)]
    out += [("S32", "diag", t, {}) for t in ("s32-rx", "s32-cpu")]
    out += [("S33", "diag", t, {}) for t in ("s33-tx", "s33-rx", "s33-cpu")]
    out.append(("S40", "counter", "wire-model", {}))
    return out


def latency_series(log):
    """The series each S20/S21 size prints: "" (ns), and "-insns" (the
    instructions of each write + drain) when the manifest's
    tx_latency_counts= lists instructions (logs before it: ns only)."""
    counts = log.manifest.get("tx_latency_counts", "ns").split(",")
    return [""] + (["-insns"] if "instructions" in counts else [])


def s43_phases_expected(log):
    """S43's phases the log must hold: those it names (s43_phases), and
    `idle-slack1` when its phases print their timer slack (a Linux log
    whose uartbench-hosted runs the idle groups again at 1 ns); less those
    it says it skipped (s43_skipped)."""
    phases = s43_phases(log)
    if "idle" in s43_settings(log) and "idle-slack1" not in phases:
        phases.append("idle-slack1")
    return [p for p in phases if p not in s43_skipped(log)]


def summaries(log):
    """{sid: [tag]}: the distribution summaries (with raw samples) each section prints."""
    tput = sizes(log, "tx_throughput_sizes", (64, 256, 1024))
    return {
        "S05": ["s05-rx-latency"],
        "S06": ["s06-wake-to-run", "s06-timer-overshoot"],
        "S10": ["drain-each-size-%s" % s for s in tput],
        "S14": ["break-even-size-%s" % s for s in sizes(log, "tx_break_even_sizes",
                                                        (64, 128, 256))],
        "S20": ["s20-single-byte" + suffix for suffix in latency_series(log)],
        "S21": ["s21-fifo-size-%s%s" % (s, suffix)
                for s in sizes(log, "fifo_matrix_sizes", (1, 15, 16, 17, 31, 32, 33, 48, 49))
                for suffix in latency_series(log)],
        "S43": ["s43-%s-aggregate" % phase for phase in s43_phases_expected(log)],
    }
