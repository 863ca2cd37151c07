"""The report's headline table: its rows and figures on the real fixture logs,
the comparability marks (another CPU clock, a Linux run on an instant line),
and its place within the first 40 lines of report.md."""

import os
import re
import tempfile
import unittest

import _common
from _doctor import (ASYNC, CONSOLE, COPIER, NOWIRE, analyzed, at_shift, number, real, setv, sub,
                     value)
from uartreport import headline, markdown, runs, settings

ROWS = ["S10 line rate, 64 B writes (% of the line, bytes/s)",
        "S10 line rate, 1024 B writes (% of the line, bytes/s)",
        "S20 1 B write + drain P50 (character times)",
        "S20 1 B write + drain P99 (character times)",
        "S21 worst P99/P50 (write size)",
        "S41 instructions per byte, driver only (1024 B writes)",
        "S41 CPU % while sending (1024 B writes)",
        "S42 overlap efficiency (1 = sending took no CPU from the computation)",
        "S43 timer overshoot P99, idle (us)",
        "S43 timer overshoot P99, while sending (us)"]


def _bare(label):
    """A row label without the comparison mark."""
    return label.replace(" " + runs.DIFFERS, "")


class Rows(unittest.TestCase):
    """headline.rows() and headline.marked() on the three quick suite logs."""

    @classmethod
    def setUpClass(cls):
        """The async, console and copier quick logs, analysed once."""
        cls.data = [real(n) for n in (ASYNC, CONSOLE, COPIER)]
        cls.ans = [analyzed(d, n) for d, n in zip(cls.data, (ASYNC, CONSOLE, COPIER))]

    def test_rows_and_figures(self):
        """The rows in order; each figure is the log's own (driver-only S41 is
        excl_model, latency in character times, overshoot in us)."""
        rows = headline.rows(self.ans)
        self.assertEqual([r.label for r in rows], ROWS)
        got = {r.label: r.cells for r in rows}
        for i, (an, data) in enumerate(zip(self.ans, self.data)):
            self.assertAlmostEqual(got[ROWS[5]][i].value, number(
                data, rb"diag=s41-summary size=1024 ", "median_instructions_per_byte_excl_model"),
                places=6)
            self.assertAlmostEqual(got[ROWS[6]][i].value, number(
                data, rb"diag=s41-summary size=1024 ", "median_cpu_util_pct"))
            lat = an.latency["s20-single-byte"]
            self.assertAlmostEqual(got[ROWS[2]][i].value, lat.values["p50"] / an.char_ms)
            self.assertAlmostEqual(got[ROWS[9]][i].value, number(
                data, rb"diag=s43-loaded-aggregate ", "p99_ns") / 1000.0)
            rate = [lr for lr in an.line_rates if lr.section == "S10" and lr.size == "64"][0]
            self.assertTrue(got[ROWS[0]][i].text.startswith("%.2f %% (" % rate.pct_true))
            worst = max(an.latency[t].values["p99"] / an.latency[t].values["p50"]
                        for t in an.latency if t.startswith("s21-fifo-size-"))
            self.assertAlmostEqual(got[ROWS[4]][i].value, worst)

    def test_same_point_no_mark(self):
        """Logs at one operating point: no row marked, no comparison note."""
        rows, notes = headline.marked(self.ans)
        self.assertFalse([r.label for r in rows if r.label.endswith(runs.DIFFERS)])
        self.assertFalse([n for n in notes if n.startswith(runs.DIFFERS)])

    def test_other_cpu_clock_marked(self):
        """A log at another CPU clock (icount shift): every row comparing it is
        marked, and the note names CPU clock and icount shift."""
        ans = [self.ans[0], analyzed(at_shift(self.data[1], 6)), self.ans[2]]
        rows, notes = headline.marked(ans, list("acp"))
        self.assertTrue(rows)
        self.assertEqual([r.label for r in rows if not r.label.endswith(runs.DIFFERS)], [])
        self.assertIn(": CPU clock 500 MHz (`a`, `p`) vs 15.6 MHz (`c`); icount shift 1 (`a`, "
                      "`p`) vs 6 (`c`) (settings: the legend under this table).", notes[0])
        text = markdown.render(rows, ["a", "c", "p"], 1, heads=[
            settings.header(lb, an.log) for lb, an in zip("acp", ans)])
        self.assertIn("c<br>qemu-virt, console, CPU 15.6 MHz, model %s<br>(baseline)"
                      % value(self.data[1], rb"", "wire_model", "S00"), text)

    def test_linux_line_rate_not_comparable(self):
        """A Linux run on QEMU's instant 16550: its S10 cells marked not
        comparable and given no ratio; its other rows keep theirs."""
        linux = sub(real("hosted-pty-quick.log"), rb" line=pty ", b" line=instant ")
        ans = [analyzed(real(NOWIRE), "k.log"), analyzed(linux, "l.log")]
        rows, notes = headline.marked(ans)
        for row in rows:
            if row.label.startswith("S10"):
                self.assertTrue(row.cells[1].text.endswith(runs.NO_LINE), row.cells)
                self.assertFalse(row.cells[0].text.endswith(runs.NO_LINE), row.cells)
        self.assertTrue([n for n in notes if n.startswith(runs.NO_LINE) and "line=instant" in n])
        table = markdown.render(rows, ["k", "l"], 0).splitlines()
        s10 = [l for l in table if l.startswith("| S10")]
        self.assertTrue(s10)
        self.assertFalse([l for l in s10 if re.search(r"%s \(\S+x\)" % runs.NO_LINE, l)], s10)
        s20 = [l for l in table if l.startswith("| S20 1 B write + drain P50")][0]
        self.assertRegex(s20, r"\(\S+x\) \|$")


class FirstScreen(unittest.TestCase):
    """End to end: report.md on three logs opens with the headline table."""

    def test_headline_within_40_lines(self):
        """The whole headline table (heading to last row) is in lines 1-40."""
        with tempfile.TemporaryDirectory() as out:
            logs = [_common.ours(n) for n in (ASYNC, CONSOLE, COPIER)]
            res = _common.run_cli(*logs, "-o", out)
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        start = lines.index("## " + headline.TITLE)
        table = [i for i, l in enumerate(lines) if l.startswith("|") and i > start]
        last = next(i for i in table if i + 1 not in table)
        self.assertLess(last, 40, "\n".join(lines[:last + 1]))
        self.assertTrue(lines[start + 2].startswith("| Question | qemu-virt/async/"))
        self.assertEqual([l.split(" | ")[0][2:] for l in lines[start + 4:last + 1]], ROWS)
        self.assertRegex(lines[start + 2], r"\| qemu-virt/console/[^|]*<br>\(baseline\) \|")
        self.assertRegex(lines[start + 4], r"\(\S+x\) \|")


if __name__ == "__main__":
    unittest.main()
