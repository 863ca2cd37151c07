#!/usr/bin/python3
"""The virt machine's timebase in the project's QEMU (patch 0015), over
qtest (no CPU running, the virtual clock stepped by hand): the ACLINT's
mtime, which the time CSR reads, counts at 10 MHz without the property
and at 100 MHz with timebase-frequency=100000000, each tick at its exact
ns across a step that ends between ticks; timebase-frequency=0 is
refused with the valid values."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_line import LINE, MACHINE, Checks  # noqa: E402
from line_qtest import QTest  # noqa: E402

MTIME = 0x200BFF8          # virt's ACLINT: CLINT + 0x4000 (the MTIMER) + 0x7FF8


def mtime(q):
    """mtime now."""
    return int(q.cmd(f"readq {MTIME:#x}")[0], 16)


def main():
    """The checks; status 1 when any fails."""
    c = Checks("timebase")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "timebase.out")
        for machine, hz in (("", 10 ** 7), (",timebase-frequency=100000000", 10 ** 8)):
            q = QTest(LINE, MACHINE + machine, out=out)
            t0 = q.now
            c.eq(f"mtime at {t0} ns, {hz} Hz", mtime(q), t0 * hz // 10 ** 9)
            q.step(12345)
            c.eq(f"mtime 12345 ns later, {hz} Hz", mtime(q), (t0 + 12345) * hz // 10 ** 9)
            q.close()
        try:
            QTest(LINE, MACHINE + ",timebase-frequency=0", out=out)
            c.eq("timebase-frequency=0", "accepted", "refused")
        except RuntimeError as e:
            c.eq("timebase-frequency=0 refused with", "valid values 1 .. 1000000000" in str(e),
                 True)
    for f in c.failures:
        print("FAIL " + f)
    print("timebase: " + ("ok" if not c.failures else "FAIL"))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
