"""report --check: one doctored real log per rule of the manifest, witness,
samples, arithmetic, counters and bounds checks (the figures each edit
starts from are read from the log)."""

import unittest

from _doctor import NOWIRE, LogCase, check, drop, number, real, rewitness, setv, value, witness

S11_ENQ = rb"diag=s11-txdbg phase=enqueue size=64 "
S11_FIN = rb"diag=s11-txdbg phase=final-drain size=64 "


def plus(delta):
    """A setv() edit: the old whole number plus delta."""
    return lambda v: int(v) + delta


class OtherChecks(LogCase):
    """One doctored real log per remaining check."""

    def test_char_ns_and_instret_scale(self):
        """Manifest: char_ns from line_baud_milli; S41 instret_scale = 2^icount_shift."""
        char = 10 ** 13 // number(self.log, rb"line_baud_milli=", "line_baud_milli")
        self.found(check(setv(self.log, rb"line_baud_milli=", "char_ns", char - 800)),
                   "S00", "char_ns", "take %d ns" % char)
        self.found(check(setv(self.log, rb"s41-method ", "instret_scale", plus(1))),
                   "S41", "s41-method.instret_scale")
        self.found(check(setv(self.log, rb"bench_scale=", "rounds", 999999999)), "S00", "rounds",
                   "beyond what the suite can run")
        self.found(check(setv(self.log, rb"icount_shift=", "icount_shift", 4000)),
                   "S00", "icount_shift", "at most 10")

    def test_witness_bytes_against_the_section(self):
        """A consistent witness one byte short of what S20 sends."""
        body = witness(self.log, "s20-single-byte").group(2)
        data = rewitness(self.log, "s20-single-byte", body[:-1])
        self.found(check(data), "S20", "payload-end=s20-single-byte.bytes",
                   "sends %d bytes" % len(body))

    def test_samples_count_against_scale(self):
        """S20 n (and its samples) against the manifest's tx_latency_iters."""
        iters = number(self.log, rb"tx_writev_fragments=", "tx_latency_iters")
        data = setv(self.log, rb"tx_writev_fragments=", "tx_latency_iters", iters + 2)
        self.found(check(data), "S20", "s20-single-byte.n", "scale gives %d" % (iters + 2))

    def test_hist_without_samples(self):
        """A histogram of ours printed without its raw series."""
        data = drop(self.log, rb"samples tag=s43-idle ")
        res = check(data)
        self.found(res, "S43", "hist(s43-idle)", "without its raw samples")
        self.found(res, "S43", "s43-idle-aggregate.samples")

    def test_arithmetic_rules(self):
        """S05 kbps, S41 instret_delta, S11 enqueue_kbps, S43 aggregate, S31 CRCs, S41 rounds."""
        cases = [(rb"diag=s05-ring op=tx-write ", "kbps", lambda v: "%.3f" % (float(v) * 1.1),
                  "S05", "s05-ring(op=tx-write,chunk=", "bytes x 1e6 / ns"),
                 (rb"diag=s41-valid size=64 round=1 ", "instret_delta", plus(1), "S41",
                  "s41-valid(size=64,round=1).instret_delta", "instret_end - instret_begin"),
                 (rb"policy=no-drain size=64 ", "enqueue_kbps",
                  lambda v: "%.3f" % (float(v) * 1.1), "S11", "no-drain(size=64).enqueue_kbps",
                  "bytes x 1e6 / enqueue_ns"),
                 (rb"diag=s43-loaded-aggregate ", "max_ns", plus(10), "S43",
                  "s43-loaded-aggregate.max_ns", "the groups' max is"),
                 (rb"status=PASS rx_mode=", "crc_rx", lambda v: "0x%08x" % (int(v, 16) ^ 1),
                  "S31", "crc_rx", "yet status=PASS"),
                 (rb"diag=s41-summary size=64 ", "valid_rounds", plus(1), "S41",
                  "s41-summary(size=64).valid_rounds", "valid round lines")]
        for start, key, new, section, name, text in cases:
            self.found(check(setv(self.log, start, key, new)), section, name, text)

    def test_s43_groups_and_derived_fields(self):
        """S43 group summaries and sample[i] from the series; a latency line's ratios."""
        cases = [(rb"s43-idle-group-summary ", "p99_ns", plus(-100), "S43",
                  "s43-idle-group-summary(group=1).p99_ns"),
                 (rb"diag=s43-idle-group group=1 ", "sample[1]", plus(100), "S43",
                  "s43-idle-group(group=1).sample[1]"),
                 (rb"diag=s20-single-byte ", "p50_chars", lambda v: "%.2f" % (float(v) + .03),
                  "S20", "s20-single-byte.p50_chars"),
                 (rb"diag=drain-each-size-256 ", "slow_gt10ms", plus(-1), "S10",
                  "drain-each-size-256.slow_gt10ms"),
                 (rb"diag=s06-wake-to-run ", "p99_instret", plus(1), "S06",
                  "s06-wake-to-run.p99_instret")]
        for start, key, new, section, name in cases:
            self.found(check(setv(self.log, start, key, new)), section, name)

    def test_counter_rules(self):
        """Each TX counter invariant on one doctored snapshot."""
        fifo = number(self.log, rb"fifo_depth=", "fifo_depth")
        irqs = number(self.log, rb"counter=irq ", "tx_irqs")
        calls = number(self.log, rb"counter=hw-send ", "hw_send_calls")
        burst = number(self.log, rb"diag=s43-loaded-group ", "burst_written")
        self.assertGreater(number(self.log, rb"counter=drain-state ", "staged_bytes"), 0)
        cases = [(rb"counter=hw-send ", "hw_send_max_chunk", fifo + 1, "counter",
                  "hw_send_max_chunk", "the FIFO holds %d" % fifo),
                 (rb"counter=hw-send ", "hw_send_calls", irqs - 1, "counter", "hw_send_calls",
                  "fewer than the %d THRE entries" % irqs),
                 (rb"counter=drain-state ", "ring_empty", 1, "counter", "ring_empty",
                  "staged_bytes="),
                 (rb"counter=ring-pop ", "ring_pop_calls", 3 * calls, "counter",
                  "ring_pop_calls", "two per non-empty refill"),
                 (rb"counter=user-push ", "user_acc", burst - 96, "counter", "user_acc",
                  "less than the %d bytes" % burst),
                 (rb"counter=hw-send ", "hw_send_zero", calls - 1, "counter", "hw_send_bytes",
                  "non-empty refills"),
                 (S11_ENQ, "hw_send_bytes",
                  number(self.log, S11_FIN, "hw_send_bytes") + 74, "phase=final-drain,size=64",
                  "hw_send_bytes", "at the enqueue snapshot")]
        for start, key, new, name, field, text in cases:
            section = "S40" if name == "counter" else "S11"
            self.found(check(setv(self.log, start, key, new)), section, name + ")." + field
                       if name != "counter" else "counter." + field, text)

    def test_s11_sent_less_than_queued(self):
        """S11: the final-drain snapshot sent less than was queued before the drain
        (the ring's content at the reset unchanged)."""
        queued = number(self.log, S11_ENQ, "user_acc") + number(self.log, S11_ENQ,
                                                                "queued_at_reset")
        sent = number(self.log, S11_FIN, "hw_send_bytes")
        data = self.log
        for key, new in (("hw_send_bytes", queued - 24), ("ring_pop_bytes", queued - 24),
                         ("staged_bytes", plus(sent - queued + 24))):
            data = setv(data, S11_FIN, key, new)
        res = check(data)
        self.clean(res, "S11", "s11-txdbg(phase=final-drain,size=64).queued_at_reset")
        self.found(res, "S11", "s11-txdbg(phase=final-drain,size=64).hw_send_bytes",
                   "%d bytes were queued" % queued)

    def test_unknown_median_rule(self):
        """A median rule the checker does not know is a finding, not a pass."""
        data = setv(self.log, rb"diag=s42-summary ", "median_rule", "geometric")
        self.found(check(data), "S42", "s42-summary.median_rule", "unknown rule")

    def test_work_bounds(self):
        """S41: instructions per byte > 0, model cost and excl_model <= total."""
        rnd = rb"diag=s41-valid size=64 round=2 "
        total = number(self.log, rnd, "instret_delta")
        ipb = number(self.log, rnd, "instructions_per_byte")
        cases = [("instructions_per_byte", "0.00", "costs instructions"),
                 ("wire_model_instret", total + 1, "above the total"),
                 ("instructions_per_byte_excl_model", "%.2f" % (ipb + 8), "above the total")]
        for key, new, text in cases:
            self.found(check(setv(self.log, rnd, key, new)), "S41", "(size=64,round=2)." + key,
                       text)

    def test_line_bounds(self):
        """Latency under the bytes' line time; S11 faster than the line."""
        char = number(self.log, rb"line_baud_milli=", "char_ns")
        data = setv(self.log, rb"samples tag=s20-single-byte ", "values",
                    lambda v: ",".join([str(char - 5000)] + v.split(",")[1:]))
        self.found(check(data), "S20", "s20-single-byte.min", "less than its %d ns" % char)
        data = setv(self.log, rb"policy=no-drain size=64 ", "final_drain_ns", plus(-5000000))
        self.found(check(data), "S11", "no-drain(size=64).final_drain_ns", "shorter than the line")

    def test_no_wire_model_line_bounds_not_applicable(self):
        """Without the wire model the line bounds do not apply, and the log says so."""
        res = check(real(NOWIRE))
        self.assertEqual(res.findings, [])
        self.assertTrue(any("not applicable" in n for n in res.notes))
        self.assertEqual(value(real(NOWIRE), rb"wire_model=", "wire_model"), "off")


if __name__ == "__main__":
    unittest.main()
