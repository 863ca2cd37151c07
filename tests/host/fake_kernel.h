/* Host unit tests: a stand-in for the kernel services the UART driver
 * uses (clock, PLIC registration, tasks, wakers, blocking, timers,
 * panic), built on the fake UART's time (fake_uart.h).
 *
 * The test program is task "main"; it may spawn more (fk_task_spawn),
 * each on a stack of its own, switched with ucontext (fake_tasks.c), as
 * the cooperative scheduler does: a task runs until it blocks or yields,
 * wakers queue tasks in FIFO order. A block with no task ready idles:
 * fake time advances event by event (next UART event or next timer
 * deadline), running the UART interrupt handler whenever the fake's
 * interrupt line is asserted, until a waker fires or a deadline passes.
 * Interrupts are also taken when a task unmasks them (irq_restore,
 * irq_enable) with the line asserted, when the test calls
 * fk_take_irqs(), and, once the test asks for it (fk_irq_schedule), at a
 * seeded choice of register accesses and interrupt points. Expired timer
 * callbacks run first at each of these (the timer interrupt), as in a
 * block. Hangs are fatal: a block with nothing left that could wake any
 * task (a lost wake-up), an interrupt line that
 * stays asserted across storm-limit handler runs in a row, a task that
 * unmasks interrupts 10 million times while no fake time passes (a spin
 * without register access), or fake time past the budget (a spin on a
 * register). */
#ifndef FAKE_KERNEL_H
#define FAKE_KERNEL_H

#include <stdint.h>

struct fk_stats {
    uint64_t isr_runs;        /* handler invocations */
    uint64_t isr_reads;       /* UART register reads the handler made */
    uint64_t blocks;          /* sched_block calls */
    uint64_t yields;          /* sched_yield calls */
    uint64_t spin_hints;      /* cpu_spin_hint calls (csr.h) */
    uint64_t wakes;           /* wakes that queued a task */
    uint64_t switches;        /* task switches */
    uint64_t timers_fired;
    uint64_t max_isr_burst;   /* most handler runs in one delivery */
    uint64_t point_irqs;      /* interrupt points that took what was pending */
};

/* Reset: no handler, no timers, only task main, interrupts enabled. */
void fk_init(void);
/* Task main: start entry(arg) as a new ready task named name (at most
 * 7 of them at once); it runs when main blocks. */
void fk_task_spawn(const char *name, void (*entry)(void *), void *arg);
/* Task main: block until every spawned task has returned. */
void fk_tasks_join(void);
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
/* Fake time each spin-loop hint (cpu_spin_hint) takes, 0 at fk_init;
 * every hint also counts one instruction (fa_work). */
void fk_set_spin_ns(uint64_t ns);
/* Fake time from a timer's expiry in an idle step to the woken task's
 * run (a wake-up's cost), 0 at fk_init. */
void fk_set_wake_ns(uint64_t ns);
/* Handler runs allowed in one delivery before it counts as a storm. */
void fk_set_storm_limit(unsigned n);
/* The registered IRQ number (0: none) and the stats. */
uint32_t fk_irq_number(void);
const struct fk_stats *fk_stats(void);

#endif
