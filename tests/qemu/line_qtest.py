"""A qtest client for the project's QEMU (check_line.py): the virt machine
(its 16550) or sifive_u (its SiFive UART0) with no CPU running (-accel
qtest), the UART's registers and its far end's read and written from here
and QEMU_CLOCK_VIRTUAL stepped by hand, so the line's timing is checked to
the ns."""
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from far_end_line import pattern as pattern_bytes  # noqa: E402
from qemu_line import QEMU, QEMU_DATA  # noqa: E402

UART = 0x10000000
FAR_END = 0x10000100
# sifive_u: UART0 and its far end's page (scripts/qemu/patches/0013), the
# SiFive UART's registers (32-bit) and bits
SIFIVE = dict(machine="sifive_u", uart=0x10010000, far_end=0x10012000,
              driver="riscv.sifive.uart")
TXDATA, RXDATA, TXCTRL, RXCTRL, IE, IP, DIV = 0x00, 0x04, 0x08, 0x0C, 0x10, 0x14, 0x18
RXDATA_EMPTY, TXCTRL_NSTOP, RXCTRL_RXEN, IP_RXWM = 0x80000000, 0x2, 0x1, 0x2
RBR, THR, DLL, IER, DLM, IIR, FCR, LCR, MCR, LSR = 0, 0, 0, 1, 1, 2, 2, 3, 4, 5
LSR_DR, LSR_OE, LSR_THRE, LSR_TEMT = 0x01, 0x02, 0x20, 0x40
IIR_NONE, IIR_THRI, IIR_RDI, IIR_RLSI, IIR_CTI = 0x01, 0x02, 0x04, 0x06, 0x0C
# the far end's control page (hw/char/uart-far-end.c)
FE = dict(ID=0x00, CONTROL=0x04, SEED=0x08, BYTES=0x0C, BURST=0x10, PERIOD_LO=0x14,
          PERIOD_HI=0x18, START_LO=0x1C, START_HI=0x20, STREAMS=0x24, SENT=0x28,
          DELIVERED=0x2C, LOST=0x30, OVERRUNS=0x34, FLUSHED=0x38, CRC=0x3C, LEVEL=0x40)


def pattern(seed, k):
    """The far end's byte at stream offset k (and pattern.h's)."""
    return pattern_bytes(seed, k, 1)[0]


class QTest:
    """One QEMU under -accel qtest: commands on its stdin, answers on its stdout."""

    def __init__(self, globals_=(), machine="", chardev=None, out=None, board=None):
        self.out = out
        b = board or dict(machine="virt", uart=UART, far_end=FAR_END, driver="serial-mm")
        self.uart, self.far_end = b["uart"], b["far_end"]
        cmd = [os.environ.get("UARTBENCH_QEMU", QEMU), "-L", QEMU_DATA,
               "-machine", b["machine"] + machine, "-accel", "qtest", "-qtest", "stdio",
               "-qtest-log", "/dev/null", "-bios", "none", "-display", "none",
               "-monitor", "none", "-chardev", chardev or f"file,id=u,path={out}",
               "-serial", "chardev:u"]
        for g in globals_:
            prop, value = g.split("=", 1)
            cmd += ["-global", f"driver={b['driver']},property={prop},value={value}"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, bufsize=1)
        self.now = self.step(0)

    def cmd(self, line):
        """One command; its answer's words after OK."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        while True:
            ans = self.proc.stdout.readline()
            if not ans:
                raise RuntimeError("QEMU exited: " + self.proc.stderr.read().strip())
            if ans.startswith("OK"):
                return ans.split()[1:]
            if ans.startswith("FAIL") or ans.startswith("ERR"):
                raise RuntimeError(f"{line}: {ans.strip()}")

    def rb(self, reg):
        """A UART register read (8 bits: the 16550's)."""
        return int(self.cmd(f"readb {self.uart + reg:#x}")[0], 16)

    def wb(self, reg, value):
        """A UART register write (8 bits: the 16550's)."""
        self.cmd(f"writeb {self.uart + reg:#x} {value:#x}")

    def rl(self, reg):
        """A UART register read (32 bits: the SiFive UART's)."""
        return int(self.cmd(f"readl {self.uart + reg:#x}")[0], 16)

    def wl(self, reg, value):
        """A UART register write (32 bits: the SiFive UART's)."""
        self.cmd(f"writel {self.uart + reg:#x} {value:#x}")

    def fe(self, name, value=None):
        """A far-end register: read (value None) or write."""
        if value is None:
            return int(self.cmd(f"readl {self.far_end + FE[name]:#x}")[0], 16)
        self.cmd(f"writel {self.far_end + FE[name]:#x} {value:#x}")
        return None

    def step(self, ns):
        """Advance QEMU_CLOCK_VIRTUAL by ns (timers due run); the new time."""
        self.now = int(self.cmd(f"clock_step {ns}")[0])
        return self.now

    def step_to(self, t):
        """Advance to virtual time t (not back)."""
        if t > self.now:
            self.step(t - self.now)

    def setup(self, divisor=1, lcr=0x03, fcr=0x07):
        """8N1 at the divisor, FIFOs on and cleared."""
        self.wb(LCR, 0x80)
        self.wb(DLL, divisor & 0xFF)
        self.wb(DLM, divisor >> 8)
        self.wb(LCR, lcr)
        self.wb(FCR, fcr)

    def output(self):
        """What the UART has put on the chardev so far (a file)."""
        with open(self.out, "rb") as f:
            return f.read()

    def close(self):
        """End QEMU (SIGTERM: its exit notifiers run)."""
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
