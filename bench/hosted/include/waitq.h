/* The kernel's waiting for a deadline (include/waitq.h) for the sections
 * built as a Linux program (bench/hosted/tasks.c); the sections wait on
 * no wait queue. Sleeps are clock_nanosleep(CLOCK_MONOTONIC,
 * TIMER_ABSTIME). Times are nanoseconds of clock_now_ns(). The include
 * guard is the kernel's. */
#ifndef WAITQ_H
#define WAITQ_H

#include <stdint.h>

/* Any task: block until woken or until deadline_ns; -ETIMEDOUT if the
 * deadline passed first, 0 if woken. */
int sched_block_until(uint64_t deadline_ns);
/* Any task: sleep until clock_now_ns() >= deadline_ns. */
void sleep_until(uint64_t deadline_ns);
void sleep_for(uint64_t ns);

#endif
