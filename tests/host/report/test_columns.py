"""Report columns: short headers (label, board, design, CPU clock, line), one
legend of every log's full settings under the headline, and ◇ only on the
rows whose compared logs really differ in a setting, its note naming the
setting and the columns; report.md end to end and headline.txt."""

import os
import re
import tempfile
import unittest

import _common
from _doctor import ASYNC, ASYNC_RX, CONSOLE, analyzed, at_shift, real, setv, starry, value
from uartreport import headline, headline_text, runs, settings

STARRY_D1 = "d1-async-q31.log"


def _ours(name):
    """One of our quick fixtures at icount shift 1 (500 MHz) and quick scale,
    whatever a regeneration gave it."""
    return setv(at_shift(real(name), 1), rb"", "bench_scale", "quick", section="S00")


def _report(logs, labels):
    """(report.md, headline.txt) of logs [(file name, bytes)] under labels."""
    with tempfile.TemporaryDirectory() as out:
        paths = []
        for name, data in logs:
            paths.append(os.path.join(out, name))
            with open(paths[-1], "wb") as fh:
                fh.write(data)
        args = [a for lb in labels for a in ("--label", lb)]
        res = _common.run_cli(*paths, "-o", out, *args)
        assert res.returncode == 0, res.stderr
        texts = []
        for name in ("report.md", "headline.txt"):
            with open(os.path.join(out, name), encoding="utf-8") as fh:
                texts.append(fh.read())
    return texts


def _heads(text):
    """The column headers of the headline's and the detail's tables (the
    first cell left out)."""
    return [[c.strip() for c in ln.strip("|").split(" | ")[1:]]
            for ln in text[:text.index("## Appendix")].splitlines()
            if ln.startswith("| Metric |") or ln.startswith("| Question |")]


def _marked(text):
    """The table rows and notes of text that carry ◇."""
    return [ln for ln in text.splitlines() if ln.startswith(runs.DIFFERS) or
            ln.startswith(("|", "S")) and runs.DIFFERS in ln]


class Headers(unittest.TestCase):
    """The report of two of our logs and StarryOS's D1 log."""

    @classmethod
    def setUpClass(cls):
        """report.md and headline.txt, once."""
        cls.logs = [("a.log", _ours(ASYNC)), ("c.log", _ours(CONSOLE)),
                    ("s.log", starry(STARRY_D1))]
        cls.labels = ["ours async", "ours console", "StarryOS D1"]
        cls.text, cls.txt = _report(cls.logs, cls.labels)
        cls.got = [settings.of(analyzed(d, n).log) for n, d in cls.logs]

    def test_headers_short(self):
        """Every table's header: the label, then board, design, CPU clock and
        line in short form; the other settings are not in it."""
        heads = _heads(self.text)
        self.assertGreater(len(heads), 5)
        for head in heads:
            for cell, lb, got in zip(head, self.labels, self.got):
                cell = cell.replace("<br>(baseline)", "")
                self.assertEqual(cell, "%s<br>%s, %s, CPU %s, %s" % (
                    lb, got["board"].short, got["design"].short, got["CPU clock"].short,
                    got["line"].short))
                self.assertNotRegex(cell, "icount|scale|rx trigger|peer")
        man = {k: value(real(ASYNC), rb"", k, "S00") for k in ("board", "backend", "wire_model")}
        self.assertIn("ours async<br>{board}, {backend}, CPU 500 MHz, model {wire_model}".format(
            **man), heads[0][0])
        self.assertIn("StarryOS D1<br>d1, async, CPU not stated, serial 115200", heads[0][2])

    def test_legend_under_the_headline(self):
        """One legend, under the headline's table and notes, a line per log
        with every setting; the detail refers to it."""
        lines = self.text.splitlines()
        start = lines.index("## " + headline.TITLE)
        end = lines.index("## Detail")
        lead = next(i for i in range(start, end) if lines[i].startswith("Settings of each column"))
        legend = [ln for ln in lines[lead:lines.index("", lead + 2)] if ln.startswith("- `")]
        self.assertEqual(len(legend), 3)
        table_end = max(i for i in range(start, end) if lines[i].startswith("|"))
        self.assertGreater(lines.index(legend[0]), table_end)
        for line, lb, got in zip(legend, self.labels, self.got):
            self.assertTrue(line.startswith("- `%s`: " % lb), line)
            for field in settings.FIELDS[:6]:
                self.assertIn("%s %s" % (field, got[field].text), line)
        self.assertIn("board %s; design %s; CPU clock 500 MHz (icount); icount shift 1; line "
                      "model %s;" % tuple(value(real(ASYNC), rb"", k, "S00") for k in (
                          "board", "backend", "wire_model")), legend[0])
        self.assertIn("board d1 (target_mode=lichee-d1-fullbench); design async", legend[2])
        self.assertIn("icount shift none (hardware); line serial 115200 baud", legend[2])
        self.assertEqual(sum(1 for ln in lines if ln.startswith("- `ours async`: board")), 1)
        self.assertIn("every setting of each column is in the legend under the headline table",
                      self.text)

    def test_mark_names_setting_and_columns(self):
        """Rows with StarryOS's figure differ from ours in CPU clock, icount
        shift, line and scale, each named with its columns; rows with ours
        alone (S41 CPU %) are not marked."""
        rows, notes = headline.marked([analyzed(d, n) for n, d in self.logs], self.labels)
        marked = {r.label.replace(" " + runs.DIFFERS, ""): r.label.endswith(runs.DIFFERS)
                  for r in rows}
        for row in rows:
            has = [bool(c.text) for c in row.cells]
            self.assertEqual(row.label.endswith(runs.DIFFERS), has[2] and any(has[:2]),
                             row.label)
        self.assertFalse(marked["S41 CPU % while sending (1024 B writes)"])
        self.assertTrue(marked["S10 line rate, 64 B writes (% of the line, bytes/s)"])
        ours = "`ours async`, `ours console`"
        self.assertIn("CPU clock 500 MHz (%s) vs not stated (`StarryOS D1`)" % ours, notes[0])
        self.assertIn("icount shift 1 (%s) vs none (hardware) (`StarryOS D1`)" % ours, notes[0])
        self.assertIn("line model %s (%s) vs serial 115200 (`StarryOS D1`)" % (
            value(real(ASYNC), rb"", "wire_model", "S00"), ours), notes[0])
        self.assertIn("scale quick (%s) vs full (`StarryOS D1`)" % ours, notes[0])
        self.assertIn(notes[0], self.text)

    def test_text_headline(self):
        """headline.txt: ◇ on the same rows, each column's short settings, the
        differing settings by column number."""
        lines = self.txt.splitlines()
        self.assertIn("[3] StarryOS D1: d1, async, CPU not stated, serial 115200", lines)
        note = " ".join(ln.strip() for ln in lines[lines.index(next(
            ln for ln in lines if ln.startswith(runs.DIFFERS))):])
        self.assertIn("CPU clock [1]-[2] 500 MHz vs [3] not stated", note)
        self.assertIn("scale [1]-[2] quick vs [3] full", note)
        rows = [ln for ln in lines if ln.startswith("S41 CPU % sending")]
        self.assertEqual(len(rows), 1)
        self.assertNotIn(runs.DIFFERS, rows[0])
        self.assertIn(runs.DIFFERS, next(ln for ln in lines if ln.startswith("S10 line rate")))


