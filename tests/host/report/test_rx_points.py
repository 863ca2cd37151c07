"""report --rx-point LABEL=LOG: logs of S32/S33 at more operating points,
a table per point (line and RX trigger) under the RX table, ratios against
the point's first log; the logs are in no other table; bad forms refused."""

import os
import re
import tempfile
import unittest

import _common
from _doctor import ASYNC, ASYNC_RX, BLIND, LINE_RX, real, setv, value
from uartreport import tables_rx
from uartreport.parse import parse_bytes
from uartreport.recompute import analyze

POINT_1 = "### RX at 115200/16, RX trigger 1 (S32, S33)"


def _tables(text):
    """{### title: its text up to the next heading} of a report."""
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def _row(table, title):
    """The cells of the row titled title (after the title cell and its marks)."""
    m = re.search(r"^\| %s[^|]*\|(.*)\|$" % re.escape(title), table, re.M)
    return [c.strip() for c in m.group(1).split("|")] if m else None


class RxPoints(unittest.TestCase):
    """The CLI with a main log and --rx-point logs at two points."""

    @classmethod
    def setUpClass(cls):
        """One report: ours and Linux's at 115200/16/1, ours on the model at 3 Mbaud."""
        cls.dir = tempfile.TemporaryDirectory()
        out = os.path.join(cls.dir.name, "out")
        cls.res = _common.run_cli(_common.ours(ASYNC), "-o", out,
                                  "--rx-point", "ours=" + _common.ours(LINE_RX),
                                  "--rx-point", "linux=" + _common.ours(BLIND),
                                  "--rx-point", "ours 3M=" + _common.ours(ASYNC_RX))
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            cls.text = fh.read()
        cls.tables = _tables(cls.text)

    @classmethod
    def tearDownClass(cls):
        """The report gone."""
        cls.dir.cleanup()

    def test_a_table_per_point(self):
        """Two point tables, in the order of their first log, after the RX table."""
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        titles = [t for t in self.tables if t.startswith("### RX at ")]
        self.assertEqual(titles, [POINT_1, "### RX at 3000000/1, RX trigger 1 (S32, S33)"])
        self.assertLess(self.text.index("### RX on the line"), self.text.index(POINT_1))

    def test_legend_under_each_point_table(self):
        """Each point table has its own legend: its logs and their settings,
        the logs of the other tables not in it."""
        for title, labels in ((POINT_1, ["ours", "linux"]),
                              ("### RX at 3000000/1, RX trigger 1 (S32, S33)", ["ours 3M"])):
            legend = [ln for ln in self.tables[title].splitlines() if ln.startswith("- `")]
            self.assertEqual([ln.split("`")[1] for ln in legend], labels)
            for line in legend:
                self.assertRegex(line, r": board [^;]+; design [^;]+; CPU clock .*; line .*; "
                                 r"scale ")

    def test_columns_and_ratios(self):
        """ours is the baseline of its point; Linux's figures carry the ratio to ours'."""
        table = self.tables[POINT_1]
        self.assertRegex(table, r"(?m)^\| Metric \| ours<br>[^|]*<br>\(baseline\) \| linux<br>")
        cells = _row(table, "S32 instructions per received byte")
        ours = float(value(real(LINE_RX), rb"diag=s32-cpu ", "instructions_per_byte"))
        linux = float(value(real(BLIND), rb"diag=s32-cpu ", "instructions_per_byte"))
        self.assertEqual(cells[0], "%s" % value(real(LINE_RX), rb"diag=s32-cpu ",
                                                "instructions_per_byte"))
        self.assertEqual(cells[1], "%s (%.3gx)" % (
            value(real(BLIND), rb"diag=s32-cpu ", "instructions_per_byte"), linux / ours))

    def test_point_logs_only_there(self):
        """The --rx-point logs are no column of the headline or of the other tables."""
        for title, table in self.tables.items():
            if not title.startswith("### RX at "):
                self.assertNotIn("ours 3M", table, title)
                self.assertNotIn("| linux", table, title)

    def test_cpu_wide_row(self):
        """A Linux run counted CPU-wide (counters=cpuwide): its process's figure
        not-available, the CPU's in a row of its own; no such row without it."""
        data = real(BLIND)
        for key in ("instructions", "instructions_per_byte"):
            data = setv(data, rb"  diag=s32-cpu ", key, "not-available")
        data = setv(data, rb"  diag=s32-cpu ", "cpuwide_instructions_per_byte", "1427.79")
        ans = [analyze(parse_bytes(d, n)) for d, n in ((real(LINE_RX), LINE_RX), (data, BLIND))]
        rows = {r.label: [c.text for c in r.cells] for r in tables_rx.rx_line_rows(ans)}
        self.assertEqual(rows["S32 instructions per received byte, whole CPU (idle included)"],
                         ["", "1427.79"])
        self.assertEqual(rows["S32 instructions per received byte"][1], "not-available")
        self.assertNotIn("S32 instructions per received byte, whole CPU (idle included)",
                         [r.label for r in tables_rx.rx_line_rows(ans[:1])])

    def test_bad_forms(self):
        """No LABEL=LOG, or --rx-point with --check: usage error, exit 2."""
        with tempfile.TemporaryDirectory() as out:
            for bad in ("x.log", "=x.log", "ours="):
                res = _common.run_cli(_common.ours(ASYNC), "-o", out, "--rx-point", bad)
                self.assertEqual(res.returncode, 2, bad)
                self.assertIn("want LABEL=LOG", res.stderr)
        res = _common.run_cli("--check", _common.ours(ASYNC), "--rx-point", "a=b")
        self.assertEqual(res.returncode, 2)
        self.assertIn("--rx-point", res.stderr)


if __name__ == "__main__":
    unittest.main()
