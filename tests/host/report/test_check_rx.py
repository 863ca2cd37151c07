"""report --check on S32/S33 (the modelled far end's RX stream): one doctored
real log per rule of the rx-stream check, the ratio fields, the line and CPU
bounds, the manifest keys, the records and the S33 TX witness. The fixtures
ran S32 and S33 only at 3 Mbaud with a 1-byte FIFO (bytes lost to overrun:
a finding of the design, not of the log) and with peer=off (SKIPPED)."""

import unittest

from _doctor import (ASYNC, ASYNC_RX, BLIND, CONSOLE_RX, PEER_OFF, LogCase, check, cut_section,
                     drop, number, real, rewitness, setv, sub, value, witness)

RX32, CPU32 = rb"diag=s32-rx ", rb"diag=s32-cpu "
RX33, CPU33, TX33 = rb"diag=s33-rx ", rb"diag=s33-cpu ", rb"diag=s33-tx "


def plus(delta):
    """A setv() edit: the old whole number plus delta."""
    return lambda v: int(v) + delta


def milli(delta):
    """A setv() edit: the old x.yyy figure plus delta thousandths."""
    return lambda v: "%d.%03d" % divmod(int(v.replace(".", "")) + delta, 1000)


def status(data, sid, new):
    """data with section sid's status PASS replaced by new (e.g. `FAIL reason=x`)."""
    return sub(data, rb"  section=%s status=PASS " % sid.encode(),
               b"  section=%s status=%s " % (sid.encode(), new.encode()))


class Stream(LogCase):
    """The rx-stream check on the async log's S32/S33 (PASS, bytes lost)."""

    @classmethod
    def setUpClass(cls):
        """The real async S32/S33 log, read once."""
        cls.log = real(ASYNC_RX)

    def test_real_log_checked(self):
        """The real logs pass, the rx-stream check ran on them (not n/a)."""
        self.assertGreater(number(self.log, RX32, "lost"), 0)
        for name in (ASYNC_RX, CONSOLE_RX, PEER_OFF):
            res = check(real(name))
            self.assertEqual([(f.section, f.key, f.what) for f in res.findings], [], name)
            self.assertEqual(res.outcome["rx-stream"], ("ok", ""), name)
        self.assertEqual(check(real(ASYNC)).outcome["rx-stream"][0], "n/a")

    def test_bytes_add_up(self):
        """received + lost + dropped != sent in a PASS section."""
        self.found(check(setv(self.log, RX32, "lost", plus(-1))), "S32", "s32-rx.sent",
                   "received + lost + dropped = %d, not sent" % (number(self.log, RX32, "sent")
                                                                  - 1))

    def test_bytes_add_up_without_counters(self):
        """dropped=na (the console: no RX counters): received + lost == sent."""
        data = real(CONSOLE_RX)
        self.assertEqual(value(data, RX32, "dropped"), "na")
        self.found(check(setv(data, RX32, "received", plus(-1))), "S32", "s32-rx.sent",
                   "yet status=PASS")

    def test_received_at_most_sent(self):
        """More bytes read than the far end sent."""
        sent = number(self.log, RX33, "sent")
        self.found(check(setv(self.log, RX33, "received", sent + 1)), "S33", "s33-rx.received",
                   "more than the far end sent (%d)" % sent)

    def test_lost_at_most_sent(self):
        """More bytes lost than the far end sent."""
        sent = number(self.log, RX33, "sent")
        self.found(check(setv(self.log, RX33, "lost", sent + 1)), "S33", "s33-rx.lost",
                   "more than the far end sent")

    def test_overruns_need_lost_bytes(self):
        """The model reports more overruns than bytes were lost."""
        lost = number(self.log, RX32, "lost")
        self.found(check(setv(self.log, RX32, "overruns_model", lost + 1)), "S32",
                   "s32-rx.overruns_model", "only %d bytes lost" % lost)

    def test_accounted_flag(self):
        """accounted=0 although the bytes add up."""
        self.found(check(setv(self.log, RX32, "accounted", 0)), "S32", "s32-rx.accounted",
                   "received + lost + dropped == sent")

    def test_crc_check_verdict(self):
        """crc_check against the CRCs and dropped: match iff equal, skipped only with drops."""
        for new, want in (("MISMATCH", "give match"), ("skipped-ring-drops", "give match")):
            self.found(check(setv(self.log, RX32, "crc_check", new)), "S32", "s32-rx.crc_check",
                       want)
        self.found(check(setv(self.log, RX32, "dropped", 3)), "S32", "s32-rx.crc_check",
                   "give skipped-ring-drops")

    def test_crc_mismatch_passed(self):
        """The CRC of what was read differs from the delivered one, yet PASS."""
        data = setv(self.log, RX33, "crc_rx", lambda v: "0x%08x" % (int(v, 16) ^ 1))
        self.found(check(data), "S33", "s33-rx.crc_rx", "yet status=PASS")

    def test_overrun_counts_passed(self):
        """The driver counted other overruns than the model reported, yet PASS."""
        self.found(check(setv(self.log, RX32, "overruns_driver", plus(1))), "S32",
                   "s32-rx.overruns_driver", "yet status=PASS")

    def test_counters_na_together(self):
        """dropped=na beside counted RX interrupts: both come from the counters."""
        self.found(check(setv(self.log, RX32, "dropped", "na")), "S32", "s32-cpu.rx_irqs",
                   "na together")

    def test_sent_is_the_manifest_stream(self):
        """sent against the manifest's rx_sustained_bytes."""
        data = setv(self.log, rb"rx_sustained_bytes=", "rx_sustained_bytes", plus(64))
        self.found(check(data), "S32", "s32-rx.sent", "rx_sustained_bytes=%d"
                   % (number(self.log, RX32, "sent") + 64))

    def test_sent_short_when_invalid(self):
        """An INVALID section (foreign bytes filled its count) stopped the
        stream early: fewer sent is no finding, more is."""
        data = setv(self.log, rb"rx_sustained_bytes=", "rx_sustained_bytes", plus(64))
        data = status(data, "S32", "INVALID reason=foreign-rx")
        self.clean(check(data), "S32", "s32-rx.sent")
        data = setv(self.log, rb"rx_sustained_bytes=", "rx_sustained_bytes", plus(-64))
        data = status(data, "S32", "INVALID reason=foreign-rx")
        self.found(check(data), "S32", "s32-rx.sent", "rx_sustained_bytes=%d"
                   % (number(self.log, RX32, "sent") - 64))


