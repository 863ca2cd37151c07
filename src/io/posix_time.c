/* POSIX clocks and sleeps on the kernel's monotonic clock (clock.h) and
 * tickless timer (timer.h). CLOCK_REALTIME is the same clock: time since
 * reset; posix_io.h has the semantics. */
#include <stdbool.h>
#include "clock.h"
#include "posix_io.h"
#include "waitq.h"

#define NS_PER_S 1000000000L

/* Any task: a clock we serve. */
static bool clock_ok(clockid_t clock_id)
{
    return clock_id == CLOCK_MONOTONIC || clock_id == CLOCK_REALTIME;
}

/* Any task (clock_nanosleep): a valid timespec in ns, saturating. */
static uint64_t ts_to_ns(const struct timespec *t)
{
    uint64_t s = (uint64_t)t->tv_sec, ns = (uint64_t)t->tv_nsec;
    if (s > (UINT64_MAX - ns) / (uint64_t)NS_PER_S)
        return UINT64_MAX;
    return s * (uint64_t)NS_PER_S + ns;
}

/* Any task: time since reset. */
int POSIX_NAME(clock_gettime)(clockid_t clock_id, struct timespec *ts)
{
    if (!clock_ok(clock_id)) {
        errno = EINVAL;
        return -1;
    }
    if (!ts) {
        errno = EFAULT;
        return -1;
    }
    uint64_t now = clock_now_ns();
    ts->tv_sec = (time_t)(now / (uint64_t)NS_PER_S);
    ts->tv_nsec = (long)(now % (uint64_t)NS_PER_S);
    return 0;
}

/* Any task: sleep until an absolute (TIMER_ABSTIME) or relative time;
 * returns the error number, a deadline already past returns 0 at once. */
int POSIX_NAME(clock_nanosleep)(clockid_t clock_id, int flags,
                                const struct timespec *req, struct timespec *rem)
{
    (void)rem;   /* only written on EINTR, which cannot happen here */
    if (!clock_ok(clock_id) || (flags & ~TIMER_ABSTIME))
        return EINVAL;
    if (!req)
        return EFAULT;
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec >= NS_PER_S)
        return EINVAL;
    uint64_t t = ts_to_ns(req), now = clock_now_ns(), deadline;
    if (flags & TIMER_ABSTIME)
        deadline = t;
    else
        deadline = t > UINT64_MAX - now ? UINT64_MAX : now + t;
    if (deadline > now)
        sleep_until(deadline);
    return 0;
}

/* Any task: relative sleep on CLOCK_MONOTONIC; -1 with errno on error. */
int POSIX_NAME(nanosleep)(const struct timespec *req, struct timespec *rem)
{
    int err = POSIX_NAME(clock_nanosleep)(CLOCK_MONOTONIC, 0, req, rem);
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}
