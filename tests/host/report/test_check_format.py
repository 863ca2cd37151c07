"""report --check: the coming log format (cpu_hz, INVALID, new Done line),
the other checks on doctored real logs, StarryOS logs, and the CLI."""

import re
import unittest
import zlib

import _common
from _doctor import ASYNC, CONSOLE, NOWIRE, LogCase, check, drop, real, starry, sub

V2_DONE = b"Done. sections=16 passed=16 failed=0 invalid=0 skipped=0 timeout=0"


class FormatAdditions(LogCase):
    """cpu_hz / cycles_unit, the Done line with invalid= skipped= timeout=, INVALID."""

    def manifest(self, data, extra):
        """data with extra key=value text added to the manifest."""
        return sub(data, rb"^  icount_shift=(\d+)\r\n", rb"  icount_shift=\1 " + extra + b"\r\n")

    def test_absent_fields_are_not_applicable(self):
        """Today's logs: cpu-clock, done-counts-v2 and quiet-line say not applicable."""
        res = check(self.log)
        for name in ("cpu-clock", "done-counts-v2", "quiet-line"):
            self.assertEqual(res.outcome[name][0], "n/a", name)

    def test_cpu_hz_from_icount(self):
        """cpu_hz = 1e9 >> icount_shift under icount; cycles_unit virtual-ns."""
        good = self.manifest(self.log, b"cpu_hz=1000000000 cpu_hz_source=icount "
                             b"cycles_unit=virtual-ns")
        res = check(good)
        self.assertEqual(res.findings, [])
        self.assertEqual(res.outcome["cpu-clock"][0], "ok")
        console = self.manifest(real(CONSOLE), b"cpu_hz=15625000 cpu_hz_source=icount "
                                b"cycles_unit=virtual-ns")
        self.assertEqual(check(console).findings, [])
        bad = self.manifest(self.log, b"cpu_hz=15625000 cpu_hz_source=icount")
        self.found(check(bad), "S00", "cpu_hz", "1e9 >> 0 = 1000000000")
        unit = self.manifest(self.log, b"cycles_unit=cpu-cycles")
        self.found(check(unit), "S00", "cycles_unit", "virtual-ns")

    def test_done_line_v2(self):
        """The new Done line: counts of each status, P + F + I + S = N."""
        good = sub(self.log, rb"^Done\. [^\r\n]*", V2_DONE)
        res = check(good)
        self.assertEqual(res.findings, [])
        self.assertEqual(res.outcome["done-counts-v2"][0], "ok")
        bad = sub(self.log, rb"^Done\. [^\r\n]*", V2_DONE.replace(b"skipped=0", b"skipped=1"))
        res = check(bad)
        self.found(res, "-", "Done.skipped", "says 1")
        self.found(res, "-", "Done.sections", "passed + failed + invalid + skipped = 17")

    def test_invalid_section_is_not_a_failure(self):
        """INVALID with foreign RX bytes passes; PASS with foreign bytes does not."""
        data = sub(self.log, rb"^Done\. [^\r\n]*", V2_DONE.replace(b"passed=16", b"passed=15")
                   .replace(b"invalid=0", b"invalid=1"))
        data = sub(data, rb"  section=S20 status=PASS ", b"  section=S20 status=INVALID "
                   b"reason=foreign-rx ")
        data = sub(data, rb"(  section=S\d\d status=\w+ [^\r\n]*elapsed_ms=[0-9.]+)\r\n",
                   rb"\1 foreign_rx_bytes=0 foreign_rx_irqs=0 foreign_rx_instructions=0\r\n", 0)
        ok = sub(data, rb"(section=S20 status=INVALID [^\r\n]*foreign_rx_bytes=)0 "
                 rb"foreign_rx_irqs=0", rb"\g<1>12 foreign_rx_irqs=1")
        res = check(ok)
        self.assertEqual(res.findings, [])
        self.assertTrue(any("S20 INVALID" in n for n in res.notes), res.notes)
        self.found(check(data), "S20", "status", "INVALID although foreign_rx_bytes=0")
        loud = sub(self.log, rb"(  section=S21 status=PASS [^\r\n]*)\r\n",
                   rb"\1 foreign_rx_bytes=3 foreign_rx_irqs=1 foreign_rx_instructions=900\r\n")
        self.found(check(loud), "S21", "status", "PASS although foreign_rx_bytes=3")

    def test_cpu_work_keys_named_in_instructions(self):
        """instret_* renamed instructions_* (and unit=instructions) check the same way."""
        data = self.log
        for old, new in ((rb"instret_delta=", b"instructions_delta="),
                         (rb"wire_model_instret=", b"wire_model_instructions="),
                         (rb"idle_instret=", b"idle_instructions="),
                         (rb"instret_per_switch=", b"instructions_per_switch="),
                         (rb"unit=instret ", b"unit=instructions "),
                         (rb"_instret=124", b"_instructions=124")):
            data = sub(data, old, new, 0)
        self.assertEqual(check(data).findings, [])
        bad = sub(data, rb"instructions_delta=46112 ", b"instructions_delta=46200 ")
        res = check(bad)
        self.found(res, "S41", "s41-valid(size=64,round=1).instructions_delta",
                   "instret_end - instret_begin")
        self.found(res, "S41", "s41-valid(size=64,round=1).instructions_per_byte",
                   "instructions_delta / completed")
        self.found(check(sub(data, rb"p99_instructions=124", b"p99_instructions=125")), "S06",
                   "s06-wake-to-run.p99_instructions")

    def test_sections_skipped(self):
        """A section left out by sections_skipped= is not missing."""
        data = sub(self.log, rb"=== \[S31\](?s:.*?)\r\n\r\n(?==== )", b"")
        data = sub(data, rb"^Done\. sections=16 passed=16", b"Done. sections=15 passed=15")
        self.found(check(data), "S31", "header", "section of the suite missing")
        skipped = self.manifest(data, b"sections_skipped=S31")
        self.assertEqual(check(skipped).findings, [])


