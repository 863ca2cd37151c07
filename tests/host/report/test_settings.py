"""What each log ran at (settings.py): every field of every StarryOS
reference log held against what the log's own text says, our scales'
iteration counts against our logs' manifests, and a foreign log never
differing from ours only because it leaves unsaid what its lines establish."""

import re
import unittest

import _common
from _doctor import ASYNC_RX, NOWIRE, REAL, real, setv, starry, sub
from uartreport import runs, settings
from uartreport.parse import parse_bytes

STARRY = ("d1-async-q31.log", "d1_out.md", "qemu-async-q31.log", "qemu_out.md",
          "qemu_console.md")
COUNTS = ("iters", "rounds", "s43_groups", "s43_samples")


def _said(data, pattern):
    """The first group of pattern (bytes regex) in data, as str, or None."""
    m = re.search(pattern, data, re.M)
    return m.group(1).decode() if m else None


def _our_scales():
    """{bench_scale: {count: int}} as our fixture logs' manifests print them."""
    out = {}
    for name in REAL:
        man = parse_bytes(real(name)).manifest
        if all(k in man for k in COUNTS):
            out.setdefault(man["bench_scale"], {k: int(man[k]) for k in COUNTS})
    return out


class Foreign(unittest.TestCase):
    """settings.of() on each StarryOS reference log, field by field."""

    @classmethod
    def setUpClass(cls):
        """The reference logs' bytes and settings; our scales' counts."""
        cls.data = {n: starry(n) for n in STARRY}
        cls.got = {n: settings.of(parse_bytes(d, n)) for n, d in cls.data.items()}
        cls.scales = _our_scales()

    def test_all_reference_logs_covered(self):
        """The test data holds every log of the shared reference set."""
        with open(_common.starry("README.md"), encoding="utf-8") as fh:
            listed = re.findall(r"^\| (\S+\.(?:log|md)) \|", fh.read(), re.M)
        self.assertEqual(sorted(listed), sorted(STARRY))

    def test_board(self):
        """target_mode names the D1 (lichee-d1-...) or QEMU (qemu-...)."""
        for name, data in self.data.items():
            target = _said(data, rb"^  target_mode=(\S+)")
            want = "d1" if "d1" in target.split("-") else "qemu"
            self.assertEqual(self.got[name]["board"].key, want, name)
            self.assertIn("target_mode=" + target, self.got[name]["board"].text)

    def test_design(self):
        """The manifest's backend=, else the boot line's driver."""
        for name, data in self.data.items():
            want = _said(data, rb"^  backend=(\S+)") or \
                _said(data, rb"\] (\w+) UART driver initialized").lower()
            self.assertEqual(self.got[name]["design"].key, want, name)

    def test_cpu_clock_not_stated(self):
        """No log states a CPU clock: not stated, and equal to nothing."""
        for name, data in self.data.items():
            self.assertNotRegex(data, rb"(?i)cpu_hz|[0-9] ?[mg]hz", name)
            self.assertEqual(self.got[name]["CPU clock"].text, settings.NOT_STATED)
            self.assertIsNone(self.got[name]["CPU clock"].key)

    def test_icount_shift(self):
        """On the D1 no icount (hardware); on QEMU the log does not say."""
        for name, data in self.data.items():
            self.assertNotIn(b"icount", data)
            if self.got[name]["board"].key == "d1":
                self.assertEqual(self.got[name]["icount shift"].key, "none (hardware)")
            else:
                self.assertIsNone(self.got[name]["icount shift"].key, name)

    def test_line(self):
        """The D1's real line at the baud its boot line (or uart_line_rate)
        states; QEMU's UART, instant: its S10 line rates above 100 %."""
        for name, data in self.data.items():
            line = self.got[name]["line"]
            rates = [float(r) for r in re.findall(rb"policy=drain-each .*line_rate_pct=([0-9.]+)",
                                                  data)]
            if self.got[name]["board"].key == "d1":
                bps = _said(data, rb"Hardware line rate: .*\((\d+) bps\)")
                self.assertEqual(line.key, "serial " + bps, name)
                self.assertIn("(%s bps)" % bps, line.text)
                self.assertLess(max(rates), 100, name)
            else:
                self.assertEqual(line.key, "instant", name)
                self.assertGreater(max(rates), 100, name)
                self.assertIn("S10 up to %.0f %%" % max(rates), line.text)

    def test_baud_from_uart_line_rate(self):
        """Without the [BENCH] line the baud comes from uart_line_rate (KB/s
        of 1000 bytes, 10 bits a byte)."""
        data = sub(self.data["d1-async-q31.log"], rb"^\[BENCH\] Hardware line rate:[^\n]*\n", b"")
        data = sub(data, rb"uart_line_rate=11.52 KB/s", b"uart_line_rate=1.2 KB/s")
        line = settings.of(parse_bytes(data))["line"]
        self.assertEqual(line.key, "serial 12000")
        self.assertIn("uart_line_rate=1.2 KB/s", line.text)

    def test_scale_from_iteration_counts(self):
        """The counts the log prints (TX iterations, S41 rounds, S43 groups
        and samples) are those of our full-scale logs: full; a log with other
        counts has a scale of its own."""
        for name, data in self.data.items():
            said = {"iters": _said(data, rb"^  tx_throughput_iters=(\d+)"),
                    "rounds": max(re.findall(rb"diag=s41-valid .*round=(\d+)", data),
                                  key=int, default=None),
                    "s43_groups": _said(data, rb"s43-phase=idle groups=(\d+)"),
                    "s43_samples": _said(data, rb"s43-phase=idle .*samples=(\d+)")}
            said = {k: int(v) for k, v in said.items() if v}
            self.assertEqual(settings.counts(parse_bytes(data)), said, name)
            want = [s for s, c in self.scales.items() if all(c[k] == v for k, v in said.items())]
            self.assertEqual(want, ["full"], name)
            self.assertEqual(self.got[name]["scale"].key, "full", name)
        other = setv(self.data["qemu-async-q31.log"], rb"", "tx_throughput_iters", 50,
                     section="S00")
        scale = settings.of(parse_bytes(other))["scale"]
        self.assertEqual(scale.short, "own scale")
        self.assertIn("iters 50/100", scale.text)
        for key in ("tx_latency_iters", "fifo_matrix_iters"):
            other = setv(other, rb"", key, 50, section="S00")
        self.assertTrue(settings.of(parse_bytes(other))["scale"].text.startswith(
            "own (iters 50, rounds "))

    def test_boot_words(self):
        """The boot lines' settings in words, with the line they come from."""
        log = parse_bytes(self.data["qemu_console.md"])
        self.assertEqual(log.stated["banner"], ("Console", "Console Benchmark"))
        self.assertNotIn("driver", log.stated)
        log = parse_bytes(self.data["d1-async-q31.log"])
        self.assertEqual(log.stated["driver"][0], "Async")
        self.assertEqual(log.stated["baud"][0], "115200")


