"""Recomputation: nearest rank, StarryOS conversions, golden figures, flags."""

import unittest

import _common
from uartreport import stats
from uartreport.parse import parse_file
from uartreport.analysis import DISAGREE, NOT_RECOMPUTABLE, P99_IS_MAX
from uartreport.recompute import analyze


def _rate(an, sid, size):
    """The LineRate of (section, size) in an Analysis."""
    return next(lr for lr in an.line_rates if lr.section == sid and lr.size == size)


class Stats(unittest.TestCase):
    """Nearest-rank percentiles and printed-precision tolerance."""

    def test_nearest_rank(self):
        """P50/P95/P99 use rank ceil(p*n/100); P99 of 100 is not the max."""
        vals = list(range(1, 101))
        self.assertEqual(stats.nearest_rank(vals, 50), 50)
        self.assertEqual(stats.nearest_rank(vals, 99), 99)  # not the maximum
        self.assertEqual(stats.nearest_rank(vals, 100), 100)
        vals = list(range(1, 251))
        self.assertEqual(stats.nearest_rank(vals, 99), 248)  # ceil(247.5)
        self.assertEqual(stats.nearest_rank(vals, 95), 238)  # ceil(237.5)
        self.assertEqual(stats.nearest_rank([7], 99), 7)
        self.assertIsNone(stats.nearest_rank([], 50))

    def test_median(self):
        """Median of odd and even counts."""
        self.assertEqual(stats.median([5, 1, 3]), 3)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)

    def test_tolerance(self):
        """Agreement within one unit of the last printed digit."""
        self.assertAlmostEqual(stats.print_tolerance("0.190"), 0.001)
        self.assertEqual(stats.print_tolerance("12"), 1.0)
        self.assertTrue(stats.agrees("0.190", 0.1909))
        self.assertFalse(stats.agrees("0.190", 0.1915))
        self.assertFalse(stats.agrees("garbage", 1.0))


class StarryConversions(unittest.TestCase):
    """KiB/s vs 11.52 line rate, P99 = max, S43, S41/S42 golden figures."""

    @classmethod
    def setUpClass(cls):
        """Parse and analyse the fixture once for the class."""
        cls.d1 = analyze(parse_file(_common.starry("d1-async-q31.log")))
        cls.qemu = analyze(parse_file(_common.starry("qemu-async-q31.log")))

    def test_baud(self):
        """D1 logs use 115384.6 baud, QEMU logs 115200."""
        self.assertAlmostEqual(self.d1.baud, 115384.615, places=2)
        self.assertEqual(self.qemu.baud, 115200.0)
        self.assertAlmostEqual(self.d1.char_ms, 0.086667, places=5)

    def test_true_line_rate_d1(self):
        """D1 S10: kbps x 1024 against 11538.5 B/s."""
        lr = _rate(self.d1, "S10", "64")  # kbps=10.96, printed line_rate_pct=95.2
        self.assertEqual(lr.pct_printed, "95.2")
        self.assertAlmostEqual(lr.bytes_per_s, 11223.04, places=2)
        self.assertAlmostEqual(lr.pct_true, 97.27, places=2)
        self.assertAlmostEqual(_rate(self.d1, "S10", "1024").pct_true, 99.40, places=2)

    def test_true_line_rate_qemu(self):
        """QEMU S10: kbps x 1024 against 11520 B/s; conversion noted."""
        lr = _rate(self.qemu, "S10", "64")  # kbps=134.28
        self.assertAlmostEqual(lr.bytes_per_s, 137502.72, places=2)
        self.assertAlmostEqual(lr.pct_true, 1193.6, places=1)
        self.assertTrue(any("11796.5 B/s" in n for n in self.qemu.notes))

    def test_s11_rate_from_enqueue_and_drain(self):
        """S11 rate is bytes over enqueue plus final drain time."""
        lr = _rate(self.d1, "S11", "64")  # 6400 B in 1 + 554 ms
        self.assertAlmostEqual(lr.bytes_per_s, 6400 / 0.555, places=3)

    def test_p99_equals_max_flagged(self):
        """A StarryOS P99 equal to max carries the P99=max mark and note."""
        lat = self.d1.latency["s20-single-byte"]
        self.assertEqual(lat.source, "printed")
        self.assertIn(P99_IS_MAX, lat.marks["p99"])
        self.assertTrue(any("P99 = max" in n for n in self.d1.notes))

    def test_s43_not_recomputable(self):
        """StarryOS S43 percentiles are printed values marked not recomputable."""
        self.assertEqual(self.d1.s43_recomputable, "not recomputable (3 of 50 samples)")
        idle = self.d1.s43["idle"]
        self.assertAlmostEqual(idle.values["p50"], 6.0865)
        self.assertIn(NOT_RECOMPUTABLE, idle.marks["p50"])
        self.assertAlmostEqual(self.d1.s43["loaded"].values["p50"], 25.781791)

    def test_s41_golden_d1_async(self):
        # medians as printed by d1-async-q31.log (diag=s41-summary lines)
        """S41 medians per size equal the figures printed in d1-async-q31.log."""
        expected = {"64": 32800.10, "256": 32787.44, "1024": 44131.84}
        for size, value in expected.items():
            entry = self.d1.s41[size]
            self.assertAlmostEqual(entry["median"]["instructions_per_byte"], value, places=2)
            self.assertEqual(len(entry["rounds"]["instructions_per_byte"]), 5)
        self.assertEqual(self.d1.flags, [])

    def test_s42(self):
        """S42 median overlap efficiency of the rounds."""
        self.assertAlmostEqual(self.d1.s42["median"], 0.5340)
        self.assertEqual(self.d1.s42["printed"], "0.5340")
        self.assertAlmostEqual(self.qemu.s42["median"], 1.0251)

    def test_old_d1_log_runs_fast(self):
        """The old D1 log exceeds 100 % true line rate and has no S41-S43."""
        old = analyze(parse_file(_common.starry("d1_out.md")))
        self.assertGreater(max(lr.pct_true for lr in old.line_rates), 100.5)
        self.assertEqual(old.s41, {})
        self.assertEqual(old.s43, {})


