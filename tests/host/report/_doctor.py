"""Doctored copies of the real fixture logs, for test_check*.py and test_runs.py.

real() reads a fixture; value()/number() read a field of a record line,
setv() edits it, sub() and drop() edit by regex, cut_section() removes a
section, witness()/rewitness() find and replace a payload witness; check() runs the checker on the result; LogCase.found() asserts
one finding by section, key and kind of problem. The edits find what they
change by record and field, never by a value of the fixture, so that a
regeneration of the fixtures (data/ours/regen-fixtures) changes no test.
"""

import re
import unittest
import zlib

import _common
from uartreport.check import check_log
from uartreport.parse import parse_bytes
from uartreport.recompute import analyze

ASYNC = "qemu-virt-async-quick.log"
CONSOLE = "qemu-virt-console-quick.log"
COPIER = "qemu-virt-copier-quick.log"
NOWIRE = "qemu-virt-async-nowire-quick.log"
FAULT_S10 = "qemu-virt-async-write-fault-S10-quick.log"  # write_fault=S10:3, sections=S10
FAULT_S13 = "qemu-virt-async-write-fault-S13-quick.log"  # write_fault=S13:4:11, sections=S13
# S32/S33 only (sections=S32,S33), full scale, wire=3000000/1: RX lost to overrun
ASYNC_RX = "qemu-virt-async-rx-3000000-1.log"
CONSOLE_RX = "qemu-virt-console-rx-3000000-1.log"  # no RX counters: dropped=na
COPIER_RX = "qemu-virt-copier-rx-3000000-1.log"
PEER_OFF = "qemu-virt-async-rx-peer-off.log"  # peer=off: S32, S33 SKIPPED
# uartbench-hosted on the Linux peer, sections=S32,S33, the far end's own
# stream far_end_stream=6553@1s:32: S32 read blind, S33 SKIPPED stream-mismatch
BLIND = "linux-rx-blind-quick.log"
# The async image without the wire model on the emulator's line,
# --line 115200/16/1, sections=S32,S33, quick scale
LINE_RX = "qemu-virt-async-line-rx-115200-16-1.log"
RX_LOGS = (ASYNC_RX, CONSOLE_RX, COPIER_RX, PEER_OFF, BLIND, LINE_RX)
REAL = (ASYNC, CONSOLE, COPIER, NOWIRE, FAULT_S10, FAULT_S13) + RX_LOGS
HEADER_RE = rb"^=== \[(S\d\d)\] "
WITNESS_RE = rb"  payload-begin=(%s)\r\n(?s:(.*?))\r\n  payload-end=\1 [^\r\n]*\r\n"
ANY_WITNESS = WITNESS_RE % rb"\S+"


def real(name):
    """Raw bytes of one of the real fixture logs."""
    with open(_common.ours(name), "rb") as fh:
        return fh.read()


def starry(name):
    """Raw bytes of a StarryOS reference log."""
    with open(_common.starry(name), "rb") as fh:
        return fh.read()


def sub(data, pattern, repl, count=1):
    """data with the first count matches of the (bytes) regex replaced (0: all); must match."""
    out, n = re.subn(pattern, repl, data, count=count, flags=re.M)
    assert n == count or (count == 0 and n), (pattern, n)
    return out


def drop(data, pattern, count=1):
    """data without the first count whole lines matching pattern."""
    return sub(data, rb"^[^\r\n]*" + pattern + rb"[^\r\n]*\r\n", b"", count)


def _span(data, sid):
    """(start, end) of section sid in data: its header up to the next header or Done."""
    start = re.search(HEADER_RE.replace(rb"(S\d\d)", sid.encode()), data, re.M).start()
    nxt = re.compile(HEADER_RE + rb"|^Done\.", re.M).search(data, start + 1)
    return start, nxt.start() if nxt else len(data)


def cut_section(data, sid):
    """data without section sid (header to the next header)."""
    start, end = _span(data, sid)
    return data[:start] + data[end:]


def _field(key):
    """Regex of key=value as a token (group 2: the value)."""
    return rb"(^|[ \t])" + re.escape(key.encode()) + rb"=([^ \t\r\n]*)"


def _lines(data, start, key, section):
    """Match objects of the record lines (start: a regex after the indentation) holding key."""
    lo, hi = _span(data, section) if section else (0, len(data))
    line_re = re.compile(rb"^[ \t]*" + start + rb"[^\r\n]*", re.M)
    return [m for m in line_re.finditer(data, lo, hi) if re.search(_field(key), m.group(0))]


def value(data, start, key, section=None):
    """The printed value (str) of key on the first record line starting with start."""
    lines = _lines(data, start, key, section)
    assert lines, (start, key)
    return re.search(_field(key), lines[0].group(0)).group(2).decode()


def number(data, start, key, section=None):
    """value() as an int (or a float when it has decimals)."""
    text = value(data, start, key, section)
    return float(text) if "." in text else int(text)


def setv(data, start, key, new, count=1, section=None):
    """data with key set to new on the first count (0: all) record lines starting with start.

    new: str, bytes or number, or a function of the old value (str) giving one.
    """
    lines = _lines(data, start, key, section)
    assert lines, (start, key)
    for m in reversed(lines[:count] if count else lines):
        old = re.search(_field(key), m.group(0))
        text = new(old.group(2).decode()) if callable(new) else new
        text = text if isinstance(text, bytes) else str(text).encode()
        a, b = m.start() + old.start(2), m.start() + old.end(2)
        data = data[:a] + text + data[b:]
    return data


def witness(data, tag):
    """The match of witness tag in data (group 2: its payload bytes)."""
    return re.search(WITNESS_RE % re.escape(tag.encode()), data)


def rewitness(data, tag, body):
    """data with witness tag holding body instead, its bytes= and crc32= to match."""
    m = witness(data, tag)
    data = data[:m.start(2)] + body + data[m.end(2):]
    data = setv(data, rb"payload-end=%s " % re.escape(tag.encode()), "bytes", len(body))
    return setv(data, rb"payload-end=%s " % re.escape(tag.encode()), "crc32",
                "0x%08x" % zlib.crc32(body))


def check(data, name="doctored.log"):
    """The checker's Result for raw log bytes."""
    return check_log(parse_bytes(data, name))


class LogCase(unittest.TestCase):
    """Tests on the real async log (wire model 115200/16) and its doctored copies."""

    @classmethod
    def setUpClass(cls):
        """The real log, read once."""
        cls.log = real(ASYNC)

    def found(self, result, section, key, text=""):
        """Assert one finding of section whose key holds key (and whose text holds text)."""
        hits = [f for f in result.findings
                if f.section == section and key in f.key and text in f.what]
        self.assertTrue(hits, "no %s %s (%s) in %s" % (section, key, text, [
            (f.section, f.key, f.what) for f in result.findings]))
        return hits

    def clean(self, result, section, key):
        """Assert no finding of section whose key holds key."""
        hits = [(f.section, f.key, f.what) for f in result.findings
                if f.section == section and key in f.key]
        self.assertEqual(hits, [])


def analyzed(data, name="x.log"):
    """Analysis of raw log bytes (the table and headline tests)."""
    return analyze(parse_bytes(data, name))


def at_shift(data, shift):
    """data run at icount shift (its manifest's cpu_hz = 1e9 >> shift)."""
    data = setv(data, rb"icount_shift=", "icount_shift", shift)
    return setv(data, rb"cpu_hz=", "cpu_hz", 10 ** 9 >> shift)
