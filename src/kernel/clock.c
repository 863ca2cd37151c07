/* Board timebase: the ratio is a compile-time constant, so the divisions
 * by 1 (QEMU, 10 MHz) or 3 (D1, 24 MHz) become multiplications. With the
 * wire model under -icount, the guest's clock leaves out the model's
 * simulation (clock_free.h). */
#include "board.h"
#include "clock.h"
#include "clock_free.h"
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"

/* clock_ticks_to_ns, any context: floor(ticks * num / den) for a
 * timebase of num/den nanoseconds per tick (10 MHz: 100/1, 24 MHz:
 * 125/3). Splitting off the whole multiples of den keeps every
 * intermediate below (den - 1) * num or the result, so nothing overflows
 * and nothing drifts. */
static inline uint64_t ticks_to_ns(uint64_t ticks, uint32_t num, uint32_t den)
{
    return (ticks / den) * num + (ticks % den) * num / den;
}

/* clock_ns_to_ticks, any context: the first tick at or after ns,
 * ceil(ns * den / num). */
static inline uint64_t ns_to_ticks(uint64_t ns, uint32_t num, uint32_t den)
{
    return (ns / num) * den + ((ns % num) * den + num - 1) / num;
}

/* Any context. */
uint64_t clock_ticks_to_ns(uint64_t ticks)
{
    return ticks_to_ns(ticks, BOARD_TICK_NS_NUM, BOARD_TICK_NS_DEN);
}

/* Any context. */
uint64_t clock_ns_to_ticks(uint64_t ns)
{
    return ns_to_ticks(ns, BOARD_TICK_NS_NUM, BOARD_TICK_NS_DEN);
}

static bool sim_free;       /* clock_sim_free_init: the model's time taken out */
static uint64_t last_free;  /* the last value clock_now_ns returned */

/* Any context, interrupts masked: the simulation's time so far, in ns
 * (under -icount a cycle of the sim account takes 2^cpu_clock_shift ns):
 * the boot hart's sim account (the UART and its model are the boot
 * hart's), and on the boot hart the call running now (the sim account
 * owns the CPU since cpu_acct_now's snapshot). */
static uint64_t sim_ns(void)
{
    if (hart_self() != 0)
        return ((const struct cpu_acct *)hart_local_of(0, &cpu_acct_sim))->cycles
               << cpu_clock_shift;
    uint64_t run = cpu_acct_now.owner == &cpu_acct_sim ? rdcycle() - cpu_acct_now.cycle : 0;
    return (cpu_acct_sim.cycles + run) << cpu_clock_shift;
}

/* Boot, interrupts masked, after cpu_acct_init. */
void clock_sim_free_init(bool on)
{
    sim_free = WIRE_BAUD && on;
    last_free = 0;
}

/* Any context. */
bool clock_sim_free(void)
{
    return sim_free;
}

/* Any context. */
uint64_t clock_now_ns(void)
{
    uint64_t raw = clock_ticks_to_ns(rdtime());
    if (WIRE_BAUD && sim_free) {        /* (compiled out without the model) */
        unsigned long f = irq_save();
        raw = clock_free_value(raw, sim_ns(), &last_free);
        irq_restore(f);
    }
    return raw;
}

/* Timer queue, interrupts masked: the timebase tick at which clock_now_ns
 * reaches ns, if the simulation runs no more before it (if it does, the
 * timer fires early, finds nothing due and is set again). */
uint64_t clock_deadline_ticks(uint64_t ns)
{
    return clock_ns_to_ticks(WIRE_BAUD && sim_free ? ns + sim_ns() : ns);
}
