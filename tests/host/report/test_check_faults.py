"""report --check on logs with faults and on the rules the checker gained with
the log format's last fields: a TX loop cut by a failed write (the real
write-fault logs), S13's wire bytes, S41's raw counter and RX account,
S42's rounded inputs, the exact TX counter invariant (queued_at_reset)."""

import re
import unittest

from _doctor import (FAULT_S10, FAULT_S13, LogCase, check, number, real, rewitness, setv,
                     sub, value, witness)

S13 = rb"policy=writev-drain-each "
S41 = rb"diag=s41-valid size=64 round=1 "
RAW = "rdinstret_delta // instret_scale"


def sample(data, tag, index, new):
    """data with sample index (negative: from the end) of series tag set to new."""
    def edit(values):
        vals = values.split(",")
        vals[index] = str(new)
        return ",".join(vals)
    return setv(data, rb"samples tag=%s " % tag.encode(), "values", edit)


class WriteFault(LogCase):
    """A loop cut by a failed write: what it printed holds, but less of it."""

    @classmethod
    def setUpClass(cls):
        """The S10 write-fault log, its cut policy line and the size's witness tag."""
        super().setUpClass()
        cls.s10 = real(FAULT_S10)
        m = re.search(rb"^  (policy=\S+ size=(\d+) )[^\r\n]* write_errno=(?!0\b)", cls.s10, re.M)
        cls.cut, cls.size = re.escape(m.group(1)), int(m.group(2))
        cls.tag = "drain-each-size-%d" % cls.size

    def test_cut_loop_counts_at_most(self):
        """bytes, user_bytes, drain_calls of a cut loop: at most the full loop's."""
        most = self.size * number(self.s10, self.cut, "iters")
        name = "drain-each(size=%d).bytes" % self.size
        self.assertLess(number(self.s10, self.cut, "bytes"), most)
        self.found(check(setv(self.s10, self.cut, "bytes", most + self.size)), "S10", name,
                   "the most a loop cut")
        self.found(check(setv(self.s10, self.cut, "write_errno", 0)), "S10", name, "size x iters")
        s13 = real(FAULT_S13)
        iters = number(s13, S13, "iters")
        self.assertLess(number(s13, S13, "drain_calls"), iters)
        self.found(check(setv(s13, S13, "drain_calls", iters + 1)), "S13",
                   "writev-drain-each(size=256).drain_calls", "the most a loop cut")
        most = number(s13, S13, "total_size") * iters
        self.found(check(setv(s13, S13, "user_bytes", most + 1)), "S13",
                   "writev-drain-each(size=256).user_bytes", "the most a loop cut")

    def test_witness_holds_what_was_written(self):
        """The cut loop's witness holds its policy line's bytes, not one fewer."""
        body = witness(self.s10, self.tag).group(2)
        res = check(rewitness(self.s10, self.tag, body[:-1]))
        self.clean(res, "S10", "payload-end=%s " % self.tag)
        self.found(res, "S10", "payload-end=%s.bytes" % self.tag, "policy line counts")

    def test_failed_write_sample_left_out(self):
        """The last sample timed the failed write: left out of the line bound, the
        others are held to it, and a loop not cut has no sample left out."""
        self.clean(check(self.s10), "S10", self.tag + ".min")
        self.found(check(setv(self.s10, self.cut, "write_errno", 0)), "S10", self.tag + ".min",
                   "less than its")
        self.found(check(sample(self.s10, self.tag, -2, 200)), "S10", self.tag + ".min",
                   "less than its")

    def test_s21_cut_seen_in_its_witness(self):
        """S20/S21 print no policy line: a witness short of n writes marks the cut."""
        tag = "s21-fifo-size-16"
        short = sample(self.log, tag, -1, 200)
        self.found(check(short), "S21", tag + ".min", "less than its")
        cut = rewitness(short, tag, witness(short, tag).group(2)[:-16])
        self.clean(check(cut), "S21", tag + ".min")


class CutByTimeout(LogCase):
    """A section the runner stopped inside a payload (the copier's drain
    after its first marker under fault=temt-stuck): the witness has no end."""

    def cut(self, status):
        """The log with S20 stopped after its first payload marker, ending status."""
        s20 = re.search(rb"^=== \[S20\] ", self.log, re.M).end()
        m = re.compile(rb"^  payload-begin=(\S+)\r\n", re.M).search(self.log, s20)
        end = re.search(rb"^  section=S20 status=PASS [^\r\n]*\r\n", self.log, re.M)
        line = sub(end.group(0), rb"status=PASS ", b"status=%s reason=deadline " % status)
        data = (self.log[:m.end()] + b"\r\n  section=S20 timeout_ms=5002\r\n" + line +
                self.log[end.end():])
        return m.group(1).decode(), data

    def test_cut_witness_noted_not_found(self):
        """TIMEOUT: noted; the same cut in a section that ended by itself: a finding."""
        tag, data = self.cut(b"TIMEOUT")
        res = check(data)
        self.clean(res, "S20", "payload-end=" + tag)
        self.assertTrue(any("cut by the section's TIMEOUT" in n for n in res.notes), res.notes)
        tag, data = self.cut(b"FAIL")
        self.found(check(data), "S20", "payload-end=" + tag, "no payload-end line")