class Marks(unittest.TestCase):
    """◇ on our two quick logs, at one setting and with one setting doctored."""

    def test_absent_when_the_logs_agree(self):
        """The same settings: no ◇ on a row or note of report.md, none in headline.txt."""
        text, txt = _report([("a.log", _ours(ASYNC)), ("c.log", _ours(CONSOLE))], ["a", "c"])
        self.assertEqual(_marked(text), [])
        self.assertNotIn(runs.DIFFERS, txt)

    def test_present_naming_the_field(self):
        """One manifest value doctored: the rows marked, the note names that
        setting alone and both columns, in the headline and every table."""
        wire = value(real(CONSOLE), rb"", "wire_model", "S00")
        cases = (("bench_scale", "full", "scale quick (`a`) vs full (`c`)"),
                 ("wire_model", "115200/8", "line model %s (`a`) vs model 115200/8 (`c`)" % wire),
                 ("cpu_hz", "250000000", "CPU clock 500 MHz (`a`) vs 250 MHz (`c`)"),
                 ("icount_shift", "2", "icount shift 1 (`a`) vs 2 (`c`)"))
        for key, new, named in cases:
            data = setv(_ours(CONSOLE), rb"", key, new, section="S00")
            ans = [analyzed(_ours(ASYNC)), analyzed(data)]
            rows, notes = headline.marked(ans, ["a", "c"])
            self.assertTrue(all(r.label.endswith(runs.DIFFERS) for r in rows), key)
            self.assertEqual(notes[0], "%s not a like-for-like comparison in the marked rows: %s "
                             "(settings: the legend under this table)." % (runs.DIFFERS, named))
            text = _report([("a.log", _ours(ASYNC)), ("c.log", data)], ["a", "c"])[0]
            notes = [ln for ln in text.splitlines() if ln.startswith(runs.DIFFERS)]
            self.assertGreater(len(notes), 3, key)
            for note in notes:
                self.assertRegex(note, r": %s \(settings: the legend under (this table|the "
                                 r"headline)\)\.$" % re.escape(named))
            appendix = text[text.index("## Appendix"):].splitlines()
            self.assertTrue([ln for ln in appendix if ln.startswith(runs.DIFFERS)], key)

    def test_rx_rows_name_the_rx_side(self):
        """The headline's RX rows compare the RX trigger too: another trigger
        marks them, and the note names it."""
        data = real(ASYNC_RX)
        other = setv(data, rb"wire_rx_trigger=", "wire_rx_trigger", "4")
        rows, notes = headline.marked([analyzed(data), analyzed(other)], ["a", "b"])
        rx = [r for r in rows if r.label.startswith(("S32", "S33"))]
        self.assertTrue(rx)
        self.assertTrue(all(r.label.endswith(runs.DIFFERS) for r in rx))
        self.assertEqual(notes[0], "%s not a like-for-like comparison in the marked rows: rx "
                         "trigger %s (`a`) vs 4 (`b`) (settings: the legend under this table)."
                         % (runs.DIFFERS, value(data, rb"wire_rx_trigger=", "wire_rx_trigger")))

    def test_text_names_columns(self):
        """headline_text's note: the differing setting and its columns."""
        data = setv(_ours(CONSOLE), rb"", "bench_scale", "full", section="S00")
        ans = [analyzed(_ours(ASYNC)), analyzed(data), analyzed(_ours(ASYNC))]
        rows, _, found = headline.compared(ans)
        got = [settings.of(an.log) for an in ans]
        lines = headline_text.lines(rows, list("acb"), differ=runs.groups(found, got))
        self.assertEqual(lines[-1], "%s not like-for-like: scale [1], [3] quick vs [2] full."
                         % runs.DIFFERS)


if __name__ == "__main__":
    unittest.main()
