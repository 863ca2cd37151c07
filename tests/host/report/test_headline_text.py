"""The headline as text for a terminal (headline_text.py, DIR/headline.txt,
which scripts/compare prints at the end of the main job): no line wider
than 100 columns with five columns of long names, a line per headline row
under its short name, each figure the report's own, the logs named under
the table; report.write() writes it beside report.md."""

import os
import tempfile
import unittest

import _common  # noqa: F401
from _doctor import ASYNC, CONSOLE, COPIER, analyzed, real
from uartreport import headline, headline_text, report, settings
from uartreport.tables import fmt

LONG = ["qemu-virt async line-115200/16 (the baseline, full scale)",
        "qemu-virt console line-115200/16", "qemu-virt copier line-115200/16",
        "qemu-sifive-u async line-115200/8", "StarryOS D1 async (lichee-d1-fullbench)"]


class Text(unittest.TestCase):
    """headline_text.lines() on the quick suite logs."""

    @classmethod
    def setUpClass(cls):
        """Five columns: the three designs, then two of them again."""
        names = (ASYNC, CONSOLE, COPIER, ASYNC, CONSOLE)
        cls.ans = [analyzed(real(n), n) for n in names]
        cls.rows = headline.marked(cls.ans)[0]
        cls.lines = headline_text.lines(cls.rows, LONG)

    def test_width(self):
        """No line wider than 100 columns."""
        self.assertLessEqual(max(len(ln) for ln in self.lines), headline_text.WIDTH)

    def test_rows_and_figures(self):
        """A line per row, under its short name, with the report's figures."""
        body = self.lines[1:1 + len(self.rows)]
        self.assertEqual(len(body), len(self.rows))
        for row, line in zip(self.rows, body):
            self.assertTrue(line.startswith(headline_text.short(row.label)), line)
            want = [fmt(c.value) if c.value is not None else "-" for c in row.cells]
            self.assertEqual(line[len(headline_text.short(row.label)):].split(), want)

    def test_every_row_short(self):
        """Every headline row has a short name of its own, and no two share one."""
        names = [headline_text.short(r.label) for r in self.rows]
        self.assertEqual(len(set(names)), len(names))
        for r in self.rows:
            self.assertNotEqual(headline_text.short(r.label), r.label)

    def test_names_under(self):
        """The columns numbered in the first line, the logs named under the table."""
        self.assertEqual(self.lines[0].split(), ["[%d]" % i for i in range(1, 6)])
        self.assertEqual(self.lines[-5:], ["[%d] %s" % (i + 1, lb)[:100]
                                           for i, lb in enumerate(LONG)])

    def test_written(self):
        """report.write() writes headline.txt: the same lines, each column's
        short settings after its name (or under it when both do not fit),
        then the verdicts (page())."""
        with tempfile.TemporaryDirectory() as out:
            report.write(self.ans[:3], LONG[:3], out)
            with open(os.path.join(out, "headline.txt"), encoding="utf-8") as fh:
                got = fh.read().splitlines()
        heads = [settings.short(settings.of(an.log)) for an in self.ans[:3]]
        rows = headline.marked(self.ans[:3])[0]
        table = headline_text.lines(rows, LONG[:3], heads=heads)
        self.assertEqual(got, headline_text.page(rows, LONG[:3], heads=heads))
        self.assertEqual(got[:len(table)], table)
        for i, (lb, h) in enumerate(zip(LONG, heads)):
            name = "[%d] %s" % (i + 1, lb)
            at = next(j for j, ln in enumerate(got) if ln.startswith(name))
            both = got[at:at + 2] if got[at] == name else [got[at]]
            self.assertEqual(both, [name, "    " + h] if got[at] == name else [name + ": " + h])


if __name__ == "__main__":
    unittest.main()
