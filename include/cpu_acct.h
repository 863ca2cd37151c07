/* CPU accounting: cycles and retired instructions charged to the running
 * task, to interrupt handlers, to idle (the scheduler's wfi) or to
 * simulation (the wire model on QEMU boards: work a real board's hardware
 * does), so any window can be split into busy, idle and simulated time.
 * Exactly one account owns the CPU at a time; a switch charges the time
 * since the last switch. */
#ifndef CPU_ACCT_H
#define CPU_ACCT_H

/* Offsets for trap.S and acct_call.S, which charge their own ends. */
#define CPU_ACCT_CYCLES      0
#define CPU_ACCT_INSTRET     8
#define CPU_ACCT_NOW_OWNER   0
#define CPU_ACCT_NOW_CYCLE   8
#define CPU_ACCT_NOW_INSTRET 16

#ifndef __ASSEMBLER__
#include <stddef.h>
#include "csr.h"
#include "scheduler.h"

struct cpu_totals {
    struct cpu_acct tasks;   /* every task together */
    struct cpu_acct isr;     /* interrupt handlers */
    struct cpu_acct idle;    /* wfi in the scheduler */
    struct cpu_acct sim;     /* the wire model (zero when it is off) */
};

extern struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim;

/* The current owner and the counter values at its last switch (one
 * object, so the switch addresses it once). */
struct cpu_acct_now {
    struct cpu_acct *owner;
    uint64_t cycle, instret;
};
extern struct cpu_acct_now cpu_acct_now;

_Static_assert(offsetof(struct cpu_acct, cycles) == CPU_ACCT_CYCLES &&
               offsetof(struct cpu_acct, instret) == CPU_ACCT_INSTRET &&
               offsetof(struct cpu_acct_now, owner) == CPU_ACCT_NOW_OWNER &&
               offsetof(struct cpu_acct_now, cycle) == CPU_ACCT_NOW_CYCLE &&
               offsetof(struct cpu_acct_now, instret) == CPU_ACCT_NOW_INSTRET,
               "cpu_acct layout used by trap.S");

/* Boot, interrupts masked, first thing: give early switches an owner. */
void cpu_acct_early_init(void);
/* Boot, interrupts masked: start charging the running task. */
void cpu_acct_init(void);
/* Any task: totals since boot, up to now. */
void cpu_acct_read(struct cpu_totals *out);

/* Trap dispatch, interrupts masked: as cpu_acct_switch, at counter
 * values c, i taken earlier (the trap's first instruction). */
static inline struct cpu_acct *cpu_acct_switch_at(struct cpu_acct *to, uint64_t c, uint64_t i)
{
    struct cpu_acct_now *n = &cpu_acct_now;
    struct cpu_acct *prev = n->owner;

    prev->cycles += c - n->cycle;
    prev->instret += i - n->instret;
    n->cycle = c;
    n->instret = i;
    n->owner = to;
    return prev;
}

/* Scheduler, timer interrupt, interrupts masked: charge the time since
 * the last switch to the current owner, make `to` the owner, return the
 * old. */
static inline struct cpu_acct *cpu_acct_switch(struct cpu_acct *to)
{
    uint64_t c = rdcycle();
    return cpu_acct_switch_at(to, c, rdinstret());
}

/* Any context (acct_call.S): fn(x, y, z) with `to` owning the CPU, and
 * interrupts masked, from cpu_acct_call's first instruction to its last
 * but one: the caller pays only for the call and the ret. */
typedef uintptr_t (*cpu_acct_fn)(uintptr_t x, uintptr_t y, uintptr_t z);
uintptr_t cpu_acct_call(struct cpu_acct *to, cpu_acct_fn fn, uintptr_t x, uintptr_t y,
                        uintptr_t z);

/* Interrupt handler, interrupts masked, no switch since its entry: the
 * interrupt is simulation; its time from its first instruction to its
 * xret goes to `to` instead of the interrupt account. */
static inline void cpu_acct_retag(struct cpu_acct *to)
{
    cpu_acct_now.owner = to;
}

#endif /* !__ASSEMBLER__ */
#endif
