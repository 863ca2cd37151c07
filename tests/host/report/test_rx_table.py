"""The report's table of RX on the line (S32, S33): one column per
log with the figures the sections print, SKIPPED with its reason, a finding
line per design that loses RX bytes, the RX side of the operating point in
the legend and in the comparison marks."""

import os
import tempfile
import unittest

import _common
from _doctor import ASYNC, ASYNC_RX, CONSOLE_RX, COPIER_RX, PEER_OFF, number, real, setv, value
from uartreport import runs, settings, tables_rx
from uartreport.parse import parse_bytes
from uartreport.recompute import analyze

RX_3M = (ASYNC_RX, CONSOLE_RX, COPIER_RX)
# row title -> (record start, key) of the figure it shows
SHOWN = {"S32 loss %": (rb"diag=s32-cpu ", "loss_pct"),
         "S32 CRC check": (rb"diag=s32-rx ", "crc_check"),
         "S32 instructions per received byte": (rb"diag=s32-cpu ", "instructions_per_byte"),
         "S32 CPU %": (rb"diag=s32-cpu ", "cpu_pct"),
         "S32 model CPU %": (rb"diag=s32-cpu ", "model_cpu_pct"),
         "S32 RX irqs per byte": (rb"diag=s32-cpu ", "rx_irqs_per_byte"),
         "S32 RX line rate %": (rb"diag=s32-cpu ", "rx_line_rate_pct"),
         "S32 lost (overrun)": (rb"diag=s32-rx ", "lost"),
         "S33 TX line rate %": (rb"diag=s33-tx ", "tx_line_rate_pct"),
         "S33 RX loss %": (rb"diag=s33-cpu ", "loss_pct"),
         "S33 CPU %": (rb"diag=s33-cpu ", "cpu_pct")}


def _an(data, name="x.log"):
    """Analysis of raw log bytes."""
    return analyze(parse_bytes(data, name))


def _table(ans):
    """{row label: [cell text per log]} of the RX table."""
    return {r.label: [c.text for c in r.cells] for r in tables_rx.rx_line_rows(ans)}


