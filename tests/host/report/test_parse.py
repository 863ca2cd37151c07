"""Parser tests on the five StarryOS reference logs and on our format."""

import unittest

import _common
from uartreport.parse import parse_bytes, parse_file

Q31_SECTIONS = ["S00", "S10", "S11", "S12", "S13", "S14", "S20", "S21", "S30", "S31",
                "S41", "S42", "S43", "S40"]
Q19_SECTIONS = ["S00", "S10", "S11", "S12", "S13", "S14", "S20", "S21", "S30", "S31", "S40"]


class ReferenceLogs(unittest.TestCase):
    """Each reference log: sections found, flavour, label, key figures."""

    def test_d1_async_q31(self):
        """D1 async q31 log: sections, label, figures, boot lines, S43 samples."""
        log = parse_file(_common.starry("d1-async-q31.log"))
        self.assertEqual(log.order, Q31_SECTIONS)
        self.assertEqual(log.flavor, "starryos")
        self.assertEqual(log.label, "starryos-lichee-d1-fullbench")
        self.assertEqual(log.warnings, [])
        self.assertEqual(log.manifest["version"], "q31-cpu-efficiency-20260721")
        self.assertEqual(log.manifest["uart_line_rate"], "11.52 KB/s")
        self.assertTrue(log.is_d1())
        rec = log.records("S20", kind="diag", tag="s20-single-byte")[0]
        self.assertEqual(rec.get("p50_ms"), "0.190")
        self.assertEqual(rec.get("p99_ms"), "0.222")
        self.assertEqual(log.boot["ring_buffer_write_kb_s"], "694708.28")
        self.assertEqual(log.boot["rx_ring_buffer_read_kb_s"], "7641791.04")
        self.assertEqual(log.boot["rx_latency_p99_ns"], "334")
        group = log.records("S43", kind="diag", tag="s43-idle-group")[0]
        self.assertEqual(group.get("sample[2]"), "6087834")
        self.assertNotIn("sample[3]", group.kv)
        self.assertEqual(log.done, {})

    def test_qemu_async_q31(self):
        """QEMU async q31 log: sections, label, policy and proxy records."""
        log = parse_file(_common.starry("qemu-async-q31.log"))
        self.assertEqual(log.order, Q31_SECTIONS)
        self.assertEqual(log.label, "starryos-qemu-rootfs")
        self.assertFalse(log.is_d1())
        pol = log.records("S10", kind="policy", size="64")[0]
        self.assertEqual(pol.tag, "drain-each")
        self.assertEqual(pol.get("kbps"), "134.28")
        self.assertEqual(log.boot["rx_latency_p99_ns"], "11800")
        proxy = log.records("S40", kind="proxy")[0]
        self.assertEqual(proxy.get("status"), "not-available")
        idle = log.records("S42", kind="idle")[0]
        self.assertEqual(idle.get("window_ms"), "542.535")
        self.assertEqual(log.warnings, [])  # the shell prompt after Done is not a warning

    def test_d1_out_older_format(self):
        """Older D1 log: no S41-S43, boot IRQ figure, S21 figure."""
        log = parse_file(_common.starry("d1_out.md"))
        self.assertEqual(log.order, Q19_SECTIONS)
        self.assertEqual(log.manifest["version"], "q19c-m0-20260703")
        self.assertEqual(log.boot["irq_frequency_irq_s"], "465631.93")
        rec = log.records("S21", kind="diag", tag="s21-fifo-size-15")[0]
        self.assertEqual(rec.get("p99_ms"), "23.985")
        self.assertIsNone(log.section("S41"))

    def test_qemu_out_older_format(self):
        """Older QEMU log: sections and S10 kbps."""
        log = parse_file(_common.starry("qemu_out.md"))
        self.assertEqual(log.order, Q19_SECTIONS)
        self.assertEqual(log.records("S10", kind="policy", size="64")[0].get("kbps"), "164.10")

    def test_qemu_console(self):
        """Console log: S05 SKIPPED, S11 policy records, kernel lines skipped."""
        log = parse_file(_common.starry("qemu_console.md"))
        self.assertIn("S05", log.order)
        self.assertEqual(log.manifest["backend"], "polling-console")
        self.assertEqual(log.label, "starryos-qemu-rootfs-polling-console")
        self.assertEqual(log.records("S05", kind="status")[0].tag, "SKIPPED")
        # S11 lines start with write_semantics= but carry policy=: policy records
        s11 = log.records("S11", kind="policy")
        self.assertEqual([r.get("size") for r in s11], ["64", "256", "1024"])
        self.assertEqual(s11[0].get("write_semantics"), "synchronous-blocking")
        summ = log.records("S41", kind="diag", tag="s41-summary", size="64")[0]
        self.assertEqual(summ.get("median_instructions_per_byte"), "14779.94")
        self.assertGreater(log.noise_lines, 20)  # kernel "[ 10.76 ...]" lines skipped
        self.assertEqual(log.warnings, [])

    def test_bare_words_and_tokens_kept(self):
        """Bare words and token order are kept in records."""
        log = parse_file(_common.starry("d1-async-q31.log"))
        rec = log.records("S41", kind="s41-local-counters")[0]
        self.assertIn("counter_rc", rec.words)
        self.assertEqual(rec.tokens[0], ("s41-local-counters", None))
        self.assertEqual(rec.get("counters"), "ok")
        size = log.records("S41", kind="s41-size")[0]
        self.assertEqual((size.tag, size.get("expected_bytes")), ("64", "6400"))