class OtherChecks(LogCase):
    """One doctored real log per remaining check."""

    def test_char_ns_and_instret_scale(self):
        """Manifest: char_ns from line_baud_milli; S41 instret_scale = 2^icount_shift."""
        self.found(check(sub(self.log, rb"char_ns=86805\r\n", b"char_ns=86000\r\n")),
                   "S00", "char_ns", "take 86805 ns")
        self.found(check(sub(self.log, rb"instret_scale=1\r\n", b"instret_scale=2\r\n")),
                   "S41", "s41-method.instret_scale")
        self.found(check(sub(self.log, rb" rounds=2 ", b" rounds=999999999 ")), "S00", "rounds",
                   "beyond what the suite can run")
        self.found(check(sub(self.log, rb"icount_shift=0\r\n", b"icount_shift=4000\r\n")),
                   "S00", "icount_shift", "at most 10")

    def test_witness_bytes_against_the_section(self):
        """A consistent witness of 9 bytes where S20 sends 10."""
        end = b"payload-end=s20-single-byte bytes=9 crc32=0x%08x" % zlib.crc32(b"5" * 9)
        data = sub(self.log, rb"5555555555\r\n  payload-end=s20-single-byte [^\r\n]*",
                   b"555555555\r\n  " + end)
        self.found(check(data), "S20", "payload-end=s20-single-byte.bytes", "sends 10 bytes")

    def test_samples_count_against_scale(self):
        """S20 n (and its samples) against the manifest's tx_latency_iters."""
        data = sub(self.log, rb"tx_latency_iters=10", b"tx_latency_iters=12")
        self.found(check(data), "S20", "s20-single-byte.n", "scale gives 12")

    def test_hist_without_samples(self):
        """A histogram of ours printed without its raw series."""
        data = drop(self.log, rb"samples tag=s43-idle ")
        res = check(data)
        self.found(res, "S43", "hist(s43-idle)", "without its raw samples")
        self.found(res, "S43", "s43-idle-aggregate.samples")

    def test_arithmetic_rules(self):
        """S05 kbps, S41 instret_delta, S11 enqueue_kbps, S43 aggregate, S31 CRCs, S41 rounds."""
        cases = [(rb"kbps=2491863.117 memcpy_ns=22700", b"kbps=2591863.117 memcpy_ns=22700",
                  "S05", "s05-ring(op=tx-write,chunk=1024).kbps", "bytes x 1e6 / ns"),
                 (rb"instret_delta=46112 ", b"instret_delta=46113 ", "S41",
                  "s41-valid(size=64,round=1).instret_delta", "instret_end - instret_begin"),
                 (rb"enqueue_kbps=182857.142", b"enqueue_kbps=192857.142", "S11",
                  "no-drain(size=64).enqueue_kbps", "bytes x 1e6 / enqueue_ns"),
                 (rb"aggregate n=10 valid_groups=1 p50_ns=300 p95_ns=300 p99_ns=300 max_ns=300",
                  b"aggregate n=10 valid_groups=1 p50_ns=300 p95_ns=300 p99_ns=300 max_ns=310",
                  "S43", "s43-loaded-aggregate.max_ns", "the groups' max is 300"),
                 (rb"crc_rx=0xb98803d7", b"crc_rx=0xb98803d8", "S31", "crc_rx", "yet status=PASS"),
                 (rb"size=64 valid_rounds=2", b"size=64 valid_rounds=3", "S41",
                  "s41-summary(size=64).valid_rounds", "2 valid round lines")]
        for old, new, section, key, text in cases:
            self.found(check(sub(self.log, old, new)), section, key, text)

    def test_s43_groups_and_derived_fields(self):
        """S43 group summaries and sample[i] from the series; a latency line's ratios."""
        cases = [(rb"(s43-idle-group-summary [^\r\n]*)p99_ns=400", rb"\1p99_ns=300", "S43",
                  "s43-idle-group-summary(group=1).p99_ns"),
                 (rb"sample\[1\]=400", b"sample[1]=500", "S43",
                  "s43-idle-group(group=1).sample[1]"),
                 (rb"(diag=s20-single-byte [^\r\n]*)p50_chars=1.02", rb"\1p50_chars=1.05", "S20",
                  "s20-single-byte.p50_chars"),
                 (rb"(diag=drain-each-size-256 [^\r\n]*)slow_gt10ms=10", rb"\1slow_gt10ms=9",
                  "S10", "drain-each-size-256.slow_gt10ms"),
                 (rb"p99_instret=124", b"p99_instret=125", "S06", "s06-wake-to-run.p99_instret")]
        for old, new, section, key in cases:
            self.found(check(sub(self.log, old, new)), section, key)

    def test_counter_rules(self):
        """Each TX counter invariant on one doctored snapshot."""
        enq = rb"(phase=enqueue size=64 [^\r\n]*)"
        cases = [(rb"hw_send_bytes=5671 hw_send_zero=1 hw_send_max_chunk=16",
                  b"hw_send_bytes=5671 hw_send_zero=1 hw_send_max_chunk=17", "counter",
                  "hw_send_max_chunk", "the FIFO holds 16"),
                 (rb"hw_send_calls=361 ", b"hw_send_calls=300 ", "counter", "hw_send_calls",
                  "fewer than the 357 THRE entries"),
                 (rb"ring_empty=0 copier_active=1 staged_bytes=56", b"ring_empty=1 copier_active=1 "
                  b"staged_bytes=56", "counter", "ring_empty", "staged_bytes=56"),
                 (rb"ring_pop_calls=357 ", b"ring_pop_calls=900 ", "counter", "ring_pop_calls",
                  "two per non-empty refill"),
                 (enq + rb"hw_send_bytes=100 ", rb"\1hw_send_bytes=800 ",
                  "phase=final-drain,size=64", "hw_send_bytes", "less than 800"),
                 (enq + rb"staged_bytes=624 ", rb"\1staged_bytes=500 ", "phase=enqueue,size=64",
                  "staged_bytes", "never written"),
                 (rb"(phase=final-drain size=64 [^\r\n]*)ring_pop_bytes=726 hw_send_calls=50 "
                  rb"hw_send_bytes=726 ([^\r\n]*)staged_bytes=688 ",
                  rb"\1ring_pop_bytes=700 hw_send_calls=50 hw_send_bytes=700 \2staged_bytes=714 ",
                  "phase=final-drain,size=64", "hw_send_bytes", "724 bytes were queued"),
                 (rb"user_req=5370 user_acc=5370", b"user_req=4000 user_acc=4000", "counter",
                  "user_acc", "less than the 4096 bytes"),
                 (rb"hw_send_zero=1 hw_send_max_chunk=16\r\n  counter=no-progress",
                  b"hw_send_zero=200 hw_send_max_chunk=16\r\n  counter=no-progress", "counter",
                  "hw_send_bytes", "non-empty refills")]
        for old, new, name, key, text in cases:
            section = "S40" if name == "counter" else "S11"
            self.found(check(sub(self.log, old, new)), section, name + ")." + key
                       if name != "counter" else "counter." + key, text)

    def test_unknown_median_rule(self):
        """A median rule the checker does not know is a finding, not a pass."""
        data = sub(self.log, rb"(s42-summary [^\r\n]*)median_rule=mean-of-middle-pair",
                   rb"\1median_rule=geometric")
        self.found(check(data), "S42", "s42-summary.median_rule", "unknown rule")

    def test_work_bounds(self):
        """S41: instructions per byte > 0, model cost and excl_model <= total."""
        cases = [(rb"(size=64 round=2 [^\r\n]*)instructions_per_byte=72.05",
                  rb"\1instructions_per_byte=0.00", "instructions_per_byte", "costs instructions"),
                 (rb"(size=64 round=2 [^\r\n]*)wire_model_instret=26028",
                  rb"\1wire_model_instret=99999", "wire_model_instret", "above the total"),
                 (rb"(size=64 round=2 [^\r\n]*)instructions_per_byte_excl_model=31.38",
                  rb"\1instructions_per_byte_excl_model=80.00", "instructions_per_byte_excl_model",
                  "above the total")]
        for old, new, key, text in cases:
            self.found(check(sub(self.log, old, new)), "S41", "(size=64,round=2)." + key, text)

    def test_line_bounds(self):
        """Latency under the bytes' line time; S11 faster than the line."""
        data = sub(self.log, rb"(samples tag=s20-single-byte [^\r\n]*values=)88300",
                   rb"\g<1>80000")
        self.found(check(data), "S20", "s20-single-byte.min", "less than its 86805 ns")
        data = sub(self.log, rb"final_drain_ns=55554000", b"final_drain_ns=50554000")
        self.found(check(data), "S11", "no-drain(size=64).final_drain_ns", "shorter than the line")

    def test_no_wire_model_line_bounds_not_applicable(self):
        """Without the wire model the line bounds do not apply, and the log says so."""
        res = check(real(NOWIRE))
        self.assertEqual(res.findings, [])
        self.assertTrue(any("not applicable" in n for n in res.notes))


