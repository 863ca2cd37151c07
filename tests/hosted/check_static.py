#!/usr/bin/python3
"""The cross-compiled uartbench-hosted is what a Linux initramfs can run
as /init on a riscv64 board: a 64-bit RISC-V ELF executable, statically
linked (no program interpreter, no dynamic section)."""
import struct
import sys

EM_RISCV, ET_EXEC, PT_INTERP, PT_DYNAMIC = 243, 2, 3, 2


def main():
    """Check the ELF header and program headers of argv[1]."""
    with open(sys.argv[1], "rb") as fh:
        data = fh.read()
    errors = []
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        errors.append("not a little-endian 64-bit ELF")
    else:
        e_type, e_machine = struct.unpack_from("<HH", data, 16)
        phoff, = struct.unpack_from("<Q", data, 32)
        phentsize, phnum = struct.unpack_from("<HH", data, 54)
        types = [struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)]
        if e_machine != EM_RISCV:
            errors.append(f"e_machine {e_machine}, not RISC-V ({EM_RISCV})")
        if e_type != ET_EXEC:
            errors.append(f"e_type {e_type}, not a static executable ({ET_EXEC})")
        if PT_INTERP in types or PT_DYNAMIC in types:
            errors.append("dynamically linked (PT_INTERP or PT_DYNAMIC)")
    for e in errors:
        print(f"FAIL: {sys.argv[1]}: {e}")
    if not errors:
        print(f"{sys.argv[1]}: static riscv64 executable, {len(data)} bytes")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
