"""The headline's verdicts (verdicts.py): each part of a sentence follows its
figure (line rate, CPU, RX loss, timers, overlap), a figure the log lacks is
said as such, a cell marked not comparable or INVALID makes no claim; on
real logs, report.md and headline.txt carry one verdict per column."""

import copy
import os
import re
import tempfile
import unittest

import _common  # noqa: F401
from _doctor import (ASYNC, CONSOLE, CONSOLE_RX, COPIER, LINE_RX, analyzed, number, real,
                     starry, sub)
from uartreport import headline, headline_text, html_page, report, runs, verdicts
from uartreport.tables import fmt

PREFIXES = (verdicts.RATE, verdicts.CPU, verdicts.OVERLAP, verdicts.IDLE, verdicts.LOADED,
            verdicts.RX_IDLE, verdicts.RX_LOADED)


def _one_column(rows):
    """The two-column rows as one column: the first log's cell, else the second's."""
    out = copy.deepcopy(rows)
    for row in out:
        row.cells = [row.cells[0] if row.cells[0].text else row.cells[1]]
    return out


def _cell(rows, prefix):
    """The first row's cell whose label starts with prefix (a tuple)."""
    return next(r for r in rows if r.label.startswith(prefix)).cells[0]


class Doctored(unittest.TestCase):
    """One column of real figures (the async quick log's TX, the async RX log
    on the emulator's line's S32/S33), each edited in turn."""

    @classmethod
    def setUpClass(cls):
        """The column, read once."""
        ans = [analyzed(real(n), n) for n in (ASYNC, LINE_RX)]
        cls.base = _one_column(headline.marked(ans)[0])

    def doctor(self, prefix, value, text=None):
        """(parts before, parts after, rows) with the cells of prefix's rows set
        to value (its text the figure, or text; value None and text "": no figure)."""
        rows = copy.deepcopy(self.base)
        for row in rows:
            if row.label.startswith(prefix):
                row.cells[0].value = value
                row.cells[0].text = fmt(value) if text is None else text
        return verdicts.parts(self.base, 0), verdicts.parts(rows, 0), rows

    def only(self, before, after, index):
        """Assert that the parts differ in index alone."""
        self.assertNotEqual(before[index], after[index])
        self.assertEqual(before[:index] + before[index + 1:], after[:index] + after[index + 1:])

    def test_base(self):
        """The base column: line rate with low CPU, overlap, timers on time,
        no RX lost; the cites name each figure."""
        got = verdicts.parts(self.base, 0)
        cpu = _cell(self.base, verdicts.CPU).value
        self.assertLessEqual(cpu, verdicts.LOW_CPU_PCT)
        self.assertEqual([p.claim for p in got], [
            "line rate with %s %% CPU" % fmt(cpu), "sending overlaps computation",
            "timers on time", "no RX lost"])
        rate = min((r for r in self.base if r.label.startswith(verdicts.RATE)),
                   key=lambda r: r.cells[0].value)
        self.assertIn("S10 %s %% at %s B" % (fmt(rate.cells[0].value), re.search(
            r"(\d+) B writes", rate.label).group(1)), got[0].cites)
        self.assertIn("S33 %s %% lost" % fmt(_cell(self.base, verdicts.RX_LOADED).value),
                      got[3].cites)
        self.assertNotIn("figures", verdicts.sentence(self.base, 0))

    def test_below_line_rate(self):
        """Line rate 80 %: "below line rate (80 %)", cited."""
        before, after, _ = self.doctor(verdicts.RATE, 80.0)
        self.only(before, after, 0)
        self.assertTrue(after[0].claim.startswith("below line rate (80 %) with "), after[0])
        self.assertIn("S10 80 % at 64 B", after[0].cites)

    def test_line_rate_threshold(self):
        """At LINE_RATE_PCT still line rate, just under it not."""
        _, at, _ = self.doctor(verdicts.RATE, verdicts.LINE_RATE_PCT)
        _, under, _ = self.doctor(verdicts.RATE, verdicts.LINE_RATE_PCT - 0.01)
        self.assertTrue(at[0].claim.startswith("line rate with "), at[0])
        self.assertTrue(under[0].claim.startswith("below line rate ("), under[0])

    def test_above_line_rate(self):
        """A line rate far above 100 %: no line time, not "line rate"."""
        before, after, _ = self.doctor(verdicts.RATE, 5000.0)
        self.only(before, after, 0)
        self.assertTrue(after[0].claim.startswith("above line rate (5000 %, no line time)"))

    def test_high_cpu(self):
        """CPU 100 %: "line rate but 100 % CPU"; below line rate: "even at"."""
        before, after, rows = self.doctor(verdicts.CPU, 100.0)
        self.only(before, after, 0)
        self.assertEqual(after[0].claim, "line rate but 100 % CPU")
        self.assertRegex(after[0].cites[1], r"^S41 100 % CPU at \d+ B$")
        _cell(rows, verdicts.RATE).value = 80.0
        self.assertEqual(verdicts.parts(rows, 0)[0].claim,
                         "below line rate (80 %) even at 100 % CPU")

    def test_cpu_threshold(self):
        """At LOW_CPU_PCT still low CPU, just over it not."""
        _, at, _ = self.doctor(verdicts.CPU, verdicts.LOW_CPU_PCT)
        _, over, _ = self.doctor(verdicts.CPU, verdicts.LOW_CPU_PCT + 0.01)
        self.assertIn(" with ", at[0].claim)
        self.assertIn(" but ", over[0].claim)

    def test_rx_lost(self):
        """S33 99.6 % lost: said and cited, S32's none kept."""
        before, after, _ = self.doctor(verdicts.RX_LOADED, 99.6)
        self.only(before, after, 3)
        self.assertEqual(after[3].claim, "no RX lost with nothing to send, "
                         "99.60 % of RX lost while it sends")
        self.assertIn("S33 99.60 % lost", after[3].cites)
        _, idle, _ = self.doctor(verdicts.RX_IDLE, 0.001)
        self.assertEqual(idle[3].claim, "0.001 % of RX lost with nothing to send, "
                         "no RX lost while it sends")

    def test_late_timer(self):
        """S43 P99 while sending over LATE_TIMER_US: late while it sends; idle: even idle."""
        late = verdicts.LATE_TIMER_US + 1
        before, after, _ = self.doctor(verdicts.LOADED, late)
        self.only(before, after, 2)
        self.assertEqual(after[2].claim, "timers late while it sends (P99 %s us)" % fmt(late))
        self.assertIn("S43 P99 %s us sending" % fmt(late), after[2].cites)
        _, idle, _ = self.doctor(verdicts.IDLE, late)
        self.assertEqual(idle[2].claim, "timers late even idle (P99 %s us)" % fmt(late))
        _, at, _ = self.doctor(verdicts.LOADED, verdicts.LATE_TIMER_US)
        self.assertEqual(at[2].claim, "timers on time")
        _, loaded, _ = self.doctor(verdicts.IDLE, None, "")
        self.assertEqual(loaded[2].claim, "timers on time while it sends")

    def test_overlap(self):
        """S42 under OVERLAP_MIN: sending takes CPU from computation, with the figure."""
        before, after, _ = self.doctor(verdicts.OVERLAP, 0.5)
        self.only(before, after, 1)
        self.assertEqual(after[1].claim, "sending takes CPU from computation (overlap 0.500)")
        self.assertEqual(after[1].cites, ["S42 0.500"])
        _, at, _ = self.doctor(verdicts.OVERLAP, verdicts.OVERLAP_MIN)
        self.assertEqual(at[1].claim, "sending overlaps computation")

    def test_missing(self):
        """A figure the log lacks is said as such, and makes no claim."""
        _, after, rows = self.doctor(verdicts.CPU, None, "")
        self.assertEqual((after[0].claim, after[0].lacks), ("line rate", ["CPU"]))
        for prefix in (verdicts.RX_IDLE, verdicts.RX_LOADED):
            _cell(rows, prefix).text, _cell(rows, prefix).value = "skipped (peer-off)", None
        text = verdicts.sentence(rows, 0)
        self.assertIn("no CPU or RX figures (", text)
        self.assertNotIn("RX lost", text)
        self.assertIn("S32 skipped, S33 skipped", text)
        rows = [copy.deepcopy(r) for r in self.base if not r.label.startswith(verdicts.OVERLAP)]
        self.assertIn("no overlap figures", verdicts.sentence(rows, 0))

    def test_not_comparable(self):
        """A line rate marked not comparable (as headline.marked() leaves it) makes no claim."""
        rows = copy.deepcopy(self.base)
        for row in rows:
            if row.label.startswith(verdicts.RATE):
                row.cells[0].text += " " + runs.NO_LINE
                row.cells[0].value = None
        got = verdicts.parts(rows, 0)[0]
        self.assertTrue(got.claim.startswith("line rate not comparable (%s), low CPU while it "
                                             "sends (" % runs.NO_LINE), got)
        self.assertIn("S10 64 B not comparable", got.cites)
        self.assertEqual(got.lacks, [])

    def test_invalid_each_part(self):
        """A cell from an INVALID section makes no claim in any part: the part
        says so, the cite names it, no "no ... figures" for it."""
        marked = "from an INVALID section (%s)" % runs.INVALID
        for prefixes, index, said in (
                (verdicts.CPU, 0, "line rate, CPU " + marked),
                (verdicts.OVERLAP, 1, "overlap " + marked),
                (verdicts.IDLE + verdicts.LOADED, 2, "timers " + marked),
                (verdicts.RX_IDLE + verdicts.RX_LOADED, 3, "RX loss " + marked)):
            rows = copy.deepcopy(self.base)
            for row in rows:
                if row.label.startswith(prefixes):
                    row.cells[0].text += " " + runs.INVALID
            got = verdicts.parts(rows, 0)[index]
            self.assertEqual((got.claim, got.lacks), (said, []), prefixes)
            self.assertTrue(any(c.endswith(" INVALID") for c in got.cites), got.cites)

    def test_bad_labels(self):
        """Labels not one per column: a clear error."""
        with self.assertRaisesRegex(ValueError, "2 labels, but the headline row"):
            verdicts.markdown_lines(self.base, ["a", "b"])


