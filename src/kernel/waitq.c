/* Waiting (waitq.h): for an event on a wait queue, or for a deadline.
 * A wait queue is a FIFO list of entries that live on the waiting tasks'
 * stacks, under the queue's ticket lock once tasks run on more than one
 * hart (waiters and wakers may then be on different harts); a deadline is a timer of the caller's on its hart's
 * queue (timer.h) that wakes it. Kept apart from the scheduler and the
 * timer queue so the host tests' fake kernels run this very code over
 * their own blocking and timers. */
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "harts.h"
#include "spinlock.h"
#include "timer.h"
#include "waitq.h"

/* sleep_lead_measure's sleeps: each long enough to block (10 us). */
#define WAKE_LEAD_SLEEPS 4
#define WAKE_LEAD_STEP_NS 10000U

/* q_lock and q_unlock, harts sharing the queues: the lock itself, out
 * of line, so the one-hart path stays a load and a branch. */
static __attribute__((noinline)) void q_spin_lock(struct waitq *q)
{
    spin_lock(&q->lock);
}

/* q_unlock, interrupts masked, q's lock held: release it. */
static __attribute__((noinline)) void q_spin_unlock(struct waitq *q)
{
    spin_unlock(&q->lock);
}

/* link, unlink, waitq_wake_all, interrupts masked: take q's lock if
 * tasks run on more than one hart (harts_many, as the driver's port
 * lock: until then one hart touches the queues, and masking interrupts
 * is enough); whether it was taken, for q_unlock. */
static inline bool q_lock(struct waitq *q)
{
    if (__builtin_expect(!harts_many(), 1))
        return false;
    q_spin_lock(q);
    return true;
}

/* The caller of q_lock: release q's lock if it was taken. */
static inline void q_unlock(struct waitq *q, bool took)
{
    if (took)
        q_spin_unlock(q);
}

/* waitq_wait, interrupts masked: e at the tail of q; then a full fence,
 * so the caller's check of its condition comes after e is visible to
 * any waker (which fences before it looks at the queue). */
static void link(struct waitq *q, struct waitq_entry *e)
{
    bool took = q_lock(q);
    if (!q->head)
        q->tail = &q->head;
    e->next = 0;
    e->q = q;
    __atomic_store_n(q->tail, e, __ATOMIC_RELAXED);   /* head, if q was empty */
    q->tail = &e->next;
    q_unlock(q, took);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* waitq_wait, interrupts masked: e off q, if a wake has not taken it
 * off already. */
static void unlink(struct waitq *q, struct waitq_entry *e)
{
    bool took = q_lock(q);
    if (!e->q) {
        q_unlock(q, took);
        return;
    }
    struct waitq_entry **pp = &q->head;
    while (*pp != e)
        pp = &(*pp)->next;
    __atomic_store_n(pp, e->next, __ATOMIC_RELAXED);  /* head, if e was first */
    if (q->tail == &e->next)
        q->tail = pp;
    e->q = 0;
    q_unlock(q, took);
}

/* Any context (task or ISR): a fence, so the caller's news comes before
 * the look at the queue (a waiter fences after it joins, then checks its
 * condition); nobody there, nothing more. Else every entry is taken off
 * and its task woken under the lock: once an entry is off, its waiter
 * may return and its stack frame be gone. */
void waitq_wake_all(struct waitq *q)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&q->head, __ATOMIC_RELAXED))
        return;
    unsigned long f = irq_save();
    bool took = q_lock(q);
    struct waitq_entry *e = q->head;
    __atomic_store_n(&q->head, 0, __ATOMIC_RELAXED);
    q->tail = &q->head;
    while (e) {
        struct waitq_entry *next = e->next;
        struct waker w = { e->task };
        e->q = 0;
        waker_wake(&w);
        e = next;
    }
    q_unlock(q, took);
    irq_restore(f);
}

/* Any context: a look at q's head, without the lock. */
bool waitq_active(const struct waitq *q)
{
    return __atomic_load_n(&q->head, __ATOMIC_RELAXED) != 0;
}

