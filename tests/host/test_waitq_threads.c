/* The wait queue (src/kernel/waitq.c) with real threads: each thread is
 * a hart running one task (fake_sched_threads.c). WAITERS waiter tasks
 * and WAKERS waker tasks meet in ROUNDS barrier rounds: a waiter marks
 * the round arrived, wakes the arrival queue and waits on the go queue
 * until every waker has posted the round; a waker waits on the arrival
 * queue until every waiter has arrived, posts the round and wakes the go
 * queue; every other round a waker first polls for the arrivals, to
 * post while the last waiter joins. Every other wait of a waiter has a
 * deadline 0..DEADLINE_NS ahead (timed out, it waits again without
 * one); a condition found false sometimes yields, a slow hart between
 * its check and its block.
 * A watchdog fails the test when no wait returns for WATCHDOG_S seconds,
 * counting the tasks stuck with their condition true (lost wake-ups).
 * Main checks every return, the wake counts, the queues empty and every
 * deadline's timer (waitq.c's sched_block_until, on the fake's timers)
 * cancelled.
 *
 * Built twice: under ThreadSanitizer (host.waitq_tsan), which reports
 * any race on the queue; and under ASan and UBSan (host.waitq_threads),
 * with more rounds, where a missing fence lets the CPU's store-load
 * reordering lose wakes (TSan does not model fences, and its atomics
 * fence on their own, so under it that loss all but never shows). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>
#include "fake_sched_threads.h"
#include "check.h"
#include "clock.h"
#include "csr.h"
#include "waitq.h"

#define WAITERS     4
#define WAKERS      2
#define TASKS       (WAITERS + WAKERS)
#ifdef __SANITIZE_THREAD__
#define SUITE       "waitq_tsan"
#define ROUNDS      5000        /* every round a handoff of six threads: under
                                   TSan on two cores loaded by other work, a
                                   round can take milliseconds */
#else
#define SUITE       "waitq_threads"
#define ROUNDS      100000
#endif
#define DEADLINE_NS 100000u
#define WATCHDOG_S  15
#define YIELD_EVERY 4
#define POLLS       4000

/* One wait's condition: every marks[i] (n of them) has reached round. */
struct cond_arg {
    const unsigned long *marks;
    unsigned n;
    unsigned long round;
    struct tester *self;
};

/* A task: its hart, and its record (written by its own thread only). */
struct tester {
    struct hart hart;
    unsigned idx;
    struct cond_arg *waiting;      /* atomic: the wait in progress, or NULL */
    bool last_cond;                /* cond's last result */
    uint32_t seed;
    unsigned long ok, timeouts;    /* waitq_wait's 0 and -ETIMEDOUT */
    unsigned long bad_ok;          /* 0 with the condition false */
    unsigned long bad_timeouts;    /* -ETIMEDOUT with it true, early or untimed */
    unsigned long bad_rc;          /* anything else */
    unsigned long irq_on_in_cond;  /* cond ran with interrupts on */
    unsigned long irq_off_after;   /* interrupts still masked on return */
};

static struct waitq arrival_q, go_q;
static unsigned long arrived[WAITERS], posted[WAKERS];   /* atomic, one writer each */
static struct tester tasks[TASKS];
static unsigned long returns;      /* atomic: waitq_wait returns, the watchdog's progress */
static int finished;               /* atomic: main has joined every task */

/* cond, the watchdog: whether a's condition holds now. */
static bool cond_holds(const struct cond_arg *a)
{
    for (unsigned i = 0; i < a->n; i++)
        if (__atomic_load_n(&a->marks[i], __ATOMIC_RELAXED) < a->round)
            return false;
    return true;
}

/* A task's thread: xorshift32, a value in [0, bound). */
static uint32_t rnd(struct tester *t, uint32_t bound)
{
    t->seed ^= t->seed << 13;
    t->seed ^= t->seed >> 17;
    t->seed ^= t->seed << 5;
    return t->seed % bound;
}

