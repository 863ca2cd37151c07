#!/usr/bin/python3
"""Check a built image directory: kernel.elf is a RISC-V ELF64 whose entry
and every loadable segment lie in [base, base+size), and kernel.bin is
exactly the ELF's load image (segments placed at their offsets from the
lowest load address)."""
import argparse
import os
import struct
import sys

EM_RISCV = 243
PT_LOAD = 1


def load_segments(path):
    """Return (entry, [(paddr, filesz, memsz, bytes)]) of an ELF64 LE file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    (machine,) = struct.unpack_from("<H", data, 18)
    if machine != EM_RISCV:
        raise ValueError(f"e_machine {machine}, not RISC-V")
    entry, phoff = struct.unpack_from("<QQ", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    segs = []
    for i in range(phnum):
        p_type, _flags, off, _vaddr, paddr, filesz, memsz = struct.unpack_from(
            "<IIQQQQQ", data, phoff + i * phentsize)
        if p_type == PT_LOAD:
            segs.append((paddr, filesz, memsz, data[off:off + filesz]))
    return entry, segs


def main():
    """Check and report; exit 0 only when every check holds."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("image_dir")
    p.add_argument("--base", type=lambda s: int(s, 0), required=True)
    p.add_argument("--size", type=lambda s: int(s, 0), required=True)
    args = p.parse_args()
    lo, hi = args.base, args.base + args.size
    errors = []
    entry, segs = load_segments(os.path.join(args.image_dir, "kernel.elf"))
    if entry != args.base:
        errors.append(f"entry 0x{entry:x} != load address 0x{args.base:x}")
    for paddr, _filesz, memsz, _ in segs:
        if paddr < lo or paddr + memsz > hi:
            errors.append(f"segment 0x{paddr:x}+0x{memsz:x} outside DRAM window")
    loaded = [s for s in segs if s[1] > 0]
    start = min(s[0] for s in loaded)
    end = max(s[0] + s[1] for s in loaded)
    image = bytearray(end - start)
    for paddr, filesz, _, blob in loaded:
        image[paddr - start:paddr - start + filesz] = blob
    with open(os.path.join(args.image_dir, "kernel.bin"), "rb") as f:
        binary = f.read()
    if start != args.base:
        errors.append(f"lowest load address 0x{start:x} != 0x{args.base:x}")
    if binary != bytes(image):
        errors.append(f"kernel.bin ({len(binary)} B) differs from the ELF load image "
                      f"({len(image)} B)")
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print(f"ok: entry 0x{entry:x}, {len(segs)} load segments, "
              f"kernel.bin {len(binary)} B = load image")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
