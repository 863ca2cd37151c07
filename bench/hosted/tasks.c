/* The kernel's tasks, timers and sleeps (scheduler.h, timer.h, waitq.h)
 * on Linux threads.
 * One lock guards every task's state and pending-wake flag and the list
 * of armed timers; one condition variable (CLOCK_MONOTONIC) is signalled
 * at every wake and task end. A task is a detached thread that marks
 * itself done, under the lock, as its last act, so a cancel is only ever
 * sent to a live thread, and only while the task object is still its
 * own (struct task.thread). One timer thread serves the armed timers.
 * On a kernel without threads (hosted_no_threads) a task runs to its end
 * in the thread that spawns it, a block can only wait for its deadline,
 * and no timer fires (the runner's section deadline is not enforced);
 * without clock_nanosleep (hosted_no_nanosleep) sleeps wait in ppoll. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include "clock.h"
#include "hosted.h"
#include "kernel.h"
#include "scheduler.h"
#include "timer.h"
#include "waitq.h"
#undef sched_yield              /* from here on, the C library's */

#define NS_PER_S        1000000000ULL
#define KILL_TIMEOUT_NS (2 * NS_PER_S)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed, timer_cv;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static __thread struct task *current;
static struct task main_task = { .name = "main", .state = TASK_RUNNING };
static struct timer *armed, *firing;
static bool timer_thread_up;

/* pthread_once, from any entry point: the condition variables on
 * CLOCK_MONOTONIC, the clock of every deadline. */
static void init_once(void)
{
    pthread_condattr_t a;

    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&changed, &a);
    pthread_cond_init(&timer_cv, &a);
    pthread_condattr_destroy(&a);
}

/* Any thread: take the lock (the condition variables made first). */
static void lock_shim(void)
{
    pthread_once(&once, init_once);
    pthread_mutex_lock(&lock);
}

/* Any thread: cleanup handler of a cancelled wait, and the unlock. */
static void unlock_shim(void *arg)
{
    (void)arg;
    pthread_mutex_unlock(&lock);
}

/* Any thread holding the lock: wait on cv until deadline_ns (UINT64_MAX:
 * no deadline); ETIMEDOUT once it has passed. */
static int wait_until(pthread_cond_t *cv, uint64_t deadline_ns)
{
    if (deadline_ns == UINT64_MAX)
        return pthread_cond_wait(cv, &lock);
    struct timespec ts = { (time_t)(deadline_ns / NS_PER_S), (long)(deadline_ns % NS_PER_S) };
    return pthread_cond_timedwait(cv, &lock, &ts);
}

/* A task's thread, last (task_main's cleanup handler, cancelled or not):
 * the task is done, and waiters (task_kill) learn it; unless *t already
 * names a new task (the owner may reuse the object, or clear it, once
 * the entry has returned: this thread is then no longer its task). */
static void task_done(void *arg)
{
    struct task *t = arg;
    lock_shim();
    if (pthread_equal(t->thread, pthread_self())) {
        t->state = TASK_DONE;
        pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
}

/* A task's thread (started by task_spawn). */
static void *task_main(void *arg)
{
    struct task *t = arg;

    current = t;
    pthread_cleanup_push(task_done, t);
    t->entry(t->arg);
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, 0);
    pthread_cleanup_pop(1);
    return 0;
}

/* task_spawn on a kernel without threads: t's entry to its end, now, as
 * the current task. */
static void run_inline(struct task *t)
{
    struct task *caller = sched_current();

    current = t;
    t->state = TASK_RUNNING;
    t->entry(t->arg);
    t->state = TASK_DONE;
    current = caller;
}

/* Any task. */
void task_spawn(struct task *t, const char *name, void (*entry)(void *), void *arg,
                uint64_t *stack, size_t words)
{
    pthread_attr_t a;

    (void)stack;
    (void)words;
    if (hosted_no_threads) {
        *t = (struct task){ .name = name, .entry = entry, .arg = arg, .state = TASK_READY };
        run_inline(t);
        return;
    }
    lock_shim();
    *t = (struct task){ .name = name, .entry = entry, .arg = arg, .state = TASK_READY };
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t->thread, &a, task_main, t);
    pthread_attr_destroy(&a);
    pthread_mutex_unlock(&lock);
    if (rc)
        panic("task_spawn %s: pthread_create: error %d", name, rc);
}

/* Any task. */
void task_yield(void)
{
    sched_yield();
}

/* Any task. */
struct task *sched_current(void)
{
    if (!current)
        current = &main_task;   /* the main thread, the only one without a task */
    return current;
}

/* sched_block, sched_block_until: wait for a wake of me until
 * deadline_ns (UINT64_MAX: none) and consume it; whether it came. A
 * cancelled wait leaves the lock (unlock_shim). */
