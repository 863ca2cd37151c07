/* Tickless timer queue on top of the one hardware compare register. */
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "timer.h"

static struct timerq queue;
/* No deadline is ever 0 ns: marks the hardware value as fired. */
#define TIMER_SPENT 0
static uint64_t programmed = UINT64_MAX;   /* deadline in hardware, ns */

/* Interrupts masked: keep the hardware at the queue's earliest deadline. */
static void reprogram(void)
{
    uint64_t next = timerq_next_deadline(&queue);
    if (next == programmed)
        return;
    programmed = next;
    timer_hw_set(next == UINT64_MAX ? UINT64_MAX : clock_ns_to_ticks(next));
}

/* Boot, interrupts masked. */
void timer_init(void)
{
    timerq_init(&queue);
    timer_hw_init();
    timer_hw_set(UINT64_MAX);
    csr_set(CSR_XIE, 1UL << IRQ_XTIMER);
}

/* Timer interrupt, interrupts masked. */
void timer_isr(void)
{
    struct timerq_entry *e;
    uint64_t now = clock_now_ns();

    programmed = TIMER_SPENT;  /* reprogram() must rewrite the hardware */
    while ((e = timerq_pop_expired(&queue, now))) {
        struct timer *t = (struct timer *)((char *)e - __builtin_offsetof(struct timer, entry));
        t->fired = true;
        if (t->fire)
            t->fire(t);
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
    t->waker = w;
    t->fired = false;
    timerq_insert(&queue, &t->entry, deadline_ns);
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
    bool was = timerq_cancel(&queue, &t->entry);
    irq_restore(f);
    return was;   /* the hardware may still fire once; the ISR finds nothing */
}
