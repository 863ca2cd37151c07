/* The threaded stand-in for the kernel's blocking (fake_sched_threads.h):
 * sched_current, sched_block, waker_wake, timer_arm, timer_cancel and
 * clock_now_ns for code such as src/kernel/waitq.c (its waits and its
 * deadlines), with one task per thread. */
#include <errno.h>
#include <threads.h>
#include <time.h>
#include "fake_sched_threads.h"
#include "clock.h"
#include "csr.h"
#include "harts.h"
#include "timer.h"

_Thread_local struct host_csr host_csr;
/* harts_many (HOST_SMP): a thread per hart from the start, so the queues
 * take their locks. */
int host_harts_many = 1;
static _Thread_local struct hart *current;

/* Test main, before the thread starts. */
void hart_init(struct hart *h, const char *name)
{
    pthread_condattr_t a;

    *h = (struct hart){ .task = { .name = name } };
    pthread_mutex_init(&h->mu, 0);
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&h->cv, &a);
    pthread_condattr_destroy(&a);
}

/* The hart's thread, first. */
void hart_enter(struct hart *h)
{
    current = h;
    host_csr.xstatus = XSTATUS_XIE;
}

/* Any context: CLOCK_MONOTONIC in nanoseconds. */
uint64_t clock_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* spin_wait's hint (spinlock.h), contended: let the holder's thread run. */
void host_spin_hint(void)
{
    thrd_yield();
}

/* irq_enable: no fake interrupts here. */
void host_irq_enabled(void)
{
}

/* Any task: this thread's task. */
struct task *sched_current(void)
{
    return &current->task;
}

/* Any context: set the wake flag of w's task and signal its hart. */
void waker_wake(const struct waker *w)
{
    struct hart *h = (struct hart *)w->task;

    if (!h)
        return;
    pthread_mutex_lock(&h->mu);
    if (!h->woken) {
        h->woken = true;
        h->wakes++;
    }
    pthread_cond_signal(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

/* sched_block, h's own thread: wait for a wake until ts (NULL: none);
 * whether one came (and is taken). */
static bool take_wake(struct hart *h, const struct timespec *ts)
{
    bool woken;

    h->blocks++;
    thrd_yield();   /* a wider window between the caller's check and the block */
    pthread_mutex_lock(&h->mu);
    while (!h->woken) {
        if (ts ? pthread_cond_timedwait(&h->cv, &h->mu, ts) == ETIMEDOUT
               : pthread_cond_wait(&h->cv, &h->mu) != 0)
            break;
    }
    woken = h->woken;
    if (woken) {
        h->woken = false;
        h->taken++;
    }
    pthread_mutex_unlock(&h->mu);
    h->block_timeouts += !woken;
    return woken;
}

/* Any task (waitq.c's sched_block_until), this thread's hart: arm t,
 * the hart's one timer, to end the task's blocks at deadline_ns; 0, or
 * -EINVAL for a NULL timer. A second timer, or one that wakes another
 * task, is counted bad: the blocks would not model it. */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    struct hart *h = current;

    if (!t)
        return -EINVAL;
    h->bad_timers += (h->timer && h->timer != t) || w.task != &h->task;
    t->waker = w;
    t->fired = false;
    t->entry.deadline = deadline_ns;
    t->entry.armed = true;
    h->timer = t;
    return 0;
}

/* Any task, this thread's hart: disarm t; true if it had not fired yet
 * (false for NULL). */
bool timer_cancel(struct timer *t)
{
    struct hart *h = current;

    if (!t || h->timer != t)
        return false;
    h->timer = 0;
    t->entry.armed = false;
    return true;
}

/* Any task: until a wake (at once for a kept one) or, with the hart's
 * timer armed, until its deadline, when it fires (its wake ends the
 * block, as the kernel's timer interrupt's does). */
void sched_block(void)
{
    struct hart *h = current;
    struct timer *t = h->timer;

    if (!t) {
        take_wake(h, 0);
        return;
    }
    struct timespec ts = { (time_t)(t->entry.deadline / 1000000000u),
                           (long)(t->entry.deadline % 1000000000u) };
    if (!take_wake(h, &ts)) {
        h->timer = 0;
        t->entry.armed = false;
        t->fired = true;
    }
}
