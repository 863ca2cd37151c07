/* Host unit tests: what the fake kernel's files (fake_kernel.c: time,
 * interrupts, timers; fake_tasks.c: tasks and the scheduler) share. Not
 * for tests, which use fake_kernel.h. */
#ifndef FAKE_KERNEL_PRIV_H
#define FAKE_KERNEL_PRIV_H

#include "fake_kernel.h"

extern struct fk_stats fk_st;

/* fake_kernel.c. Any task: expired timer callbacks, then the UART
 * handler while its line is asserted. */
void fk_deliver(void);
/* fake_kernel.c. The scheduler, nothing ready: fake time to the next
 * event (fatal if there is none: every task would sleep forever). */
void fk_step(void);
/* fake_tasks.c. fk_init: only task main, running; spawned tasks' stacks
 * freed. */
void fk_tasks_reset(void);

#endif
