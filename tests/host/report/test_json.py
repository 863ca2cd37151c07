"""report --json FILE: every figure of report.md's tables in the JSON, cell
for cell (text, value, marks), and every numeric cell of report.md there;
units and sources that agree across tables; each log's settings as the
report prints them; a FILE that cannot be written (exit 2, the report whole)."""

import contextlib
import errno
import io
import json
import os
import shutil
import tempfile
import types
import unittest
from unittest import mock

import _common
import _report_md as md
from _doctor import (ASYNC, ASYNC_RX, CONSOLE, CONSOLE_RX, COPIER, COPIER_RX, LINE_RX, real, setv,
                     sub)
from uartreport import cli, parse, settings

# Marks: ! (d1-async-synthetic), † ‡ (StarryOS), ≁ (a Linux run on a pty),
# ◇ (logs at different points), § (ASYNC with S20 made INVALID below)
OTHERS = [_common.ours(n) for n in (CONSOLE, COPIER, "d1-async-synthetic.log",
                                    "hosted-pty-quick.log")] + [
    _common.starry("qemu_console.md"), _common.ours(ASYNC_RX)]
# one point's three designs; another's log twice: a table whose every row is
# equal in every log, all of it under `Equal in every log`
RX_POINTS = [("a", ASYNC_RX), ("c", CONSOLE_RX), ("p", COPIER_RX), ("l", LINE_RX),
             ("l2", LINE_RX)]
TIME_MS = {"ms": 1.0, "us": 1e-3, "ns": 1e-6}
RAW_TABLES = ("Boot-time figures (S05/S06)", "RX checks (S30/S31)", "TX counters (S40)")


def _invalid_async(path):
    """Write ASYNC with its S20 INVALID (foreign bytes) to path."""
    data = sub(real(ASYNC), rb"  section=S20 status=PASS ",
               b"  section=S20 status=INVALID reason=foreign-rx ")
    with open(path, "wb") as fh:
        fh.write(setv(data, rb"section=S20 ", "foreign_rx_bytes", 12))


