/* What rdinstret advances per instruction, from its deltas over 1 and
 * over 8 instructions: a power of two (1 on a board and on the project's
 * QEMU; 2^shift on a QEMU whose instret counts virtual ns), or 0 when the
 * deltas are not one in that ratio (QEMU without -icount: host ticks);
 * and the CPU clock's shift under -icount. Shared by the kernel
 * (cpu_acct.c), uartbench-hosted (bench/hosted/cpu.c) and the Linux
 * peer's probe (scripts/linux-peer/init-probe.c). */
#ifndef INSTRET_UNIT_H
#define INSTRET_UNIT_H

#include <stdint.h>

/* Any context with the counter readable. */
static inline uint64_t instret_unit(void)
{
    uint64_t a, b, c;
    __asm__ volatile(".option push\n.option norvc\n"
                     "rdinstret %0\nrdinstret %1\n.rept 7\nnop\n.endr\nrdinstret %2\n"
                     ".option pop"
                     : "=&r"(a), "=&r"(b), "=&r"(c));
    uint64_t d1 = b - a, d8 = c - b;
    return d1 && !(d1 & (d1 - 1)) && d8 == 8 * d1 ? d1 : 0;
}

/* Any context: log2 of the ns one count takes, from a time delta and a
 * counter delta over the same stretch (QEMU -icount: a cycle takes 2^N ns
 * at -icount shift=N), or -1 when that is no power of two 0..10 within
 * 1 % (no -icount: host ticks). */
static inline int clock_shift_of(uint64_t ns, uint64_t counts)
{
    for (int s = 0; counts && s <= 10; s++) {
        uint64_t want = counts << s;
        if (ns * 100 >= want * 99 && ns * 100 <= want * 101)
            return s;
    }
    return -1;
}

#endif
