"""Report columns: each log's short settings in its header, rows comparing logs
run at different settings marked with a note naming them, INVALID sections'
figures marked."""

import os
import tempfile
import unittest

import _common
from _doctor import ASYNC, CONSOLE, NOWIRE, analyzed, at_shift, real, setv, sub, value
from uartreport import runs, settings, tables
from uartreport.parse import parse_bytes


def _unknown(data):
    """data without cpu_hz= (a log from before it was printed)."""
    return sub(data, rb"^  cpu_hz=\S+ ", b"  ")


def _marked(rows, prefix):
    """{row label: marked?} of the rows whose label starts with prefix."""
    return {r.label.replace(" " + runs.DIFFERS, ""): r.label.endswith(runs.DIFFERS)
            for r in rows if r.label.startswith(prefix)}


class OperatingPoint(unittest.TestCase):
    """settings.header(), the legend and the comparison marks."""

    def test_header(self):
        """The header: label, then board, design, CPU clock (MHz/GHz) and line, short."""
        fast = parse_bytes(at_shift(real(ASYNC), 0))
        slow = parse_bytes(at_shift(real(CONSOLE), 6))
        man = {k: value(real(ASYNC), rb"", k, "S00") for k in ("board", "backend", "wire_model")}
        self.assertEqual(settings.header("a", fast),
                         "a<br>{board}, {backend}, CPU 1 GHz, model {wire_model}".format(**man))
        self.assertIn(", CPU 15.6 MHz, ", settings.header("c", slow))
        self.assertIn(", CPU not stated, ",
                      settings.header("u", parse_bytes(_unknown(real(ASYNC)))))
        self.assertNotIn("icount", settings.header("a", fast))
        self.assertNotIn("scale", settings.header("a", fast))

    def test_wire_clock_in_legend_and_compared(self):
        """A log that prints wire_clock= names it after the wire model in the
        legend; logs of the two clocks are not compared like with like."""
        free = sub(real(ASYNC), rb"^(  wire_model=.*)$", rb"\1\n  wire_clock=free")
        raw = sub(real(CONSOLE), rb"^(  wire_model=.*)$", rb"\1\n  wire_clock=raw reason=bootarg")
        wire = value(real(ASYNC), rb"", "wire_model", "S00")
        self.assertIn("; line model %s (free clock);" % wire,
                      settings.legend_line("a", parse_bytes(free)))
        self.assertIn("; line model %s (raw clock);" % wire,
                      settings.legend_line("c", parse_bytes(raw)))
        ans = [analyzed(free), analyzed(raw)]
        rows = tables.line_rate_rows(ans)
        self.assertEqual(runs.mark(rows, ans, labels=["f", "r"]),
                         ["◇ not a like-for-like comparison in the marked rows: line model %s "
                          "(free clock) (`f`) vs model %s (raw clock) (`r`) (settings: the legend "
                          "under the headline)." % (wire, wire)])

    def test_rows_marked_when_points_differ(self):
        """Same point: no mark; a different or unknown one: every compared row marked."""
        same = [analyzed(real(ASYNC)), analyzed(real(CONSOLE))]  # the fixtures' one operating point
        rows = tables.line_rate_rows(same)
        self.assertEqual(runs.mark(rows, same), [])
        self.assertFalse(any(_marked(rows, "S10").values()))
        other = [same[0], analyzed(at_shift(real(CONSOLE), 6))]
        rows = tables.line_rate_rows(other)
        notes = runs.mark(rows, other, labels=["a", "c"])
        self.assertTrue(all(_marked(rows, "S10").values()))
        self.assertIn(": CPU clock 500 MHz (`a`) vs 15.6 MHz (`c`); icount shift 1 (`a`) vs 6 "
                      "(`c`) (settings:", notes[0])
        unknown = [analyzed(_unknown(real(ASYNC)))] * 2  # the same run, CPU clock not said
        rows = tables.s41_rows(unknown)
        self.assertIn(": CPU clock not stated (`a`, `b`) (settings:",
                      runs.mark(rows, unknown, labels=["a", "b"])[0])
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
        self.assertIn("| Metric | {board}/{backend}/wire-{wire_model}<br>{board}, {backend}, CPU "
                      "not stated, model {wire_model} |".format(**man), text)
        self.assertIn("◇ not a like-for-like comparison in the marked rows: CPU clock not stated "
                      "(`{board}/{backend}/wire-{wire_model}`) vs 15.6 MHz".format(**man), text)
        self.assertIn("| icount shift | 0 | 6 |", text)


if __name__ == "__main__":
    unittest.main()
