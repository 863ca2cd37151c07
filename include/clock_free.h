/* The clock with the wire model's simulation taken out (time.c): the
 * model runs on the guest's CPU, between the driver's instructions, and a
 * real UART's register costs no such time; under QEMU's -icount the sim
 * CPU account counts virtual ns, so the guest's time is the timebase's
 * less everything the simulation ran, frozen while it runs. */
#ifndef CLOCK_FREE_H
#define CLOCK_FREE_H

#include <stdint.h>

/* Any context, interrupts masked: raw_ns (the timebase) less sim_ns (the
 * simulation up to the timebase's read), never below *last
 * (the timebase ticks in steps, the simulation in instructions: without
 * the floor a read just after a model call could go back by less than a
 * tick), which it updates. */
static inline uint64_t clock_free_value(uint64_t raw_ns, uint64_t sim_ns, uint64_t *last)
{
    uint64_t v = raw_ns > sim_ns ? raw_ns - sim_ns : 0, old;

#if defined(__riscv) && !defined(HOST_TEST)
    /* one atomic max: every hart reads the one clock */
    __asm__ volatile("amomaxu.d %0, %2, (%1)" : "=r"(old) : "r"(last), "r"(v) : "memory");
#else
    old = *last;
    if (v > old)
        *last = v;
#endif
    return old > v ? old : v;
}

#endif
