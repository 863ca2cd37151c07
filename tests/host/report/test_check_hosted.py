"""report --check on a Linux run (uartbench-hosted on a pty, os=linux):
the real log is clean, and each rule that holds a Linux log otherwise
than a kernel's fails on a doctored copy as it should: payload witnesses
whose bytes went to the tty's far end, line bounds for a pty, counter
figures `not-available`, the CPU share from process time, S42 efficiency
above 1."""

import re
import unittest
import zlib

from _doctor import ASYNC, LogCase, check, number, real, setv, sub, value

HOSTED = "hosted-pty-quick.log"  # the whole suite, quick scale, perf counters refused
S41_VALID = rb"diag=s41-valid "
S41_SUMMARY = rb"diag=s41-summary "


def with_counters(data):
    """data as if Linux had granted both perf counters: the manifest says so
    and every S41 counter figure is a number, consistent with the others
    (instructions 100 and cycles 200 per byte in every round)."""
    data = sub(data, rb"counter_instructions=not-available reason=\S+",
               b"counter_instructions=perf-hw-instructions scope=user+kernel read_cost=900 "
               b"null_delta=3")
    data = sub(data, rb"counter_cycles=not-available reason=\S+",
               b"counter_cycles=perf-hw-cpu-cycles scope=user+kernel read_cost=900 null_delta=3")
    data = sub(data, rb"instret_exact=0", b"instret_exact=1")

    def round_line(m):
        """One s41-valid line with its counter figures."""
        line = m.group(0)
        done = int(re.search(rb" completed=(\d+)", line).group(1))
        writes = int(re.search(rb" logical_writes=(\d+)", line).group(1))
        figures = {"instret_begin": 1000, "instret_end": 1000 + 100 * done,
                   "instret_delta": 100 * done, "instructions_per_byte": "100.00",
                   "instructions_per_write": 100 * done // writes,
                   "rdinstret_delta": 100 * done, "cycles_delta": 200 * done,
                   "cycles_per_byte": "200.00", "task_instret": 100 * done, "isr_instret": 0,
                   "idle_instret": 0, "idle_cycles": 0, "wire_model_instret": 0,
                   "wire_model_cycles": 0, "instructions_per_byte_excl_model": "100.00",
                   "rx_instret": 0}
        for key, v in figures.items():
            line = re.sub(rb"(?<= )" + key.encode() + rb"=not-available",
                          ("%s=%s" % (key, v)).encode(), line)
        return line
    data = re.sub(rb"^  diag=s41-valid [^\n]*", round_line, data, flags=re.M)

    def summary_line(m):
        """One s41-summary line with the medians of those rounds."""
        line = m.group(0)
        size = int(re.search(rb" size=(\d+)", line).group(1))
        for key, v in (("median_instructions_per_byte", "100.00"),
                       ("median_instructions_per_write", 100 * size),
                       ("median_cycles_per_byte", "200.00"),
                       ("median_instructions_per_byte_excl_model", "100.00")):
            line = line.replace(b" %s=not-available" % key.encode(),
                                (" %s=%s" % (key, v)).encode())
        return line
    data = re.sub(rb"^  diag=s41-summary [^\n]*", summary_line, data, flags=re.M)
    assert not re.search(rb"diag=s41-[^\n]*=not-available", data)
    return data


