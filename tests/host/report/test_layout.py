"""The report's layout below the headline: rows equal in every log collapsed,
no ratio for identifier-like rows, the appendix's payload CRC summary and
cyclictest-style histogram, and report.html (it parses, every plot inlined)."""

import base64
import html.parser
import os
import re
import shutil
import tempfile
import unittest

import _common
from _doctor import ASYNC, CONSOLE, COPIER, real, rewitness, witness
from uartreport import appendix, markdown
from uartreport.parse import parse_bytes
from uartreport.recompute import analyze
from uartreport.tables import Cell, Row

LOGS = (ASYNC, CONSOLE, COPIER)


def _an(data, name="x.log"):
    """Analysis of raw log bytes."""
    return analyze(parse_bytes(data, name))


class _Page(html.parser.HTMLParser):
    """Collects the <img> tags and the open/close balance of an HTML page."""

    def __init__(self):
        """An empty collector."""
        super().__init__()
        self.imgs, self.stack, self.errors = [], [], []

    def handle_starttag(self, tag, attrs):
        """Record images; push elements that need a closing tag."""
        if tag == "img":
            self.imgs.append(dict(attrs))
        elif tag not in ("br", "meta"):
            self.stack.append(tag)

    def handle_endtag(self, tag):
        """Pop the element closed; a mismatch is an error."""
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


class Rendering(unittest.TestCase):
    """markdown.collapse() and markdown.render() on small rows."""

    def test_equal_rows_collapsed(self):
        """Rows with one text in every log leave the table for one line."""
        rows = [Row("S42 rounds", [Cell("5", 5), Cell("5", 5)]),
                Row("S42 median", [Cell("0.9", 0.9), Cell("0.5", 0.5)]),
                Row("S41 only", [Cell("1", 1), Cell()])]
        kept, line = markdown.collapse(rows)
        self.assertEqual([r.label for r in kept], ["S42 median", "S41 only"])
        self.assertEqual(line, "Equal in every log: S42 rounds **5**.")
        self.assertEqual(markdown.collapse(rows[1:]), (rows[1:], ""))
        one = [Row("S42 rounds", [Cell("5", 5)])]
        self.assertEqual(markdown.collapse(one), (one, ""))  # one log compares nothing

    def test_no_ratio_on_identifiers(self):
        """errno, fd, return codes and error counts get no ratio; figures do."""
        labels = ["S30 method=open-o-nonblock errno", "S30 method=ioctl-fionbio fd",
                  "S40 ioctl_rc", "S05 loopback_rc", "S40 counter=rx rx_overruns ◇",
                  "S32 lost (overrun)", "S40 counter=drain drain_timeouts", "S20 1 B source"]
        for label in labels:
            self.assertTrue(markdown.identifier(label), label)
            table = markdown.render([Row(label, [Cell("22", 22), Cell("11", 11)])], ["a", "b"], 1)
            self.assertNotIn("x)", table, label)
        for label in ("S41 64 B median instructions/byte", "S10 drain-each 64 B bytes/s",
                      "S43 idle overshoot P99 ms ◇", "S40 counter=irq tx_irqs"):
            self.assertFalse(markdown.identifier(label), label)
            table = markdown.render([Row(label, [Cell("22", 22), Cell("11", 11)])], ["a", "b"], 1)
            self.assertIn("| 22 (2x) | 11 |", table, label)