class OurFormat(unittest.TestCase):
    """Our own format: manifest, samples, hist, payloads, statuses, Done."""

    @classmethod
    def setUpClass(cls):
        """Parse and analyse the fixture once for the class."""
        cls.log = parse_file(_common.ours("d1-async-synthetic.log"))

    def test_manifest_and_label(self):
        """Our manifest gives the flavour and the board/backend/wire label."""
        log = self.log
        self.assertEqual(log.flavor, "ours")
        self.assertEqual(log.label, "d1/async/wire-off")
        self.assertEqual(log.manifest["baud_real"], "115384.6")
        self.assertEqual(log.manifest["privilege"], "M")
        self.assertEqual(log.warnings, [])

    def test_crlf_and_ansi(self):
        """Lines ending CR LF and an ANSI boot line parse."""
        self.assertEqual(self.log.manifest["timebase_hz"], "24000000")  # line ended \r\n
        self.assertEqual(self.log.order[0], "S00")

    def test_samples_concatenated_by_first(self):
        """samples lines join in order of first=."""
        series = self.log.samples["s20-single-byte"]
        self.assertEqual(series.unit, "ns")
        self.assertEqual(len(series.values), 100)
        self.assertEqual(series.values[:3], [100000, 137000, 174000])
        self.assertEqual(sorted(series.values), [100000 + i * 1000 for i in range(100)])
        self.assertEqual(series.gaps, [])

    def test_hist(self):
        """hist line: bucket size, count, overflow."""
        hist = self.log.hists["s20-single-byte"]
        self.assertEqual((hist.bucket_ns, hist.nbuckets, hist.overflow), (1000.0, 300, 0))
        self.assertEqual(hist.counts[100], 1)
        self.assertEqual(hist.total(), 100)

    def test_payload_prefix_stripped(self):
        """Payload bytes glued before a record are cut off."""
        recs = self.log.records("S10", kind="policy")
        self.assertEqual([r.get("size") for r in recs], ["64", "256"])
        self.assertEqual(self.log.payload_text_lines, 1)

    def test_statuses_and_done(self):
        """Section status lines and the Done summary."""
        self.assertEqual(self.log.statuses["S42"].get("status"), "TIMEOUT")
        self.assertEqual(self.log.statuses["S31"].get("status"), "FAIL")
        self.assertEqual(self.log.done, {"sections": "9", "passed": "7", "failed": "2"})

    def test_payload_witnesses(self):
        """Payload verdicts straight from the parser."""
        got = {p.tag: p.verdict()[0] for p in self.log.payloads}
        self.assertEqual(got, {"s31-rx": "match", "s31-bad": "mismatch",
                               "s31-missing": "not checkable"})

    def test_payload_with_line_breaks_is_byte_exact(self):
        """CR LF inside a payload is data: cut byte for byte, one line end removed."""
        import zlib
        body = b"ab\r\ncd\r\n\r\nef  x\r\n"  # ONLCR-mapped payload ending in CR LF
        text = (b"=== [S13] W ===\r\n  payload-begin=s13-writev\r\n" + body +
                b"\r\n  payload-end=s13-writev bytes=%d crc32=0x%08x\r\n"
                % (len(body), zlib.crc32(body)) + b"  section=S13 status=PASS elapsed_ms=1.000\r\n")
        log = parse_bytes(text)
        pay = log.payloads[0]
        self.assertEqual((pay.data, pay.section), (body, "S13"))
        self.assertEqual(pay.verdict()[0], "match")
        self.assertEqual(log.statuses["S13"].get("status"), "PASS")
        self.assertEqual(log.records("S13", kind="payload-begin")[0].tag, "s13-writev")
        self.assertEqual(len(log.records("S13")), 3)  # payload lines are not records

    def test_payload_stops_at_a_record(self):
        """A run cut inside a payload (TIMEOUT) keeps the lines after it."""
        text = (b"=== [S20] L ===\n  payload-begin=p\n5555\n  section=S20 timeout_ms=9\n"
                b"  section=S20 status=TIMEOUT elapsed_ms=9.000\n")
        log = parse_bytes(text)
        self.assertEqual(log.payloads[0].data, b"5555")
        self.assertEqual(log.payloads[0].verdict()[0], "not checkable")
        self.assertEqual(log.statuses["S20"].get("status"), "TIMEOUT")

    def test_gap_in_series_is_reported(self):
        """A missing index range in a series is reported."""
        text = (b"=== [S20] x ===\n"
                b"  samples tag=a unit=ns first=0 values=1,2\n"
                b"  samples tag=a unit=ns first=5 values=6\n")
        log = parse_bytes(text)
        self.assertEqual(log.samples["a"].values, [1, 2, 6])
        self.assertEqual(len(log.samples["a"].gaps), 1)


if __name__ == "__main__":
    unittest.main()
