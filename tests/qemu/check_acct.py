#!/usr/bin/python3
"""Boot an image with selftest=acct at an icount shift and check the CPU
accounting against figures the host works out itself:

- a charged call charges the sim account with its entry's instructions,
  cpu_acct_call's, the probe's nops and ret and the caller's csrs:
  (size of the probe's entry + size of cpu_acct_call, from the ELF's
  symbol table) / 4 + nops + 1 + 1; and, called with interrupts on and
  with them masked, it keeps every register it must (lost_mask 0), runs
  its function masked and leaves the mask as it was;
- a counted loop of N turns (2 instructions each) costs its task the same
  number of instructions, at least 2 N, quiet, with 50 timer interrupts
  (which go to the ISR account), with 50 sim timers (the sim account),
  with 50 timers that make a charged call each (both accounts), with 50
  sim timers that make a charged call each (the sim account: more than
  without the calls) and with 25 sim timers due with 25 plain ones, one
  of each per interrupt (both accounts, the sim account less than a
  quarter of the 50 sim interrupts'), in the tasks' total and in the
  task's own account (own); in cycles,
  the task's own account is charged at most the cycles of trap.S's
  instructions outside its cycle snapshots (TRAP_CYCLES_OUTSIDE per
  interrupt), and the ISR account (timers) or the sim account (sim
  timers) the rest;
- 64 TX-level queries through the driver (a status read each at the
  register seam) charge the ISR account nothing and, with the wire model
  (the line's wire=1), the sim account something: the seam's calls name
  the sim account;
- the figures are the same at every shift of --shifts (instructions, not
  counter units).
"""
import os
import re
import subprocess
import sys

from qemu_boot import arg_parser, boot

NM = "riscv64-unknown-elf-nm"
TURNS = 1000000
TIMERS = 50
# Cycles of an interrupt charged to the interrupted task: trap.S's
# instructions before its entry's rdcycle and after its exit's (27 or
# 23, as the exit's path).
TRAP_CYCLES_OUTSIDE = 32


def call_size(elf):
    """Bytes of one charged call's code (no compressed instructions): the
    probe's entry and cpu_acct_call, from the symbol table's sizes."""
    out = subprocess.run([NM, "-S", elf], check=True, capture_output=True, text=True).stdout
    size = {f[3]: int(f[1], 16) for f in (line.split() for line in out.splitlines())
            if len(f) == 4}
    return size["acct_probe_4_entry"] + size["cpu_acct_call"]


