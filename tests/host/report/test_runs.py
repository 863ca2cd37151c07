"""Report columns: each log's operating point in its header, rows comparing logs
run at different points marked, INVALID sections' figures marked."""

import os
import tempfile
import unittest

import _common
from _doctor import ASYNC, CONSOLE, real, starry, sub
from uartreport import runs, tables
from uartreport.parse import parse_bytes
from uartreport.recompute import analyze


def _an(data, name="x.log"):
    """Analysis of raw log bytes."""
    return analyze(parse_bytes(data, name))


def _with_cpu(data, hz):
    """data with cpu_hz= (icount source) added to its manifest."""
    return sub(data, rb"^  icount_shift=(\d+)\r\n",
               rb"  icount_shift=\1 cpu_hz=%d cpu_hz_source=icount\r\n" % hz)


def _marked(rows, prefix):
    """{row label: marked?} of the rows whose label starts with prefix."""
    return {r.label.replace(" " + runs.DIFFERS, ""): r.label.endswith(runs.DIFFERS)
            for r in rows if r.label.startswith(prefix)}


class OperatingPoint(unittest.TestCase):
    """point(), header() and the comparison marks."""

    def test_header(self):
        """The header names CPU clock (MHz/GHz), icount shift, wire model, scale."""
        fast = parse_bytes(_with_cpu(real(ASYNC), 10 ** 9))
        slow = parse_bytes(_with_cpu(real(CONSOLE), 15625000))
        self.assertEqual(runs.header("a", fast), "a<br>CPU 1 GHz, icount shift 0, wire 115200/16, "
                                                 "quick scale")
        self.assertIn("CPU 15.6 MHz, icount shift 6", runs.header("c", slow))
        self.assertIn("CPU unknown", runs.header("u", parse_bytes(real(ASYNC))))
        theirs = parse_bytes(starry("d1-async-q31.log"))
        self.assertEqual(runs.point(theirs), dict.fromkeys(runs.POINT, "unknown"))

    def test_rows_marked_when_points_differ(self):
        """Same point: no mark; a different or unknown one: every compared row marked."""
        same = [_an(_with_cpu(real(ASYNC), 10 ** 9)), _an(_with_cpu(real(ASYNC), 10 ** 9))]
        rows = tables.line_rate_rows(same)
        self.assertEqual(runs.mark(rows, same), [])
        self.assertFalse(any(_marked(rows, "S10").values()))
        other = [same[0], _an(_with_cpu(real(CONSOLE), 15625000))]
        rows = tables.line_rate_rows(other)
        notes = runs.mark(rows, other)
        self.assertTrue(all(_marked(rows, "S10").values()))
        self.assertIn("differ in CPU clock, icount shift", notes[0])
        unknown = [_an(real(ASYNC)), _an(real(ASYNC))]  # the same run, CPU clock not said
        rows = tables.s41_rows(unknown)
        self.assertEqual(runs.mark(rows, unknown)[0].split(" (")[0],
                         "◇ the logs compared in the marked rows differ in CPU clock")
        self.assertTrue(all(_marked(rows, "S41").values()))

    def test_one_log_compares_nothing(self):
        """A single column is never marked, even with unknown fields."""
        ans = [_an(real(ASYNC))]
        rows = tables.latency_rows(ans)
        self.assertEqual(runs.mark(rows, ans), [])

    def test_invalid_section_marked(self):
        """An INVALID section: its cells carry the mark, the status table says why."""
        data = sub(real(ASYNC), rb"  section=S20 status=PASS ",
                   b"  section=S20 status=INVALID reason=foreign-rx foreign_rx_bytes=12 ")
        ans = [_an(data), _an(real(ASYNC))]
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

    def test_report_shows_headers_and_notes(self):
        """End to end: column headers with the point, the note under marked tables."""
        with tempfile.TemporaryDirectory() as out:
            res = _common.run_cli(_common.ours(ASYNC), _common.ours(CONSOLE), "-o", out)
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
                text = fh.read()
        self.assertIn("| Metric | qemu-virt/async/wire-115200/16<br>CPU unknown, icount shift 0, "
                      "wire 115200/16, quick scale |", text)
        self.assertIn("◇ the logs compared in the marked rows differ in CPU clock, icount shift",
                      text)
        self.assertIn("| icount shift | 0 | 6 |", text)


if __name__ == "__main__":
    unittest.main()
