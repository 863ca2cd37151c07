/* Host unit tests: a single-threaded stand-in for the kernel services the
 * UART backends use (clock, PLIC registration, wakers, blocking, timers,
 * panic), built on the fake UART's time (fake_uart.h).
 *
 * The test program is the only task. "Blocking" advances fake time event
 * by event (next UART event or next timer deadline), running the UART
 * interrupt handler whenever the fake's interrupt line is asserted, until
 * the task's waker fires or its deadline passes. Interrupts are also taken
 * when the task unmasks them (irq_restore/irq_enable) with the line
 * asserted, when the test calls fk_take_irqs(), and, once the test asks
 * for it (fk_irq_schedule), at a seeded choice of register accesses and
 * interrupt points. Expired timer callbacks run first at each of these
 * (the timer interrupt), as in a block. Hangs are fatal: a
 * block with nothing left that could wake it, an interrupt line that
 * stays asserted across storm-limit handler runs in a row, a task that
 * unmasks interrupts 10 million times while no fake time passes (a spin
 * without register access), or fake time past the budget (a spin on a
 * register). */
#ifndef FAKE_KERNEL_H
#define FAKE_KERNEL_H

#include <stdint.h>

struct fk_stats {
    uint64_t isr_runs;        /* handler invocations */
    uint64_t blocks;          /* sched_block calls */
    uint64_t wakes;           /* wakes of the task */
    uint64_t timers_fired;
    uint64_t max_isr_burst;   /* most handler runs in one delivery */
    uint64_t point_irqs;      /* interrupt points that took what was pending */
};

/* Reset: no handler, no timers, interrupts enabled in the task. */
void fk_init(void);
/* Fail (exit) when fake time passes now + ns. */
void fk_set_budget(uint64_t ns);
/* Deliver pending UART interrupts now (as if the line was sampled). */
void fk_take_irqs(void);
/* Interrupts anywhere: from now on a pending interrupt is also taken at
 * every register access (fake_uart.h's access hook) and every
 * fk_irq_point() the task passes with interrupts enabled, at per_mille of
 * them, chosen by a generator seeded with seed; 0 turns it off. */
void fk_irq_schedule(uint64_t seed, unsigned per_mille);
void fk_irq_point(void);
/* Idle the task until fake time t, taking interrupts on the way. */
void fk_idle_until(uint64_t t);
/* Handler runs allowed in one delivery before it counts as a storm. */
void fk_set_storm_limit(unsigned n);
/* The registered IRQ number (0: none) and the stats. */
uint32_t fk_irq_number(void);
const struct fk_stats *fk_stats(void);

#endif
