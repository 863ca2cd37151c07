"""`report --sweep DIR [-o OUT]` end to end: sweep.md (frontier table,
points, notes), its four PNGs, and the usage errors (exit 2)."""

import os
import re
import shutil
import tempfile
import unittest

import _common
import _sweep
from uartreport.sweep_plots import FILES

PNGS = ("sweep_tx_line_rate.png", "sweep_cpu.png", "sweep_rx_loss.png", "sweep_frontier.png")


class SweepReport(unittest.TestCase):
    """The test sweep (_sweep.py) through the CLI, sweep.md written into DIR."""

    @classmethod
    def setUpClass(cls):
        """Write the sweep and run the tool once (no -o: OUT is DIR)."""
        cls.tmp = tempfile.mkdtemp(prefix="sweep-cli-")
        cls.logs = _sweep.sweep()
        _sweep.write(cls.tmp, cls.logs)
        cls.res = _common.run_cli("--sweep", cls.tmp, plots=True)
        with open(os.path.join(cls.tmp, "sweep.md"), encoding="utf-8") as fh:
            cls.text = fh.read()

    @classmethod
    def tearDownClass(cls):
        """Remove the temporary DIR."""
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_exit_and_stdout(self):
        """Exit 0, the path of sweep.md on stdout, the left-out log on stderr."""
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        self.assertEqual(self.res.stdout.strip(), os.path.join(self.tmp, "sweep.md"))
        self.assertIn("qemu-virt-async-nowire.log: warning: left out of the sweep",
                      self.res.stderr)

    def test_frontier_table(self):
        """The quick setting's rows: backend, FIFO, then one cell per CPU clock."""
        part = self.text.split("## Frontier: qemu-virt, quick scale", 1)[1]
        self.assertIn("| backend | FIFO | 1 GHz (shift 0) | 125 MHz (shift 3) | "
                      "15.6 MHz (shift 6) |", part)
        for row in ("| async | 1 | not run | not run | 115200 (921600: incomplete); passes "
                    "again at 3M |",
                    "| async | 16 | >= max (12M) | 115200 (921600: RX); passes again at 3M "
                    "| not run |",
                    "| console | 16 | none (115200: CPU) | not run | not run |",
                    "| copier | 16 | not run | 115200 (921600: missing); passes again at 3M "
                    "| not run |"):
            self.assertIn(row, part.split("## ", 1)[0])
        self.assertIn("## Frontier: qemu-virt, full scale", self.text)

    def test_every_plot_linked_and_written(self):
        """sweep.md links each PNG full size (a line of its own) and all four
        side by side under the first frontier (name#heading); each exists
        and is 1200 px wide."""
        links = re.findall(r"^!\[[^\]]*\]\(([^)#]+)\)$", self.text, re.M)
        glance = re.findall(r"!\[[^\]]*\]\(([^)#]+)#[a-z0-9-]+\)", self.text)
        self.assertEqual(sorted(glance), sorted(PNGS))
        self.assertEqual(sorted(links), sorted(PNGS))
        for name in PNGS:
            path = os.path.join(self.tmp, name)
            self.assertGreater(os.path.getsize(path), 1000, name)
            self.assertEqual(_common.png_size(path)[0], 1200, name)

    def test_one_row_per_point(self):
        """The table of points has a row per sweep log, none for the left-out one."""
        rows = re.findall(r"^\| (\S+) \| (?:async|console|copier) \|", self.text, re.M)
        want = sorted(n[:-4] for n in self.logs if "nowire" not in n)
        self.assertEqual(sorted(rows), want)
        cut = _sweep.name("async", 921600, 1, 6)[:-4]
        self.assertRegex(self.text, r"\| %s \|[^\n]*\| incomplete \| incomplete: no Done"
                         % re.escape(cut))

    def test_notes(self):
        """Notes: the incomplete point, the FAIL reason, the left-out log, the odd cells."""
        notes = self.text.split("## Notes", 1)[1]
        cut = _sweep.name("async", 921600, 1, 6)[:-4]
        self.assertIn("Incomplete (no Done line", notes)
        self.assertIn(cut, notes.split("Incomplete", 1)[1].split("\n", 1)[0])
        self.assertIn("async_b12000000_f1_s6_stream: S32 FAIL overrun-count-mismatch; "
                      "S33 FAIL overrun-count-mismatch.", notes)
        self.assertIn("Left out: `qemu-virt-async-nowire.log`: no timed line", notes)
        self.assertIn("Non-monotonic: async FIFO 16 at 125 MHz (shift 3) fails at 921600 but "
                      "passes again at 3M; the frontier is 115200.", notes)
        self.assertIn("No log for copier FIFO 16 at 125 MHz (shift 3) at 921600, 12M baud",
                      notes)
        self.assertIn("The folder mixes settings", notes)


