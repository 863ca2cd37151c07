/* Ticket spinlock for data shared between harts. A taker draws a ticket
 * (one amoadd) and waits until the lock serves it, so harts get the lock
 * in the order they asked: fair, and the wait is measurable. The irqsave
 * pair masks this hart's interrupts first, so an interrupt handler that
 * takes the same lock cannot deadlock against the code it interrupted.
 * Statistics (under the lock): acquisitions, the contended ones (the
 * ticket was not served at once) and the rdcycle counts spent waiting.
 * A zero-initialised lock is free. Locks are leaves or nest in one order
 * (scheduler.h says which); none is taken twice by one hart. */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include <stdint.h>
#include "csr.h"

struct spinlock {
    uint32_t next;          /* the next ticket to draw */
    uint32_t serving;       /* the ticket that holds the lock */
    uint64_t acquired;      /* acquisitions (under the lock) */
    uint64_t contended;     /* of them, those that had to wait */
    uint64_t wait_cycles;   /* rdcycle counts spent waiting */
};

struct spinlock_stats {
    uint64_t acquired, contended, wait_cycles;
};

/* spin_lock, contended: wait for ticket t, counting the wait. */
static __attribute__((noinline, cold, unused)) void spin_wait(struct spinlock *l, uint32_t t)
{
    uint64_t c0 = rdcycle();
    while (__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != t)
        cpu_spin_hint();
    l->contended++;
    l->wait_cycles += rdcycle() - c0;
}

/* Any context with interrupts masked (or a lock no interrupt handler
 * takes): take l. */
static inline void spin_lock(struct spinlock *l)
{
    uint32_t t = __atomic_fetch_add(&l->next, 1, __ATOMIC_RELAXED);
    if (__builtin_expect(__atomic_load_n(&l->serving, __ATOMIC_ACQUIRE) != t, 0))
        spin_wait(l, t);
    l->acquired++;
}

/* The holder of l: release it to the next ticket. */
static inline void spin_unlock(struct spinlock *l)
{
    __atomic_store_n(&l->serving, l->serving + 1, __ATOMIC_RELEASE);
}

/* Any context: mask this hart's interrupts, take l; returns the
 * interrupt state for spin_unlock_irqrestore. */
static inline unsigned long spin_lock_irqsave(struct spinlock *l)
{
    unsigned long f = irq_save();
    spin_lock(l);
    return f;
}

/* The holder of l (taken with spin_lock_irqsave): release l, then restore
 * the interrupt state f. */
static inline void spin_unlock_irqrestore(struct spinlock *l, unsigned long f)
{
    spin_unlock(l);
    irq_restore(f);
}

/* Any context: l's statistics, taken under l so the three agree. */
static inline struct spinlock_stats spin_stats(struct spinlock *l)
{
    unsigned long f = spin_lock_irqsave(l);
    struct spinlock_stats s = { l->acquired - 1, l->contended, l->wait_cycles };
    spin_unlock_irqrestore(l, f);
    return s;   /* (this read's own acquisition left out) */
}

#endif