class NewRules(LogCase):
    """S13's wire bytes, S41's raw counter, S42's rounding, the TX counter sum."""

    def test_s13_wire_and_user_bytes(self):
        """S13: bytes = wire_bytes_per_write x iters, user_bytes = total_size x iters,
        one CR per newline between them (a cut loop too)."""
        res = check(setv(self.log, S13, "bytes", lambda v: int(v) + 1))
        self.found(res, "S13", "writev-drain-each(size=256).bytes", "wire_bytes_per_write x iters")
        self.found(res, "S13", "writev-drain-each(size=256).bytes", "CRs added")
        res = check(setv(self.log, S13, "user_bytes", lambda v: int(v) - 1))
        self.found(res, "S13", "writev-drain-each(size=256).user_bytes", "total_size x iters")
        cut = check(setv(real(FAULT_S13), S13, "bytes", lambda v: int(v) - 1))
        self.found(cut, "S13", "writev-drain-each(size=256).bytes", "CRs added")

    def raw_want(self, data):
        """S41's first round: rdinstret_delta // instret_scale - idle_instret - rx_instret."""
        scale = number(data, rb"s41-method ", "instret_scale")
        return (number(data, S41, "rdinstret_delta") // scale - number(data, S41, "idle_instret")
                - number(data, S41, "rx_instret"))

    def test_s41_instret_delta_from_the_raw_counter(self):
        """instret_delta = the raw counter over its scale less the idle and RX
        accounts: exact or one less, nothing else."""
        want = self.raw_want(self.log)
        res = check(setv(self.log, S41, "instret_delta", want - 1))
        self.assertFalse([f for f in res.findings if RAW in f.what])
        for got in (want - 2, want + 1):
            res = check(setv(self.log, S41, "instret_delta", got))
            self.found(res, "S41", "s41-valid(size=64,round=1).instret_delta", RAW)

    def test_s41_rx_account_left_out(self):
        """rx_instret (foreign RX during the round) is not the TX's work; absent: 0."""
        got = number(self.log, S41, "instret_delta")
        rx = check(setv(self.log, S41, "rx_instret", 500))
        self.found(rx, "S41", "s41-valid(size=64,round=1).instret_delta", RAW)
        both = setv(setv(self.log, S41, "rx_instret", 500), S41, "instret_delta", got - 500)
        self.assertFalse([f for f in check(both).findings if RAW in f.what])
        old = re.sub(rb" rx_instret=\d+", b"", self.log)
        self.assertEqual(check(old).findings, [])

    def test_s42_ratio_within_its_inputs_rounding(self):
        """total_over_line_ratio from the printed ms fields: off by more than its last
        digit when the truncated window_ms moves it over a boundary, not more."""
        window = value(self.log, rb"idle window_ms=", "window_ms")
        thousandths = int(float(window) * 1001) + 1  # T / W just above 1.001
        total = "%d.%03d" % divmod(thousandths, 1000)
        self.assertLess(float(total) / (float(window) + 0.001), 1.001)  # a true ratio 1.000
        data = setv(self.log, rb"diag=s42-sample round=1 ", "total_duration_ms", total)
        self.clean(check(setv(data, rb"diag=s42-sample round=1 ", "total_over_line_ratio",
                              "1.000")), "S42", "total_over_line_ratio")
        self.found(check(setv(data, rb"diag=s42-sample round=1 ", "total_over_line_ratio",
                              "0.998")), "S42", "s42-sample(round=1).total_over_line_ratio",
                   "total_duration_ms / idle window_ms")

    def test_tx_counters_add_up_exactly(self):
        """user_acc + queued_at_reset == ring_pop_bytes + staged_bytes at every snapshot."""
        snaps = [(rb"diag=s11-txdbg phase=%s size=%d " % (p, s), "S11",
                  "s11-txdbg(phase=%s,size=%d).queued_at_reset" % (p.decode(), s))
                 for p in (b"enqueue", b"final-drain") for s in (64, 256, 1024)]
        snaps += [(rb"counter=", "S40", "counter.queued_at_reset")]  # both S40 lines
        for start, section, key in snaps:
            for delta in (1, -1):
                res = check(setv(self.log, start, "queued_at_reset", lambda v: int(v) + delta, 0))
                self.found(res, section, key, "do not add up")
        one = check(setv(self.log, rb"counter=drain-state ", "queued_at_reset",
                         lambda v: int(v) + 1))
        self.found(one, "S40", "drain-state.queued_at_reset", "earlier record of the same")
        old = re.sub(rb" queued_at_reset=\d+", b"", self.log)
        self.assertEqual(check(old).findings, [])
        less = setv(old, rb"diag=s11-txdbg phase=enqueue size=64 ", "staged_bytes", 0)
        self.found(check(less), "S11", "s11-txdbg(phase=enqueue,size=64).staged_bytes",
                   "never written")


if __name__ == "__main__":
    unittest.main()