class Figures(unittest.TestCase):
    """One report of seven logs and five --rx-point logs, with --json."""

    @classmethod
    def setUpClass(cls):
        """Run the tool once; read report.md and the JSON."""
        cls.tmp = tempfile.mkdtemp(prefix="uartreport-json-")
        invalid = os.path.join(cls.tmp, "async-invalid.log")
        _invalid_async(invalid)
        out, cls.path = os.path.join(cls.tmp, "out"), os.path.join(cls.tmp, "figures.json")
        points = [a for lb, n in RX_POINTS for a in ("--rx-point", "%s=%s" % (lb, _common.ours(n)))]
        cls.res = _common.run_cli(invalid, *OTHERS, *points, "-o", out, "--json", cls.path)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            cls.md = md.read(fh.read())
        with open(cls.path, encoding="utf-8") as fh:
            cls.doc = json.load(fh)
        cls.columns = {t["title"]: t["columns"] for t in cls.doc["tables"]}

    @classmethod
    def tearDownClass(cls):
        """Remove the temporary directory."""
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _shown(self, fig):
        """The text report.md shows for a figure of the JSON."""
        table = self.md[fig["table"]]
        col = self.columns[fig["table"]].index(fig["column"])
        return md.cell(table, fig["row"], col, fig["column"])

    def test_header(self):
        """Exit 0; format and its version; the baseline is the column report.md marks."""
        self.assertEqual(self.res.returncode, 0, self.res.stderr)
        self.assertEqual(self.doc["format"], "uartbench-report")
        self.assertIsInstance(self.doc["format_version"], int)
        heads = self.md["The answer"]["head"][1:]
        base = [h.split("<br>")[0] for h in heads if h.endswith("<br>(baseline)")]
        self.assertEqual([self.doc["baseline"]], base)

    def test_every_figure_as_printed(self):
        """Each figure: report.md shows its text (a ratio after it at most), its
        value rounds to the number printed, its marks are the cell's and row's."""
        figs = self.doc["figures"]
        self.assertGreater(len(figs), 500)
        for fig in figs:
            where = (fig["table"], fig["row"], fig["column"])
            shown = self._shown(fig)
            self.assertIsNotNone(shown, where)
            self.assertEqual(md.without_ratio(shown, fig["text"]), fig["text"], (where, shown))
            printed = md.figure(fig["text"])
            self.assertTrue(printed and md.agrees(printed, fig["value"]), (where, fig["value"]))
            marks = md.split_marks(fig["text"])[1] | (
                {"◇"} if self.md[fig["table"]]["marked"][fig["row"]] else set())
            self.assertEqual(set(fig["marks"]), marks, where)
            self.assertEqual(self.doc["logs"][fig["log"]]["label"], fig["column"], where)
        self.assertEqual({m for f in figs for m in f["marks"]}, set(md.MARKS))

    def test_nothing_missing(self):
        """Every numeric cell of report.md's tables (rows moved under a table
        too) is a figure of the JSON; the Runs table's are settings (below)."""
        have = {(f["table"], f["row"], f["column"]) for f in self.doc["figures"]}
        count, kinds = 0, set()
        for title, table in self.md.items():
            if title == "Runs":
                continue
            for (row, col), text in table["cells"].items():
                if not md.numeric(text):
                    continue
                cols = self.columns[title]
                named = [cols[col]] if isinstance(col, int) else [col] if col else cols
                for column in named:
                    count += 1
                    self.assertIn((title, row, column), have, text)
                kinds.add(type(col))
        self.assertGreater(count, 500)
        self.assertEqual(kinds, {int, str, type(None)})  # cells, `Only`, `Equal` rows

    def test_units_and_sources(self):
        """Every figure outside the appendix's raw records has a unit, one per
        row; figures from one record and key of a section agree once converted
        by their units (ms, us, ns; character times x the log's char_ms)."""
        units, by_src = {}, {}
        for fig in self.doc["figures"]:
            if fig["table"] not in RAW_TABLES:
                self.assertIsNotNone(fig["unit"], fig["row"])
                self.assertTrue(fig["section"] and fig["row"].startswith(fig["section"]), fig)
            units.setdefault((fig["table"], fig["row"]), set()).add(fig["unit"])
            if fig["record"] and fig["key"]:
                by_src.setdefault((fig["log"], fig["section"], fig["record"], fig["key"]),
                                  []).append(fig)
        self.assertEqual([k for k, u in units.items() if len(u) > 1], [])
        crossed = 0
        for figs in by_src.values():
            got = set()
            for fig in figs:
                value, unit = fig["value"], fig["unit"]
                if unit == "character times":
                    value, unit = value * self.doc["logs"][fig["log"]]["char_ms"], "ms"
                if unit in TIME_MS:
                    value, unit = value * TIME_MS[unit], "ms"
                got.add((round(value, 9), unit))
            self.assertEqual(len(got), 1, [(f["table"], f["row"], f["value"], f["unit"])
                                           for f in figs])
            crossed += len({f["unit"] for f in figs}) > 1
        self.assertGreaterEqual(crossed, 3)  # S20 (ms, character times), S43 (ms, us)

    def test_settings(self):
        """Each column's settings give its header in report.md and the Runs
        table's cells; every numeric cell of Runs is one of them."""
        logs = self.doc["logs"]
        columns = len(OTHERS) + 1
        self.assertEqual([lg["role"] for lg in logs],
                         ["column"] * columns + ["rx-point"] * len(RX_POINTS))
        heads = self.md["TX latency (S20/S21)"]["head"][1:]
        for lg, head in zip(logs, heads):
            log = parse.parse_file(lg["file"])
            got = settings.of(log)
            self.assertEqual([lg[f.lower().replace(" ", "_")] for f in settings.FIELDS],
                             [got[f].text for f in settings.FIELDS])
            self.assertEqual(head.replace("<br>(baseline)", ""),
                             settings.header(lg["label"], log))
        runs = self.md["Runs"]
        checks = {
            "file": lambda lg: " + ".join(os.path.basename(p)
                                          for p in [lg["file"]] + lg["merged"]),
            "format": lambda lg: lg["flavor"], "version": lambda lg: lg["version"] or "",
            "board": lambda lg: lg["board"], "design (backend)": lambda lg: lg["design"],
            "icount shift": lambda lg: lg["icount_shift"], "line": lambda lg: lg["line"],
            "wire model": lambda lg: lg["wire_model"] or "",
            "bench scale": lambda lg: lg["scale"],
            "qemu mode": lambda lg: lg["qemu_mode"] or "",
            "rx trigger, peer": lambda lg: "%s, %s" % (lg["rx_trigger"], lg["peer"]),
            "CPU clock (source)": lambda lg: lg["cpu_clock"],
            "parse warnings": lambda lg: str(lg["parse_warnings"])}
        for col, lg in enumerate(logs[:columns]):
            for row, func in checks.items():
                self.assertEqual(md.cell(runs, row, col, lg["label"]), func(lg), (row, col))
            baud = md.cell(runs, "baud used (1 char)", col, lg["label"])
            self.assertTrue(md.agrees(baud.split()[0], lg["baud"]), baud)
            self.assertTrue(md.agrees(baud.split()[1].strip("("), lg["char_ms"]), baud)
        numeric = {row for (row, _), text in runs["cells"].items() if md.numeric(text)}
        self.assertEqual(numeric - set(checks) - {"baud used (1 char)"}, set())