class OurRecompute(unittest.TestCase):
    """The synthetic log in our format: raw samples, hist, CRC, S41, S43."""

    @classmethod
    def setUpClass(cls):
        """Parse and analyse the fixture once for the class."""
        cls.an = analyze(parse_file(_common.ours("d1-async-synthetic.log")))

    def test_s20_recomputed_and_agrees(self):
        """S20 figures come from raw samples and agree with the print."""
        lat = self.an.latency["s20-single-byte"]
        self.assertEqual(lat.source, "raw")
        self.assertAlmostEqual(lat.values["p50"], 0.149)
        self.assertAlmostEqual(lat.values["p95"], 0.194)
        self.assertAlmostEqual(lat.values["p99"], 0.198)
        self.assertAlmostEqual(lat.values["max"], 0.199)
        self.assertAlmostEqual(lat.values["avg"], 0.1495)
        self.assertEqual(lat.marks, {})

    def test_printed_p99_that_is_max_disagrees(self):
        """A printed P99 that is really the max is flagged."""
        lat = self.an.latency["s21-fifo-size-16"]
        self.assertAlmostEqual(lat.values["p99"], 1.498)
        self.assertAlmostEqual(lat.values["max"], 25.0)
        self.assertIn(DISAGREE, lat.marks["p99"])
        self.assertNotIn("p50", lat.marks)
        self.assertTrue(any("s21-fifo-size-16" in f and "is the maximum" in f
                            for f in self.an.flags))

    def test_line_rate_check(self):
        """A printed line_rate_pct that disagrees with bytes_per_s is flagged."""
        self.assertAlmostEqual(_rate(self.an, "S10", "64").pct_true, 99.05, places=2)
        flagged = [f for f in self.an.flags if f.startswith("S10")]
        self.assertEqual(len(flagged), 1)
        self.assertIn("size=256", flagged[0])

    def test_hist_checks(self):
        """The correct hist passes, the wrong one is flagged."""
        hist_flags = [f for f in self.an.flags if "hist(" in f]
        self.assertEqual(len(hist_flags), 1)
        self.assertIn("s21-fifo-size-16", hist_flags[0])

    def test_payload_crc(self):
        """Payload witnesses: match, mismatch, not checkable."""
        got = {tag: verdict for tag, verdict, _ in self.an.payloads}
        self.assertEqual(got["s31-rx"], "match")
        self.assertEqual(got["s31-bad"], "mismatch")
        self.assertEqual(got["s31-missing"], "not checkable")

    def test_s41_medians(self):
        """Medians of instructions, cycles per byte and CPU use over rounds."""
        med = self.an.s41["64"]["median"]
        self.assertAlmostEqual(med["instructions_per_byte"], 120.5)
        self.assertAlmostEqual(med["cycles_per_byte"], 905)
        self.assertAlmostEqual(med["cpu_util_pct"], 1.2)

    def test_s43_recomputed(self):
        """S43 idle/loaded percentiles from the raw series."""
        idle, loaded = self.an.s43["idle"], self.an.s43["loaded"]
        self.assertEqual((idle.source, loaded.source), ("raw", "raw"))
        self.assertAlmostEqual(idle.values["p50"], 0.0975)
        self.assertAlmostEqual(loaded.values["p99"], 1.39)
        self.assertEqual(len(idle.samples_ms), 40)
        self.assertEqual(idle.marks, {})
        self.assertIn("recomputed", self.an.s43_recomputable)

    def test_exact_flag_count(self):
        """Exactly the four planted errors are flagged."""
        self.assertEqual(len(self.an.flags), 4, self.an.flags)


if __name__ == "__main__":
    unittest.main()
