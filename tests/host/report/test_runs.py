"""Report columns: each log's operating point in its header, rows comparing logs
run at different points marked, INVALID sections' figures marked."""

import os
import tempfile
import unittest

import _common
from _doctor import (ASYNC, CONSOLE, NOWIRE, analyzed, at_shift, real, setv, starry, sub,
                     value)
from uartreport import runs, tables
from uartreport.parse import parse_bytes


def _unknown(data):
    """data without cpu_hz= (a log from before it was printed)."""
    return sub(data, rb"^  cpu_hz=\S+ ", b"  ")


def _marked(rows, prefix):
    """{row label: marked?} of the rows whose label starts with prefix."""
    return {r.label.replace(" " + runs.DIFFERS, ""): r.label.endswith(runs.DIFFERS)
            for r in rows if r.label.startswith(prefix)}


class OperatingPoint(unittest.TestCase):
    """point(), header() and the comparison marks."""

    def test_header(self):
        """The header names CPU clock (MHz/GHz), icount shift, wire model, scale."""
        fast = parse_bytes(at_shift(real(ASYNC), 0))
        slow = parse_bytes(at_shift(real(CONSOLE), 6))
        self.assertEqual(runs.header("a", fast), "a<br>CPU 1 GHz, icount shift 0, wire 115200/16, "
                                                 "quick scale")
        self.assertIn("CPU 15.6 MHz, icount shift 6", runs.header("c", slow))
        self.assertIn("CPU unknown", runs.header("u", parse_bytes(_unknown(real(ASYNC)))))
        theirs = parse_bytes(starry("d1-async-q31.log"))
        self.assertEqual(runs.point(theirs), dict.fromkeys(runs.POINT + runs.RX_POINT, "unknown"))

    def test_wire_clock_in_header_and_compared(self):
        """A log that prints wire_clock= names it after the wire model; logs
        of the two clocks are not compared like with like."""
        free = sub(real(ASYNC), rb"^(  wire_model=.*)$", rb"\1\n  wire_clock=free")
        raw = sub(real(CONSOLE), rb"^(  wire_model=.*)$", rb"\1\n  wire_clock=raw reason=bootarg")
        self.assertIn("wire 115200/16 (free clock), quick scale",
                      runs.header("a", parse_bytes(free)))
        self.assertIn("wire 115200/16 (raw clock), quick scale",
                      runs.header("c", parse_bytes(raw)))
        rows = tables.line_rate_rows([analyzed(free), analyzed(raw)])
        self.assertEqual(runs.mark(rows, [analyzed(free), analyzed(raw)]),
                         ["◇ the logs compared in the marked rows differ in wire model (see the "
                          "column headers): not a like-for-like comparison."])

    def test_rows_marked_when_points_differ(self):
        """Same point: no mark; a different or unknown one: every compared row marked."""
        same = [analyzed(real(ASYNC)), analyzed(real(CONSOLE))]  # the fixtures' one operating point
        rows = tables.line_rate_rows(same)
        self.assertEqual(runs.mark(rows, same), [])
        self.assertFalse(any(_marked(rows, "S10").values()))
        other = [same[0], analyzed(at_shift(real(CONSOLE), 6))]
        rows = tables.line_rate_rows(other)
        notes = runs.mark(rows, other)
        self.assertTrue(all(_marked(rows, "S10").values()))
        self.assertIn("differ in CPU clock, icount shift", notes[0])
        unknown = [analyzed(_unknown(real(ASYNC)))] * 2  # the same run, CPU clock not said
        rows = tables.s41_rows(unknown)
        self.assertEqual(runs.mark(rows, unknown)[0].split(" (")[0],
                         "◇ the logs compared in the marked rows differ in CPU clock")
        self.assertTrue(all(_marked(rows, "S41").values()))

    def test_one_log_compares_nothing(self):
        """A single column is never marked, even with unknown fields."""
        ans = [analyzed(_unknown(real(ASYNC)))]
        rows = tables.latency_rows(ans)
        self.assertEqual(runs.mark(rows, ans), [])

    def test_invalid_section_marked(self):
        """An INVALID section: its cells carry the mark, the status table says why."""
        data = sub(real(ASYNC), rb"  section=S20 status=PASS ",
                   b"  section=S20 status=INVALID reason=foreign-rx ")
        data = setv(data, rb"section=S20 ", "foreign_rx_bytes", 12)
        ans = [analyzed(data), analyzed(real(ASYNC))]
        rows = tables.latency_rows(ans)
        notes = runs.mark(rows, ans)
        s20 = [r for r in rows if r.label.startswith("S20 1 B P50")][0]
        self.assertTrue(s20.cells[0].text.endswith(runs.INVALID))
        self.assertFalse(s20.cells[1].text.endswith(runs.INVALID))
        s21 = [r for r in rows if r.label.startswith("S21 1 B P50")][0]
        self.assertFalse(s21.cells[0].text.endswith(runs.INVALID))
        self.assertTrue(any("INVALID (S20)" in n for n in notes))
        status = {r.label: r.cells[0].text for r in tables.status_rows(ans)}
        self.assertTrue(status["S20"].startswith("INVALID reason=foreign-rx foreign_rx_bytes=12"))

    def test_linux_line_rates_not_comparable(self):
        """A Linux run on QEMU's instant 16550 (line=instant) or a pty: its line
        rates marked not comparable, a kernel image's without the wire model not."""
        hosted = real("hosted-pty-quick.log")
        for line in (b"instant", b"pty"):
            data = sub(hosted, rb" line=pty ", b" line=" + line + b" ")
            ans = [analyzed(real(NOWIRE), "k.log"), analyzed(data, "l.log")]
            rows = tables.line_rate_rows(ans)
            notes = runs.mark_no_line(rows, ans)
            row = next(r for r in rows if r.label == "S10 drain-each 64 B line rate %")
            self.assertTrue(row.cells[1].text.endswith(runs.NO_LINE), row.cells)
            self.assertFalse(row.cells[0].text.endswith(runs.NO_LINE), row.cells)
            self.assertTrue(notes and "line=" + line.decode() in notes[0], notes)
        serial = [analyzed(sub(hosted, rb" line=pty ", b" line=serial "))]
        self.assertEqual(runs.mark_no_line(tables.line_rate_rows(serial), serial), [])

    def test_write_drain_instructions_rows(self):
        """S20/S21 instructions per write + drain, where a log prints them."""
        data = real(NOWIRE)
        rows = {r.label: r for r in tables.latency_rows([analyzed(data)])}
        self.assertNotIn("S20 1 B write+drain instructions P50", rows)
        data = sub(data, rb"^(  samples tag=s20-single-byte [^\n]*\n)",
                   rb"\1  samples tag=s20-single-byte-insns unit=instructions first=0 "
                   rb"values=700,600\n  diag=s20-single-byte-insns n=2 min_instructions=600 "
                   rb"avg_instructions=650 p50_instructions=600 p95_instructions=700 "
                   rb"p99_instructions=700 max_instructions=700\n")
        rows = {r.label: r for r in tables.latency_rows([analyzed(data)])}
        self.assertEqual(rows["S20 1 B write+drain instructions P50"].cells[0].text, "600")
        self.assertEqual(rows["S20 1 B write+drain instructions P99"].cells[0].text, "700")

    def test_report_shows_headers_and_notes(self):
        """End to end: column headers with the point, the note under marked tables."""
        with tempfile.TemporaryDirectory() as out:
            logs = []
            for name, data in (("a.log", _unknown(at_shift(real(ASYNC), 0))),
                               ("c.log", at_shift(real(CONSOLE), 6))):
                logs.append(os.path.join(out, name))
                with open(logs[-1], "wb") as fh:
                    fh.write(data)
            res = _common.run_cli(*logs, "-o", out)
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
                text = fh.read()
        man = {k: value(real(ASYNC), rb"", k, "S00") for k in ("board", "backend", "wire_model")}
        self.assertIn("| Metric | {board}/{backend}/wire-{wire_model}<br>CPU unknown, icount "
                      "shift 0, wire {wire_model}, quick scale |".format(**man), text)
        self.assertIn("◇ the logs compared in the marked rows differ in CPU clock, icount shift",
                      text)
        self.assertIn("| icount shift | 0 | 6 |", text)


if __name__ == "__main__":
    unittest.main()
