#!/usr/bin/env python3
"""scripts/tx-path on a quick image: one 17-byte write() + tcdrain() of
S21 (the third of its 10 at quick scale) runs through the POSIX layer,
the tty core, the async engine, the 16550's lower half and the register
seam, the trap entry, the PLIC and the TX interrupt's refill, the timer
queue and the scheduler; each is listed, the caller (bench/) apart, and
the count line adds up."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WANT = ("src/io/posix.c", "src/drivers/uart/tty.c", "src/drivers/uart/engine_async.c",
        "src/drivers/uart/lower_16550.h", "include/uart_regs.h", "src/arch/riscv/trap.S",
        "src/arch/riscv/plic.c", "src/kernel/timer.c", "src/kernel/scheduler.c")


def main():
    image = sys.argv[1]
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts/tx-path"), "--image-dir",
                        image, "--section", "S21", "--pair", "33"], capture_output=True,
                       text=True, check=False)
    out = r.stdout + r.stderr
    if r.returncode != 0:
        sys.exit("FAIL: tx-path exit %d\n%s" % (r.returncode, out))
    m = re.search(r"^files: (\d+) \.c/\.S and (\d+) headers whose inline code ran: (\d+)$",
                  out, re.M)
    if not m or int(m.group(1)) + int(m.group(2)) != int(m.group(3)):
        sys.exit("FAIL: no files line that adds up\n" + out)
    listed = re.findall(r"^\s+(\d+)\s+(\S+)", out, re.M)
    files = {f for _, f in listed}
    missing = [f for f in WANT if f not in files]
    if missing:
        sys.exit("FAIL: not on the path: %s\n%s" % (", ".join(missing), out))
    if len([f for f in files if f.endswith((".c", ".S"))]) != int(m.group(1)):
        sys.exit("FAIL: the .c/.S count is not the files listed\n" + out)
    if any(f.startswith("bench/") for f in files):
        sys.exit("FAIL: the caller's own code counted\n" + out)
    print(out.splitlines()[0])
    print("ok: %s; the path's files listed (%s of them checked)" % (m.group(0), len(WANT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
