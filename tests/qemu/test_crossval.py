#!/usr/bin/python3
"""check_crossval.py's reading of S41: of each size, the complete round
with the fewest driver-only instructions, whichever round it is; the fit
of the model's excess over the device's to its seam calls. Logs made up
here, in the image's format (python3 -m unittest test_crossval)."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import check_crossval  # noqa: E402
from uartreport import parse  # noqa: E402  (check_crossval put it on the path)


def s41_log(rounds):
    """A log of S41 alone; rounds: (size, round, completed, instret_delta,
    wire_model_instret, wire_model_calls, drain_rc)."""
    lines = ["=== [S41] TX CPU Work ==="]
    for size, rnd, done, delta, model, calls, drain in rounds:
        lines.append(f"  diag=s41-valid size={size} round={rnd} completed={done} "
                     f"expected={size * 10} drain_rc={drain} instret_delta={delta} "
                     f"wire_model_instret={model} wire_model_calls={calls}")
    lines.append("  section=S41 status=PASS elapsed_ms=1.000 foreign_rx_bytes=0")
    return parse.parse_bytes(("\n".join(lines) + "\n").encode())


class S41Rounds(unittest.TestCase):
    def test_fewest_of_each_size(self):
        # the writer's extra wait in round 1 at one size, in round 2 at another
        log = s41_log([(64, 1, 640, 1168, 1000, 10, 0), (64, 2, 640, 1000, 1000, 10, 0),
                       (256, 1, 2560, 4000, 3000, 40, 0), (256, 2, 2560, 4168, 3000, 40, 0)])
        got = {s: check_crossval.driver_insns(r) for s, r in check_crossval.s41_rounds(log).items()}
        self.assertEqual(got, {"64": 0, "256": 1000})

    def test_figures_of_the_fewest_round(self):
        # the model's own instructions differ between rounds: the fewest
        # is the round with the fewest driver-only ones, not the smaller delta
        log = s41_log([(64, 1, 640, 5000, 4000, 10, 0), (64, 2, 640, 4900, 3600, 12, 0)])
        f = check_crossval.s41_figures(log)
        self.assertEqual((f["S41 64 insns"], f["S41 64 calls"]), (1000, 10))
        self.assertAlmostEqual(f["S41 64 ipb"], 1000 / 640)

    def test_incomplete_round_left_out(self):
        # fewer instructions, but short of its bytes, or its drain failed
        log = s41_log([(64, 1, 600, 900, 0, 0, 0), (64, 2, 640, 1100, 0, 0, 0),
                       (64, 3, 640, 800, 0, 0, -1)])
        self.assertEqual(check_crossval.s41_rounds(log)["64"].get("round"), "2")

    def test_fit_is_per_call_plus_one_constant(self):
        sizes = (64, 256, 1024)
        dev = {f"S41 {s} insns": 10.0 * s for s in sizes}
        raw = {}
        for s in sizes:
            raw[f"S41 {s} calls"] = 2 * s
            raw[f"S41 {s} insns"] = dev[f"S41 {s} insns"] + 18 * 2 * s + 35
        per, const = check_crossval.call_fit(raw, dev)
        self.assertAlmostEqual(per, 18.0)
        self.assertEqual({round(v, 6) for v in const.values()}, {35.0})

    def test_one_fixed_cost_allows_one_wait_at_one_size(self):
        ok = check_crossval.one_fixed_cost
        self.assertTrue(ok({64: 10, 256: 70, 1024: 10}))
        # 3000000/1, the device waiting once more in every round at 256 B
        self.assertTrue(ok({64: 22.3, 256: -122.9, 1024: 22.3}))
        self.assertTrue(ok({64: 86, 256: 297, 1024: 86}))
        # not a wait: too far off one size, or off at two sizes, or spread
        self.assertFalse(ok({64: 10, 256: 110, 1024: 10}))
        self.assertFalse(ok({64: 10, 256: 400, 1024: 10}))
        self.assertFalse(ok({64: 10, 256: 178, 1024: -158}))
        self.assertFalse(ok({64: 0, 256: 100, 1024: 200}))


if __name__ == "__main__":
    unittest.main()
