"""The sweep frontier (uartreport/sweep.py): each figure as docs/report.md
defines it, the criteria at their limits, and the frontier of a sweep whose
answer is known by construction (_sweep.py): all pass, a non-monotonic
cell, an incomplete log, a FAIL reason, a missing point, another bench
scale kept apart, a log without the wire model left out."""

import os
import shutil
import tempfile
import unittest

import _sweep  # first: puts the tool on sys.path
from _doctor import setv, sub
from uartreport import sweep
from uartreport.parse import parse_bytes


def _point(data, fname="p.log"):
    """The judged Point of one log's bytes."""
    log = parse_bytes(data, fname)
    point = sweep.Point(path=fname, name=fname)
    sweep.judge(point, log)
    return point


class Figures(unittest.TestCase):
    """The three figures and the criteria on edited copies of the passing point."""

    def test_passing_point(self):
        """The real passing log passes, with all three figures present."""
        p = _point(_sweep.base())
        self.assertTrue(p.passes(), p.broken)
        self.assertIsNotNone(p.tx)
        self.assertEqual(p.rx_lost, 0)
        self.assertIsNotNone(p.cpu)

    def test_tx_is_the_lesser_at_the_largest_size(self):
        """TX: S10's largest size against S33; S10's smaller sizes do not count."""
        data = setv(_sweep.make(tx10=98.5, tx33=99.9), rb"policy=drain-each size=64 ",
                    "line_rate_pct", 10.0)
        p = _point(data)
        self.assertEqual((p.tx, p.tx_from), (98.5, "S10 1024 B"))
        self.assertEqual(p.shorts(), ["TX"])
        p = _point(_sweep.make(tx10=99.9, tx33=97.25))
        self.assertEqual((p.tx, p.tx_from), (97.25, "S33"))

    def test_limits_are_inclusive(self):
        """TX exactly 99 % and CPU exactly 50 % pass; 98.999 % and 50.001 % fail."""
        self.assertTrue(_point(_sweep.make(tx10=99.0, tx33=99.5, cpu32=50.0)).passes())
        self.assertEqual(_point(_sweep.make(tx33=98.999)).shorts(), ["TX"])
        self.assertEqual(_point(_sweep.make(cpu32=50.001)).shorts(), ["CPU"])
        self.assertEqual(_point(_sweep.make(lost32=1)).shorts(), ["RX"])  # one byte is a loss

    def test_model_bound_marks_a_failing_point(self):
        """A failing point whose model took >= 25 % of the CPU in a section is
        marked model-bound; below, or at a passing point, it is not."""
        self.assertLess(_point(_sweep.base()).model, 25.0)
        below = setv(_sweep.make(lost32=1), rb"diag=s33-cpu ", "model_cpu_pct", 24.999)
        self.assertEqual(_point(below).shorts(), ["RX"])
        at = setv(_sweep.make(lost32=1), rb"diag=s33-cpu ", "model_cpu_pct", 25.0)
        p = _point(at)
        self.assertEqual(p.shorts(), ["RX", "model-bound"])
        self.assertEqual((p.model, p.model_from), (25.0, "S33"))
        busy = setv(_sweep.make(), rb"diag=s32-cpu ", "model_cpu_pct", 90.0)
        self.assertTrue(_point(busy).passes())

    def test_free_clock_guest_share_and_no_model_bound(self):
        """wire_clock=free: the CPU figure is guest_cpu_pct, S41's share of the
        window less the model's cycles, and no failure is model-bound."""
        data = _sweep.make(lost32=1)
        data = sub(data, rb"^(  wire_model=.*)$", rb"\1\n  wire_clock=free")
        for tag, guest in ((rb"s32", b"61.500"), (rb"s33", b"40.000")):
            data = sub(data, rb"^(  diag=%s-cpu .*)$" % tag, rb"\1 guest_cpu_pct=" + guest)
        data = setv(data, rb"diag=s33-cpu ", "model_cpu_pct", 90.0)
        p = _point(data)
        self.assertEqual((p.cpu, p.cpu_from), (61.5, "S32"))
        self.assertEqual(p.shorts(), ["RX", "CPU"])
        raw = _point(sub(data, rb"^  wire_clock=free$", rb"  wire_clock=raw reason=bootarg"))
        self.assertNotEqual(raw.cpu, 61.5)
        self.assertIn("model-bound", raw.shorts())

    def test_rx_counts_lost_and_dropped_of_both(self):
        """RX loss: S32 lost + S33 dropped, over both sections' sent."""
        p = _point(_sweep.make(lost32=3, dropped33=4))
        sent = sum(int(_sweep.base().split(b"diag=%s-rx sent=" % s)[1].split(b" ")[0])
                   for s in (b"s32", b"s33"))
        self.assertEqual((p.rx_lost, p.rx_sent), (7, sent))
        self.assertEqual(p.shorts(), ["RX"])
        self.assertAlmostEqual(p.loss_pct(), 700.0 / sent)

    def test_cpu_s41_leaves_the_model_out(self):
        """S41's share is (cycles - idle - model) / cycles at the largest size."""
        data = setv(_sweep.base(), rb"diag=s41-valid size=1024 ", "idle_cycles", 0, count=0)
        p = _point(data)
        self.assertEqual(p.cpu_from, "S41")
        cyc = [r for r in parse_bytes(data).records("S41", kind="diag", tag="s41-valid")
               if r.get("size") == "1024"]
        want = sorted((r.num("cycles_delta") - r.num("wire_model_cycles")) * 100.0 /
                      r.num("cycles_delta") for r in cyc)
        self.assertAlmostEqual(p.cpu, sum(want) / len(want))
        self.assertLess(p.cpu, 100.0)  # the model's cycles are not the driver's

    def test_fail_reason(self):
        """The real FAIL point fails with its sections' reason first."""
        p = _point(_sweep.base(_sweep.FAILING))
        self.assertEqual(p.shorts()[0], "FAIL overrun-count-mismatch")
        self.assertIn(("FAIL overrun-count-mismatch", "S32 FAIL overrun-count-mismatch"),
                      p.broken)
        self.assertTrue(p.complete)

    def test_incomplete(self):
        """A log without its Done line does not pass, even with good figures."""
        p = _point(_sweep.make(cut=True))
        self.assertFalse(p.complete)
        self.assertEqual(p.shorts(), ["incomplete"])

    def test_section_not_run(self):
        """A finished log without one of the four sections does not pass."""
        data = _sweep.base()
        start = data.index(b"=== [S41]")
        data = data[:start] + data[data.index(b"Done.", start):]
        self.assertEqual(_point(data).shorts(), ["absent"])


