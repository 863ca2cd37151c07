#!/usr/bin/python3
"""Boot several images at several icount shifts with sections=S06 and
check that CPU work is counted in instructions everywhere:

- the manifest says cpu_hz = 1e9 >> shift, cpu_hz_source=icount,
  cycles_unit=cpu-cycles and the shift it was run at;
- S06's instructions per context switch and its wake-to-run instruction
  samples are the same on every image at every shift (the same kernel
  code, whatever the backend and the CPU clock);
- its cycles per switch are its instructions, to the instruction (one
  per instruction under icount: a switch makes no bus access), and the
  switch takes its instructions x 2^shift ns (the clock's period), to
  the instruction.
"""
import argparse
import json
import os
import re
import sys

from qemu_boot import boot


def figures(text):
    """(cpu_hz line fields, instret_per_switch, cycles_per_switch, wake samples)."""
    m = re.search(r"^  cpu_hz=(\d+) cpu_hz_source=(\S+) cycles_unit=(\S+)", text, re.M)
    s = re.search(r"^  icount_shift=(\S+)$", text, re.M)
    sw = re.search(r"instret_per_switch=(\d+) cycles_per_switch=(\d+) ns_per_switch=(\d+)", text)
    wake = "".join(re.findall(r"^  samples tag=s06-wake-to-run unit=instret first=\d+ "
                              r"values=(\S+)$", text, re.M))
    return (m.groups() if m else None, s[1] if s else None,
            tuple(int(x) for x in sw.groups()) if sw else None, wake)


def check_one(name, shift, status, text, errors):
    """The per-run assertions; returns (switch instructions, wake samples)."""
    clock, shift_seen, switch, wake = figures(text)
    where = f"{name} shift {shift}"
    if status != 0:
        errors.append(f"{where}: exit status {status}")
    if clock != (str(1000000000 >> shift), "icount", "cpu-cycles"):
        errors.append(f"{where}: manifest clock {clock}")
    if shift_seen != str(shift):
        errors.append(f"{where}: manifest icount_shift={shift_seen}")
    if not switch or not wake:
        errors.append(f"{where}: no S06 switch or wake-to-run figures")
        return None
    if switch[1] != switch[0]:
        errors.append(f"{where}: cycles_per_switch {switch[1]} is not instret_per_switch "
                      f"{switch[0]}")
    if switch[2] >> shift != switch[0]:
        errors.append(f"{where}: ns_per_switch {switch[2]} is not {switch[0]} << {shift} "
                      "(to the instruction)")
    return switch[0], wake


def line_args(image, point):
    """(boot arguments, qemu-run options) putting image on the line point
    (BAUD/FIFO, or None: the image's own line): wire= for an image with the
    wire model, --line for one on the emulator's line."""
    if not point:
        return [], []
    with open(os.path.join(image, "qemu.json")) as f:
        model = json.load(f).get("line") == "model"
    return ([f"wire={point}"], []) if model else ([], ["--line", point])


def main():
    """Boot every image at every shift, compare, report."""
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--image-dir", action="append", required=True, help="repeatable")
    p.add_argument("--shifts", default="0,3,6")
    p.add_argument("--log-dir", required=True)
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--line", metavar="BAUD/FIFO",
                   help="run every image on this line (S06 makes no access to the UART: "
                   "a faster one only shortens the log's line time)")
    args = p.parse_args()
    os.makedirs(args.log_dir, exist_ok=True)
    errors, seen = [], {}
    for image in args.image_dir:
        name = os.path.basename(os.path.normpath(image))
        for shift in (int(s) for s in args.shifts.split(",")):
            log = os.path.join(args.log_dir, f"{name}-shift{shift}.log")
            boot_args, extra = line_args(image, args.line)
            status, text = boot(image, log, ["sections=S06"] + boot_args, args.timeout,
                                shift=shift, extra=extra)
            got = check_one(name, shift, status, text, errors)
            if got:
                seen[(name, shift)] = got
    if len(set(seen.values())) > 1:
        for key, (sw, wake) in sorted(seen.items()):
            errors.append(f"{key}: instret_per_switch={sw} wake samples {wake[:40]}...")
        errors.append("S06 instruction figures differ between images or shifts")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        sw = next(iter(seen.values()))[0]
        print(f"ok: {len(seen)} runs, instret_per_switch={sw} and wake-to-run samples equal "
              f"on every image and shift")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