class Status(LogCase):
    """The section status against the stream figures; SKIPPED and its reason."""

    @classmethod
    def setUpClass(cls):
        """The real async S32/S33 log, read once."""
        cls.log = real(ASYNC_RX)

    def _rx(self, res):
        """The rx-stream findings of a Result (the status edits also move Done counts)."""
        return [(f.section, f.key, f.what) for f in res.findings if f.key == "reason" or
                f.key.startswith(("s32-", "s33-")) or f.key == "status"]

    def test_fail_with_its_reason(self):
        """A FAIL whose reason is the broken check: consistent, no finding."""
        data = status(setv(self.log, RX32, "overruns_driver", plus(1)), "S32",
                      "FAIL reason=overrun-count-mismatch")
        self.assertEqual(self._rx(check(data)), [])

    def test_fail_with_another_reason(self):
        """A FAIL naming another check than the first broken one."""
        data = status(setv(self.log, RX32, "overruns_driver", plus(1)), "S32",
                      "FAIL reason=rx-unaccounted")
        self.found(check(data), "S32", "reason", "first failed check is overrun-count-mismatch")

    def test_fail_figures_add_up(self):
        """A FAIL with a stream reason although every figure adds up."""
        self.found(check(status(self.log, "S33", "FAIL reason=read-errno-5")), "S33", "reason",
                   "add up")

    def test_fail_unknown_reason(self):
        """A FAIL with a reason S32 never gives (a TX reason is S33's only)."""
        self.found(check(status(self.log, "S32", "FAIL reason=write-errno-5")), "S32", "reason",
                   "not a reason S32 fails with")

    def test_tx_burst_cut_passed(self):
        """S33's TX burst wrote less than the burst, yet PASS."""
        burst = number(self.log, rb"rx_sustained_bytes=", "rx_duplex_bytes")
        self.found(check(setv(self.log, TX33, "bytes", burst - 1)), "S33", "s33-tx.bytes",
                   "wrote %d of %d bytes, yet status=PASS" % (burst - 1, burst))

    def test_ran_without_a_far_end(self):
        """PASS although the manifest's peer=off gives no far end."""
        data = setv(self.log, rb"wire_rx_trigger=", "peer", "off")
        self.found(check(data), "S32", "status", "peer=off: the section reports SKIPPED")

    def test_skip_line_missing(self):
        """SKIPPED without its skip line."""
        self.found(check(drop(real(PEER_OFF), rb"diag=s33-skip ")), "S33", "diag=s33-skip",
                   "without its skip line")

    def test_skip_reason_unknown(self):
        """A skip reason the section never prints."""
        data = setv(real(PEER_OFF), rb"diag=s32-skip ", "reason", "tired")
        self.found(check(data), "S32", "s32-skip.reason", "not one of")

    def test_skip_reason_against_manifest(self):
        """peer-off although the manifest's far end streams."""
        data = setv(real(PEER_OFF), rb"wire_rx_trigger=", "peer", "stream")
        self.found(check(data), "S32", "s32-skip.reason", "the manifest has")


