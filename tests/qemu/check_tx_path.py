#!/usr/bin/python3
"""scripts/tx-path on a quick image: one 17-byte write() + tcdrain() of
S21 (the third of its 10 at quick scale) runs through the POSIX layer,
the tty core, the async engine, the 16550's lower half and the register
seam, the trap entry, the PLIC and the TX interrupt's refill, the timer
queue and the scheduler; each is listed, the caller (bench/) apart, and
no more files and instructions than measured, with a little room."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The path's budget: at most 16 files (docs/architecture.md: 16 files,
# 2,031 instructions), and the instructions with room for small changes:
# a path that grows past these, or a count that runs past the blocks'
# ends, fails.
MAX_FILES, MAX_INSNS = 16, 2400
WANT = ("src/io/posix.c", "src/drivers/uart/tty.c", "src/drivers/uart/engine_async.c",
        "src/drivers/uart/lower_16550.h", "include/uart_regs.h", "src/arch/riscv/trap.S",
        "src/arch/riscv/plic.c", "src/kernel/time.c", "src/kernel/scheduler.c")


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
    if int(m.group(3)) > MAX_FILES:
        sys.exit("FAIL: %s files on the path, more than %d\n%s" % (m.group(3), MAX_FILES, out))
    n = re.search(r"translation blocks, (\d+) instructions$", out, re.M)
    if not n or not 1000 <= int(n.group(1)) <= MAX_INSNS:
        sys.exit("FAIL: the window's instructions not within 1000 to %d\n%s" % (MAX_INSNS, out))
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
