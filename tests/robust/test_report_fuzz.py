"""Fuzzing of the report tool's parser and analysis (bench/report/uartreport).

Random bytes and random mutations of the reference logs in
tests/host/report/data/ (byte flips, truncations, line duplications,
deletions and swaps, token corruption: values, keys, separators, numbers,
section headers, samples/hist/payload lines). A fixed number of cases from
a fixed seed, so every run checks the same inputs.

For every case parse_bytes(), analyze() and the checker (check_log(), which
runs analyze()) must return normally, and none may have hit one of its
internal safety nets: parse_bytes() and analyze() catch exceptions of their
own code and record them (Log.internal_errors, with a warning), check_log()
turns a check that raised into a "checker error" finding; either is a bug
that damaged input provoked, and fails the test like an exception would.

Run: /usr/bin/python3 -m unittest -v test_report_fuzz (from this directory)
or through CTest (robust.report_fuzz). REPORT_FUZZ_CASES=N and
REPORT_FUZZ_SEED=S in the environment scale a longer run.
"""

import os
import random
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
TOOL_DIR = os.path.join(REPO, "bench", "report")
DATA = os.path.join(REPO, "tests", "host", "report", "data")
if TOOL_DIR not in sys.path:
    sys.path.insert(0, TOOL_DIR)

from uartreport.check import check_log  # noqa: E402
from uartreport.parse import parse_bytes  # noqa: E402

SEED = int(os.environ.get("REPORT_FUZZ_SEED", "20240607"))
CASES = int(os.environ.get("REPORT_FUZZ_CASES", "250"))  # per reference log, mutations
RANDOM_CASES = max(1, CASES // 3)                      # random byte strings

# Replacement tokens: odd numbers, odd text, separators, markers.
ODD_VALUES = [b"", b"-", b"-1", b"0", b"00", b"-0", b"1e309", b"nan", b"inf", b"-inf",
              b"NaN", b"0x", b"0xZZ", b"0x1", b"1.", b".5", b"1..2", b"9" * 400,
              b"-" + b"9" * 40, b"1,2,,3", b",", b",,", b"1:2", b":", b"a:b", b"3:",
              b"\xff\xfe", b"\x00", b"\x1b[0m", b"\xc3", b"\xf0\x9f\x9a\x80", b"=", b"==",
              b"(", b")", b"[", b"]", b"[1", b"\t", b"\r", b"%s", b"%n", b"{}", b"\\",
              b"1e-400", b"+5", b"1_000", b"\xe2\x80\xae",
              "\u00b2".encode(), "\u2460".encode(), "\u0663".encode(),   # superscript 2, circled 1, Arabic 3
              "1:\u00b2".encode(), b"7" * 5000, b"0x" + b"f" * 5000, b"1e" + b"9" * 5000]
ODD_KEYS = [b"tag", b"first", b"values", b"counts", b"bucket_ns", b"nbuckets",
            b"overflow", b"unit", b"n", b"p50_ms", b"p99_ms", b"max_ms", b"avg_ms",
            b"size", b"policy", b"status", b"section", b"bytes", b"crc32", b"baud",
            b"baud_real", b"fifo_depth", b"elapsed_ms", b"diag", b"samples", b"hist",
            b"payload-begin", b"payload-end", b"board", b"backend", b"line_rate_pct",
            b"bytes_per_s", b"timebase_hz", b"", b"x[3]", b"1bad", b"k.e-y/z"]
ODD_LINES = [b"=== [S99] X ===", b"=== [S00]  ===", b"=== [S1] bad ===",
             b"=== [S20] Latency ===", b"Done.", b"Done. sections=x passed=-1 failed=",
             b"  samples tag=s20-single-byte unit=ns first=0 values=",
             b"  samples tag=s20-single-byte unit=s first=999999999999 values=1,2,3",
             b"  samples tag= unit= first= values=",
             b"  hist tag=s20-single-byte bucket_ns=0 nbuckets=0 overflow=-1 counts=0:0",
             b"  hist tag=x bucket_ns=abc nbuckets=99999999999 counts=1:2:3,,4",
             b"  payload-begin=p", b"  payload-end=p bytes=-5 crc32=0xZZ",
             b"  payload-end=q bytes=99999999999999999999 crc32=0x",
             b"  diag=s21-fifo-size-16 n=0 avg_ms= p50_ms=nan p99_ms=inf max_ms=-1",
             b"  diag=s20-single-byte n=-1 p50_ms=1e309",
             b"  policy=drain-each size=0 bytes=0 elapsed_ms=0 line_time_ms=0",
             b"  section=S20 status=BOGUS elapsed_ms=-3",
             b"  baud=0 baud_real=0", b"  baud=-115200", b"  fifo_depth=0",
             b"[BENCH] Hardware line rate: 0 KB/s (0 bps)",
             b"[BENCH] FIFO depth: -1 bytes", b"\x00" * 64, b"", b" " * 300]


def _reference_logs():
    """(name, bytes) of every reference log and report under data/."""
    out = []
    for sub in ("ours", "starryos"):
        folder = os.path.join(DATA, sub)
        for name in sorted(os.listdir(folder)):
            if name.endswith((".log", ".md")) and name != "README.md":
                with open(os.path.join(folder, name), "rb") as fh:
                    out.append(("%s/%s" % (sub, name), fh.read()))
    return out


def _flip_bytes(rng, data):
    buf = bytearray(data)
    for _ in range(rng.randint(1, 40)):
        if not buf:
            break
        i = rng.randrange(len(buf))
        buf[i] = rng.randrange(256) if rng.random() < 0.5 else buf[i] ^ (1 << rng.randrange(8))
    return bytes(buf)


def _truncate(rng, data):
    if not data:
        return data
    return data[:rng.randrange(len(data))]


def _line_edit(rng, data):
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 12)):
        if not lines:
            lines.append(b"")
        i = rng.randrange(len(lines))
        what = rng.randrange(5)
        if what == 0:                               # duplicate
            lines[i:i] = [lines[i]] * rng.randint(1, 3)
        elif what == 1:                             # delete
            del lines[i:i + rng.randint(1, 5)]
        elif what == 2:                             # swap with another line
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif what == 3:                             # insert an odd line
            lines.insert(i, rng.choice(ODD_LINES))
        else:                                       # join with the next line
            if i + 1 < len(lines):
                lines[i:i + 2] = [lines[i] + rng.choice([b"", b" ", b"  "]) + lines[i + 1]]
    return b"\n".join(lines)


