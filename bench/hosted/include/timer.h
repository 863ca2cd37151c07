/* The kernel's timers (include/timer.h) for the sections built as a
 * Linux program (bench/hosted/tasks.c): a list of armed timers served by
 * one thread of the shim, which at each deadline calls the timer's
 * callback and wakes its waker, as the kernel's timer interrupt does.
 * Times are nanoseconds of clock_now_ns(). The include guard is the
 * kernel's. */
#ifndef TIMER_H
#define TIMER_H

#include <stdbool.h>
#include <stdint.h>
#include "scheduler.h"

struct timer {
    struct timer *next;              /* the next armed one, by deadline */
    uint64_t deadline;
    struct waker waker;
    void (*fire)(struct timer *t);   /* callback (the timer thread), NULL: wake only */
    bool sim;                        /* (the kernel's simulation account: unused) */
    bool armed;
    volatile bool fired;
};

/* Any thread: arm t to wake w at deadline_ns (re-arms if armed);
 * 0, or -EINVAL for a NULL timer. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w);
/* Any thread: disarm t (after its callback, if that is running); true if
 * it had not fired yet (false for NULL). */
bool timer_cancel(struct timer *t);

#endif
