"""report --check and the report on the copier backend's real log: its
counter identities (bytes out of the ring, the staging buffer and the FIFO
add up; 33 zero-byte sends per fast-retry exhaustion; yield_exh <=
slow_poll_exh <= no_progress_budget) and its S41 phases (they add up to the
round's instret_delta), each caught on a doctored copy."""

import tempfile
import unittest

from _doctor import COPIER, LogCase, check, number, real, setv
from uartreport.parse import parse_bytes
from uartreport.recompute import analyze
from uartreport import tables

S40_SEND = rb"counter=hw-send "
S40_PUSH = rb"counter=user-push "
S40_NOPROG = rb"counter=no-progress "
PHASES = rb"diag=s41-phases size=64 round=1 "


class CopierChecks(LogCase):
    """The copier's log and doctored copies of it."""

    @classmethod
    def setUpClass(cls):
        """The real copier log, read once."""
        cls.log = real(COPIER)

    def test_real_log_passes(self):
        """The real log: no finding, the counters checked (not only the general rules)."""
        res = check(self.log)
        self.assertEqual([(f.section, f.key, f.what) for f in res.findings], [])
        self.assertEqual(res.outcome["counters"][0], "ok")
        self.assertFalse([n for n in res.notes if "only the general invariants" in n])

    def test_bytes_add_up(self):
        """One byte more sent, or one fewer accepted, than the ring and staging account for."""
        self.found(check(setv(self.log, S40_SEND, "hw_send_bytes", lambda v: int(v) + 1)),
                   "S40", "counter.queued_at_reset", "do not add up")
        self.found(check(setv(self.log, S40_PUSH, "user_acc", lambda v: int(v) - 1)),
                   "S40", "counter.queued_at_reset", "do not add up")
        # one byte fewer sent: with ring_empty=1 nothing may be left over
        self.found(check(setv(self.log, S40_SEND, "hw_send_bytes", lambda v: int(v) - 1)),
                   "S40", "counter.queued_at_reset", "ring_empty=1")

    def test_fast_retry_exhaustions_need_zero_sends(self):
        """More exhaustions than the zero-byte sends allow (33 each)."""
        zero = number(self.log, S40_SEND, "hw_send_zero")
        data = setv(self.log, S40_NOPROG, "no_progress_budget", zero // 33 + 1)
        self.found(check(data), "S40", "counter.no_progress_budget", "zero-byte sends")

    def test_chunk_beyond_the_modelled_fifo(self):
        """On the modelled line a send stores at most a FIFO and the idle shifter's byte
        (the status read per byte): 17 passes, 18 does not."""
        self.clean(check(setv(self.log, S40_SEND, "hw_send_max_chunk", 17)), "S40",
                   "counter.hw_send_max_chunk")
        self.found(check(setv(self.log, S40_SEND, "hw_send_max_chunk", 18)), "S40",
                   "counter.hw_send_max_chunk", "the FIFO holds 16 and the idle shifter 1")

    def test_ladder_order(self):
        """A yield exhaustion without a slow-poll exhaustion before it."""
        data = setv(self.log, S40_NOPROG, "yield_exh", lambda v: int(v) + 1)
        self.found(check(data), "S40", "counter.slow_poll_exh", "does not hold")

    def test_phases_add_up(self):
        """A phase changed by a tenth of the round: the sum no longer meets instret_delta."""
        data = setv(self.log, PHASES, "slow_poll", lambda v: int(v) - int(v) // 10)
        self.found(check(data), "S41", "s41-phases(size=64,round=1)", "add up to")

    def test_phase_table(self):
        """The report's phase table: a row per phase and size, the slow poll the largest."""
        an = analyze(parse_bytes(self.log, "copier.log"))
        rows = {r.label: r.cells[0].value for r in tables.s41_phase_rows([an])}
        for name in ("user_write", "ring_pop", "send", "fast_retry", "slow_poll", "temt_poll",
                     "park", "copier_other", "isr", "other_tasks", "wire_model"):
            self.assertIn("S41 64 B %s instructions/byte" % name, rows)
        design = {k: v for k, v in rows.items() if k.startswith("S41 64 B ")
                  and "wire_model" not in k}
        self.assertEqual(max(design, key=design.get), "S41 64 B slow_poll instructions/byte")


if __name__ == "__main__":
    unittest.main()
