/* Waiting (waitq.c): for an event on a wait queue, or for a deadline.
 * A wait queue: any number of tasks wait for one event, in the order they
 * came, and none is lost. A waiter joins the queue before it checks its
 * condition, both with interrupts masked, then blocks (the queue's lock
 * and a fence on either side order it against a waker on another hart); a wake (from a task
 * or an ISR) takes every waiter off the queue and makes each runnable, and
 * each checks its own condition again. Built on wakers (scheduler.h);
 * a deadline is a timer on the waiter's hart (timer.h) that wakes it. */
#ifndef WAITQ_H
#define WAITQ_H

#include <stdbool.h>
#include <stdint.h>
#include "scheduler.h"
#include "spinlock.h"

struct waitq_entry {
    struct waitq_entry *next;
    struct task *task;
    struct waitq *q;              /* the queue it is on, NULL when off */
};

struct waitq {
    struct waitq_entry *head;     /* stored and peeked atomically (relaxed) */
    struct waitq_entry **tail;    /* NULL: empty (set up lazily) */
    struct spinlock lock;         /* the list, while harts share (harts_many) */
};

/* Any context (task or ISR): wake every waiter of q, oldest first. Costs
 * a call, a fence and one load when nobody waits. */
void waitq_wake_all(struct waitq *q);

/* Any context: whether anybody waits on q. */
bool waitq_active(const struct waitq *q);

/* Task: wait on q until cond(arg) holds, or until deadline_ns (0: no
 * deadline) has passed: 0, or -ETIMEDOUT. cond runs with interrupts
 * masked; a wake that comes between its check and the block is not lost. */
int waitq_wait(struct waitq *q, bool (*cond)(void *), void *arg, uint64_t deadline_ns);

/* Task: a re-check's wait, as waitq_wait until next_ns (> 0), except that
 * when the deadline has passed by the time the wait would block (cond's
 * own check ran past it), the deadline becomes step_ns from then: a task
 * that re-checks at a period it cannot keep still blocks each time, so
 * its hart's other tasks (under a cooperative scheduler) run. 0, or
 * -ETIMEDOUT. */
int waitq_wait_step(struct waitq *q, bool (*cond)(void *), void *arg, uint64_t next_ns,
                    uint64_t step_ns);

/* Any task: block until woken or until deadline_ns; -ETIMEDOUT if the
 * deadline passed first, 0 if woken. Callers re-check their condition. */
int sched_block_until(uint64_t deadline_ns);
/* Any task: sleep until clock_now_ns() >= deadline_ns (returns at once
 * for a deadline in the past). */
void sleep_until(uint64_t deadline_ns);
void sleep_for(uint64_t ns);
/* Any task: sleep to about deadline_ns, woken early by the least time a
 * wake-up took at boot (sleep_lead_measure), so that the caller runs
 * again at deadline_ns or a little after it, not a whole wake-up later.
 * Where a wake-up runs faster than the boot's least it returns a little
 * early: the caller checks what it waited for. */
void sleep_until_early(uint64_t deadline_ns);
/* Boot, hart 0, the boot task alone, interrupts on: measure
 * sleep_until_early's lead (until then it sleeps to the deadline). */
void sleep_lead_measure(void);
/* Any context: the lead sleep_until_early wakes by. */
uint64_t sleep_lead_ns(void);

#endif
