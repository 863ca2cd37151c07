#!/usr/bin/python3
"""The line in the project's QEMU (docs/qemu-line.md), checked to the ns:
the 16550 of the virt machine with line-timing, driven over qtest with no
CPU running, QEMU_CLOCK_VIRTUAL stepped by hand.

Cases (--case, repeatable; default all):
  tx        a burst of FIFO + 1 bytes: each byte on the chardev when its
            stop bit has left, THRE when the last byte enters the shift
            register, TEMT after its stop bit, a store into the full FIFO
            lost; the THRE interrupt (IIR) at THRE, cleared by the IIR read
  clock     uart-clock=24000000 and divisor 13 (the D1's): the character
            takes 16 x 13 x 10 / 24 MHz, rounded up to the ns
  rx        the far end's stream: arrivals at line rate, the RX trigger
            (IIR RDI at the level, not before), a full FIFO losing the next
            byte (LSR.OE, read once), the character timeout after 4
            character times, the ground truth (sent, delivered, lost, the
            overrun LSR read, the CRC-32 of the delivered bytes)
  burst     far-end bursts of N bytes every T: byte j of burst b arrives
            at b x T + the time of j characters
  16450     fifo-size=1: no FCR (IIR without FIFO bits), THR and the shift
            register only (a third byte lost), an unread RBR overwritten
            by the next byte (OE), the overwritten byte lost in the truth
  loopback  MCR loopback: the byte reaches RBR one character time after
            the THR write, not before
  input     the chardev's input (a socket): never more than one byte per
            character time, and a full FIFO overruns
  paced     a chardev byte handed over late (host time) but within a
            character time of the previous one's end follows it back to
            back: a far end at line rate is received at line rate (the
            16550 and the SiFive UART)
  auto      a stream set on the command line for a guest that knows
            nothing of it: it starts at far-end-start, and QEMU writes its
            ground truth to far-end-log when it exits
  sifive    the same far end on sifive_u's SiFive UART0 (line-timing, div
            15 of 1843200 Hz: 115200): arrivals at its character time (11
            bits with txctrl.nstop), ip.rxwm from the first byte, the
            8-entry RX FIFO full losing the next byte (the IP has no
            overrun flag), a receiver without rxen losing every byte, the
            ground truth
"""
import argparse
import json
import os
import socket
import sys
import tempfile
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from line_qtest import (DIV, DLL, FCR, IE, IER, IIR, IIR_CTI, IIR_NONE, IIR_RDI,  # noqa: E402
                        IIR_RLSI, IIR_THRI, IP, IP_RXWM, LCR, LSR, LSR_DR, LSR_OE, LSR_THRE,
                        LSR_TEMT, MCR, RBR, RXCTRL, RXCTRL_RXEN, RXDATA, RXDATA_EMPTY, SIFIVE,
                        THR, TXCTRL, TXCTRL_NSTOP, QTest, pattern)

BAUD = 115200
LINE = ["line-timing=on"]
MACHINE = f",uart-clock={16 * BAUD},uart-speed={BAUD}"