class StarryLogs(LogCase):
    """The StarryOS reference logs: what their format allows."""

    def test_d1_q31(self):
        """D1 q31: consistent; witnesses and samples not applicable; P99 = max a note."""
        res = check(starry("d1-async-q31.log"), "d1.log")
        self.assertEqual(res.findings, [])
        self.assertEqual(res.outcome["witnesses"][0], "n/a")
        self.assertEqual(res.outcome["samples"][0], "n/a")
        self.assertTrue(any("P99 = max" in n for n in res.notes))
        self.assertTrue(any("11796.5 B/s" in n for n in res.notes))

    def test_qemu_q31_efficiency_above_one(self):
        """QEMU q31 (host-timed) prints overlap efficiencies above 1.0."""
        res = check(starry("qemu-async-q31.log"), "qemu.log")
        self.found(res, "S42", "s42-summary.median_overlap_efficiency", "above 1.0")
        self.assertEqual({f.section for f in res.findings}, {"S42"})

    def test_own_line_rate_formula(self):
        """StarryOS line_rate_pct must be its own kbps / 11.52."""
        data = starry("d1-async-q31.log")
        data = sub(data, rb"kbps=10.96 line_rate_pct=95.2", b"kbps=10.96 line_rate_pct=98.2")
        self.found(check(data), "S10", "drain-each(size=64).line_rate_pct", "kbps / 11.52")


