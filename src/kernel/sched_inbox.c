/* The harts' inboxes, for waking a task of another hart: a FIFO list per
 * hart of its tasks that other harts woke, under a ticket lock. The waker
 * links the task (once: wake_pending, until the owner takes it), then
 * sends the owner an IPI; the owner's IPI handler (sched_ipi, scheduler.c)
 * takes the whole list and queues each task on its own run queue, as a
 * local wake would. The run queues stay the business of their hart
 * alone, so the single-hart path takes no lock; a task never moves
 * between harts, so it never runs on two at once (no hand-over of a task
 * whose context is still being saved). The inbox lock is a leaf: nothing
 * is taken under it. */
#include "harts.h"
#include "ipi.h"
#include "sched_priv.h"
#include "spinlock.h"

struct inbox {
    struct spinlock lock;
    struct task *head, *tail;
};

static struct inbox inboxes[HARTS_MAX];

/* Any context, t a task of another hart. */
void sched_wake_remote(struct task *t)
{
    if (__atomic_exchange_n(&t->wake_pending, 1, __ATOMIC_ACQ_REL))
        return;                        /* in the inbox already: one wake */
    struct inbox *in = &inboxes[t->hart];
    unsigned long f = spin_lock_irqsave(&in->lock);
    t->wake_next = 0;
    if (in->tail)
        in->tail->wake_next = t;
    else
        in->head = t;
    in->tail = t;
    spin_unlock_irqrestore(&in->lock, f);
    ipi_send(t->hart);
}

/* The IPI handler (scheduler.c's sched_ipi), interrupts masked: this
 * hart's inbox emptied; its tasks, oldest first, linked by wake_next. */
struct task *sched_inbox_take(void)
{
    struct inbox *in = &inboxes[hart_self()];

    spin_lock(&in->lock);
    struct task *t = in->head;
    in->head = in->tail = 0;
    spin_unlock(&in->lock);
    return t;
}

/* Any context. */
void sched_inbox_stats(unsigned h, struct spinlock_stats *out)
{
    *out = spin_stats(&inboxes[h].lock);
}
