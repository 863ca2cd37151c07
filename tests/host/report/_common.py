"""Shared helpers of the report tool tests: paths, PNG size, CLI runner."""

import os
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
TOOL_DIR = os.path.join(REPO, "bench", "report")
REPORT = os.path.join(TOOL_DIR, "report")
STARRY = os.path.join(HERE, "data", "starryos")
OURS = os.path.join(HERE, "data", "ours")

if TOOL_DIR not in sys.path:
    sys.path.insert(0, TOOL_DIR)


def starry(name):
    """Path of a StarryOS reference log."""
    return os.path.join(STARRY, name)


def ours(name):
    """Path of one of our synthetic fixture logs."""
    return os.path.join(OURS, name)


def png_size(path):
    """(width, height) from a PNG's IHDR chunk; raises ValueError if not a PNG."""
    with open(path, "rb") as fh:
        head = fh.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError("not a PNG: %s" % path)
    return struct.unpack(">II", head[16:24])


def run_cli(*args, plots=False):
    """Run the report tool with this interpreter; returns CompletedProcess.
    A report or sweep report draws its plots only when plots is true (a
    test of the plots): else --no-plots, a tenth of the time."""
    extra = ["--no-plots"] if not plots and "--check" not in args else []
    return subprocess.run([sys.executable, REPORT] + list(args) + extra, capture_output=True,
                          text=True, timeout=110)
