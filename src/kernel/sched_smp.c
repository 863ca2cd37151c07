/* Waking a task of another hart. Each hart has an inbox: a FIFO list of
 * its tasks that other harts woke, under a ticket lock. The waker links
 * the task (once: wake_pending, until the owner takes it), then sends
 * the owner an IPI; the owner's IPI handler takes the whole list and
 * queues each task on its own run queue, as a local wake would. The run
 * queues stay the business of their hart alone, so the single-hart path
 * takes no lock; a task never moves between harts, so it never runs on
 * two at once (no hand-over of a task whose context is still being
 * saved). The inbox lock is a leaf: nothing is taken under it. */
#include <errno.h>
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

/* IPI handler, interrupts masked: every task in this hart's inbox to the
 * run queue, oldest first. wake_pending is cleared after the task's link
 * is read: a wake after that links it again. */
void sched_ipi(void)
{
    struct inbox *in = &inboxes[hart_self()];

    spin_lock(&in->lock);
    struct task *t = in->head;
    in->head = in->tail = 0;
    spin_unlock(&in->lock);
    while (t) {
        struct task *next = t->wake_next;
        __atomic_store_n(&t->wake_pending, 0, __ATOMIC_RELEASE);
        sched_wake_local(t);
        t = next;
    }
}

/* Any task. */
int task_spawn_on(unsigned h, struct task *t, const char *name, void (*entry)(void *),
                  void *arg, uint64_t *stack, size_t words)
{
    if (h >= harts_online())
        return -EINVAL;
    if (h == hart_self()) {
        task_spawn(t, name, entry, arg, stack, words);
        return 0;
    }
    harts_share(true);                 /* before the task can run: its hart's calls lock */
    sched_task_setup(t, name, entry, arg, stack, words, h);
    sched_wake_remote(t);              /* READY and not queued: hart h queues it */
    return 0;
}

/* Any context. */
void sched_inbox_stats(unsigned h, struct spinlock_stats *out)
{
    *out = spin_stats(&inboxes[h].lock);
}