/* sched_block_until, wait_on, task: as sched_block_until, but 1 for a
 * deadline already past (no block). */
static inline __attribute__((always_inline)) int block_until(uint64_t deadline_ns)
{
    struct timer t = { 0 };

    if (clock_now_ns() >= deadline_ns)
        return 1;
    timer_arm(&t, deadline_ns, (struct waker){ sched_current() });   /* wakes this task */
    sched_block();
    timer_cancel(&t);
    return t.fired ? -ETIMEDOUT : 0;
}

/* Any task. */
int sched_block_until(uint64_t deadline_ns)
{
    int rc = block_until(deadline_ns);
    return rc > 0 ? -ETIMEDOUT : rc;
}

/* Any task. */
void sleep_until(uint64_t deadline_ns)
{
    while (clock_now_ns() < deadline_ns)
        sched_block_until(deadline_ns);
}

/* sleep_until_early's lead (0 until sleep_lead_measure: plain sleeps). */
static uint64_t wake_lead_ns;

/* Boot, hart 0, the boot task alone, interrupts on (kmain): how late,
 * at the least, a sleep returns after its deadline (the timer's
 * interrupt, the wake, the way back to the caller), over a few sleeps
 * to tick-aligned deadlines: what sleep_until_early wakes early by. The
 * clock floors to its ticks, so the lead is at most the real least. */
void sleep_lead_measure(void)
{
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < WAKE_LEAD_SLEEPS; i++) {
        uint64_t deadline = clock_now_ns() + WAKE_LEAD_STEP_NS;
        sleep_until(deadline);
        uint64_t late = clock_now_ns() - deadline;
        least = late < least ? late : least;
    }
    wake_lead_ns = least;
}

/* Any context (selftest=lead): the lead, 0 before sleep_lead_measure. */
uint64_t sleep_lead_ns(void)
{
    return wake_lead_ns;
}

/* Any task (temt_at: uart_be_drain's wait for the last stop bit;
 * selftest=lead). */
void sleep_until_early(uint64_t deadline_ns)
{
    sleep_until(deadline_ns > wake_lead_ns ? deadline_ns - wake_lead_ns : 0);
}

/* Any task. */
void sleep_for(uint64_t ns)
{
    sleep_until(clock_now_ns() + ns);
}

/* waitq_wait, waitq_wait_step, task: the wait, until deadline_ns (0:
 * none); with step_ns, a deadline that the condition's check itself ran
 * past becomes step_ns from then (and stays there: a wake with the
 * condition still false does not move it), so the wait still blocks. */
static inline __attribute__((always_inline)) int wait_on(struct waitq *q, bool (*cond)(void *),
                                                         void *arg, uint64_t deadline_ns,
                                                         uint64_t step_ns)
{
    struct waitq_entry e = { .task = sched_current() };
    int rc = 0;
    unsigned long f = irq_save();

    for (;;) {
        link(q, &e);
        if (cond(arg))
            break;
        if (deadline_ns) {
            int r = block_until(deadline_ns);
            if (r > 0 && step_ns) {             /* the deadline moves, once per pass */
                deadline_ns = clock_now_ns() + step_ns;
                r = block_until(deadline_ns);
            }
            if (r && !cond(arg)) {
                rc = -ETIMEDOUT;
                break;
            }
        } else {
            sched_block();
        }
        unlink(q, &e);
    }
    unlink(q, &e);
    irq_restore(f);
    return rc;
}

/* Task. */
int waitq_wait(struct waitq *q, bool (*cond)(void *), void *arg, uint64_t deadline_ns)
{
    return wait_on(q, cond, arg, deadline_ns, 0);
}

/* Task. */
int waitq_wait_step(struct waitq *q, bool (*cond)(void *), void *arg, uint64_t next_ns,
                    uint64_t step_ns)
{
    return wait_on(q, cond, arg, next_ns, step_ns);
}
