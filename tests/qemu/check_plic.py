#!/usr/bin/python3
"""The PLIC's gateway in the project's QEMU (patch 0016), over qtest: the
virt machine's 16550 (source 10) on hart 0's S-mode context, no CPU
running, the UART's interrupt line driven by its registers.

  in-service    the line goes up and down again while the source is
                claimed (the handler reads IIR, stores a byte, reads IIR
                again): after the completion the next claim finds nothing
                (QEMU 7.2 as Debian ships it gives the source again: a
                claim with nothing to serve);
  still-high    the line is still up at the completion: the next claim
                gives the source again;
  fell          the line goes up and down while the source is not
                claimed: the request stays until it is claimed.
"""
import sys

from line_qtest import IER, IIR, IIR_NONE, IIR_THRI, THR, QTest

PLIC = 0x0C000000
SOURCE = 10                      # virt's UART0
CONTEXT = 1                      # hart 0, S-mode
PRIORITY = PLIC + 4 * SOURCE
ENABLE = PLIC + 0x2000 + 0x80 * CONTEXT
THRESHOLD = PLIC + 0x200000 + 0x1000 * CONTEXT
CLAIM = THRESHOLD + 4


class Plic:
    """The PLIC's registers through a QTest."""

    def __init__(self, q):
        self.q = q
        self.w(PRIORITY, 1)
        self.w(ENABLE, 1 << SOURCE)
        self.w(THRESHOLD, 0)

    def w(self, addr, value):
        """A 32-bit register write."""
        self.q.cmd(f"writel {addr:#x} {value:#x}")

    def claim(self):
        """The claim: the source given, 0 for none."""
        return int(self.q.cmd(f"readl {CLAIM:#x}")[0], 16)

    def complete(self, source):
        """The completion of a claimed source."""
        self.w(CLAIM, source)


class Unexpected(Exception):
    """A step's register read other than the case needs."""


def expect(what, got, want):
    """A step's read: got must be want."""
    if got != want:
        raise Unexpected(f"{what}: got {got:#x}, want {want:#x}")


def run(failures, name, want, steps):
    """One case on a fresh machine: steps(q, plic) returns what the last
    claim gave; a failure when it is not `want` or a step's read is not
    what the case needs."""
    q = QTest(out="/dev/null")
    try:
        got = steps(q, Plic(q))
        if got != want:
            failures.append(f"{name}: the last claim gave {got}, want {want}")
    except Unexpected as e:
        failures.append(f"{name}: {e}")
    finally:
        q.close()
    print(f"{name}: {'FAIL' if failures and failures[-1].startswith(name + ':') else 'ok'}")


def in_service(q, plic):
    """THRE up, claimed, served twice over while claimed, completed."""
    q.wb(IER, 0x02)                              # THRI: THRE pending, the line up
    expect("the first claim", plic.claim(), SOURCE)
    expect("IIR", q.rb(IIR) & 0x0F, IIR_THRI)   # the line down
    q.wb(THR, ord("A"))                          # no line timing: THRE again, the line up
    expect("IIR after the store", q.rb(IIR) & 0x0F, IIR_THRI)   # the line down
    expect("IIR after its read", q.rb(IIR) & 0x0F, IIR_NONE)
    plic.complete(SOURCE)
    return plic.claim()


def still_high(q, plic):
    """THRE up, claimed and completed unserved."""
    q.wb(IER, 0x02)
    expect("the first claim", plic.claim(), SOURCE)
    plic.complete(SOURCE)
    return plic.claim()


def fell(q, plic):
    """THRE up and served before any claim."""
    q.wb(IER, 0x02)
    expect("IIR", q.rb(IIR) & 0x0F, IIR_THRI)
    expect("IIR after its read", q.rb(IIR) & 0x0F, IIR_NONE)
    return plic.claim()


def main():
    """Each case; status 1 when any fails."""
    failures = []
    run(failures, "in-service", 0, in_service)
    run(failures, "still-high", SOURCE, still_high)
    run(failures, "fell", SOURCE, fell)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
