"""One report column from several boots (report MAIN.log+LATER.log): the
sections a later boot ran where the main log skipped them, the far end's
keys of a boot that ran S32/S33, a later log of other settings left out,
and the column in the written report."""

import os
import re
import tempfile
import unittest

import _common
from _doctor import BLIND, real, sub
from uartreport import merge, parse


def skipped_s32(data):
    """data with S32 SKIPPED (its records gone), as in a boot that did not read the stream."""
    data = re.sub(rb"  diag=s32-(rx|cpu) [^\r\n]*\r\n", b"", data)
    data = sub(data, rb"  section=S32 status=PASS ", b"  section=S32 status=SKIPPED reason=peer-off ")
    return sub(data, rb"peer=autonomous far_end_stream=\S+", b"peer=off")


class Merge(unittest.TestCase):
    """merge() over real and doctored Linux logs."""

    def setUp(self):
        """A main log whose S32 was skipped, and the later boot that ran it."""
        self.dir = tempfile.TemporaryDirectory()
        self.main = os.path.join(self.dir.name, "main.log")
        self.later = _common.ours(BLIND)
        with open(self.main, "wb") as f:
            f.write(skipped_s32(real(BLIND)))

    def tearDown(self):
        """The temporary logs gone."""
        self.dir.cleanup()

    def test_later_section_taken(self):
        """S32 comes from the later boot, with its records and the far end's keys."""
        log = merge.parse_column(self.main + "+" + self.later)
        self.assertEqual(log.statuses["S32"].get("status"), "PASS")
        self.assertTrue(log.records("S32", kind="diag", tag="s32-rx"))
        self.assertEqual(log.manifest["peer"], "autonomous")
        self.assertEqual(log.merged, [(self.later, ["S32"])])
        self.assertEqual(log.path, self.main)

    def test_main_section_kept(self):
        """A section both ran stays the main log's, with a warning."""
        log = merge.parse_column(self.later + "+" + self.later)
        self.assertEqual(log.merged, [(self.later, [])])
        self.assertTrue(any("S32 ran in" in m for _, m in log.warnings))

    def test_other_settings_left_out(self):
        """A later log of another line (a pty) is not merged, and says why."""
        log = merge.parse_column(self.main + "+" + _common.ours("hosted-pty-quick.log"))
        self.assertEqual(log.statuses["S32"].get("status"), "SKIPPED")
        self.assertEqual(log.merged, [])
        self.assertTrue(any("left out of the column" in m and "line" in m
                            for _, m in log.warnings))

    def test_other_timebase_left_out(self):
        """A later boot on another timebase (TIMEBASE_HZ) is not merged."""
        other = os.path.join(self.dir.name, "other.log")
        with open(other, "wb") as f:
            f.write(sub(real(BLIND), rb"timebase_hz=1000000000 ", b"timebase_hz=100000000 "))
        log = merge.parse_column(self.main + "+" + other)
        self.assertEqual(log.merged, [])
        self.assertTrue(any("left out of the column: its timebase_hz differ" in m
                            for _, m in log.warnings))

    def test_one_file_unchanged(self):
        """One file is parse_file's Log."""
        self.assertEqual(merge.parse_column(self.later).statuses,
                         parse.parse_file(self.later).statuses)

    def test_report_column(self):
        """The CLI writes one column of the two, naming both files."""
        out = os.path.join(self.dir.name, "out")
        res = _common.run_cli(self.main + "+" + self.later, "-o", out)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(out, "report.md")) as f:
            text = f.read()
        self.assertIn("| file | main.log + %s |" % BLIND, text)
        self.assertIn("; S32 from %s |" % BLIND, text)
        self.assertRegex(text, r"\| S32 status[^|]*\| PASS \|")


if __name__ == "__main__":
    unittest.main()
