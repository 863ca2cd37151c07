#!/usr/bin/python3
"""The one-hart sections cost the same with other harts online: boot an
image with `sections=S06,S41` at -smp 1 and at -smp N under icount and
require S06's instructions per switch and every S41 round's instruction
count (`instret_delta`, model included, and its share outside the
model) to be equal to the instruction. The other harts idle and no task
of theirs calls the driver (S50 alone shares it, harts_share), so the
driver takes no lock: a lock taken, or an idle hart that runs code, shows
here as a difference."""
import argparse
import os
import re
import sys

from qemu_boot import boot

ROUND = re.compile(r"^  diag=s41-valid size=(\d+) round=(\d+) .*? instret_delta=(\d+) ", re.M)
EXCL = re.compile(r"^  diag=s41-summary size=(\d+) .*median_instructions_per_byte_excl_model=(\S+) ",
                  re.M)
SWITCH = re.compile(r"instret_per_switch=(\d+)")


def figures(text):
    """S06's switch cost, S41's rounds and its medians outside the model."""
    sw = SWITCH.search(text)
    return (sw[1] if sw else None, ROUND.findall(text), EXCL.findall(text))


def main():
    """Two boots, the comparison, the verdict."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--image-dir", required=True)
    p.add_argument("--smp", type=int, required=True)
    p.add_argument("--log", required=True, help="prefix: PREFIX-smp1.log, PREFIX-smpN.log")
    p.add_argument("--timeout", type=float, default=120)
    args = p.parse_args()
    errors, seen = [], {}
    for smp in (1, args.smp):
        status, text = boot(args.image_dir, f"{args.log}-smp{smp}.log", ["sections=S06,S41"],
                            args.timeout, smp=smp)
        if status != 0:
            errors.append(f"-smp {smp}: exit status {status}")
        if f"hart_count={smp}" not in text:
            errors.append(f"-smp {smp}: the manifest does not say hart_count={smp}")
        seen[smp] = figures(text)
        if not seen[smp][0] or not seen[smp][1] or not seen[smp][2]:
            errors.append(f"-smp {smp}: no S06 switch figure or no S41 rounds")
    one, many = seen[1], seen[args.smp]
    if one[0] != many[0]:
        errors.append(f"S06 instret_per_switch {one[0]} at -smp 1, {many[0]} at -smp {args.smp}")
    for a, b in zip(one[1], many[1]):
        if a != b:
            errors.append(f"S41 size {a[0]} round {a[1]}: instret_delta {a[2]} at -smp 1, "
                          f"{b[2]} at -smp {args.smp}")
    if len(one[1]) != len(many[1]) or one[2] != many[2]:
        errors.append(f"S41 medians outside the model {one[2]} at -smp 1, {many[2]} at "
                      f"-smp {args.smp}")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: S06 {one[0]} instructions per switch and {len(one[1])} S41 rounds equal "
              f"at -smp 1 and -smp {args.smp} (excl_model medians {one[2]})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