class Figures(LogCase):
    """Ratio fields, bounds, manifest keys, records and the S33 TX witness."""

    @classmethod
    def setUpClass(cls):
        """The real async S32/S33 log, read once."""
        cls.log = real(ASYNC_RX)

    def test_ratio_fields(self):
        """Every ratio field one thousandth off its inputs (printed truncated, exact)."""
        cases = [(CPU32, "s32-cpu.rx_line_rate_pct", "received x char_ns x 100 / window_ns"),
                 (CPU32, "s32-cpu.instructions_per_byte", "instructions / received"),
                 (CPU33, "s33-cpu.rx_irqs_per_byte", "rx_irqs / received"),
                 (CPU33, "s33-cpu.loss_pct", "lost x 100 / sent"),
                 (TX33, "s33-tx.tx_line_rate_pct", "bytes x char_ns x 100 / elapsed_ns")]
        for start, name, how in cases:
            res = check(setv(self.log, start, name.split(".")[1], milli(1)))
            self.found(res, name[:3].upper(), name, how)

    def test_line_rates_bounded(self):
        """RX and TX line rate above 100 % by more than the last digit; not at it."""
        for start, name in ((CPU32, "s32-cpu.rx_line_rate_pct"),
                            (TX33, "s33-tx.tx_line_rate_pct")):
            key = name.split(".")[1]
            self.found(check(setv(self.log, start, key, "100.002")), name[:3].upper(), name,
                       "above the line's 100 %")
            res = check(setv(self.log, start, key, "100.001"))
            self.assertEqual([f for f in res.findings if "above the line" in f.what], [])

    def test_cpu_shares_bounded(self):
        """cpu_pct + model_cpu_pct above the window's 100 %."""
        model = number(self.log, CPU33, "model_cpu_pct")
        data = setv(self.log, CPU33, "cpu_pct", "%.3f" % (100.002 - model))
        self.found(check(data), "S33", "s33-cpu.cpu_pct", "more than the window's cycles")

    def test_guest_share(self):
        """guest_cpu_pct: consistent with cpu_pct and model_cpu_pct passes; off
        by more than the truncations allow, or above 100 %, is a finding."""
        busy, model = number(self.log, CPU32, "cpu_pct"), number(self.log, CPU32, "model_cpu_pct")
        good = busy * 100.0 / (100.0 - model)
        line = rb"^(  diag=s32-cpu .*)$"
        ok = sub(self.log, line, rb"\1 guest_cpu_pct=%.3f" % (int(good * 1000) / 1000.0))
        self.assertEqual([f for f in check(ok).findings if "guest" in f.key], [])
        off = sub(self.log, line, rb"\1 guest_cpu_pct=%.3f" % (good + 0.05))
        self.found(check(off), "S32", "s32-cpu.guest_cpu_pct", "cpu_pct x 100 / (100 - "
                   "model_cpu_pct)")
        over = sub(self.log, line, rb"\1 guest_cpu_pct=100.002")
        self.found(check(over), "S32", "s32-cpu.guest_cpu_pct", "more than the guest's time")

    def test_manifest_keys(self):
        """The RX trigger and the peer's form; a key that came with S32/S33 missing."""
        cases = [(rb"wire_rx_trigger=", "wire_rx_trigger", "3", "not an RX FIFO trigger"),
                 (rb"wire_rx_trigger=", "peer", "burst:64", "not off, stream, burst")]
        for start, key, new, text in cases:
            self.found(check(setv(self.log, start, key, new)), "S00", key, text)
        data = sub(self.log, rb" rx_duplex_bytes=\d+", b"")
        self.found(check(data), "S00", "rx_duplex_bytes", "missing from the manifest")

    def test_records_required(self):
        """A PASS section without one of its records."""
        self.found(check(drop(self.log, CPU32)), "S32", "diag=s32-cpu", "record missing")
        self.found(check(drop(self.log, TX33)), "S33", "bytes", "no record with all of")

    def test_s33_witness(self):
        """The TX witness: its CRC, the burst's bytes, diag=s33-tx's bytes."""
        data = setv(self.log, rb"payload-end=s33-tx ", "crc32",
                    lambda v: "0x%08x" % (int(v, 16) ^ 1))
        self.found(check(data), "S33", "payload-end=s33-tx", "mismatch")
        body = witness(self.log, "s33-tx").group(2)
        self.found(check(rewitness(self.log, "s33-tx", body[:-1])), "S33",
                   "payload-end=s33-tx.bytes", "the section sends %d bytes" % len(body))
        self.found(check(setv(self.log, TX33, "bytes", plus(-1))), "S33",
                   "payload-end=s33-tx.bytes", "diag=s33-tx counts")

    def test_suite_sections(self):
        """A selected S32 missing is a finding, and so it is in a log that does not say
        which it ran (every section of the suite); a log from before S32/S33 needs neither."""
        self.found(check(cut_section(self.log, "S32")), "S32", "header", "section of the suite")
        unsaid = drop(self.log, rb"sections_selected=")
        self.clean(check(unsaid), "S33", "header")
        self.found(check(cut_section(unsaid, "S33")), "S33", "header", "section of the suite")
        older = drop(real(ASYNC), rb"sections_selected=")
        res = check(older)
        self.clean(res, "S32", "header")
        self.clean(res, "S33", "header")