class RxTable(unittest.TestCase):
    """rx_line_rows() and rx_line_notes() on the real S32/S33 logs."""

    @classmethod
    def setUpClass(cls):
        """The three 3 Mbaud logs and the peer=off one, analysed once."""
        cls.data = [real(n) for n in RX_3M + (PEER_OFF,)]
        cls.ans = [_an(d, n) for d, n in zip(cls.data, RX_3M + (PEER_OFF,))]

    def test_figures_as_printed(self):
        """Each figure row holds the log's printed figure, in its log's column."""
        table = _table(self.ans)
        for title, (start, key) in SHOWN.items():
            want = [value(d, start, key) for d in self.data[:3]]
            self.assertEqual(table[title][:3], want, title)
        self.assertEqual(table["S32 RX irqs per byte"][1], "na")  # the console: no counters
        for sid, start in (("S32", rb"diag=s32-rx "), ("S33", rb"diag=s33-rx ")):
            self.assertEqual(table["%s received of sent" % sid][:3], [
                "%d of %d" % (number(d, start, "received"), number(d, start, "sent"))
                for d in self.data[:3]])
        man = [value(self.data[0], rb"", k, "S00") for k in ("wire_model", "wire_rx_trigger",
                                                             "peer")]
        self.assertEqual(table["operating point"][0],
                         "line model %s, rx trigger %s, peer %s" % tuple(man))

    def test_skipped_with_reason(self):
        """peer=off: both sections SKIPPED with the skip line's reason, no figures."""
        table = _table(self.ans)
        reason = value(self.data[3], rb"diag=s32-skip ", "reason")
        self.assertEqual(table["S32 status"][3], "SKIPPED (%s)" % reason)
        self.assertEqual(table["S33 status"][3], "SKIPPED (%s)" % value(
            self.data[3], rb"diag=s33-skip ", "reason"))
        self.assertEqual(table["S32 status"][:3], ["PASS"] * 3)
        self.assertEqual([cells[3] for title, cells in table.items() if title in SHOWN],
                         [""] * len(SHOWN))
        only = _table([self.ans[3]])
        self.assertEqual(sorted(only), ["S32 status", "S33 status", "operating point"])

    def test_loss_is_a_finding(self):
        """A finding line per design and section that lost RX bytes, none without loss."""
        notes = tables_rx.rx_line_notes(self.ans, [os.path.basename(n) for n in RX_3M] + ["off"])
        for data, name in zip(self.data[:3], RX_3M):
            backend = value(data, rb"backend=", "backend")
            for sid, when in (("s32", "at full line rate"), ("s33", "while it transmits")):
                lines = [n for n in notes if n.startswith("Finding: %s (`%s`)" % (backend, name))
                         and "(%s:" % sid.upper() in n]
                lost = number(data, rb"diag=%s-rx " % sid.encode(), "lost")
                self.assertEqual(len(lines), 1 if lost else 0, (name, sid, notes))
                if lost:
                    loss = value(data, rb"diag=%s-cpu " % sid.encode(), "loss_pct")
                    self.assertIn("loses %s %% of RX %s" % (loss, when), lines[0])
        self.assertEqual(number(self.data[1], rb"diag=s32-rx ", "lost"), 0)
        self.assertFalse([n for n in notes if "`off`" in n])

    def test_no_rx_sections_no_table(self):
        """A log from before S32/S33: no rows (the report says no log has data)."""
        self.assertEqual(tables_rx.rx_line_rows([_an(real(ASYNC))]), [])

    def test_rx_point_in_legend_and_marks(self):
        """The legend names rx trigger and peer when the log prints them; the RX
        table marks logs at another RX trigger, the TX comparison fields do not."""
        self.assertTrue(settings.legend_line("a", self.ans[0].log).endswith(
            "; rx trigger %s, peer %s." % (value(self.data[0], rb"wire_rx_trigger=",
                                                 "wire_rx_trigger"),
                                           value(self.data[0], rb"wire_rx_trigger=", "peer"))))
        self.assertNotIn("rx trigger", settings.legend_line("q", _an(real(ASYNC)).log))
        other = _an(setv(self.data[0], rb"wire_rx_trigger=", "wire_rx_trigger", "4"))
        pair = [self.ans[0], other]
        notes = runs.mark(tables_rx.rx_line_rows(pair), pair,
                          point_fields=runs.POINT + runs.RX_POINT, labels=["a", "b"])
        self.assertIn(": rx trigger 1 (`a`) vs 4 (`b`) (settings:", notes[0])
        self.assertEqual(runs.mark(tables_rx.rx_line_rows(pair), pair), [])
        same = [self.ans[0], self.ans[1]]
        self.assertEqual(runs.mark(tables_rx.rx_line_rows(same), same,
                                   point_fields=runs.POINT + runs.RX_POINT), [])

    def test_report_has_the_table(self):
        """End to end: the table's title, its rows and the findings in report.md."""
        with tempfile.TemporaryDirectory() as out:
            res = _common.run_cli(*[_common.ours(n) for n in RX_3M], "-o", out)
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
                text = fh.read()
        self.assertIn("## RX on the line (S32, S33)", text)
        loss = value(self.data[2], rb"diag=s33-cpu ", "loss_pct")
        # the console log is the default baseline: ratios to its figure inside the cells
        losses = [value(d, rb"diag=s33-cpu ", "loss_pct") for d in self.data[:3]]
        self.assertIn("| S33 RX loss %% | %s (%.3gx) | %s | %s (%.3gx) |" % (
            losses[0], float(losses[0]) / float(losses[1]), losses[1], losses[2],
            float(losses[2]) / float(losses[1])), text)
        self.assertIn("Finding: copier (`qemu-virt/copier/wire-%s`) loses %s %% of RX while it "
                      "transmits (S33" % (value(self.data[2], rb"wire_model=", "wire_model"),
                                          loss), text)


if __name__ == "__main__":
    unittest.main()
