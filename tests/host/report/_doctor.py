"""Doctored copies of the real fixture logs, for test_check*.py.

real() reads a fixture, sub() and drop() edit it, check() runs the checker
on the result, LogCase.found() asserts one finding by section and key.
"""

import re
import unittest

import _common
from uartreport.check import check_log
from uartreport.parse import parse_bytes

ASYNC = "qemu-virt-async-quick.log"
CONSOLE = "qemu-virt-console-quick.log"
NOWIRE = "qemu-virt-async-nowire-quick.log"


def real(name):
    """Raw bytes of one of the real fixture logs ."""
    with open(_common.ours(name), "rb") as fh:
        return fh.read()


def starry(name):
    """Raw bytes of a StarryOS reference log."""
    with open(_common.starry(name), "rb") as fh:
        return fh.read()


def sub(data, pattern, repl, count=1):
    """data with the first count matches of the (bytes) regex replaced; must match."""
    out, n = re.subn(pattern, repl, data, count=count, flags=re.M)
    assert n == count or (count == 0 and n), (pattern, n)
    return out


def drop(data, pattern, count=1):
    """data without the first count whole lines matching pattern."""
    return sub(data, rb"^[^\r\n]*" + pattern + rb"[^\r\n]*\r\n", b"", count)


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
