"""report --check: the log format's fields (cpu_hz, the status lines' reason= and
foreign_rx_*, INVALID, the Done line's counts, sections_selected/skipped, the
instructions_* names) on doctored real logs, StarryOS logs, and the CLI."""

import re
import unittest

import _common
from _doctor import (ASYNC, CONSOLE, LogCase, check, cut_section, drop, number, real,
                     setv, starry, sub, value)

REALTIME = {"qemu_mode": "realtime", "cpu_hz": "0", "cpu_hz_source": "unknown",
            "cycles_unit": "host-ticks"}


def manifest(data, **fields):
    """data with manifest fields set (each must be in the manifest already)."""
    for key, new in fields.items():
        data = setv(data, rb"", key, new, section="S00")
    return data


def foreign(data, sid, nbytes, irqs=1, insns=900):
    """data with section sid's status line reporting foreign RX traffic."""
    for key, new in (("foreign_rx_bytes", nbytes), ("foreign_rx_irqs", irqs),
                     ("foreign_rx_instructions", insns)):
        data = setv(data, rb"section=%s status=" % sid.encode(), key, new)
    return data


class FormatFields(LogCase):
    """cpu_hz / cycles_unit, the Done line with invalid= skipped= timeout=, INVALID."""

    def test_fields_checked_and_absent_not_applicable(self):
        """The real logs print them: checked; a log without them: not applicable."""
        res = check(self.log)
        for name in ("cpu-clock", "done-counts-v2", "quiet-line"):
            self.assertEqual(res.outcome[name][0], "ok", name)
        old = sub(self.log, rb"^  cpu_hz=\S+ cpu_hz_source=\S+ cycles_unit=\S+ ", b"  ")
        old = sub(old, rb"^(Done\. sections=\d+ passed=\d+ failed=\d+) [^\r\n]*", rb"\1")
        old = sub(old, rb"^(  section=S\d\d [^\r\n]*?) foreign_rx_bytes=[^\r\n]*", rb"\1", 0)
        res = check(old)
        for name in ("cpu-clock", "done-counts-v2", "quiet-line"):
            self.assertEqual(res.outcome[name][0], "n/a", name)
        self.assertEqual(res.findings, [])

    def test_cpu_hz_from_icount(self):
        """cpu_hz = 1e9 >> icount_shift under icount; cycles_unit virtual-ns
        (this log's QEMU) or cpu-cycles (the project's: then instret counts
        one per instruction, and S41's instret_scale must say 1)."""
        shift = number(self.log, rb"icount_shift=", "icount_shift")
        self.assertEqual(number(self.log, rb"cpu_hz=", "cpu_hz"), 10 ** 9 >> shift)
        self.assertEqual(check(real(CONSOLE)).outcome["cpu-clock"][0], "ok")
        other = manifest(self.log, icount_shift=shift + 5, cpu_hz=10 ** 9 >> (shift + 5))
        self.clean(check(other), "S00", "cpu_hz")
        bad = manifest(self.log, cpu_hz=10 ** 9 >> (shift + 1))
        self.found(check(bad), "S00", "cpu_hz", "1e9 >> %d = %d" % (shift, 10 ** 9 >> shift))
        unit = manifest(self.log, cycles_unit="host-ticks")
        self.found(check(unit), "S00", "cycles_unit", "cpu-cycles or virtual-ns")
        unit = manifest(self.log, cycles_unit="cpu-cycles")
        self.clean(check(unit), "S00", "cycles_unit")
        self.found(check(unit), "S41", "s41-method.instret_scale", "counts 1 per instruction")

    def test_cpu_hz_unknown_in_realtime(self):
        """QEMU without icount: cpu_hz=0 with cpu_hz_source=unknown; 0 means unknown only."""
        rt = manifest(self.log, **REALTIME)
        res = check(rt)
        for key in ("cpu_hz", "cycles_unit"):
            self.clean(res, "S00", key)
        self.found(check(manifest(rt, cpu_hz_source="icount")), "S00", "cpu_hz", "0 means unknown")
        self.found(check(manifest(rt, cpu_hz_source="icount")), "S00", "cpu_hz_source",
                   "give unknown")
        self.found(check(manifest(rt, cpu_hz="5")), "S00", "cpu_hz", "0 means unknown")
        self.found(check(manifest(self.log, cpu_hz="0")), "S00", "cpu_hz", "0 means unknown")
        self.found(check(manifest(self.log, cpu_hz="fast")), "S00", "cpu_hz", "not a whole number")

    def test_done_line_counts(self):
        """The Done line: counts of each status, P + F + I + S = N."""
        sections = number(self.log, rb"Done\. ", "sections")
        res = check(setv(self.log, rb"Done\. ", "skipped", 1))
        self.found(res, "-", "Done.skipped", "says 1")
        self.found(res, "-", "Done.sections", "passed + failed + invalid + skipped = %d"
                   % (sections + 1))
        self.found(check(setv(self.log, rb"Done\. ", "timeout", 1)), "-", "Done.timeout",
                   "says 1")

    def invalid(self, sid, nbytes):
        """The log with section sid INVALID (foreign nbytes), the Done line adjusted."""
        data = sub(self.log, rb"  section=%s status=PASS " % sid.encode(),
                   b"  section=%s status=INVALID reason=foreign-rx " % sid.encode())
        data = setv(setv(data, rb"Done\. ", "passed", lambda v: int(v) - 1),
                    rb"Done\. ", "invalid", lambda v: int(v) + 1)
        return foreign(data, sid, nbytes)

    def test_invalid_section_is_not_a_failure(self):
        """INVALID with foreign RX bytes passes (and is noted); without them it does not."""
        res = check(self.invalid("S20", 12))
        self.assertEqual(res.findings, [])
        self.assertTrue(any("S20 INVALID" in n for n in res.notes), res.notes)
        self.found(check(self.invalid("S20", 0)), "S20", "status",
                   "INVALID although foreign_rx_bytes=0")

    def test_pass_with_foreign_bytes(self):
        """PASS although foreign bytes arrived in the window: it must be INVALID."""
        loud = foreign(self.log, "S21", 3)
        self.found(check(loud), "S21", "status", "PASS although foreign_rx_bytes=3")
        self.clean(check(foreign(self.log, "S21", 0, 0, 0)), "S21", "status")

    def test_foreign_rx_na_only_beside_bytes(self):
        """foreign_rx_irqs=na (a backend without RX interrupts) only beside a byte count."""
        console = real(CONSOLE)
        self.assertEqual(value(console, rb"section=S10 status=", "foreign_rx_irqs"), "na")
        self.assertEqual(check(console).outcome["quiet-line"][0], "ok")
        res = check(setv(console, rb"section=S10 status=", "foreign_rx_bytes", "na"))
        self.found(res, "S10", "foreign_rx_bytes", "missing beside")
        async_na = setv(self.log, rb"section=S10 status=", "foreign_rx_irqs", "na")
        self.clean(check(async_na), "S10", "foreign_rx")
        res = check(setv(self.log, rb"section=S10 status=", "foreign_rx_irqs", "many"))
        self.found(res, "S10", "foreign_rx_irqs", "missing beside")

    def test_cpu_work_keys_named_in_instructions(self):
        """instret_* renamed instructions_* (and unit=instructions) check the same way."""
        data = self.log
        for old, new in ((rb"\binstret_delta=", b"instructions_delta="),
                         (rb"\bwire_model_instret=", b"wire_model_instructions="),
                         (rb"\bidle_instret=", b"idle_instructions="),
                         (rb"\binstret_per_switch=", b"instructions_per_switch="),
                         (rb"unit=instret ", b"unit=instructions ")):
            data = sub(data, old, new, 0)
        data = sub(data, rb"^(  diag=s06-wake-to-run [^\r\n]*)", lambda m: re.sub(
            rb"_instret=", b"_instructions=", m.group(1)))
        self.assertEqual(check(data).findings, [])
        bad = setv(data, rb"diag=s41-valid size=64 round=1 ", "instructions_delta",
                   lambda v: int(v) + 88)
        res = check(bad)
        self.found(res, "S41", "s41-valid(size=64,round=1).instructions_delta",
                   "instret_end - instret_begin")
        self.found(res, "S41", "s41-valid(size=64,round=1).instructions_delta",
                   "rdinstret_delta // instret_scale - idle_instret")
        self.found(res, "S41", "s41-valid(size=64,round=1).instructions_per_byte",
                   "instructions_delta / completed")
        worse = setv(data, rb"diag=s06-wake-to-run ", "p99_instructions", lambda v: int(v) + 1)
        self.found(check(worse), "S06", "s06-wake-to-run.p99_instructions")

    def test_sections_selected_and_skipped(self):
        """A section left out by sections_skipped= or sections_selected= is not missing."""
        data = cut_section(self.log, "S31")
        for key in ("sections", "passed"):
            data = setv(data, rb"Done\. ", key, lambda v: int(v) - 1)
        self.found(check(data), "S31", "header", "section of the suite missing")
        skipped = manifest(data, sections_skipped="S31")
        self.assertEqual(check(skipped).findings, [])
        chosen = manifest(data, sections_selected=value(data, rb"", "sections_selected",
                                                        "S00").replace("S31,", ""))
        self.assertEqual(check(chosen).findings, [])


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