static bool wait_wake(struct task *volatile me, volatile uint64_t deadline_ns)
{
    volatile bool woken;

    if (hosted_no_threads) {    /* no one else runs: a wake came already, or none will */
        woken = me->queued;
        me->queued = false;
        if (!woken && deadline_ns == UINT64_MAX)
            panic("task %s blocks for good: the kernel has no threads (%s) to wake it",
                  me->name, hosted_no_threads);
        if (!woken)
            sleep_until(deadline_ns);
        return woken;
    }
    lock_shim();
    pthread_cleanup_push(unlock_shim, 0);
    while (!me->queued && wait_until(&changed, deadline_ns) != ETIMEDOUT)
        ;
    woken = me->queued;
    me->queued = false;
    pthread_cleanup_pop(1);
    return woken;
}

/* Any task. */
void sched_block(void)
{
    wait_wake(sched_current(), UINT64_MAX);
}

/* Any task. */
int sched_block_until(uint64_t deadline_ns)
{
    if (clock_now_ns() >= deadline_ns)
        return -ETIMEDOUT;
    return wait_wake(sched_current(), deadline_ns) ? 0 : -ETIMEDOUT;
}

/* Any thread. */
void waker_wake(const struct waker *w)
{
    if (!w || !w->task)
        return;
    lock_shim();
    if (w->task->state != TASK_DONE) {
        w->task->queued = true;
        pthread_cond_broadcast(&changed);
    }
    pthread_mutex_unlock(&lock);
}

/* Any thread. */
void task_abort_from_isr(struct task *t)
{
    lock_shim();
    if (t->state != TASK_DONE)
        pthread_cancel(t->thread);
    pthread_mutex_unlock(&lock);
}

/* Any task. */
void task_kill(struct task *t)
{
    uint64_t deadline = clock_now_ns() + KILL_TIMEOUT_NS;

    lock_shim();
    if (t->state != TASK_DONE)
        pthread_cancel(t->thread);
    while (t->state != TASK_DONE && wait_until(&changed, deadline) != ETIMEDOUT)
        ;
    bool done = t->state == TASK_DONE;
    pthread_mutex_unlock(&lock);
    if (!done)
        panic("task %s did not end when cancelled (it blocks nowhere)", t->name);
}

/* Timer thread (started by the first timer_arm): at each deadline, the
 * timer's callback and its waker, outside the lock; cancels wait for a
 * callback that is running (firing). */
static void *timer_main(void *arg)
{
    (void)arg;
    lock_shim();
    for (;;) {
        struct timer *t = armed;
        if (!t || t->deadline > clock_now_ns()) {
            wait_until(&timer_cv, t ? t->deadline : UINT64_MAX);
            continue;
        }
        armed = t->next;
        t->armed = false;
        t->fired = true;
        firing = t;
        void (*fire)(struct timer *) = t->fire;
        struct waker w = t->waker;
        pthread_mutex_unlock(&lock);
        if (fire)
            fire(t);
        waker_wake(&w);
        lock_shim();
        firing = 0;
        pthread_cond_broadcast(&changed);
    }
    return 0;
}

/* Any thread holding the lock: t out of the armed list, if there. */
static void unlink_timer(struct timer *t)
{
    for (struct timer **p = &armed; *p; p = &(*p)->next)
        if (*p == t) {
            *p = t->next;
            break;
        }
    t->armed = false;
}

/* Any thread. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    pthread_t th;

    if (!t)
        return -EINVAL;
    lock_shim();
    if (t->armed)
        unlink_timer(t);
    t->deadline = deadline_ns;
    t->waker = w;
    t->fired = false;
    t->armed = true;
    struct timer **p = &armed;
    while (*p && (*p)->deadline <= deadline_ns)
        p = &(*p)->next;
    t->next = *p;
    *p = t;
    if (!timer_thread_up && !hosted_no_threads && pthread_create(&th, 0, timer_main, 0) == 0) {
        pthread_detach(th);
        timer_thread_up = true;
    }
    bool up = timer_thread_up;
    pthread_cond_signal(&timer_cv);
    pthread_mutex_unlock(&lock);
    if (!up && !hosted_no_threads)
        panic("timer_arm: no timer thread");
    return 0;
}

/* Any thread. */
bool timer_cancel(struct timer *t)
{
    if (!t)
        return false;
    lock_shim();
    while (firing == t)
        wait_until(&changed, UINT64_MAX);
    bool was = t->armed;
    if (was)
        unlink_timer(t);
    pthread_mutex_unlock(&lock);
    return was;
}

/* Any task: absolute sleeps on CLOCK_MONOTONIC, resumed after a signal;
 * without clock_nanosleep, ppoll's relative timeouts up to the deadline
 * (a ppoll that fails otherwise than EINTR ends the sleep early). */
void sleep_until(uint64_t deadline_ns)
{
    struct timespec ts = { (time_t)(deadline_ns / NS_PER_S), (long)(deadline_ns % NS_PER_S) };
    if (!hosted_no_nanosleep) {
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, 0) == EINTR)
            ;
        return;
    }
    for (uint64_t now; (now = clock_now_ns()) < deadline_ns;) {
        uint64_t left = deadline_ns - now;
        struct timespec rel = { (time_t)(left / NS_PER_S), (long)(left % NS_PER_S) };
        if (ppoll(NULL, 0, &rel, NULL) < 0 && errno != EINTR)
            return;
    }
}

/* Any task. */
void sleep_for(uint64_t ns)
{
    sleep_until(clock_now_ns() + ns);
}