def figures(text):
    """The selftest's lines as dicts: calls by nops, loops by name."""
    calls = {int(m[1]): int(m[2]) for m in
             re.finditer(r"^selftest=acct call probe_nops=(\d+) charged=(\d+) ", text, re.M)}
    loops = {m[1]: {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", m[2])} for m in
             re.finditer(r"^selftest=acct loop=(\S+) (.*)$", text, re.M)}
    return calls, loops


def check(text, size, errors):
    """Every assertion of the module docstring but --same-as."""
    calls, loops = figures(text)
    for nops in (4, 12):
        want = size // 4 + nops + 1 + 1
        if calls.get(nops) != want:
            errors.append(f"probe of {nops} nops charged {calls.get(nops)}, expected {want}")
    for masked in (0, 1):
        line = (f"selftest=acct call kept masked={masked} lost_mask=0 probe_masked=1 "
                "irqs_as_before=1\n")
        if line not in text:
            errors.append(f"a charged call (interrupts {'masked' if masked else 'on'} before it) "
                          "lost a register, ran its function unmasked or left the mask "
                          "changed: no line `" + line.strip() + "`")
    quiet, irqs, sims, calls, sim_calls, mixed = (
        loops.get(k, {}) for k in ("quiet", "timers", "sim-timers", "calls", "sim-calls", "mixed"))
    if not (quiet and irqs and sims and calls and sim_calls and mixed):
        errors.append("loop lines missing")
        return
    if quiet["task"] < 2 * TURNS or quiet["turns"] != TURNS:
        errors.append(f"quiet loop of {quiet['turns']} turns cost {quiet['task']} < 2 per turn")
    # (name, figures, interrupts in the loop)
    named = (("timers", irqs, TIMERS), ("sim-timers", sims, TIMERS), ("calls", calls, TIMERS),
             ("sim-calls", sim_calls, TIMERS), ("mixed", mixed, TIMERS // 2))
    for name, d, _ in named:
        if d["task"] != quiet["task"]:
            errors.append(f"{name}: task charged {d['task']}, quiet loop {quiet['task']}")
    for name, d, irqs_in in (("quiet", quiet, 0),) + named:
        if d.get("own") != quiet["task"]:
            errors.append(f"{name}: the task's own account charged {d.get('own')}, "
                          f"the quiet loop {quiet['task']}")
        extra = d.get("own_cycles", 0) - quiet.get("own_cycles", 0)
        if not 0 <= extra <= TRAP_CYCLES_OUTSIDE * irqs_in:
            errors.append(f"{name}: the task's own account charged {extra} cycles more than "
                          f"the quiet loop, not 0 to {TRAP_CYCLES_OUTSIDE} per interrupt")
    if quiet.get("own_cycles") != quiet["task"]:
        errors.append(f"quiet loop: {quiet.get('own_cycles')} cycles for {quiet['task']} "
                      "instructions")
    if not irqs.get("isr_cycles") or irqs.get("sim_cycles"):
        errors.append(f"timers: isr_cycles={irqs.get('isr_cycles')} "
                      f"sim_cycles={irqs.get('sim_cycles')}, expected > 0 and 0")
    if sims.get("isr_cycles") or not sims.get("sim_cycles"):
        errors.append(f"sim-timers: isr_cycles={sims.get('isr_cycles')} "
                      f"sim_cycles={sims.get('sim_cycles')}, expected 0 and > 0")
    if quiet["isr"] or quiet["sim"]:
        errors.append(f"quiet loop: isr={quiet['isr']} sim={quiet['sim']}, expected 0")
    if not irqs["isr"] or irqs["sim"] or irqs["fired"] != TIMERS:
        errors.append(f"timers: isr={irqs['isr']} sim={irqs['sim']} fired={irqs['fired']}")
    if sims["isr"] or not sims["sim"] or sims["fired"] != 2 * TIMERS:
        errors.append(f"sim-timers: isr={sims['isr']} sim={sims['sim']} fired={sims['fired']}")
    if not calls["isr"] or not calls["sim"] or calls["fired"] != 3 * TIMERS:
        errors.append(f"calls: isr={calls['isr']} sim={calls['sim']} fired={calls['fired']}")
    if sim_calls["isr"] or sim_calls["sim"] <= sims["sim"] or sim_calls["fired"] != 4 * TIMERS:
        errors.append(f"sim-calls: isr={sim_calls['isr']} sim={sim_calls['sim']} (sim-timers "
                      f"{sims['sim']}) fired={sim_calls['fired']}")
    if (not mixed["isr"] or not mixed["sim"] or 4 * mixed["sim"] >= sims["sim"]
            or mixed["fired"] != 5 * TIMERS):
        errors.append(f"mixed: isr={mixed['isr']} sim={mixed['sim']} (sim-timers {sims['sim']}: "
                      f"expected less than a quarter) fired={mixed['fired']}")
    seam = loops.get("seam")
    if not seam or seam["isr"] or bool(seam["sim"]) != bool(seam["wire"]) or not seam["task"]:
        errors.append(f"seam reads: {seam}: expected isr=0, task > 0 and sim > 0 exactly when "
                      "the image has the wire model")
    if "selftest=acct status=PASS" not in text:
        errors.append("no `selftest=acct status=PASS`")


def run(args, shift, size):
    """Boot at one shift; return (figures, errors)."""
    log = f"{args.log}-shift{shift}.log"
    status, text = boot(args.image_dir, log, ["selftest=acct"], args.timeout, shift=shift)
    errors = [] if status == 0 else [f"exit status {status}"]
    if f"selftest=acct instret_shift=0 clock_shift={shift} instret_exact=1" not in text:
        errors.append(f"the kernel did not count one per instruction and measure "
                      f"clock_shift={shift}")
    check(text, size, errors)
    if errors:
        print(text)
    return figures(text), [f"shift {shift}: {e}" for e in errors]


def main():
    """Run at every shift, check, compare; exit 0 only if all held."""
    p = arg_parser(__doc__, 60, "log path prefix (-shiftN.log appended)")
    p.add_argument("--shifts", default="0,3,6", help="icount shifts, comma-separated")
    args = p.parse_args()
    size = call_size(os.path.join(args.image_dir, "kernel.elf"))
    shifts = [int(s) for s in args.shifts.split(",")]
    errors, first = [], None
    for shift in shifts:
        (calls, loops), errs = run(args, shift, size)
        errors += errs
        seam = loops.get("seam", {})
        mine = (calls, loops.get("quiet", {}).get("task"), seam.get("task"), seam.get("sim"))
        if first is None:
            first = mine
        elif mine != first:
            errors.append(f"shift {shift}: charges {mine} differ from shift {shifts[0]}: {first}")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: shifts {args.shifts}: a charged call ({size} bytes) and loop charges exact "
              f"and equal: {first}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