class Usage(unittest.TestCase):
    """Bad arguments: a clear message and exit 2; no sweep point at all: exit 1."""

    def setUp(self):
        """A fresh temporary folder."""
        self.tmp = tempfile.mkdtemp(prefix="sweep-usage-")

    def tearDown(self):
        """Remove it."""
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _fails(self, status, text, *args):
        """Run the tool with args; assert the exit status and text on stderr."""
        res = _common.run_cli(*args)
        self.assertEqual(res.returncode, status, res.stderr)
        self.assertIn(text, res.stderr)
        return res

    def test_missing_dir(self):
        """A DIR that does not exist."""
        self._fails(2, "no such directory", "--sweep", os.path.join(self.tmp, "nope"))

    def test_empty_dir(self):
        """A DIR without a log, and one whose logs/ folder is empty."""
        self._fails(2, "no *.log in it", "--sweep", self.tmp)
        os.mkdir(os.path.join(self.tmp, "logs"))
        self._fails(2, "no *.log in it", "--sweep", self.tmp)

    def test_with_log_arguments(self):
        """--sweep takes no LOG (nor --check)."""
        self._fails(2, "--sweep DIR reads the logs of DIR", "--sweep", self.tmp, "x.log")
        self._fails(2, "--sweep DIR reads the logs of DIR", "--sweep", self.tmp, "--check")

    def test_no_point(self):
        """Logs that are no sweep point: exit 1, no sweep.md."""
        _sweep.write(self.tmp, {"a.log": b"boot noise only\n"})
        self._fails(1, "no log in %s is a sweep point" % self.tmp, "--sweep", self.tmp)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "sweep.md")))

    def test_output_elsewhere(self):
        """-o OUT: sweep.md and the plots go there, not into DIR."""
        _sweep.write(self.tmp, {"a.log": _sweep.base()})
        out = os.path.join(self.tmp, "out")
        res = _common.run_cli("--sweep", self.tmp, "-o", out, plots=True)
        self.assertEqual((res.returncode, res.stdout.strip()), (0, os.path.join(out, "sweep.md")))
        self.assertTrue(all(os.path.isfile(os.path.join(out, n)) for n in PNGS))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "logs", "sweep.md")))

    def test_no_plots(self):
        """--no-plots: sweep.md with each plot named as not asked for, no PNG."""
        _sweep.write(self.tmp, {"a.log": _sweep.base()})
        out = os.path.join(self.tmp, "out")
        res = _common.run_cli("--sweep", self.tmp, "-o", out)
        self.assertEqual(res.returncode, 0, res.stderr)
        self.assertEqual([n for n in os.listdir(out) if n.endswith(".png")], [])
        with open(os.path.join(out, "sweep.md"), encoding="utf-8") as fh:
            text = fh.read()
        for title, _ in FILES:
            self.assertIn("%s: not drawn (not asked for (--no-plots))." % title, text)

    def test_no_log_no_sweep(self):
        """Neither LOG nor --sweep: the usual usage error."""
        self._fails(2, "the following arguments are required: LOG")


if __name__ == "__main__":
    unittest.main()