class Marked(unittest.TestCase):
    """Cells marked by headline.marked() on doctored real logs."""

    def test_invalid_not_used(self):
        """S33 INVALID: its loss makes no claim, cited as INVALID; S32 still does."""
        data = sub(real(LINE_RX), rb"  section=S33 status=PASS ",
                   b"  section=S33 status=INVALID reason=foreign-rx ")
        rows = headline.marked([analyzed(data)])[0]
        self.assertTrue(_cell(rows, verdicts.RX_LOADED).text.endswith(runs.INVALID))
        got = verdicts.parts(rows, 0)[3]
        self.assertEqual(got.claim, "no RX lost with nothing to send")
        self.assertIn("S33 INVALID", got.cites)

    def test_prefixes_name_headline_rows(self):
        """Every row the verdicts read is a headline row."""
        ans = [analyzed(real(n), n) for n in (ASYNC, LINE_RX)]
        labels = [r.label for r in headline.rows(ans)]
        for prefix in PREFIXES:
            self.assertEqual(len([lb for lb in labels if lb.startswith(prefix)]),
                             2 if prefix == verdicts.RATE else 1, prefix)


class Written(unittest.TestCase):
    """report.write() on real logs: our three designs, console's RX log, StarryOS's D1 log."""

    NAMES = (ASYNC, CONSOLE, COPIER, CONSOLE_RX)
    LABELS = ["async", "console", "copier", "console RX", "StarryOS D1 async (lichee-d1)"]

    @classmethod
    def setUpClass(cls):
        """The report written once; its report.md and headline.txt read."""
        cls.data = [real(n) for n in cls.NAMES]
        cls.ans = [analyzed(d, n) for d, n in zip(cls.data, cls.NAMES)]
        cls.ans.append(analyzed(starry("d1-async-q31.log"), "d1-async-q31.log"))
        cls.rows = headline.marked(cls.ans)[0]
        with tempfile.TemporaryDirectory() as out:
            report.write(cls.ans, cls.LABELS, out)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
                cls.md = fh.read().splitlines()
            with open(os.path.join(out, "headline.txt"), encoding="utf-8") as fh:
                cls.txt = fh.read().splitlines()

    def test_report_md(self):
        """Under the headline's notes, after LEAD, before the detail: one verdict per column, in order."""
        lo, hi = self.md.index(verdicts.LEAD), self.md.index("## Detail")
        got = [ln for ln in self.md[lo:hi] if ln.startswith("- `")]
        self.assertEqual([re.match(r"- `(.*?)`: ", ln).group(1) for ln in got], self.LABELS)
        top = self.md.index("## The answer")
        last_note = max(i for i in range(top, lo) if self.md[i].startswith("◇"))
        self.assertGreater(self.md.index(got[0]), last_note)
        for i, ln in enumerate(got):
            self.assertEqual(ln, "- `%s`: %s" % (self.LABELS[i], verdicts.sentence(self.rows, i)))

    def test_headline_txt(self):
        """After the table: one verdict per column, wrapped to the table's width."""
        table = self.txt[:self.txt.index("")]
        head = headline_text.lines(self.rows, self.LABELS)[:len(self.rows) + 1]
        self.assertEqual(table[:len(head)], head)
        rest = self.txt[len(table) + 1:]
        self.assertLessEqual(max(len(ln) for ln in self.txt), headline_text.WIDTH)
        starts = [i for i, ln in enumerate(rest) if not ln.startswith(" ")]
        self.assertEqual(len(starts), len(self.LABELS))
        for n, (a, b) in enumerate(zip(starts, starts[1:] + [len(rest)])):
            joined = " ".join(ln.strip() for ln in rest[a:b])
            self.assertEqual(joined, "[%d] %s: %s" % (n + 1, self.LABELS[n],
                                                      verdicts.sentence(self.rows, n)))

    def test_claims_follow_logs(self):
        """Each of our logs' verdicts follows its figures: CPU with or but by
        S41's CPU %, RX lost by S33's loss %; StarryOS's log lacks CPU and RX."""
        size = headline.s41_size(self.ans)
        for i, data in enumerate(self.data):
            text = verdicts.sentence(self.rows, i)
            if i < 3:
                cpu = number(data, rb"diag=s41-summary size=%s " % size.encode(),
                             "median_cpu_util_pct")
                joint = "with" if cpu <= verdicts.LOW_CPU_PCT else "(but|even at)"
                self.assertRegex(text, r"line rate( \(.*?\))? %s %s %% CPU, " % (
                    joint, re.escape(fmt(cpu))))
            else:
                loss = number(data, rb"diag=s33-cpu ", "loss_pct")
                self.assertIn("%s %% of RX lost while it sends" % fmt(loss), text)
        self.assertIn("no CPU or RX figures", verdicts.sentence(self.rows, 4))

    def test_html(self):
        """report.html lists the verdicts."""
        page = html_page.to_html("\n".join(self.md), "/nonexistent")
        self.assertIn("<li><code>async</code>: line rate", page)

    def test_no_rows_no_verdicts(self):
        """Without headline rows headline.txt has the table alone."""
        self.assertEqual(headline_text.page([], ["a"]), headline_text.lines([], ["a"]))


if __name__ == "__main__":
    unittest.main()