class OurScales(unittest.TestCase):
    """SCALES against what our logs print."""

    def test_scales_match_our_manifests(self):
        """Each of our scales' counts as our logs print them after bench_scale=,
        and counted from their lines (S41 rounds, S43 groups, samples) too."""
        scales = _our_scales()
        self.assertEqual(sorted(scales), ["full", "quick"])
        self.assertEqual(scales, {name: want for name, want in settings.SCALES})
        for name in REAL:
            log = parse_bytes(real(name))
            got = settings.counts(parse_bytes(re.sub(
                rb" (iters|rounds|s43_groups|s43_samples)=\d+", b"", real(name))))
            self.assertEqual(settings.scale_of(got), log.manifest["bench_scale"], name)


class NotStatedIsNotDifferent(unittest.TestCase):
    """A foreign log against ours: only what it really leaves unsaid differs."""

    def test_d1_against_our_d1(self):
        """StarryOS's D1 log and our D1 log (at full scale): same line,
        no icount, same scale; only the CPU clock, which neither states."""
        ours = sub(real_d1(), rb"bench_scale=quick", b"bench_scale=full")
        got = [settings.of(parse_bytes(ours)), settings.of(parse_bytes(starry("d1-async-q31.log")))]
        self.assertEqual(runs.differing(got, runs.POINT), ["CPU clock"])
        ours = sub(ours, rb"^(  board=d1[^\n]*\n)", rb"\1  cpu_hz=1008000000\n")
        got[0] = settings.of(parse_bytes(ours))
        self.assertEqual(runs.differing(got, runs.POINT), ["CPU clock"])

    def test_qemu_against_our_instant_line(self):
        """StarryOS's QEMU log and our image without the wire model on QEMU's
        instant UART: the same line."""
        got = [settings.of(parse_bytes(real(NOWIRE))),
               settings.of(parse_bytes(starry("qemu-async-q31.log")))]
        self.assertEqual(got[0]["line"].key, "instant")
        self.assertNotIn("line", runs.differing(got, runs.POINT))
        full = [settings.of(parse_bytes(real(ASYNC_RX))), got[1]]
        self.assertNotIn("scale", runs.differing(full, runs.POINT))


class Timebase(unittest.TestCase):
    """An image built for another timebase than its board's (TIMEBASE_HZ)."""

    def test_timebase_names_the_board(self):
        """qemu-virt at 100 MHz is another board than at its 10 MHz (the
        column headers name it, as they name the board), in full and short;
        at 10 MHz it is the board alone."""
        ours = real(NOWIRE)
        self.assertIn(b"timebase_hz=10000000 ", ours)
        fine = sub(ours, rb"timebase_hz=10000000 ", b"timebase_hz=100000000 ")
        got = [settings.of(parse_bytes(ours)), settings.of(parse_bytes(fine))]
        self.assertEqual(got[0]["board"].text, "qemu-virt")
        self.assertEqual(got[1]["board"].text, "qemu-virt (timebase 100 MHz)")
        self.assertEqual(got[1]["board"].short, "qemu-virt@100MHz")
        self.assertEqual(runs.differing(got, ("board",)), ["board"])


def real_d1():
    """Our synthetic D1 log's bytes."""
    with open(_common.ours("d1-async-synthetic.log"), "rb") as fh:
        return fh.read()


if __name__ == "__main__":
    unittest.main()
