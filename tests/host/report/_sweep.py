"""Sweep logs built from the two real points in data/sweep (test_sweep*.py).

make() edits a point's manifest (backend, baud, FIFO depth, CPU clock,
bench scale) and the figures the frontier reads; SWEEP is a whole sweep
whose frontier is known by construction (EXPECTED).
"""

import os
import re

import _common
from _doctor import at_shift, setv

SWEEP_DIR = os.path.join(_common.HERE, "data", "sweep")
PASSING = "async_b115200_f16_s0_stream.log"  # passes every criterion
FAILING = "async_b12000000_f1_s6_stream.log"  # S32, S33 FAIL overrun-count-mismatch
DEVICE = "async_b115200_f16_s0_stream_t8_dev.log"  # the emulator's line, trigger 8: passes
NOWIRE = os.path.join(_common.OURS, "qemu-virt-async-nowire-quick.log")
BAUDS = (115200, 921600, 3000000, 12000000)


def base(name=PASSING):
    """Raw bytes of one of the two real sweep points."""
    with open(os.path.join(SWEEP_DIR, name), "rb") as fh:
        return fh.read()


def make(backend="async", baud=115200, fifo=16, shift=0, scale=None, tx10=None, tx33=None,
         lost32=None, dropped33=None, cpu32=None, cut=False, data=None):
    """A point's log: the passing log (or data) at another point, figures edited."""
    data = base() if data is None else data
    data = setv(data, rb"backend=", "backend", backend)
    data = setv(data, rb"wire_model=", "wire_model", "%d/%d" % (baud, fifo))
    data = at_shift(data, shift)
    if scale is not None:
        data = setv(data, rb"bench_scale=", "bench_scale", scale)
    if tx10 is not None:
        data = setv(data, rb"policy=drain-each size=1024 ", "line_rate_pct", tx10)
    if tx33 is not None:
        data = setv(data, rb"diag=s33-tx ", "tx_line_rate_pct", tx33)
    if lost32 is not None:
        data = setv(data, rb"diag=s32-rx ", "lost", lost32)
    if dropped33 is not None:
        data = setv(data, rb"diag=s33-rx ", "dropped", dropped33)
    if cpu32 is not None:
        data = setv(data, rb"diag=s32-cpu ", "cpu_pct", cpu32)
    if cut:  # the host timeout killed it inside S41: no status line, no Done
        data = data[:re.search(rb"^  s41-size=1024 ", data, re.M).start()]
    return data


def name(backend, baud, fifo, shift, extra=""):
    """The runner's file name of a point (the frontier never reads it)."""
    return "qemu-virt-%s_b%d_f%d_s%d_stream%s.log" % (backend, baud, fifo, shift, extra)


def sweep():
    """{file name: log bytes}: the whole test sweep (see EXPECTED)."""
    logs = {}
    for baud in BAUDS:  # async FIFO 16 at 1 GHz: every baud passes
        logs[name("async", baud, 16, 0)] = make(baud=baud)
    for baud, edit in zip(BAUDS, ({}, {"lost32": 5}, {}, {"tx33": 90.5})):
        logs[name("async", baud, 16, 3)] = make(baud=baud, shift=3, **edit)  # RX, then again
    logs[name("async", 115200, 1, 6)] = make(baud=115200, fifo=1, shift=6)
    logs[name("async", 921600, 1, 6)] = make(baud=921600, fifo=1, shift=6, cut=True)
    logs[name("async", 3000000, 1, 6)] = make(baud=3000000, fifo=1, shift=6)
    logs[name("async", 12000000, 1, 6)] = base(FAILING)  # the real FAIL
    for baud in BAUDS[:2]:  # the console burns the CPU from the lowest baud
        logs[name("console", baud, 16, 0)] = make("console", baud=baud, cpu32=75.0)
    logs[name("copier", 115200, 16, 3)] = make("copier", baud=115200, shift=3)
    logs[name("copier", 3000000, 16, 3)] = make("copier", baud=3000000, shift=3)  # no 921600
    logs[name("async", 921600, 16, 0, "_full")] = make(baud=921600, scale="full", tx10=50.0)
    with open(NOWIRE, "rb") as fh:
        logs["qemu-virt-async-nowire.log"] = fh.read()
    return logs


# (bench scale, backend, FIFO, cpu_hz): the frontier cell's text
EXPECTED = {
    ("quick", "async", 16, 1000000000): ">= max (12M)",
    ("quick", "async", 16, 125000000): "115200 (921600: RX); passes again at 3M",
    ("quick", "async", 1, 15625000): "115200 (921600: incomplete); passes again at 3M",
    ("quick", "console", 16, 1000000000): "none (115200: CPU)",
    ("quick", "copier", 16, 125000000): "115200 (921600: missing); passes again at 3M",
    ("full", "async", 16, 1000000000): "none (921600: TX)",
}


def write(folder, logs, sub="logs"):
    """Write logs ({name: bytes}) into folder/sub (sub "": folder itself)."""
    where = os.path.join(folder, sub) if sub else folder
    os.makedirs(where, exist_ok=True)
    for fname, data in logs.items():
        with open(os.path.join(where, fname), "wb") as fh:
            fh.write(data)
