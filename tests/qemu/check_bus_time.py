#!/usr/bin/python3
"""Bus time on the emulator's line (qemu-run --bus-ns, the project's QEMU:
docs/qemu-line.md): each UART register access stalls the CPU, the clock
and rdcycle advance, rdinstret does not.

The console (a design that polls LSR until THRE) at 1 GHz (shift 0),
sections=S06,S20 (and S41 at 240 ns), on a 921600/16 line at --bus-ns 0
and 240:
- S20's 1-byte write + drain still takes about one character time (P50
  within 2 % of it and the bus time of the few accesses outside it), so
  the line, not the CPU, sets it;
- its instructions per write + drain fall by more than 5 times with the
  bus time (the loop polls less often), and at 0 ns they are about one
  per ns of the character (the CPU never waits);
- S06's context switch (no register access) costs the same instructions
  and cycles at both: a stall is charged to the accesses alone, and a
  cycle is an instruction where there is none;
- at 240 ns S41's rounds count the stalls in rdcycle, not in rdinstret:
  their cycles are their duration at 1 GHz (within 1 %), their
  instructions fewer than a fifth of that.
"""
import re
import sys

from qemu_boot import arg_parser, boot

# The line: at 921600 a character is 10.85 us, 10,850 instructions of the
# console's polling at 0 ns, an eighth of the host time of 115200's.
LINE = "921600/16"
# Accesses of a 1-byte write + drain outside the character: the LSR read
# before the THR write, the write, and the last LSR poll, which may start
# just before TEMT rises and end a whole access later; one more of slack.
ACCESSES = 4


def figures(text):
    """(S20 P50 ns, S20 P50 instructions, char ns, S06 instret and cycles
    per switch) from a log."""
    p50 = re.search(r"^  diag=s20-single-byte n=\d+ .* p50_ns=(\d+) .* line_ns=(\d+)", text, re.M)
    ins = re.search(r"^  diag=s20-single-byte-insns .* p50_instructions=(\d+)", text, re.M)
    sw = re.search(r"instret_per_switch=(\d+) cycles_per_switch=(\d+)", text)
    if not (p50 and ins and sw):
        return None
    return int(p50[1]), int(ins[1]), int(p50[2]), int(sw[1]), int(sw[2])


def main():
    """Two boots, compare, report."""
    p = arg_parser(__doc__, 120, "prefix of the two serial logs")
    args = p.parse_args()
    errors, got = [], {}
    s41 = []
    for bus in (0, 240):
        status, text = boot(args.image_dir, f"{args.log}-bus{bus}.log",
                            ["sections=S06,S20" + (",S41" if bus else "")], args.timeout,
                            shift=0, extra=["--bus-ns", str(bus), "--line", LINE])
        if bus:
            s41 = [tuple(float(m[k]) for k in (1, 2, 3)) for m in re.finditer(
                r"^  diag=s41-valid .* instret_delta=(\d+) .* cycles_delta=(\d+) .* "
                r"duration_ms=([0-9.]+) ", text, re.M)]
        if status != 0:
            errors.append(f"bus {bus} ns: exit status {status}")
        got[bus] = figures(text)
        if got[bus] is None:
            errors.append(f"bus {bus} ns: no S20 or S06 figures")
    if not errors:
        (t0, i0, char, s0, c0), (t1, i1, _, s1, c1) = got[0], got[240]
        for bus, t in ((0, t0), (240, t1)):
            if abs(t - char) > char / 50 + ACCESSES * bus:
                errors.append(f"bus {bus} ns: S20 P50 {t} ns, not within 2 % of a character "
                              f"({char} ns) and {ACCESSES} accesses' bus time")
        if not i1 * 5 < i0:
            errors.append(f"S20 instructions {i0} at 0 ns, {i1} at 240 ns: the bus time did "
                          "not replace polling instructions")
        if abs(i0 - char) > char / 10:
            errors.append(f"S20 at 0 ns: {i0} instructions over a {char} ns character at 1 GHz: "
                          "not about one per ns")
        if (s0, c0) != (s1, c1) or s0 != c0:
            errors.append(f"S06 switch: instret/cycles {s0}/{c0} at 0 ns, {s1}/{c1} at 240 ns: "
                          "want one equal pair")
        if not s41:
            errors.append("bus 240 ns: no S41 rounds")
        for ins, cyc, ms in s41:
            if abs(cyc - ms * 1e6) > ms * 1e4 or not ins * 5 < cyc:
                errors.append(f"S41 round at 240 ns: {ins:.0f} instructions, {cyc:.0f} cycles "
                              f"in {ms} ms: the cycles are not the round's time at 1 GHz, or "
                              "the instructions not a small part of them")
        print(f"S20 P50 {t0} / {t1} ns, {i0} / {i1} instructions at 0 / 240 ns; a character "
              f"{char} ns; S06 switch {s0} instructions, {c0} cycles")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print("ok: bus time stalls the CPU, not its instruction count")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