class Frontier(unittest.TestCase):
    """load() and frontier() on the whole test sweep."""

    @classmethod
    def setUpClass(cls):
        """Write the sweep to a temporary DIR/logs and load it once."""
        cls.tmp = tempfile.mkdtemp(prefix="sweep-")
        _sweep.write(cls.tmp, _sweep.sweep())
        cls.points, cls.refused = sweep.load(sweep.find_logs(cls.tmp))
        cls.cells = sweep.frontier(cls.points)

    @classmethod
    def tearDownClass(cls):
        """Remove the temporary DIR."""
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _texts(self):
        """{(scale, backend, FIFO, cpu_hz): cell text} of the computed frontier."""
        return {(row[0][1], row[1], row[2], col[0]): cell.text()
                for row, cols in self.cells.items() for col, cell in cols.items()}

    def test_expected_frontier(self):
        """Every cell as constructed (see _sweep.EXPECTED)."""
        self.assertEqual(self._texts(), _sweep.EXPECTED)

    def test_frontier_bauds(self):
        """The frontier baud itself: the last one below the first failure."""
        got = {(row[1], row[2], col[0]): cell.frontier for row, cols in self.cells.items()
               for col, cell in cols.items() if row[0][1] == "quick"}
        self.assertEqual(got, {("async", 16, 1000000000): 12000000,
                               ("async", 16, 125000000): 115200,
                               ("async", 1, 15625000): 115200,
                               ("console", 16, 1000000000): None,
                               ("copier", 16, 125000000): 115200})

    def test_the_manifest_not_the_name(self):
        """The point comes from the manifest: the full-scale log's name says nothing."""
        full = [p for p in self.points if p.setting[1] == "full"]
        self.assertEqual([(p.backend, p.baud, p.fifo, p.cpu_hz) for p in full],
                         [("async", 921600, 16, 1000000000)])

    def test_other_scale_kept_apart(self):
        """The full-scale log has its own ladder; the quick rows' ladder is the four bauds."""
        ladders = {row[0][1]: cell.ladder for row, cols in self.cells.items()
                   for cell in cols.values()}
        self.assertEqual(ladders, {"quick": list(_sweep.BAUDS), "full": [921600]})

    def test_no_wire_model_left_out(self):
        """A log on QEMU's instant UART (no wire model, no timed line) is no point:
    refused with the reason."""
        self.assertEqual([(os.path.basename(p), w.split(" (")[0]) for p, w in self.refused],
                         [("qemu-virt-async-nowire.log", "no timed line")])

    def test_logs_directly_in_dir(self):
        """find_logs() reads DIR/*.log when DIR has no logs/ folder."""
        tmp = tempfile.mkdtemp(prefix="sweep-flat-")
        try:
            _sweep.write(tmp, {"a.log": _sweep.base(), "b.txt": b"x"}, sub="")
            self.assertEqual(sweep.find_logs(tmp), [os.path.join(tmp, "a.log")])
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()


class DeviceLine(unittest.TestCase):
    """A point on the emulator's line (a -nowire image, line=device): its baud
    and FIFO from line_point, its own setting, never model-bound."""

    def setUp(self):
        """The real device-line point (async, 115200/16, trigger 8, 1 GHz)."""
        self.data = _sweep.base(_sweep.DEVICE)

    def test_device_point(self):
        """It passes; the setting names the line and the trigger."""
        points, refused = sweep.load([os.path.join(_sweep.SWEEP_DIR, _sweep.DEVICE)])
        self.assertEqual(refused, [])
        p = points[0]
        self.assertTrue(p.passes(), p.broken)
        self.assertEqual((p.baud, p.fifo), (115200, 16))
        self.assertEqual(p.setting[3:], ("8", "device (bus 80 ns)"))
        self.assertIn("rx trigger 8, line device (bus 80 ns)", sweep.setting_text(p.setting))

    def test_failing_device_point_not_model_bound(self):
        """Failing on CPU, it is not marked model-bound: the model printed 0 %."""
        p = _point(setv(self.data, rb"diag=s32-cpu ", "cpu_pct", "99.000"))
        self.assertEqual(p.shorts(), ["CPU"])

    def test_plots_of_mixed_lines(self):
        """A folder of model and device points: every plot drawn, the frontier's too."""
        tmp = tempfile.mkdtemp(prefix="sweep-mixed-")
        try:
            for name in (_sweep.PASSING, _sweep.DEVICE):
                with open(os.path.join(tmp, name), "wb") as fh:
                    fh.write(_sweep.base(name))
            res = _sweep._common.run_cli("--sweep", tmp, plots=True)
            self.assertEqual(res.returncode, 0, res.stderr)
            with open(os.path.join(tmp, "sweep.md"), encoding="utf-8") as fh:
                md = fh.read()
            self.assertNotIn("not drawn", md)
            self.assertIn("line device (bus 80 ns)", md)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