def _corrupt_token(rng, tok):
    key, sep, value = tok.partition(b"=")
    what = rng.randrange(9)
    if what == 0 and sep:
        return key + b"=" + rng.choice(ODD_VALUES)
    if what == 1 and sep:
        return rng.choice(ODD_KEYS) + b"=" + value
    if what == 2:
        return key + value                          # separator lost
    if what == 3 and sep:
        return key + b"==" + value
    if what == 4 and value:                         # cut inside the value
        return key + sep + value[:rng.randrange(len(value))]
    if what == 5 and value:                         # one number changed
        digits = [i for i, c in enumerate(value) if 48 <= c <= 57]
        if digits:
            i = rng.choice(digits)
            return key + sep + value[:i] + rng.choice([b"-", b".", b"9999999999", b"", b","]) \
                + value[i + 1:]
        return tok
    if what == 6:
        return tok + b" " + tok                     # duplicated token
    if what == 7 and b"," in value:                 # list damage
        items = value.split(b",")
        rng.shuffle(items)
        del items[rng.randrange(len(items))]
        return key + sep + b",".join(items + [rng.choice(ODD_VALUES)])
    return rng.choice(ODD_VALUES)


def _token_edit(rng, data):
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 15)):
        i = rng.randrange(len(lines))
        toks = lines[i].split(b" ")
        j = rng.randrange(len(toks))
        toks[j] = _corrupt_token(rng, toks[j])
        lines[i] = b" ".join(toks)
    return b"\n".join(lines)


def _header_edit(rng, data):
    """Damage section headers, Done lines and payload markers."""
    out = data
    for marker, repl in ((b"=== [S", [b"=== [", b"== [S", b"=== [S9", b"=== [SS"]),
                         (b"] ", [b"]", b"] ===", b"", b"]]"]),
                         (b"Done.", [b"Done", b"Done. Done.", b"done."]),
                         (b"payload-", [b"payload", b"payload-begin=", b"payload-end="])):
        count = out.count(marker)
        if count and rng.random() < 0.6:
            k = rng.randrange(count)
            pos = -1
            for _ in range(k + 1):
                pos = out.find(marker, pos + 1)
            out = out[:pos] + rng.choice(repl) + out[pos + len(marker):]
    return out


MUTATORS = (_flip_bytes, _truncate, _line_edit, _token_edit, _header_edit)


def _random_bytes(rng):
    """Random data: raw bytes, or random lines built from log-like pieces."""
    if rng.random() < 0.4:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(4000)))
    lines = []
    for _ in range(rng.randrange(120)):
        pick = rng.randrange(4)
        if pick == 0:
            lines.append(rng.choice(ODD_LINES))
        elif pick == 1:
            lines.append(b"  " + b" ".join(rng.choice(ODD_KEYS) + b"=" + rng.choice(ODD_VALUES)
                                           for _ in range(rng.randrange(8))))
        elif pick == 2:
            lines.append(b"=== [S%02d] %s ===" % (rng.randrange(100), rng.choice(ODD_VALUES)))
        else:
            lines.append(bytes(rng.randrange(256) for _ in range(rng.randrange(80))))
    return rng.choice([b"\n", b"\r\n", b"\r"]).join(lines)


class ReportFuzz(unittest.TestCase):
    """parse_bytes, analyze and check_log on damaged input: no exception, no safety net."""

    def _check(self, data, what):
        """One input through the tool; fail on an exception or a safety net taken."""
        try:
            log = parse_bytes(data, path="<fuzz>")
            result = check_log(log)
        except Exception as exc:  # pragma: no cover - the failure being tested for
            self.fail("%s: %r raised from %d bytes (seed %d); first bytes %r"
                      % (what, exc, len(data), SEED, data[:200]))
        nets = log.internal_errors + [f.what for f in result.findings
                                      if f.what.startswith("checker error")]
        if nets:
            self.fail("%s: internal error caught by the tool (seed %d): %s; input "
                      "(%d bytes) starts %r" % (what, SEED, nets[:3], len(data), data[:300]))

    def test_references_parse_cleanly(self):
        """The unmodified reference logs pass the same checks."""
        for name, data in _reference_logs():
            self._check(data, name)

    def test_random_bytes(self):
        """Random bytes and random log-like lines."""
        rng = random.Random(SEED)
        for i in range(RANDOM_CASES):
            self._check(_random_bytes(rng), "random case %d" % i)

    def test_mutations(self):
        """Each reference log, mutated CASES times by 1-3 random mutators."""
        t0 = time.monotonic()
        total = 0
        for name, data in _reference_logs():
            rng = random.Random("%d:%s" % (SEED, name))
            for i in range(CASES):
                mutated = data
                for _ in range(rng.randint(1, 3)):
                    mutated = rng.choice(MUTATORS)(rng, mutated)
                self._check(mutated, "%s mutation %d" % (name, i))
                total += 1
        sys.stderr.write("\n%d mutated logs in %.1f s\n" % (total, time.monotonic() - t0))


if __name__ == "__main__":
    unittest.main()
