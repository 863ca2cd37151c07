/* Sleeping and waiting with a deadline, on top of the timer queue and
 * the scheduler (timer.h). Kept apart from the queue so the host tests'
 * fake kernel runs this very code over its own timers. */
#include <errno.h>
#include "clock.h"
#include "timer.h"

/* Any task. */
int sched_block_until(uint64_t deadline_ns)
{
    struct timer t = { 0 };

    if (clock_now_ns() >= deadline_ns)
        return -ETIMEDOUT;
    timer_arm(&t, deadline_ns, waker_current());
    sched_block();
    timer_cancel(&t);
    return t.fired ? -ETIMEDOUT : 0;
}

/* Any task. */
void sleep_until(uint64_t deadline_ns)
{
    while (clock_now_ns() < deadline_ns)
        sched_block_until(deadline_ns);
}

/* Any task. */
void sleep_for(uint64_t ns)
{
    sleep_until(clock_now_ns() + ns);
}