class Appendix(unittest.TestCase):
    """appendix.crc_lines() and appendix.text_hist() on the quick logs."""

    @classmethod
    def setUpClass(cls):
        """The three quick logs, analysed once."""
        cls.data = [real(n) for n in LOGS]
        cls.ans = [_an(d, n) for d, n in zip(cls.data, LOGS)]

    def test_all_match_one_line(self):
        """Every witness matches: one line, with the number of witnesses."""
        lines = [l for l in appendix.crc_lines(self.ans, list("acp")) if l]
        total = sum(len(re.findall(rb"payload-end=", d)) for d in self.data)
        self.assertEqual(lines, ["Payload witnesses: all %d match (CRC-32 and length) in "
                                 "`a`, `c`, `p`." % total])

    def test_mismatch_lists_each_witness(self):
        """One witness differs: the per-witness list, the bad one marked with
        what differs, the others `match`."""
        body = witness(self.data[1], "s20-single-byte").group(2)
        bad = rewitness(self.data[1], "s20-single-byte", body[:-1] + b"#")
        bad = bad.replace(b"payload-end=s20-single-byte bytes=",
                          b"payload-end=s20-single-byte bytes=9", 1)  # length differs too
        ans = [self.ans[0], _an(bad), self.ans[2]]
        lines = appendix.crc_lines(ans, list("acp"))
        self.assertTrue(lines[0].startswith("Payload witnesses: 1 of "), lines[0])
        row = [l for l in lines if l.startswith("| s20-single-byte |")]
        self.assertEqual(len(row), 1, lines)
        self.assertRegex(row[0], r"^\| s20-single-byte \| match \| \*\*mismatch\*\* \(expected "
                                 r"9\d+ bytes .*\) \| match \|$")
        self.assertIn("| drain-each-size-64 | match | match | match |", lines)

    def test_text_histogram(self):
        """cyclictest layout: `us count count ...` per non-empty 1 us bucket,
        one column per log and phase; the columns add up to the samples."""
        lines = appendix.text_hist(self.ans, list("acp"))
        rows = [l for l in lines if re.match(r"^\d{6}( \d{6})+$", l)]
        self.assertTrue(rows)
        width = len(rows[0].split()) - 1
        phases = [l for an in self.ans for l in an.s43.values() if l.samples_ms]
        self.assertEqual(width, len(phases))
        sums = [sum(int(r.split()[c + 1]) for r in rows) for c in range(width)]
        over = [int(x) for x in next(l for l in lines if l.startswith(
            "# Histogram Overflows:")).split(":")[1].split()]
        self.assertEqual([s + o for s, o in zip(sums, over)], [len(l.samples_ms) for l in phases])
        lowest = min(int(round(min(l.samples_ms) * 1e6)) // 1000 for l in phases)
        self.assertEqual(int(rows[0].split()[0]), lowest)  # 1 us buckets, from 0 us
        first = phases[0].samples_ms
        want = int(round(min(first) * 1e6)) // 1000
        self.assertEqual(int(next(l for l in lines if l.startswith("# Min Latencies:"))
                             .split(":")[1].split()[0]), want)


class HtmlPage(unittest.TestCase):
    """report.html next to report.md: it parses and inlines every plot."""

    @classmethod
    def setUpClass(cls):
        """One report of the three quick logs."""
        cls.out = tempfile.mkdtemp(prefix="uartreport-html-")
        res = _common.run_cli(*[_common.ours(n) for n in LOGS], "-o", cls.out, plots=True)
        assert res.returncode == 0, res.stderr
        with open(os.path.join(cls.out, "report.md"), encoding="utf-8") as fh:
            cls.md = fh.read()
        with open(os.path.join(cls.out, "report.html"), encoding="utf-8") as fh:
            cls.html = fh.read()

    @classmethod
    def tearDownClass(cls):
        """Remove the output directory."""
        shutil.rmtree(cls.out, ignore_errors=True)

    def test_parses_and_inlines_every_plot(self):
        """Balanced elements; one data-URI <img> per Markdown image, holding
        the PNG's bytes; no reference to a file."""
        page = _Page()
        page.feed(self.html)
        page.close()
        self.assertEqual(page.errors, [])
        self.assertEqual(page.stack, [])
        links = re.findall(r"!\[([^\]]*)\]\(([^)#]+)(?:#[a-z0-9-]+)?\)", self.md)
        self.assertEqual(len(links), 6 + 3)   # the headline's three beside it, then all six
        self.assertEqual([(i["alt"], i["title"]) for i in page.imgs], links)
        for img, (_, name) in zip(page.imgs, links):
            self.assertTrue(img["src"].startswith("data:image/png;base64,"), name)
            with open(os.path.join(self.out, name), "rb") as fh:
                self.assertEqual(base64.b64decode(img["src"].split(",", 1)[1]), fh.read(), name)
        self.assertNotIn('src="', self.html.replace('src="data:', ""))

    def test_identifier_rows_without_ratio(self):
        """In the report, rows of errno, return codes and error counts carry no
        ratio, while a row of figures beside them does."""
        rows = [l for l in self.md.splitlines() if re.match(
            r"^\| S\d\d [^|]*(errno|_rc|timeouts|overruns) \|", l)]
        self.assertTrue(rows)
        self.assertEqual([l for l in rows if re.search(r"\(\S+x\)", l)], [])
        self.assertTrue([l for l in rows if l.startswith("| S40 ioctl_rc | 0 | -1 |")], rows)
        self.assertRegex(self.md, r"\| S41 64 B median instructions/byte \| [\d.]+ \(\S+x\) \|")

    def test_same_tables(self):
        """The headline's rows and the detail's table titles are in the page."""
        self.assertIn("<h2 id=\"the-answer\">The answer</h2>", self.html)
        rows = len(re.findall(r"^\|", self.md, re.M)) - len(re.findall(r"^\|---", self.md, re.M))
        self.assertEqual(self.html.count("<tr>"), rows)
        self.assertIn("<td>S20 1 B write + drain P50 (character times)</td>", self.html)


if __name__ == "__main__":
    unittest.main()
