/* CPU accounting: cycles and retired instructions charged to the running
 * task, to interrupt handlers, or to idle (the scheduler's wfi), so any
 * window can be split into busy and idle time. Exactly one account owns
 * the CPU at a time; a switch charges the time since the last switch. */
#ifndef CPU_ACCT_H
#define CPU_ACCT_H

#include "csr.h"
#include "scheduler.h"

struct cpu_totals {
    struct cpu_acct tasks;   /* every task together */
    struct cpu_acct isr;     /* interrupt handlers */
    struct cpu_acct idle;    /* wfi in the scheduler */
};

extern struct cpu_acct cpu_acct_isr, cpu_acct_idle;

/* The current owner and the counter values at its last switch (one
 * object, so the switch addresses it once). */
struct cpu_acct_now {
    struct cpu_acct *owner;
    uint64_t cycle, instret;
};
extern struct cpu_acct_now cpu_acct_now;

/* Boot, interrupts masked: start charging the running task. */
void cpu_acct_init(void);
/* Any task: totals since boot, up to now. */
void cpu_acct_read(struct cpu_totals *out);

/* Scheduler and trap entry, interrupts masked: charge the time since the
 * last switch to the current owner, make `to` the owner, return the old. */
static inline struct cpu_acct *cpu_acct_switch(struct cpu_acct *to)
{
    uint64_t c = rdcycle(), i = rdinstret();
    struct cpu_acct_now *n = &cpu_acct_now;
    struct cpu_acct *prev = n->owner;

    prev->cycles += c - n->cycle;
    prev->instret += i - n->instret;
    n->cycle = c;
    n->instret = i;
    n->owner = to;
    return prev;
}

#endif
