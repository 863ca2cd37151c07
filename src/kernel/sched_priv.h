/* Between the scheduler's files (scheduler.c, sched_smp.c). */
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
 * (once until that hart takes it) and send the hart an IPI. */
void sched_wake_remote(struct task *t);

#endif