def char_end(k, baudbase=BAUD, divisor=1, frame=10):
    """When character k (1-based) of a burst that starts at 0 has left."""
    return -(-k * frame * divisor * 10 ** 9 // baudbase)


class Checks:
    """Collects failed expectations."""

    def __init__(self, case):
        self.case, self.failures = case, []

    def eq(self, what, got, want):
        """got == want, else a failure naming what."""
        if got != want:
            self.failures.append(f"{self.case}: {what}: got {got!r}, want {want!r}")


def case_tx(c, tmp):
    """A 17-byte burst and an 18th store on a 16-byte FIFO."""
    q = QTest(LINE, MACHINE, out=os.path.join(tmp, "tx.out"))
    q.setup()
    t0 = q.now
    for b in b"ABCDEFGHIJKLMNOPQ":
        q.wb(THR, b)
    q.wb(THR, ord("Z"))                               # the FIFO is full: lost
    c.eq("LSR after the burst", q.rb(LSR) & (LSR_THRE | LSR_TEMT), 0)
    q.wb(IER, 0x02)                                   # THRI: not pending yet
    c.eq("IIR before THRE", q.rb(IIR) & 0x0F, IIR_NONE)
    q.step_to(t0 + char_end(1) - 1)
    c.eq("bytes out before the first stop bit", q.output(), b"")
    q.step_to(t0 + char_end(1))
    c.eq("bytes out at the first stop bit", q.output(), b"A")
    q.step_to(t0 + char_end(16) - 1)
    c.eq("THRE before the 17th byte enters the shifter", q.rb(LSR) & LSR_THRE, 0)
    q.step_to(t0 + char_end(16))
    c.eq("LSR when the 17th byte enters the shifter", q.rb(LSR) & (LSR_THRE | LSR_TEMT),
         LSR_THRE)
    c.eq("IIR at THRE", q.rb(IIR) & 0x0F, IIR_THRI)
    c.eq("IIR after the IIR read", q.rb(IIR) & 0x0F, IIR_NONE)
    q.step_to(t0 + char_end(17) - 1)
    c.eq("TEMT before the last stop bit", q.rb(LSR) & LSR_TEMT, 0)
    q.step_to(t0 + char_end(17))
    c.eq("TEMT at the last stop bit", q.rb(LSR) & LSR_TEMT, LSR_TEMT)
    c.eq("bytes out", q.output(), b"ABCDEFGHIJKLMNOPQ")
    q.close()


def case_clock(c, tmp):
    """The D1's clock and divisor."""
    q = QTest(LINE, ",uart-clock=24000000", out=os.path.join(tmp, "clock.out"))
    q.setup(divisor=13)
    t0 = q.now
    q.wb(THR, ord("x"))
    end = char_end(1, baudbase=24000000 // 16, divisor=13)
    c.eq("character time at 24 MHz / 13", end, 86667)
    q.step_to(t0 + end - 1)
    c.eq("TEMT a ns early", q.rb(LSR) & LSR_TEMT, 0)
    q.step_to(t0 + end)
    c.eq("TEMT on time", q.rb(LSR) & LSR_TEMT, LSR_TEMT)
    q.close()


def start_stream(q, seed, nbytes, burst=0, period=0):
    """A far-end stream from now on."""
    q.fe("SEED", seed)
    q.fe("BYTES", nbytes)
    q.fe("BURST", burst)
    q.fe("PERIOD_LO", period & 0xFFFFFFFF)
    q.fe("PERIOD_HI", period >> 32)
    q.fe("START_LO", 0)
    q.fe("START_HI", 0)
    q.fe("CONTROL", 1)


def case_rx(c, tmp):
    """A 40-byte stream into a 16-byte FIFO at trigger 8."""
    q = QTest(LINE + ["far-end=on"], MACHINE, out=os.path.join(tmp, "rx.out"))
    q.setup(fcr=0x87)                                  # trigger 8
    q.wb(IER, 0x05)                                    # RDI, RLSI
    c.eq("far end's ID", q.fe("ID"), 0x31454651)
    start_stream(q, 5, 40)
    t0 = q.now
    q.step_to(t0 + char_end(7))
    c.eq("level at 7 arrivals", q.fe("LEVEL"), 7)
    c.eq("IIR below the trigger", q.rb(IIR) & 0x0F, IIR_NONE)
    q.step_to(t0 + char_end(8))
    c.eq("IIR at the trigger", q.rb(IIR) & 0x0F, IIR_RDI)
    got = bytes(q.rb(RBR) for _ in range(8))
    c.eq("first 8 bytes", got, bytes(pattern(5, k) for k in range(8)))
    q.step_to(t0 + char_end(24))                       # arrivals 9..24: FIFO full
    c.eq("level when full", q.fe("LEVEL"), 16)
    c.eq("LSR.OE before the 25th byte", q.rb(LSR) & LSR_OE, 0)
    q.step_to(t0 + char_end(25))
    c.eq("IIR at the overrun", q.rb(IIR) & 0x0F, IIR_RLSI)
    c.eq("LSR.OE at the 25th byte", q.rb(LSR) & LSR_OE, LSR_OE)
    c.eq("LSR.OE read once", q.rb(LSR) & LSR_OE, 0)
    c.eq("lost", q.fe("LOST"), 1)
    c.eq("overruns LSR reported", q.fe("OVERRUNS"), 1)
    got += bytes(q.rb(RBR) for _ in range(16))
    q.step_to(t0 + char_end(40))                       # arrivals 26..40: 15, no loss
    c.eq("level at the end of the stream", q.fe("LEVEL"), 15)
    got += bytes(q.rb(RBR) for _ in range(15))
    q.step_to(t0 + char_end(40) + 4 * char_end(1))
    c.eq("IIR with the FIFO empty after the stream", q.rb(IIR) & 0x0F, IIR_NONE)
    want = bytes(pattern(5, k) for k in range(40) if k != 24)
    c.eq("bytes read", got, want)
    c.eq("sent", q.fe("SENT"), 40)
    c.eq("delivered", q.fe("DELIVERED"), 39)
    c.eq("CRC of the delivered bytes", q.fe("CRC"), zlib.crc32(want))
    # the character timeout: 3 bytes left, 4 character times of silence
    start_stream(q, 7, 3)
    t1 = q.now
    q.step_to(t1 + char_end(3) + 4 * char_end(1) - 1)
    c.eq("IIR just before the timeout", q.rb(IIR) & 0x0F, IIR_NONE)
    q.step_to(t1 + char_end(3) + 4 * char_end(1))
    c.eq("IIR at the timeout", q.rb(IIR) & 0x0F, IIR_CTI)
    q.close()


def case_burst(c, tmp):
    """Bursts of 4 bytes every 1 ms."""
    q = QTest(LINE + ["far-end=on"], MACHINE, out=os.path.join(tmp, "burst.out"))
    q.setup()
    start_stream(q, 0, 8, burst=4, period=1000000)
    t0 = q.now
    q.step_to(t0 + char_end(4))
    c.eq("level after the first burst", q.fe("LEVEL"), 4)
    q.step_to(t0 + 1000000 + char_end(1) - 1)
    c.eq("level just before the second burst's first byte", q.fe("LEVEL"), 4)
    q.step_to(t0 + 1000000 + char_end(1))
    c.eq("level at it", q.fe("LEVEL"), 5)
    q.step_to(t0 + 1000000 + char_end(4))
    c.eq("sent", q.fe("SENT"), 8)
    q.close()


def case_16450(c, tmp):
    """fifo-size=1."""
    q = QTest(LINE + ["far-end=on", "fifo-size=1"], MACHINE, out=os.path.join(tmp, "16450.out"))
    q.setup()
    c.eq("IIR of a 16450 (no FIFO bits)", q.rb(IIR), IIR_NONE)
    t0 = q.now
    for b in b"abc":
        q.wb(THR, b)                                   # shifter, THR, lost
    q.step_to(t0 + char_end(1) - 1)
    c.eq("THRE while THR holds a byte", q.rb(LSR) & LSR_THRE, 0)
    q.step_to(t0 + char_end(1))
    c.eq("THRE when THR's byte enters the shifter", q.rb(LSR) & LSR_THRE, LSR_THRE)
    q.step_to(t0 + char_end(2))
    c.eq("bytes out", q.output(), b"ab")
    start_stream(q, 3, 3)
    t1 = q.now
    q.step_to(t1 + char_end(3))
    c.eq("LSR after three unread arrivals", q.rb(LSR) & (LSR_DR | LSR_OE), LSR_DR | LSR_OE)
    c.eq("RBR holds the last byte", q.rb(RBR), pattern(3, 2))
    c.eq("delivered", q.fe("DELIVERED"), 1)
    c.eq("lost", q.fe("LOST"), 2)
    c.eq("CRC: the byte read", q.fe("CRC"), zlib.crc32(bytes([pattern(3, 2)])))
    q.close()


def case_loopback(c, tmp):
    """MCR loopback, paced."""
    q = QTest(LINE, MACHINE, out=os.path.join(tmp, "loop.out"))
    q.setup()
    q.wb(MCR, 0x10)
    t0 = q.now
    q.wb(THR, ord("L"))
    q.step_to(t0 + char_end(1) - 1)
    c.eq("DR before the character time", q.rb(LSR) & LSR_DR, 0)
    q.step_to(t0 + char_end(1))
    c.eq("DR after it", q.rb(LSR) & LSR_DR, LSR_DR)
    c.eq("RBR", q.rb(RBR), ord("L"))
    c.eq("nothing on the chardev in loopback", q.output(), b"")
    q.close()


def socket_line(tmp, name, globals_, **kw):
    """A QTest whose UART's chardev is a Unix socket, and the test's end of
    it, connected; (the QTest, the socket)."""
    path = os.path.join(tmp, name + ".sock")
    q = QTest(globals_, chardev=f"socket,id=u,path={path},server=on,wait=off", **kw)
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    return q, s


def case_input(c, tmp):
    """40 bytes sent at once on a socket chardev (the far end's LEVEL
    register shows the FIFO's level, whatever its source)."""
    q, s = socket_line(tmp, "input", LINE + ["far-end=on"], machine=MACHINE)
    q.setup()
    s.sendall(bytes(range(0x40, 0x68)))
    time.sleep(0.2)                                   # QEMU takes the first byte
    t0, last = q.now, 0
    for k in range(1, 21):
        q.step_to(t0 + k * char_end(1))
        time.sleep(0.02)                              # and the next one (host-timed)
        level = q.fe("LEVEL")
        if level > min(k, 16) or level < last:
            c.failures.append(f"input: FIFO level {level} after {k} character times "
                              f"(before: {last})")
        last = level
    c.eq("level after 20 character times unread", last, 16)
    c.eq("LSR.OE", q.rb(LSR) & LSR_OE, LSR_OE)
    got = bytes(q.rb(RBR) for _ in range(16))
    c.eq("the FIFO keeps the first 16 bytes", got, bytes(range(0x40, 0x50)))
    s.close()
    q.close()


def case_paced(c, tmp):
    """Bytes waiting in a socket chardev: the second is handed over half a
    character after the first one's end (the clock stepped past it) and
    still enters one character after it, not after the handover."""
    q, s = socket_line(tmp, "paced", LINE + ["far-end=on"], machine=MACHINE)
    q.setup()
    s.sendall(b"ab")
    time.sleep(0.2)                                   # QEMU takes "a" at t0
    t0, ch = q.now, char_end(1)
    q.step_to(t0 + ch + ch // 2)                      # "a" in; "b" asked for
    time.sleep(0.2)                                   # and taken there
    c.eq("level after 1.5 characters", q.fe("LEVEL"), 1)
    q.step_to(t0 + 2 * ch + 1)
    c.eq("level just after 2 characters (back to back)", q.fe("LEVEL"), 2)
    c.eq("the bytes", bytes(q.rb(RBR) for _ in range(2)), b"ab")
    s.close()
    q.close()
    q, s = socket_line(tmp, "paced-sifive",                 # the same on the SiFive UART
                       ["line-timing=on", "clock-frequency=1843200", "far-end=on"],
                       board=SIFIVE)
    q.wl(DIV, 15)
    q.wl(RXCTRL, RXCTRL_RXEN)
    s.sendall(b"abc")
    time.sleep(0.2)                                   # "a" in at t0
    t0 = q.now
    q.step_to(t0 + ch + ch // 2)                      # "b" taken there
    time.sleep(0.2)
    c.eq("sifive: level after 1.5 characters", q.fe("LEVEL"), 2)
    q.step_to(t0 + 2 * ch + 1)
    time.sleep(0.2)                                   # "c" taken there
    c.eq("sifive: level just after 2 characters (back to back)", q.fe("LEVEL"), 3)
    s.close()
    q.close()


def case_auto(c, tmp):
    """far-end-bytes/start/seed/log on the command line."""
    log = os.path.join(tmp, "auto.json")
    q = QTest(LINE + ["far-end=on", "far-end-bytes=10", "far-end-start=1000000",
                      "far-end-seed=9", f"far-end-log={log}"], MACHINE,
              out=os.path.join(tmp, "auto.out"))
    q.setup()
    q.step_to(1000000 + char_end(1) - 1)
    c.eq("LSR.DR before the start", q.rb(LSR) & LSR_DR, 0)
    q.step_to(1000000 + char_end(10))
    c.eq("sent", q.fe("SENT"), 10)
    q.close()
    with open(log) as f:
        rows = [json.loads(line) for line in f]
    want = bytes(pattern(9, k) for k in range(10))
    c.eq("ground truth rows", len(rows), 1)
    if rows:
        r = rows[0]
        c.eq("truth: sent, delivered, lost", (r["sent"], r["delivered"], r["lost"]), (10, 10, 0))
        c.eq("truth: CRC-32", r["crc32"], "0x%08x" % zlib.crc32(want))
        c.eq("truth: first arrival", r["first_ns"], 1000000 + char_end(1))


def case_sifive(c, tmp):
    """The far end on the SiFive UART's line (sifive_u)."""
    q = QTest(["line-timing=on", "clock-frequency=1843200", "far-end=on"],
              out=os.path.join(tmp, "sifive.out"), board=SIFIVE)
    q.wl(DIV, 15)                                      # 1843200 / 16: 115200
    q.wl(RXCTRL, RXCTRL_RXEN)                          # rxcnt 0: ip.rxwm from 1 byte
    q.wl(IE, IP_RXWM)
    c.eq("far end's ID", q.fe("ID"), 0x31454651)
    start_stream(q, 5, 12)
    t0 = q.now
    q.step_to(t0 + char_end(1) - 1)
    c.eq("ip.rxwm before the first arrival", q.rl(IP) & IP_RXWM, 0)
    q.step_to(t0 + char_end(1))
    c.eq("ip.rxwm at the first arrival", q.rl(IP) & IP_RXWM, IP_RXWM)
    q.step_to(t0 + char_end(9))                        # 8 in the FIFO, the 9th lost
    c.eq("level when full", q.fe("LEVEL"), 8)
    c.eq("lost at the full FIFO", q.fe("LOST"), 1)
    got = bytes(q.rl(RXDATA) for _ in range(8))
    c.eq("rxdata empty after 8", q.rl(RXDATA) & RXDATA_EMPTY, RXDATA_EMPTY)
    q.step_to(t0 + char_end(12))
    got += bytes(q.rl(RXDATA) for _ in range(3))
    want = bytes(pattern(5, k) for k in range(12) if k != 8)
    c.eq("bytes read", got, want)
    c.eq("sent, delivered, lost, overruns",
         tuple(q.fe(n) for n in ("SENT", "DELIVERED", "LOST", "OVERRUNS")), (12, 11, 1, 0))
    c.eq("CRC of the delivered bytes", q.fe("CRC"), zlib.crc32(want))
    q.wl(TXCTRL, TXCTRL_NSTOP)                         # 2 stop bits: 11-bit characters
    start_stream(q, 6, 2)
    t1 = q.now
    q.step_to(t1 + char_end(1, frame=11) - 1)
    c.eq("no byte before an 11-bit character", q.fe("LEVEL"), 0)
    q.step_to(t1 + char_end(1, frame=11))
    c.eq("a byte at an 11-bit character", q.fe("LEVEL"), 1)
    q.wl(RXCTRL, 0)                                    # the receiver off
    q.step_to(t1 + char_end(2, frame=11))
    c.eq("rxen off: the byte lost", (q.fe("DELIVERED"), q.fe("LOST")), (1, 1))
    q.close()


CASES = {"tx": case_tx, "clock": case_clock, "rx": case_rx, "burst": case_burst,
         "16450": case_16450, "loopback": case_loopback, "input": case_input, "paced": case_paced,
         "auto": case_auto, "sifive": case_sifive}


def main():
    """Run the cases asked for; status 1 when any expectation fails."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", action="append", choices=sorted(CASES),
                   help="a case to run (repeatable; default: all)")
    args = p.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.case or list(CASES):
            c = Checks(name)
            CASES[name](c, tmp)
            print(f"{name}: {'ok' if not c.failures else 'FAIL'}")
            failures += c.failures
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