/* waitq_wait, interrupts masked: the condition, recorded; when false,
 * one time in YIELD_EVERY the thread yields, a slow hart between the
 * check and the block (a wake must still find it). */
static bool cond(void *arg)
{
    struct cond_arg *a = arg;
    struct tester *t = a->self;

    t->irq_on_in_cond += (host_csr.xstatus & XSTATUS_XIE) != 0;
    t->last_cond = cond_holds(a);
    if (!t->last_cond && rnd(t, YIELD_EVERY) == 0)
        thrd_yield();
    return t->last_cond;
}

/* A task's thread: wait on q until every marks[i] reaches round, first
 * until deadline_ns (0: none), then (timed out) without one; checks
 * every return. */
static void wait_round(struct tester *t, struct waitq *q, const unsigned long *marks,
                       unsigned n, unsigned long round, uint64_t deadline_ns)
{
    struct cond_arg a = { marks, n, round, t };

    __atomic_store_n(&t->waiting, &a, __ATOMIC_RELEASE);
    for (;;) {
        int rc = waitq_wait(q, cond, &a, deadline_ns);
        t->irq_off_after += !(host_csr.xstatus & XSTATUS_XIE);
        if (rc == 0) {
            t->ok++;
            t->bad_ok += !t->last_cond || !cond_holds(&a);
            break;
        }
        if (rc != -ETIMEDOUT) {
            t->bad_rc++;
            break;
        }
        t->timeouts++;
        t->bad_timeouts += t->last_cond || !deadline_ns || clock_now_ns() < deadline_ns;
        deadline_ns = 0;
    }
    __atomic_store_n(&t->waiting, 0, __ATOMIC_RELAXED);
    __atomic_fetch_add(&returns, 1, __ATOMIC_RELAXED);
}

/* Thread: a waiter task, ROUNDS rounds. */
static void *waiter(void *arg)
{
    struct tester *t = arg;

    hart_enter(&t->hart);
    for (unsigned long r = 1; r <= ROUNDS; r++) {
        __atomic_store_n(&arrived[t->idx], r, __ATOMIC_RELAXED);
        waitq_wake_all(&arrival_q);
        uint64_t deadline = (t->idx + r) % 2 ? clock_now_ns() + rnd(t, DEADLINE_NS) : 0;
        wait_round(t, &go_q, posted, WAKERS, r, deadline);
    }
    return 0;
}

/* A waker's thread, every other round: poll (at most POLLS looks) for
 * every waiter's arrival, so as to post the round at once, while the
 * last waiter joins the go queue. */
static void poll_arrivals(unsigned long round)
{
    struct cond_arg a = { arrived, WAITERS, round, 0 };

    for (unsigned i = 0; i < POLLS && !cond_holds(&a); i++)
        ;
}

/* Thread: a waker task, ROUNDS rounds. */
static void *waker(void *arg)
{
    struct tester *t = arg;
    unsigned k = t->idx - WAITERS;

    hart_enter(&t->hart);
    for (unsigned long r = 1; r <= ROUNDS; r++) {
        if ((k + r) % 2)
            poll_arrivals(r);
        wait_round(t, &arrival_q, arrived, WAITERS, r, 0);
        __atomic_store_n(&posted[k], r, __ATOMIC_RELAXED);
        waitq_wake_all(&go_q);
    }
    return 0;
}

/* Thread: fail the test (exit 1) when no wait returns for WATCHDOG_S
 * seconds, until main has joined every task. */
