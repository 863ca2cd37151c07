/* The kernel's time: the clock and the timers on it, one module.
 *
 * The clock is the board's timebase (rdtime) in nanoseconds: the ratio is
 * a compile-time constant, so the divisions by 1 (QEMU, 10 MHz) or 3 (D1,
 * 24 MHz) become multiplications. With the wire model under -icount, the
 * guest's clock leaves out the model's simulation (clock_free.h).
 *
 * The timers are tickless queues, one per hart on top of its compare
 * register. A timer is armed on the queue of the hart that arms it and
 * fires there. A queue is its hart's alone, touched with interrupts
 * masked and no lock (the wire model arms a timer per FIFO refill: a lock
 * pair there costs S41 some 6 % of its instructions per byte); re-arming
 * or cancelling an armed timer from another hart is refused (panic),
 * never a corruption. The queue is a singly linked list ordered by
 * absolute deadline (ns of clock_now_ns), equal deadlines in the order
 * they were armed: insertion and cancellation walk it, O(armed timers).
 * The compare register is set through the arch's timer_hw_set, at the
 * tick where the clock reaches the earliest deadline; waiting for a
 * deadline is waitq.c's (waitq.h). */
#include <errno.h>
#include "board.h"
#include "clock.h"
#include "clock_free.h"
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "kernel.h"
#include "timer.h"

/* ---- the clock ---------------------------------------------------------- */

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

#if WIRE_BAUD
/* clock_free_hook, clock_deadline_hook (a charged call on the sim
 * account, interrupts masked): the simulation's time in ns up to the
 * running call's entry (under -icount a cycle of the sim account takes
 * 2^cpu_clock_shift ns): the boot hart's sim account (the UART and its
 * model are the boot hart's), which the call's entry has charged with
 * any model call it runs inside, and not the call's own run since. */
static uint64_t sim_ns_at_entry(void)
{
    const struct cpu_acct *a = hart_self() != 0
                                   ? (const struct cpu_acct *)hart_local_of(0, &cpu_acct_sim)
                                   : &cpu_acct_sim;
    return a->cycles << cpu_clock_shift;
}

/* clock_free.S's entries: the free clock's arithmetic runs as the
 * model's work (on a board a clock read costs the timebase's read). */
extern const char clock_free_entry[], clock_deadline_entry[];

/* clock_now_ns's charged call (clock_free_entry: sim account, interrupts
 * masked): the free clock at timebase value raw, read just before the
 * call (so the call's own run is not taken off it). */
uintptr_t clock_free_hook(uintptr_t raw)
{
    return clock_free_value(raw, sim_ns_at_entry(), &last_free);
}

/* deadline_ticks' charged call (clock_deadline_entry: sim account,
 * interrupts masked): the timebase's ns at which the free clock reaches
 * ns if the simulation runs no more after this call, whose run so far
 * and cpu_acct_call's last CALL_ACCT_TAIL instructions are taken in (the
 * few of the hook's own after its clock read are not: a deadline a few
 * instructions early fires early and is set again, one late would wake
 * its waiter late). */
uintptr_t clock_deadline_hook(uintptr_t ns)
{
    uint64_t run = hart_self() == 0 ? rdcycle() - cpu_acct_now.cycle + CALL_ACCT_TAIL : 0;
    return ns + sim_ns_at_entry() + (run << cpu_clock_shift);
}
#endif

/* Any context. */
uint64_t clock_now_ns(void)
{
    uint64_t raw = clock_ticks_to_ns(rdtime());
#if WIRE_BAUD
    if (sim_free)
        raw = cpu_acct_sim_call(clock_free_entry, 1, raw, 0, 0);
#endif
    return raw;
}

/* reprogram, interrupts masked: the timebase tick at which clock_now_ns
 * reaches ns, if the simulation runs no more before it (if it does, the
 * timer fires early, finds nothing due and is set again). */
static uint64_t deadline_ticks(uint64_t ns)
{
#if WIRE_BAUD
    if (sim_free)
        ns = cpu_acct_sim_call(clock_deadline_entry, 1, ns, 0, 0);
#endif
    return clock_ns_to_ticks(ns);
}

/* ---- the timers --------------------------------------------------------- */

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

/* timer_isr, timer_arm, timer_cancel, interrupts masked: keep the compare
 * register at the tick of the queue's earliest deadline. Inline in all
 * three: under the free clock, each instruction a model call runs after
 * deadline_ticks read the simulation's time can bring its timer early
 * (an interrupt more), and a call here adds some. */
static inline __attribute__((always_inline)) void reprogram(void)
{
    uint64_t next = q_next_deadline(&queue);
    if (next == programmed)
        return;
    programmed = next;
    timer_hw_set(next == UINT64_MAX ? UINT64_MAX : deadline_ticks(next));
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

/* timer_isr: whether the interrupt is the simulation's work: timers
 * expired at now and all of them are sim, or, on the free clock, none
 * did (the compare was set at the tick where the clock would reach the
 * deadline if the model ran no more, and it ran: deadline_ticks). The
 * compare is never set before a deadline's tick otherwise. */
static bool sims_interrupt(uint64_t now)
{
    struct timerq_entry *e = queue.head;

    if (!e || e->deadline > now)
        return WIRE_BAUD && sim_free;
    for (; e && e->deadline <= now; e = e->next)
        if (!timer_of(e)->sim)
            return false;
    return true;
}

#if WIRE_BAUD
/* timer_pending_entry's hook (timer_irq_pending, timer.h: a charged call,
 * sim account, interrupts masked): a timer interrupt pending that is not
 * the simulation's alone (sims_interrupt). */
uintptr_t timer_pending_hook(uintptr_t unused)
{
    (void)unused;
    return (csr_read(CSR_XIP) & (1UL << IRQ_XTIMER)) && !sims_interrupt(clock_now_ns());
}
#endif

/* timer_arm, timer_cancel: t, armed, belongs to another hart's queue. */
static __attribute__((noinline, cold, noreturn)) void foreign_timer(const struct timer *t)
{
    panic("timer %p armed on hart %u used from hart %u", (const void *)t, t->hart, hart_self());
}

/* Timer interrupt, interrupts masked: this hart's expired timers. */
void timer_isr(void)
{
    struct timerq_entry *e;
#if WIRE_BAUD
    const struct cpu_acct mark = cpu_acct_isr;   /* (the clock's charged call charges it) */
#endif
    uint64_t now = clock_now_ns();
    bool all_sim = sims_interrupt(now);

    if (all_sim) {                       /* the whole interrupt, from its entry */
#if WIRE_BAUD
        cpu_acct_retag_since(&cpu_acct_sim, &mark);
#else
        cpu_acct_retag(&cpu_acct_sim);
#endif
    }
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
