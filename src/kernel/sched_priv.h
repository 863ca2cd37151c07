/* Between the scheduler's files (scheduler.c, sched_inbox.c). */
#ifndef SCHED_PRIV_H
#define SCHED_PRIV_H

#include "scheduler.h"

/* Any task: t set up to start entry(arg) on stack[words] on hart h, not
 * queued. */
void sched_task_setup(struct task *t, const char *name, void (*entry)(void *), void *arg,
                      uint64_t *stack, size_t words, unsigned h);
/* Interrupts masked, t a task of this hart: queue it unless it is queued
 * or finished. */
void sched_wake_local(struct task *t);
/* Any context, t a task of another hart: queue it in that hart's inbox
 * (once until that hart takes it) and send the hart an IPI
 * (sched_inbox.c). */
void sched_wake_remote(struct task *t);
/* IPI handler, interrupts masked: this hart's inbox emptied, its tasks
 * linked by wake_next, oldest first (sched_inbox.c). */
struct task *sched_inbox_take(void);

#endif