static void *watchdog(void *arg)
{
    unsigned long last = 0;
    unsigned idle_ms = 0;

    (void)arg;
    while (!__atomic_load_n(&finished, __ATOMIC_ACQUIRE)) {
        usleep(10000);
        unsigned long now = __atomic_load_n(&returns, __ATOMIC_RELAXED);
        idle_ms = now == last ? idle_ms + 10 : 0;
        last = now;
        if (idle_ms < WATCHDOG_S * 1000)
            continue;
        unsigned waiting = 0, lost = 0;
        for (unsigned i = 0; i < TASKS; i++) {
            struct cond_arg *a = __atomic_load_n(&tasks[i].waiting, __ATOMIC_ACQUIRE);
            waiting += a != 0;
            if (a && cond_holds(a)) {
                lost++;
                fprintf(stderr, SUITE ": %s %u stuck in waitq_wait on the %s queue "
                        "in round %lu, its condition true\n", tasks[i].hart.task.name, i,
                        a->marks == posted ? "go" : "arrival", a->round);
            }
        }
        fprintf(stderr, SUITE ": %s: no wait returned for %d s; %u of %u tasks stuck "
                "in waitq_wait with their condition true (%u waiting)\n",
                lost ? "lost wake-up" : "stalled", WATCHDOG_S, lost, TASKS, waiting);
        _exit(1);
    }
    return 0;
}

int main(void)
{
    pthread_t th[TASKS], wd;
    uint64_t t0 = clock_now_ns();

    for (unsigned i = 0; i < TASKS; i++) {
        hart_init(&tasks[i].hart, i < WAITERS ? "waiter" : "waker");
        tasks[i].idx = i;
        tasks[i].seed = 0x9E3779B9u * (i + 1);
    }
    pthread_create(&wd, 0, watchdog, 0);
    for (unsigned i = 0; i < TASKS; i++)
        pthread_create(&th[i], 0, i < WAITERS ? waiter : waker, &tasks[i]);
    for (unsigned i = 0; i < TASKS; i++)
        pthread_join(th[i], 0);
    __atomic_store_n(&finished, 1, __ATOMIC_RELEASE);
    pthread_join(wd, 0);

    unsigned long ok = 0, timeouts = 0, wakes = 0, taken = 0, kept = 0, blocks = 0;
    unsigned long block_timeouts = 0;
    for (unsigned i = 0; i < TASKS; i++) {
        struct tester *t = &tasks[i];
        CHECK_EQ(t->ok, ROUNDS);
        CHECK_EQ(t->bad_ok, 0);
        CHECK_EQ(t->bad_timeouts, 0);
        CHECK_EQ(t->bad_rc, 0);
        CHECK_EQ(t->irq_on_in_cond, 0);
        CHECK_EQ(t->irq_off_after, 0);
        CHECK_EQ(t->hart.bad_timers, 0);
        CHECK(!t->hart.timer);                  /* every deadline's timer cancelled */
        if (i >= WAITERS)
            CHECK_EQ(t->timeouts, 0);
        ok += t->ok;
        timeouts += t->timeouts;
        wakes += t->hart.wakes;
        taken += t->hart.taken;
        kept += t->hart.woken;
        blocks += t->hart.blocks;
        block_timeouts += t->hart.block_timeouts;
    }
    for (unsigned i = 0; i < WAITERS; i++)
        CHECK_EQ(arrived[i], ROUNDS);
    for (unsigned k = 0; k < WAKERS; k++)
        CHECK_EQ(posted[k], ROUNDS);
    CHECK_EQ(ok, (unsigned long)TASKS * ROUNDS);
    CHECK_EQ(wakes, taken + kept);              /* every wake taken by a block, or kept */
    CHECK_EQ(blocks, taken + block_timeouts);   /* every block woken or timed out */
    CHECK(!waitq_active(&arrival_q) && !waitq_active(&go_q));
    CHECK(arrival_q.lock.next == arrival_q.lock.serving);
    CHECK(go_q.lock.next == go_q.lock.serving);
    printf(SUITE ": %u tasks x %u rounds in %.2f s: %lu waits, %lu timed out; "
           "%lu blocks, %lu timed out; %lu wakes\n", TASKS, ROUNDS,
           (double)(clock_now_ns() - t0) / 1e9, ok + timeouts, timeouts, blocks,
           block_timeouts, wakes);
    CHECK(timeouts > 0);   /* the deadlines did time out, some of them */
    return check_exit(SUITE);
}
