"""Garbage in: no exception, warnings with line numbers, exit 1 when nothing usable.

parse_bytes() and analyze() catch every exception of their steps (a bug must
not lose the report), so "it did not raise" proves nothing: these tests
assert that no catch-all was taken (Log.internal_errors stays empty, no
report table failed, no check raised).
"""

import os
import random
import tempfile
import unittest

import _common
from uartreport.check import check_log
from uartreport.parse import parse_bytes, parse_file
from uartreport.recompute import analyze
from uartreport import report


def _reference_bytes(path=None):
    """Raw bytes of the D1 q31 reference log (or of path)."""
    with open(path or _common.starry("d1-async-q31.log"), "rb") as fh:
        return fh.read()


class Garbage(unittest.TestCase):
    """Inputs that must not crash the parser (nor be caught by its catch-alls)."""

    def clean(self, log, checked=True):
        """Assert that parse, analyse and check of log took no catch-all."""
        analyze(log)
        self.assertEqual(log.internal_errors, [], log.path)
        if checked:
            errors = [f for f in check_log(log).findings if f.what.startswith("checker error")]
            self.assertEqual(errors, [])

    def test_empty(self):
        """An empty file gives an unusable log and a warning."""
        log = parse_bytes(b"")
        self.assertFalse(log.usable())
        self.assertIn((0, "empty file"), log.warnings)

    def test_missing_file(self):
        """A missing file gives an unusable log and a warning."""
        log = parse_file("/nonexistent/dir/x.log")
        self.assertFalse(log.usable())
        self.assertIn("cannot read file", log.warnings[0][1])

    def test_binary(self):
        """Random bytes: no exception, nothing usable, warnings."""
        rng = random.Random(1)
        data = bytes(rng.randrange(256) for _ in range(20000))
        log = parse_bytes(data)
        self.assertFalse(log.usable())
        self.assertTrue(log.warnings)
        self.clean(log)

    def test_truncated(self):
        """A log cut mid-line keeps what came before and warns."""
        data = _reference_bytes()
        cut = data[:data.index(b"p99_ms=5.713") + 7]  # cut inside an S10 latency line
        log = parse_bytes(cut)
        self.assertTrue(log.usable())
        self.assertEqual(log.order[-1], "S10")
        msgs = [m for _, m in log.warnings]
        self.assertTrue(any("no line end" in m for m in msgs))
        self.assertTrue(any("no Done line" in m for m in msgs))
        rec = log.records("S10", kind="diag", tag="drain-each-size-64")[0]
        self.assertEqual(rec.get("p99_ms"), "")  # value cut off, kept as empty
        self.clean(log)

    def test_malformed_tokens_have_line_numbers(self):
        """Bad tokens are dropped with line numbers, the rest parses."""
        data = (b"boot\n=== [S10] T ===\n"
                b"  policy=drain-each =x size=64 kbps=\x01\x02 bytes=6400 elapsed_ms=560\n"
                b"  \x00\xff\xfe junk\n"
                b"  diag=s20-single-byte n=100 p50_ms=0.1 (unbal\n"
                b"  policy=drain-each size=128 bytes=12800 elapsed_ms=1100\n")
        log = parse_bytes(data)
        lines = sorted({n for n, _ in log.warnings if n})
        self.assertEqual(lines, [3, 4, 5])
        recs = log.records("S10", kind="policy")
        self.assertEqual([r.get("size") for r in recs], ["64", "128"])  # rest still parsed
        self.assertNotIn("kbps", recs[0].kv)
        self.clean(log)

    def test_malformed_done_line(self):
        """A Done line with a bad token: a warning with its line number, the rest kept."""
        data = (b"=== [S10] T ===\n  policy=drain-each size=64 bytes=6400 elapsed_ms=560\n"
                b"Done. sections=1 =x passed=1 (unbal\n")
        log = parse_bytes(data)
        self.assertEqual(sorted({n for n, _ in log.warnings if n}), [3])
        self.assertTrue(any("Done line: bad token" in m for _, m in log.warnings))
        self.assertEqual((log.done.get("sections"), log.done.get("passed")), ("1", "1"))
        self.clean(log)

    def test_payload_cut_by_end_of_log(self):
        """A log ending inside a payload witness: verdict not checkable."""
        data = (b"=== [S31] RX ===\n  payload-begin=p\nABCDEFGH")
        log = parse_bytes(data)
        self.assertEqual([p.verdict()[0] for p in log.payloads], ["not checkable"])
        self.assertEqual(log.payloads[0].data, b"ABCDEFGH")

    def test_crlf_and_escapes(self):
        """CR LF endings and ANSI escapes are removed."""
        data = (b"\x1b[1;32mboot\x1b[0m\r\n=== [S20] \x1b[33mLatency\x1b[0m ===\r\n"
                b"  \x1b[0mdiag=s20-single-byte n=2 p50_ms=0.100 max_ms=0.200\r\r\n")
        log = parse_bytes(data)
        rec = log.records("S20", kind="diag")[0]
        self.assertEqual(rec.get("max_ms"), "0.200")
        self.assertEqual(log.sections["S20"].title, "Latency")

    def test_random_mutations_never_raise(self):
        """Randomly damaged logs (StarryOS and ours) never raise inside the tool."""
        rng = random.Random(42)
        for path in (None, _common.ours("qemu-virt-async-quick.log")):
            data = bytearray(_reference_bytes(path))
            for i in range(30):
                mutated = bytearray(data)
                for _ in range(200):
                    mutated[rng.randrange(len(mutated))] = rng.randrange(256)
                cut = mutated[:rng.randrange(len(mutated))]
                self.clean(parse_bytes(bytes(cut), "mutation-%d" % i), checked=i % 3 == 0)

    def test_report_of_odd_log_is_written(self):
        """A half log with junk still gives a report."""
        data = _reference_bytes()
        log = parse_bytes(data[:len(data) // 2] + b"\x00\xff" * 50)
        with tempfile.TemporaryDirectory() as out:
            path = report.write([analyze(log)], ["half"], out)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        self.assertNotIn("Table failed", text)
        self.assertNotIn("plot failed", text)
        self.assertEqual(log.internal_errors, [])


class CliExit(unittest.TestCase):
    """Exit status of the command line tool."""

    def test_nothing_usable_exits_1(self):
        """Exit 1 and no report when no log is usable."""
        with tempfile.TemporaryDirectory() as tmp:
            empty = os.path.join(tmp, "empty.log")
            junk = os.path.join(tmp, "junk.log")
            open(empty, "wb").close()
            with open(junk, "wb") as fh:
                fh.write(bytes(range(256)) * 20)
            res = _common.run_cli(empty, junk, "-o", os.path.join(tmp, "out"))
            self.assertEqual(res.returncode, 1, res.stderr)
            self.assertEqual(res.stdout, "")
            self.assertIn("empty file", res.stderr)
            self.assertFalse(os.path.exists(os.path.join(tmp, "out", "report.md")))

    def test_one_usable_log_is_enough(self):
        """One missing and one good log: exit 0 with a warning."""
        with tempfile.TemporaryDirectory() as tmp:
            res = _common.run_cli(os.path.join(tmp, "missing.log"),
                                  _common.starry("qemu_out.md"), "-o", tmp)
            self.assertEqual(res.returncode, 0, res.stderr)
            self.assertIn("cannot read file", res.stderr)

    def test_usage_errors_exit_2(self):
        """Usage errors exit with status 2."""
        with tempfile.TemporaryDirectory() as tmp:
            log = _common.starry("qemu_out.md")
            cases = [[log], ["-o", tmp], [log, "-o", tmp, "--baseline", "9"],
                     [log, "-o", tmp, "--baseline", "nosuch"],
                     [log, "-o", tmp, "--label", "a", "--label", "b"],
                     [log, "-o", tmp, "--bogus"]]
            for args in cases:
                res = _common.run_cli(*args)
                self.assertEqual(res.returncode, 2, (args, res.stderr))

    def test_help(self):
        """--help explains options, exit status and conversions."""
        res = _common.run_cli("--help")
        self.assertEqual(res.returncode, 0)
        for word in ("--baseline", "--label", "exit status", "11.52", "115384.6", "nearest rank"):
            self.assertIn(word, res.stdout)


if __name__ == "__main__":
    unittest.main()
