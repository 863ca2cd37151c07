"""QEMU's execution trace of one of our images, read back to instructions:
the kernel's text, its instructions and the ends of its basic blocks
(objdump), the object file of each address (the link map), the traced
run itself (-d exec,nochain restricted to the text), and the
instructions each translation block executed. Used by scripts/tx-path
(the files one TX byte runs through) and scripts/profile (instructions
per function in a window). Needs binutils-riscv64-unknown-elf."""

import bisect
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = "riscv64-unknown-elf-"
BRANCH = re.compile(r"^(c\.)?(j|jal|jalr|jr|ret|call|tail|beq|bne|blt|bge|bltu|bgeu|beqz|bnez|"
                    r"blez|bgez|bltz|bgtz|bgt|ble|bgtu|bleu|mret|sret|ecall|ebreak|wfi)$")
MAP_LINE = re.compile(r"^\s*(?:\.\S+)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+\.(?:obj|o\)|o))$")


def tool(name, *args):
    """A binutils command's output."""
    try:
        return subprocess.run([TOOLS + name, *args], check=True, capture_output=True,
                              text=True).stdout
    except FileNotFoundError:
        sys.exit(f"exec-trace: {TOOLS}{name} not found (Debian package "
                 "binutils-riscv64-unknown-elf; scripts/install-deps)")


def text_range(elf):
    """The .text section's [start, end)."""
    for line in tool("readelf", "-SW", elf).splitlines():
        f = line.split()
        if ".text" in f and f.index(".text") + 3 < len(f):
            i = f.index(".text")
            return int(f[i + 2], 16), int(f[i + 2], 16) + int(f[i + 4], 16)
    sys.exit(f"exec-trace: {elf}: no .text section")


def instructions(elf, xrets=None):
    """Every instruction's address, sorted, and the set of control
    transfers (the ends of basic blocks); into the set xrets, the
    addresses of the trap returns (sret, mret)."""
    addrs, ends = [], set()
    for line in tool("objdump", "-d", "--no-show-raw-insn", elf).splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S+)", line)
        if m:
            a = int(m.group(1), 16)
            addrs.append(a)
            if BRANCH.match(m.group(2)):
                ends.add(a)
            if xrets is not None and m.group(2) in ("sret", "mret"):
                xrets.add(a)
    addrs.sort()
    return addrs, ends


def objects(map_file):
    """[(start, end, source file)] of the link map's text input sections."""
    out, pending = [], False
    with open(map_file, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(" .text"):
                pending = True
            m = MAP_LINE.match(line)
            if pending and m:
                start, size = int(m.group(1), 16), int(m.group(2), 16)
                src = m.group(3)
                if size and "CMakeFiles/kernel.dir/" in src:
                    src = src.split("CMakeFiles/kernel.dir/", 1)[1][:-len(".obj")]
                elif size:
                    src = "libc:" + src.rsplit("(", 1)[-1].rstrip(")")
                if size and start:
                    out.append((start, start + size, src))
                pending = False
            elif not line.startswith(" .text"):
                pending = False
    out.sort()
    return out


def run_trace(image_dir, section, qemu, lo, hi, scratch, options=()):
    """Boot sections=SECTION (qemu-run's options too) with the execution
    trace; the trace's path."""
    trace = os.path.join(scratch, "exec.trace")
    cmd = [sys.executable, os.path.join(ROOT, "scripts/qemu-run"), "--image-dir", image_dir,
           "--append", "sections=" + section, "--quiet", "--timeout", "600",
           "--log", os.path.join(scratch, "run.log")] + (["--qemu", qemu] if qemu else []) + \
        list(options) + [
           "--",
           "-d", "exec,nochain", "-dfilter", "0x%x..0x%x" % (lo, hi - 1), "-D", trace]
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode != 0 or not os.path.exists(trace):
        sys.exit(f"exec-trace: the traced run failed (exit {r.returncode}):\n{r.stdout}{r.stderr}")
    return trace



def trace_pcs(trace):
    """The translation blocks' start addresses, in the order they ran.
    QEMU rewinds a block at an I/O access under icount (`cpu_io_recompile:
    rewound execution of TB to <its start>`): what came before the access
    ran, and a block of the access alone follows. A block rewound at its
    first instruction ran nothing and is left out; one rewound further in
    ends where the next starts (executed()). A block logged and then not
    entered (`Stopped execution of TB chain before ... [<its start>]`: the
    instruction budget ran out at its start) ran nothing either."""
    pcs, rewound = [], False
    with open(trace, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.search(r"\[[0-9a-f]+/([0-9a-f]+)/", line)
            if m:
                pc = int(m.group(1), 16)
                if rewound and pcs[-1] == pc:
                    pcs.pop()
                pcs.append(pc)
                rewound = False
            elif line.startswith("cpu_io_recompile: rewound") and pcs:
                rewound = True
            elif line.startswith("Stopped execution of TB chain before") and pcs:
                m = re.search(r"\[([0-9a-f]+)\]", line)
                if m and int(m.group(1), 16) == pcs[-1]:
                    pcs.pop()
    return pcs


def source_of(objs):
    """A function: an address's object file (None outside the map)."""
    starts = [o[0] for o in objs]

    def src(a):
        i = bisect.bisect_right(starts, a) - 1
        return objs[i][2] if i >= 0 and a < objs[i][1] else None
    return src


def executed(tbs, addrs, ends):
    """{address: times executed} of the translation blocks tbs, in the
    order they ran: each from its first instruction to its first control
    transfer, or to just before the next block when that one starts
    inside it (QEMU ended the block early: after an I/O access under
    icount, at a page or size limit)."""
    count = {}
    for n, pc in enumerate(tbs):
        nxt = tbs[n + 1] if n + 1 < len(tbs) else None
        i = bisect.bisect_left(addrs, pc)
        while i < len(addrs):
            if addrs[i] == nxt and nxt != pc:
                break
            count[addrs[i]] = count.get(addrs[i], 0) + 1
            if addrs[i] in ends:
                break
            i += 1
    return count


def symbols(elf):
    """[(address, name)] of the text symbols, sorted; with sizes where nm has them."""
    out = []
    for line in tool("nm", "-S", "--defined-only", elf).splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tTwW":
            out.append((int(f[0], 16), f[3]))
        elif len(f) == 3 and f[1] in "tTwW":
            out.append((int(f[0], 16), f[2]))
    out.sort()
    return out