def _in_process(*args):
    """cli.main(args) in this process, as run_cli() gives a run's result
    (and, as run_cli(), without plots)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(list(args) + ["--no-plots"])
        except SystemExit as exc:
            code = exc.code
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


class Errors(unittest.TestCase):
    """--json FILE that cannot be written, and where --json does not apply."""

    LOG = _common.ours("qemu-virt-console-synthetic.log")

    @classmethod
    def setUpClass(cls):
        """The report of one log without --json, to compare with."""
        cls.tmp = tempfile.mkdtemp(prefix="uartreport-json-err-")
        cls.res = _common.run_cli(cls.LOG, "-o", os.path.join(cls.tmp, "plain"))
        with open(os.path.join(cls.tmp, "plain", "report.md"), encoding="utf-8") as fh:
            cls.text = fh.read()

    @classmethod
    def tearDownClass(cls):
        """Remove the temporary directory."""
        os.chmod(cls.tmp, 0o755)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def _fails(self, name, target, reason, run=_common.run_cli):
        """--json target: exit 2, the reason on stderr, the report as without
        --json, nothing left beside target."""
        out = os.path.join(self.tmp, "out", name)
        parent = os.path.dirname(target)
        before = sorted(os.listdir(parent)) if os.path.isdir(parent) else None
        res = run(self.LOG, "-o", out, "--json", target)
        self.assertEqual(res.returncode, 2, res.stderr)
        self.assertIn("report: error: cannot write --json %s: %s" % (target, reason), res.stderr)
        self.assertEqual(res.stdout.strip(), os.path.join(out, "report.md"))
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            self.assertEqual(fh.read(), self.text)
        for name in ("report.html", "headline.txt"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        if before is not None:
            self.assertEqual(sorted(os.listdir(parent)), before)

    def test_directory_missing(self):
        """FILE in a directory that does not exist."""
        missing = os.path.join(self.tmp, "no-such-dir")
        self._fails("missing", os.path.join(missing, "f.json"),
                    "directory %s does not exist" % missing)

    def test_not_a_directory(self):
        """FILE under a regular file, and FILE an existing directory."""
        afile = os.path.join(self.tmp, "afile")
        open(afile, "w").close()
        self._fails("under-file", os.path.join(afile, "f.json"), "%s is not a directory" % afile)
        adir = os.path.join(self.tmp, "adir")
        os.mkdir(adir)
        self._fails("is-dir", adir, "is a directory")

    def test_not_writable(self):
        """FILE in a directory without write permission (as root, who may
        write anywhere: the refusal a user gets, given in the process)."""
        ro = os.path.join(self.tmp, "ro")
        os.mkdir(ro, 0o555)
        target, reason = os.path.join(ro, "f.json"), "directory %s is not writable" % ro
        if os.geteuid() != 0:
            self._fails("ro", target, reason)
            return
        mkstemp, access = tempfile.mkstemp, os.access

        def refuse(*args, **kw):
            """mkstemp() refusing the directory ro."""
            if kw.get("dir") == ro:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
            return mkstemp(*args, **kw)
        with mock.patch("tempfile.mkstemp", refuse), \
                mock.patch("os.access", lambda p, m: p != ro and access(p, m)):
            self._fails("ro", target, reason, _in_process)

    def test_written_beside_the_same_report(self):
        """A good FILE: exit 0, the report the same as without --json, no
        temporary file left."""
        out, path = os.path.join(self.tmp, "out", "good"), os.path.join(self.tmp, "good.json")
        res = _common.run_cli(self.LOG, "-o", out, "--json", path)
        self.assertEqual(res.returncode, 0, res.stderr)
        with open(os.path.join(out, "report.md"), encoding="utf-8") as fh:
            self.assertEqual(fh.read(), self.text)
        with open(path, encoding="utf-8") as fh:
            self.assertTrue(json.load(fh)["figures"])
        self.assertEqual([n for n in os.listdir(self.tmp) if n.startswith(".")], [])

    def test_usage(self):
        """--json with --check or --sweep: usage error, exit 2."""
        path = os.path.join(self.tmp, "u.json")
        for args in ((self.LOG, "--check", "--json", path), ("--sweep", self.tmp, "--json", path)):
            res = _common.run_cli(*args)
            self.assertEqual(res.returncode, 2, args)
            self.assertIn("--json", res.stderr)
            self.assertFalse(os.path.exists(path))


if __name__ == "__main__":
    unittest.main()
