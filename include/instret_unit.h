/* What rdinstret advances per instruction, from its deltas over 1 and
 * over 8 instructions: a power of two (1 on a board, 2^shift under QEMU's
 * -icount), or 0 when the deltas are not one in that ratio (QEMU without
 * -icount: host ticks). Shared by the kernel (cpu_acct.c) and the Linux
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

#endif