class Cli(unittest.TestCase):
    """report --check on the command line: output lines and exit status."""

    def test_output_and_exit(self):
        """Findings as `<log>: <section> <key>: ...`, one verdict per log, exit 1."""
        res = _common.run_cli("--check", _common.ours(ASYNC),
                              _common.ours("d1-async-synthetic.log"))
        self.assertEqual(res.returncode, 1)
        lines = res.stdout.splitlines()
        verdicts = [l for l in lines if re.search(r": (ok|FAIL) \(", l)]
        self.assertEqual(len(verdicts), 2)
        self.assertIn(": ok (", verdicts[0])
        for line in lines:
            self.assertRegex(line, r"^\S+: ((S\d\d|-) \S+: |note: |(ok|FAIL) \()")

    def test_usage_errors(self):
        """--check with -o, or without a log: exit 2."""
        self.assertEqual(_common.run_cli("--check", "-o", "x", _common.ours(ASYNC)).returncode, 2)
        self.assertEqual(_common.run_cli("--check").returncode, 2)
        self.assertEqual(_common.run_cli(_common.ours(ASYNC)).returncode, 2)  # no -o, no --check

    def test_unreadable_and_garbage(self):
        """A missing file and binary junk fail (exit 1) without a traceback."""
        res = _common.run_cli("--check", "/nonexistent/x.log")
        self.assertEqual(res.returncode, 1)
        self.assertIn("cannot read file", res.stdout)
        self.assertNotIn("Traceback", res.stderr)

    def test_checker_error_is_a_failure(self):
        """A check that raises is a finding, never a pass."""
        from uartreport import check as checkmod

        def broken(ctx):
            """A check with a bug."""
            raise KeyError("x")
        saved = checkmod.CHECKS
        checkmod.CHECKS = saved + (("broken", broken),)
        try:
            res = check(real(ASYNC))
        finally:
            checkmod.CHECKS = saved
        self.assertEqual(res.outcome["broken"][0], "failed")
        self.assertIn("checker error", res.findings[0].what)

    def test_help_lists_the_checks(self):
        """--help explains every check."""
        out = _common.run_cli("--help").stdout
        for word in ("--check", "witnesses", "samples", "arithmetic", "counters", "bounds",
                     "quiet-line", "cpu-clock", "done-counts-v2"):
            self.assertIn(word, out)


if __name__ == "__main__":
    unittest.main()