def with_cpuwide(data, scope=b"user+kernel", cpu=b"1"):
    """data (with_counters) as if the pinned CPU's counters counted too:
    the manifest's counter_cpuwide_* lines, and each S41 round 150
    instructions and 400 cycles per byte CPU-wide (the process's 100)."""
    data = sub(data, rb"(  counter_cycles=[^\n]*\n)", rb"\1  counter_priority=process\n"
               rb"  counter_cpuwide_instructions=perf-hw-instructions scope=" + scope + rb" cpu=" +
               cpu + rb" source=read-syscall csr=none read_cost=900 null_delta=3\n"
               rb"  counter_cpuwide_cycles=perf-hw-cpu-cycles scope=" + scope + rb" cpu=" + cpu +
               rb" source=read-syscall csr=none read_cost=900 null_delta=3\n")

    def round_line(m):
        """One s41-valid line with the CPU-wide figures at its end."""
        done = int(re.search(rb" completed=(\d+)", m.group(0)).group(1))
        return m.group(0) + (" cpuwide_instret_delta=%d cpuwide_instructions_per_byte=150.00 "
                             "cpuwide_cycles_delta=%d cpuwide_cycles_per_byte=400.00 "
                             "cpuwide_idle=included cpuwide_process_pct=66.666"
                             % (150 * done, 400 * done)).encode()
    return re.sub(rb"^  diag=s41-valid [^\n]*", round_line, data, flags=re.M)


