/* Tickless timer queues, one per hart on top of its compare register. A
 * timer is armed on the queue of the hart that arms it and fires there.
 * A queue is its hart's alone, touched with interrupts masked and no lock
 * (the wire model arms a timer per FIFO refill: a lock pair there costs
 * S41 some 6 % of its instructions per byte); re-arming or cancelling an
 * armed timer from another hart is refused (panic), never a corruption.
 * The queue is a singly linked list ordered by absolute deadline (ns),
 * equal deadlines in the order they were armed: insertion and
 * cancellation walk it, O(armed timers). The compare register is set
 * through the arch's timer_hw_set; waiting for a deadline is waitq.c's
 * (waitq.h). */
#include <errno.h>
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "kernel.h"
#include "timer.h"

/* A hart's queue: its earliest entry first, NULL when empty. */
struct timerq {
    struct timerq_entry *head;
};

static HART_LOCAL struct timerq queue;
/* No deadline is ever 0 ns: marks the hardware value as fired. */
#define TIMER_SPENT 0
static HART_LOCAL uint64_t programmed;   /* deadline in hardware, ns */

/* q_insert, q_cancel (interrupts masked): unlinks e, armed, from q. */
static void q_unlink(struct timerq *q, struct timerq_entry *e)
{
    struct timerq_entry **link;

    for (link = &q->head; *link != NULL; link = &(*link)->next) {
        if (*link == e) {
            *link = e->next;
            e->next = NULL;
            e->armed = false;
            return;
        }
    }
}

/* timer_arm, interrupts masked: (re)arms e at deadline, after the
 * entries with the same deadline. */
static void q_insert(struct timerq *q, struct timerq_entry *e, uint64_t deadline)
{
    struct timerq_entry **link = &q->head;

    if (e->armed)
        q_unlink(q, e);
    while (*link != NULL && (*link)->deadline <= deadline)
        link = &(*link)->next;
    e->deadline = deadline;
    e->next = *link;
    e->armed = true;
    *link = e;
}

/* timer_cancel, interrupts masked: disarms e; whether it was armed. */
static bool q_cancel(struct timerq *q, struct timerq_entry *e)
{
    if (!e->armed)
        return false;
    q_unlink(q, e);
    return true;
}

/* timer_isr, interrupts masked: takes the earliest entry if its deadline
 * is <= now (NULL if none); called until NULL. */
static struct timerq_entry *q_pop_expired(struct timerq *q, uint64_t now)
{
    struct timerq_entry *e = q->head;

    if (e == NULL || e->deadline > now)
        return NULL;
    q->head = e->next;
    e->next = NULL;
    e->armed = false;
    return e;
}

/* reprogram, interrupts masked: the earliest deadline, UINT64_MAX if none. */
static uint64_t q_next_deadline(const struct timerq *q)
{
    return q->head != NULL ? q->head->deadline : UINT64_MAX;
}

/* Interrupts masked: keep the hardware at the queue's earliest deadline. */
static void reprogram(void)
{
    uint64_t next = q_next_deadline(&queue);
    if (next == programmed)
        return;
    programmed = next;
    timer_hw_set(next == UINT64_MAX ? UINT64_MAX : clock_deadline_ticks(next));
}

/* Boot of each hart, interrupts masked. */
void timer_init(void)
{
    queue.head = NULL;
    programmed = UINT64_MAX;
    timer_hw_init();
    timer_hw_set(UINT64_MAX);
    csr_set(CSR_XIE, 1UL << IRQ_XTIMER);
}

/* timer_isr: the timer that owns queue entry e. */
static struct timer *timer_of(struct timerq_entry *e)
{
    return (struct timer *)((char *)e - __builtin_offsetof(struct timer, entry));
}

/* timer_isr: whether timers expired at now and all of them are sim. */
static bool only_sim_expired(uint64_t now)
{
    struct timerq_entry *e = queue.head;

    if (!e || e->deadline > now)
        return false;
    for (; e && e->deadline <= now; e = e->next)
        if (!timer_of(e)->sim)
            return false;
    return true;
}

/* timer_arm, timer_cancel: t, armed, belongs to another hart's queue. */
static __attribute__((noinline, cold, noreturn)) void foreign_timer(const struct timer *t)
{
    panic("timer %p armed on hart %u used from hart %u", (const void *)t, t->hart, hart_self());
}

/* Timer interrupt, interrupts masked: this hart's expired timers. */
void timer_isr(void)
{
    struct timerq_entry *e;
    uint64_t now = clock_now_ns();
    bool all_sim = only_sim_expired(now);

    if (all_sim)
        cpu_acct_retag(&cpu_acct_sim);   /* the whole interrupt, from its entry */
    programmed = TIMER_SPENT;  /* reprogram() must rewrite the hardware */
    while ((e = q_pop_expired(&queue, now))) {
        struct timer *t = timer_of(e);
        t->fired = true;
        if (t->fire && t->sim && !all_sim) {
            struct cpu_acct *prev = cpu_acct_switch(&cpu_acct_sim);
            t->fire(t);
            cpu_acct_switch(prev);
        } else if (t->fire) {
            t->fire(t);
        }
        waker_wake(&t->waker);
    }
    reprogram();               /* next deadline, or none: clears the IRQ */
}

/* Any context: -EINVAL for a NULL timer (nothing armed). */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    if (!t)
        return -EINVAL;
    unsigned long f = irq_save();
    if (__builtin_expect(t->entry.armed && t->hart != hart_self(), 0))
        foreign_timer(t);
    t->hart = (uint8_t)hart_self();
    t->waker = w;
    t->fired = false;
    q_insert(&queue, &t->entry, deadline_ns);
    reprogram();
    irq_restore(f);
    return 0;
}

/* Any context. */
bool timer_cancel(struct timer *t)
{
    if (!t)
        return false;
    unsigned long f = irq_save();
    if (__builtin_expect(t->hart != hart_self(), 0)) {
        if (t->entry.armed)
            foreign_timer(t);
        irq_restore(f);
        return false;   /* fired (or never armed) on its hart */
    }
    bool was = q_cancel(&queue, &t->entry);
    if (was)
        reprogram();   /* no interrupt for a deadline nobody waits for */
    irq_restore(f);
    return was;
}