if __name__ == "__main__":
    unittest.main()


class Blind(LogCase):
    """A stream read blind (uartbench-hosted's far_end_stream=, peer=autonomous):
    its loss from the pattern, the unknowns na, the status from the pattern."""

    @classmethod
    def setUpClass(cls):
        """The real Linux log: S32 read QEMU's far end's own stream."""
        cls.log = real(BLIND)

    def test_real_log_checked(self):
        """It passes, the rx-stream check ran on it; S33 is another stream's."""
        res = check(self.log)
        self.assertEqual([(f.section, f.key, f.what) for f in res.findings], [])
        self.assertEqual(res.outcome["rx-stream"], ("ok", ""))
        self.assertEqual(value(self.log, RX32, "lost_source"), "pattern")
        self.assertEqual(value(self.log, rb"diag=s33-skip ", "reason"), "stream-mismatch")

    def test_loss_adds_up(self):
        """lost != sent - received."""
        self.found(check(setv(self.log, RX32, "lost", plus(1))), "S32", "s32-rx.lost",
                   "but sent - received")

    def test_pattern_mismatch_fails(self):
        """pattern=MISMATCH with status PASS; with FAIL rx-pattern-mismatch it is clean."""
        data = setv(self.log, RX32, "pattern", "MISMATCH")
        self.found(check(data), "S32", "s32-rx.pattern", "yet status=PASS")
        res = check(status(data, "S32", "FAIL reason=rx-pattern-mismatch"))
        self.assertEqual([f for f in res.findings if f.section == "S32"], [])

    def test_head_gone_fails(self):
        """first_offset > 0 (the stream began before the section read) with PASS."""
        self.found(check(setv(self.log, RX32, "first_offset", 5)), "S32",
                   "s32-rx.first_offset", "yet status=PASS")

    def test_none_arrived_fails(self):
        """received=0 (no far end answered) with PASS; with FAIL rx-none-arrived clean."""
        data = setv(setv(self.log, RX32, "received", 0), RX32, "lost",
                    value(self.log, RX32, "sent"))
        self.found(check(data), "S32", "s32-rx.received", "yet status=PASS")
        res = check(status(data, "S32", "FAIL reason=rx-none-arrived"))
        self.assertEqual([f for f in res.findings if f.section == "S32" and not
                          f.key.startswith("s32-cpu.")], [])   # (the rates: doctored)

    def test_unknowns_are_na(self):
        """A blind stream claims no CRC of the far end's and no driver counts."""
        self.found(check(setv(self.log, RX32, "crc_check", "match")), "S32",
                   "s32-rx.crc_check", "a blind stream's is far-end")

    def test_manifest_names_the_stream(self):
        """peer=autonomous without far_end_stream=, or a blind record with peer=off."""
        self.found(check(sub(self.log, rb" far_end_stream=\S+", b"")), "S00", "far_end_stream")
        self.found(check(sub(self.log, rb"peer=autonomous", b"peer=off")), "S32",
                   "s32-rx.lost_source", "not autonomous")

    def test_other_stream_skip_reason(self):
        """S33 SKIPPED peer-off where the far end streams by itself."""
        self.found(check(setv(self.log, rb"diag=s33-skip ", "reason", "peer-off")), "S33",
                   "s33-skip.reason")