class Hosted(LogCase):
    """The real Linux log and its doctored copies."""

    @classmethod
    def setUpClass(cls):
        """The real log, read once."""
        cls.log = real(HOSTED)

    def notes(self, result, text):
        """Assert a note holding text."""
        self.assertTrue([n for n in result.notes if text in n], result.notes)

    def test_real_log_is_clean(self):
        """The log as uartbench-hosted printed it: no finding; what does not
        apply is noted."""
        res = check(self.log)
        self.assertEqual([(f.section, f.key, f.what) for f in res.findings], [])
        self.notes(res, "witness_bytes=far-end")
        self.notes(res, "line=pty: the tty keeps no line time")
        self.assertEqual(value(self.log, rb"section=S31 ", "reason"), "no-loopback")
        self.assertEqual(value(self.log, rb"section=S05 ", "reason"), "kernel-only")

    def test_witness_without_bytes_needs_the_far_end(self):
        """Without witness_bytes=far-end the empty witnesses are findings."""
        res = check(sub(self.log, rb" witness_bytes=far-end", b""))
        self.found(res, "S20", "payload-end=s20-single-byte", "payload line missing")

    def test_witness_with_bytes_is_still_checked(self):
        """A witness that holds bytes in a far-end log is checked as any."""
        data = sub(self.log, rb"(  payload-begin=s20-single-byte\n)", rb"\1!!!\n")
        self.found(check(data), "S20", "payload-end=s20-single-byte", "mismatch")
        n = number(self.log, rb"payload-end=s20-single-byte ", "bytes")
        body = b"x" * n
        data = sub(self.log, rb"(  payload-begin=s20-single-byte\n)", rb"\1" + body + b"\n")
        data = setv(data, rb"payload-end=s20-single-byte ", "crc32",
                    "0x%08x" % zlib.crc32(body))
        self.clean(check(data), "S20", "payload-end=s20-single-byte")

    def test_line_bounds_on_a_serial_line(self):
        """A pty's line rates are not held to the line; a serial line's are."""
        self.clean(check(self.log), "S10", "line_rate_pct")
        res = check(sub(self.log, rb" line=pty ", b" line=serial "))
        self.found(res, "S10", "drain-each(size=64).line_rate_pct", "above the line's 100 %")
        self.found(res, "S20", "s20-single-byte.min", "less than its")

    def test_instant_line_like_no_wire_model(self):
        """QEMU's instant 16550 under Linux (line=instant) is held to the line
        no more than our images without the wire model are."""
        res = check(sub(self.log, rb" line=pty line_timing=none ",
                        b" line=instant line_timing=none "))
        self.clean(res, "S10", "line_rate_pct")
        self.clean(res, "S20", "s20-single-byte.min")
        self.notes(res, "line=instant: no wire model, QEMU's UART sends at once")

    def test_not_available_needs_the_manifest(self):
        """`not-available` figures from a counter the manifest says counts."""
        data = sub(self.log, rb"counter_instructions=not-available reason=\S+",
                   b"counter_instructions=perf-hw-instructions scope=user")
        res = check(data)
        self.found(res, "S41", "s41-valid(size=64,round=1).instructions_per_byte",
                   "counter_instructions=perf-hw-instructions")
        self.found(res, "S41", "s41-summary(size=256).median_instructions_per_byte")
        self.clean(res, "S41", "cycles_per_byte")

    def test_number_from_a_refused_counter(self):
        """A number where the manifest says Linux refused the counter."""
        data = setv(self.log, S41_VALID, "cycles_per_byte", "12.00")
        self.found(check(data), "S41", "s41-valid(size=64,round=1).cycles_per_byte",
                   "was refused")

    def test_counters_granted(self):
        """With the counters, the figures are checked as a kernel's, but for
        cpu_util_pct: the process's CPU time over the window (s41-method
        cpu_util=process-cputime/wall), not cycles outside an idle account."""
        data = with_counters(self.log)
        res = check(data)
        self.assertEqual([(f.section, f.key, f.what) for f in res.findings], [])
        bad = setv(data, S41_VALID, "instret_delta", lambda v: int(v) + 7)
        self.found(check(bad), "S41", "s41-valid(size=64,round=1).instret_delta",
                   "instret_end - instret_begin")
        kernel = sub(data, rb"cpu_util=process-cputime/wall", b"cpu_util=non-idle-cycles/window")
        self.found(check(kernel), "S41", "s41-valid(size=64,round=1).cpu_util_pct",
                   "idle_cycles")

    def test_proc_instret_source(self):
        """A small kernel's count (/proc/instret, StarryOS) where Linux refused
        the perf event: accepted in the form uartbench-hosted prints it, with
        instret_read_overhead= its read cost; each malformed form a finding."""
        data = sub(with_counters(self.log), rb"counter_instructions=[^\n]*",
                   b"counter_instructions=proc-instret scope=hart path=/proc/instret perf=ENOSYS "
                   b"read_cost=1000 null_delta=0\n  instret_read_overhead=1000")
        self.assertEqual([(f.section, f.key, f.what) for f in check(data).findings], [])
        key = "counter_instructions"
        for pattern, repl, where, what in (
                (rb" perf=ENOSYS", b"", key + ".perf", "not an errno name"),
                (rb" perf=ENOSYS", b" perf=refused", key + ".perf", "not an errno name"),
                (rb" scope=hart", b" scope=user", key + ".scope", "not one of hart"),
                (rb" path=/proc/instret", b" path=/tmp/instret", key + ".path", "not one of"),
                (rb" read_cost=1000", b" read_cost=1k", key + ".read_cost", "not a whole"),
                (rb" null_delta=0", b"", key + ".null_delta", "not a whole number"),
                (rb"=proc-instret", b"=proc-cycles", key, "is not one of"),
                (rb"overhead=1000", b"overhead=999", "instret_read_overhead", "read_cost=1000"),
                (rb"counter_cycles=perf-hw-cpu-cycles", b"counter_cycles=proc-instret",
                 "counter_cycles", "is not one of perf-hw-cpu-cycles|not-available")):
            self.found(check(sub(data, pattern, repl)), "S00", where, what)

    def test_refused_counter_forms(self):
        """`not-available` with an errno name, and /proc/instret's own reason
        only for the instruction count; instret_read_overhead only beside a
        /proc/instret count."""
        data = sub(self.log, rb"(counter_instructions=not-available reason=\S+)",
                   rb"\1 proc_instret=ENOENT")
        self.clean(check(data), "S00", "counter_")
        for pattern, repl, where in (
                (rb"proc_instret=ENOENT", b"proc_instret=gone", "counter_instructions.proc_instret"),
                (rb"(counter_instructions=not-available) reason=\S+", rb"\1",
                 "counter_instructions.reason"),
                (rb"(counter_cycles=not-available reason=\S+)", rb"\1 proc_instret=ENOENT",
                 "counter_cycles.proc_instret"),
                (rb"(  counter_cycles=)", rb"  instret_read_overhead=5\n\1",
                 "instret_read_overhead")):
            self.found(check(sub(data, pattern, repl)), "S00", where)
        perf = with_counters(self.log)
        self.found(check(sub(perf, rb" scope=user\+kernel", b" scope=hart")), "S00",
                   "counter_instructions.scope", "not one of user+kernel|user|all")
        wide = with_cpuwide(perf)
        self.found(check(sub(wide, rb"(cpuwide_instructions=\S+ scope=\S+) cpu=1", rb"\1 cpu=x")),
                   "S00", "counter_cpuwide_instructions.cpu", "not a CPU number")
        self.found(check(sub(wide, rb"source=read-syscall", b"source=mmio")), "S00",
                   "counter_cpuwide_instructions.source", "not one of csr|read-syscall")

    def test_s43_loaded_skipped(self):
        """S43's loaded phase SKIPPED on a kernel without threads: its line
        says so and its groups, witnesses and aggregate are not expected; a
        phase line that does not say so still needs every one of them."""
        data = re.sub(rb"^[^\n]*s43-loaded[^\n]*\n", b"", self.log, flags=re.M)
        data = sub(data, rb"(  s43-phase=loaded [^\n]*)",
                   rb"\1 status=SKIPPED reason=no-threads threads=clone-ENOSYS")
        self.assertEqual([(f.section, f.key, f.what) for f in check(data).findings], [])
        res = check(sub(data, rb" status=SKIPPED reason=no-threads threads=clone-ENOSYS", b""))
        self.found(res, "S43", "s43-loaded-group", "record missing")
        self.found(res, "S43", "payload-begin=s43-loaded-1", "witness missing")
        self.found(res, "S43", "s43-loaded-aggregate", "record missing")

    def test_cpuwide(self):
        """The pinned CPU's figures: clean as printed; not-available only
        where the manifest says refused; per byte as the delta over the
        bytes; at least the process's where both count one scope on the CPU
        the process is pinned to, and only there."""
        data = with_cpuwide(with_counters(self.log))
        self.assertEqual([(f.section, f.key, f.what) for f in check(data).findings], [])
        less = setv(data, S41_VALID, "cpuwide_instret_delta", lambda v: int(v) // 2)
        less = setv(less, S41_VALID, "cpuwide_instructions_per_byte", "75.00")
        self.found(check(less), "S41", "s41-valid(size=64,round=1).cpuwide_instret_delta",
                   "less than the process's")
        for other in (with_cpuwide(with_counters(self.log), scope=b"all"),
                      with_cpuwide(with_counters(self.log), cpu=b"0")):
            other = setv(other, S41_VALID, "cpuwide_instret_delta", lambda v: int(v) // 2)
            other = setv(other, S41_VALID, "cpuwide_instructions_per_byte", "75.00")
            self.clean(check(other), "S41", "cpuwide_instret_delta")
        bad = setv(data, S41_VALID, "cpuwide_instructions_per_byte", "151.00")
        self.found(check(bad), "S41", "s41-valid(size=64,round=1).cpuwide_instructions_per_byte",
                   "cpuwide_instret_delta / completed")
        na = setv(data, S41_VALID, "cpuwide_cycles_per_byte", "not-available")
        self.found(check(na), "S41", "s41-valid(size=64,round=1).cpuwide_cycles_per_byte",
                   "counter_cpuwide_cycles=perf-hw-cpu-cycles")
        refused = sub(data, rb"counter_cpuwide_cycles=[^\n]*", b"counter_cpuwide_cycles="
                      b"not-available reason=EBUSY")
        self.found(check(refused), "S41", "s41-valid(size=64,round=1).cpuwide_cycles_delta",
                   "was refused")
        refused = setv(refused, S41_VALID, "cpuwide_cycles_delta", "not-available", 0)
        refused = setv(refused, S41_VALID, "cpuwide_cycles_per_byte", "not-available", 0)
        self.clean(check(refused), "S41", "cpuwide")
        from uartreport import parse, recompute, tables
        rows = tables.s41_rows([recompute.analyze(parse.parse_bytes(data, HOSTED))])
        self.assertIn("S41 64 B median CPU-wide instructions/byte (idle included)",
                      [r.label for r in rows])

    @staticmethod
    def above_one(data):
        """data with every S42 round doing 5 % more work than the idle
        calibration, its efficiencies and medians to match."""
        idle = number(data, rb"idle window_ms=", "iters", "S42")
        useful = idle * 105 // 100
        eff = "%d.%04d" % divmod(useful * 10000 // idle, 10000)
        data = setv(data, rb"diag=s42-(sample|warmup) ", "useful_iters", useful, 0)
        data = setv(data, rb"diag=s42-(sample|warmup) ", "overlap_efficiency", eff, 0)
        data = setv(data, rb"diag=s42-summary ", "median_useful_iters", useful)
        return setv(data, rb"diag=s42-summary ", "median_overlap_efficiency", eff)

    def test_s42_above_one_on_linux(self):
        """S42 efficiency above 1 is noted on Linux, a finding on the kernel."""
        res = check(self.above_one(self.log))
        self.assertEqual([(f.section, f.key, f.what) for f in res.findings], [])
        self.notes(res, "not held to it on Linux")
        kernel = check(self.above_one(real(ASYNC)))
        self.found(kernel, "S42", "s42-sample(round=1).overlap_efficiency", "above 1.0")
        self.found(kernel, "S42", "s42-summary.median_overlap_efficiency", "above 1.0")

    def test_s43_at_a_slack_of_one_ns(self):
        """S43's idle groups again after PR_SET_TIMERSLACK 1 (idle-slack1): its
        records are required once the phases print their slack, its
        summaries checked against its raw samples, the table shows each
        phase's slack."""
        self.clean(check(self.log), "S43", "idle-slack1")
        gone = re.sub(rb"^[^\n]*(s43-phase=|s43-|tag=s43-)idle-slack1[^\n]*\n", b"", self.log,
                      flags=re.M)
        self.assertNotIn(b"idle-slack1", gone)
        res = check(gone)
        self.found(res, "S43", "s43-phase=idle-slack1")
        self.found(res, "S43", "s43-idle-slack1-aggregate")
        self.clean(check(sub(gone, rb" timer_slack_ns=\d+$", b"", 0)), "S43", "idle-slack1")
        bad = setv(self.log, rb"diag=s43-idle-slack1-aggregate ", "p50_ns", lambda v: int(v) + 9000)
        self.found(check(bad), "S43", "s43-idle-slack1-aggregate.p50")
        bad = setv(self.log, rb"s43-idle-slack1-group-summary ", "p50_ns",
                   lambda v: int(v) + 9000)
        self.found(check(bad), "S43", "s43-idle-slack1-group-summary(group=1).p50")
        from uartreport import parse, recompute, tables
        rows = tables.s43_rows([recompute.analyze(parse.parse_bytes(self.log, HOSTED))])
        slack = {r.label: r.cells[0].text for r in rows if "timer slack" in r.label}
        self.assertEqual(slack, {"S43 idle timer slack ns": "50000",
                                 "S43 loaded timer slack ns": "50000",
                                 "S43 idle-slack1 timer slack ns": "1"})
        self.assertIn("S43 idle-slack1 overshoot P99 ms", [r.label for r in rows])

    def test_write_drain_instructions_required(self):
        """S20/S21's -insns series are required exactly where the manifest's
        tx_latency_counts= lists instructions."""
        from _doctor import NOWIRE
        kernel = real(NOWIRE)
        self.clean(check(kernel), "S20", "insns")
        counted = sub(kernel, rb"( tx_latency_iters=\d+)", rb"\1 tx_latency_counts=ns,instructions")
        res = check(counted)
        self.found(res, "S20", "s20-single-byte-insns", "record missing")
        self.found(res, "S21", "s21-fifo-size-16-insns", "record missing")

    def test_label(self):
        """The report's label names the line, not a wire model."""
        from uartreport.parse import parse_bytes
        log = parse_bytes(self.log, HOSTED)
        self.assertTrue(log.label.endswith("/linux-tty/line-pty"), log.label)


if __name__ == "__main__":
    unittest.main()
