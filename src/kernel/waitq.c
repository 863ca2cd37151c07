/* Wait queues (waitq.h): a FIFO list of entries that live on the waiting
 * tasks' stacks. Kept apart from the scheduler so the host tests' fake
 * kernel runs this very code. */
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "timer.h"
#include "waitq.h"

/* waitq_wait, interrupts masked: e at the tail of q. */
static void link(struct waitq *q, struct waitq_entry *e)
{
    if (!q->head)
        q->tail = &q->head;
    e->next = 0;
    e->q = q;
    *q->tail = e;
    q->tail = &e->next;
}

/* waitq_wait, interrupts masked: e off its queue, if a wake has not
 * taken it off already. */
static void unlink(struct waitq_entry *e)
{
    struct waitq *q = e->q;
    if (!q)
        return;
    struct waitq_entry **pp = &q->head;
    while (*pp != e)
        pp = &(*pp)->next;
    *pp = e->next;
    if (q->tail == &e->next)
        q->tail = pp;
    e->q = 0;
}

/* Any context, interrupts masked (or an ISR). */
void waitq_wake_all_slow(struct waitq *q)
{
    unsigned long f = irq_save();
    struct waitq_entry *e = q->head;
    q->head = 0;
    q->tail = &q->head;
    while (e) {
        struct waitq_entry *next = e->next;
        struct waker w = { e->task };
        e->q = 0;
        waker_wake(&w);
        e = next;
    }
    irq_restore(f);
}

/* Task. */
int waitq_wait(struct waitq *q, bool (*cond)(void *), void *arg, uint64_t deadline_ns)
{
    struct waitq_entry e = { .task = sched_current() };
    int rc = 0;
    unsigned long f = irq_save();

    for (;;) {
        link(q, &e);
        if (cond(arg))
            break;
        if (deadline_ns && sched_block_until(deadline_ns) == -ETIMEDOUT && !cond(arg)) {
            rc = -ETIMEDOUT;
            break;
        }
        if (!deadline_ns)
            sched_block();
        unlink(&e);
    }
    unlink(&e);
    irq_restore(f);
    return rc;
}
