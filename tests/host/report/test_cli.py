"""End to end: the CLI writes report.md and PNGs for several logs."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import _common
from uartreport import plots

LOGS = [_common.ours("d1-async-synthetic.log"), _common.ours("qemu-virt-console-synthetic.log"),
        _common.starry("d1-async-q31.log"), _common.starry("qemu_console.md")]
LABELS = ["d1/async/wire-off", "qemu-virt/console/wire-115200/16",
          "starryos-lichee-d1-fullbench", "starryos-qemu-rootfs-polling-console"]


def _header_cells(text, heading):
    """Header cells of the first table after a '## heading' line."""
    part = text.split("## " + heading, 1)[1]
    line = next(l for l in part.splitlines() if l.startswith("| "))
    return [c.strip().split("<br>")[0] for c in line.strip("|").split(" | ")]


class EndToEnd(unittest.TestCase):
    """Report of 4 logs (2 ours, 2 StarryOS), with and without --baseline."""

    @classmethod
    def setUpClass(cls):
        """Parse and analyse the fixture once for the class."""
        cls.tmp = tempfile.mkdtemp(prefix="uartreport-")
        cls.out = os.path.join(cls.tmp, "plain")
        cls.res = _common.run_cli(*LOGS, "-o", cls.out, plots=True)
        with open(os.path.join(cls.out, "report.md"), encoding="utf-8") as fh:
            cls.text = fh.read()

    @classmethod
    def tearDownClass(cls):
        """Remove the temporary output directories."""
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_and_stdout(self):
        """Exit 0, report path on stdout, flags on stderr."""
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        self.assertEqual(self.res.stdout.strip(), os.path.join(self.out, "report.md"))
        self.assertIn("flag:", self.res.stderr)  # flags of the synthetic log go to stderr

    def test_every_linked_png(self):
        """Each PNG linked full size (a line of its own) exists, is not empty
        and is 1200x700; the headline's plots beside it (one line of
        several, name#heading) are three of them."""
        links = re.findall(r"^!\[[^\]]*\]\(([^)#]+)\)$", self.text, re.M)
        glance = re.findall(r"!\[[^\]]*\]\(([^)#]+)#[a-z0-9-]+\)", self.text)
        self.assertEqual(glance, ["line_rate.png", "instructions_per_byte.png",
                                  "latency_cdf_s20.png"])
        self.assertEqual(sorted(links), sorted([
            "latency_cdf_s20.png", "latency_cdf_s21.png", "line_rate.png",
            "fifo_boundary.png", "instructions_per_byte.png", "s43_overshoot_hist.png"]))
        for name in links:
            path = os.path.join(self.out, name)
            self.assertTrue(os.path.isfile(path), name)
            self.assertGreater(os.path.getsize(path), 1000, name)
            self.assertEqual(_common.png_size(path), (1200, 700), name)

    def test_no_plots(self):
        """--no-plots: the same report with no PNG written, each plot named
        as not asked for, matplotlib never loaded."""
        out = os.path.join(self.tmp, "noplots")
        res = _common.run_cli(*LOGS, "-o", out)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual([n for n in os.listdir(out) if n.endswith(".png")], [])
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            text = fh.read()
        for title, _ in plots.PLOTS:
            self.assertIn("- %s: not written, not asked for (--no-plots)." % title, text)
        def detail(t):
            """From the detail to the plots."""
            return t.split("## Detail")[1].split("## Plots")[0]
        self.assertEqual(detail(text), detail(self.text))
        probe = subprocess.run([sys.executable, "-c", (
            "import sys; sys.argv = ['report'] + sys.argv[1:]; sys.path.insert(0, %r)\n"
            "from uartreport import cli\ncode = cli.main(sys.argv[1:])\n"
            "print('matplotlib' in sys.modules); sys.exit(code)") % _common.TOOL_DIR,
            *LOGS, "-o", os.path.join(self.tmp, "noplots2"), "--no-plots"],
            capture_output=True, text=True, timeout=110)
        self.assertEqual(probe.returncode, 0, probe.stderr)
        self.assertEqual(probe.stdout.split()[-1], "False")

    def test_one_column_per_log(self):
        """Without --baseline: one column per log, no ratio column."""
        self.assertEqual(_header_cells(self.text, "TX latency"), ["Metric"] + LABELS)
        self.assertNotIn("÷", self.text)

    def test_contents(self):
        """Key converted, recomputed and flagged figures appear in the tables."""
        text = self.text
        self.assertIn("not recomputable (3 of 50 samples)", text)
        self.assertIn("11796.5 B/s", text)
        self.assertIn("TIMEOUT (30000 ms)", text)
        self.assertIn("| s31-bad | **mismatch** (expected 28 bytes", text)
        self.assertIn("| s31-missing | **not checkable** (payload line missing) |", text)
        self.assertIn("| s31-rx | match |", text)
        # the console log is the default baseline: ratios inside the cells
        self.assertIn("| S41 64 B median instructions/byte ◇ | 120.5 (0.101x) | 1192 | "
                      "32800 (27.5x) | 14780 (12.4x) |", text)
        self.assertIn("| S10 drain-each 64 B line rate % ◇ | 99.05 (0.991x) | 99.92 | "
                      "97.27 (0.973x) |", text)
        self.assertRegex(text, r"S21 16 B P99 ms \(char times\) ◇ \| 1\.498 \(17\.28 ch\) !")
        self.assertIn("Parse warnings: 0.", text)
        self.assertNotIn("payload s31-bad CRC32", text)  # not in the RX table any more

    def test_baseline_ratios_inside_cells(self):
        """--baseline by label or index: value/baseline inside each cell, no
        extra column; the baseline's header says so."""
        out = os.path.join(self.tmp, "base")
        labels = ["a", "b", "c", "d"]
        args = []
        for lb in labels:
            args += ["--label", lb]
        res = _common.run_cli(*LOGS, "-o", out, "--baseline", "c", *args)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            text = fh.read()
        self.assertEqual(_header_cells(text, "CPU work per byte"), ["Metric", "a", "b", "c", "d"])
        self.assertIn("<br>(baseline) |", text.split("## CPU work per byte", 1)[-1])
        # 120.5 / 32800.10 and 14779.94 / 32800.10
        self.assertIn("| S41 64 B median instructions/byte ◇ | 120.5 (0.00367x) | 1192 (0.0363x) "
                      "| 32800 | 14780 (0.451x) |", text)
        res2 = _common.run_cli(*LOGS, "-o", out, "--baseline", "3", *args)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            self.assertEqual(fh.read(), text)  # index 3 is label c
        self.assertEqual(res2.returncode, 0)

    def test_plots_without_data_are_explained(self):
        """Plots without data are not written and the report says why."""
        out = os.path.join(self.tmp, "starry")
        res = _common.run_cli(_common.starry("d1_out.md"), _common.starry("qemu_out.md"),
                              "-o", out, plots=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            text = fh.read()
        self.assertIn("Latency CDF, S20: not written, no log has raw S20 samples", text)
        self.assertIn("Instructions per byte: not written, no log has S41", text)
        self.assertFalse(os.path.exists(os.path.join(out, "latency_cdf_s20.png")))
        self.assertFalse(os.path.exists(os.path.join(out, "s43_overshoot_hist.png")))
        self.assertTrue(os.path.exists(os.path.join(out, "line_rate.png")))
        self.assertIn("starryos-qemu-rootfs", text)


if __name__ == "__main__":
    unittest.main()
