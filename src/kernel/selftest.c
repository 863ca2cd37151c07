/* Kernel self-tests of the scheduler and the timer (selftest.h); the
 * boot argument selftest=<name> chooses one (bench/selftests.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "kernel.h"
#include "scheduler.h"
#include "selftest.h"
#include "timer.h"
#include "waitq.h"

#define ST_TASKS        5
#define ST_STACK_WORDS  1024
#define ST_BUSY_TIMERS  100
#define ST_BUSY_STEP_NS 50000ULL
#define ST_ERRNO_MARK   4321
#define ST_IDLE_NS      20000ULL
#define ST_LEAD_PHASES  8

static struct task tasks[ST_TASKS];
static uint64_t stacks[ST_TASKS][ST_STACK_WORDS];
static uint64_t sleep_base;
static int wake_order[ST_TASKS], woken;

/* Sleeper task i: sleep to its deadline, record the order it woke in. */
static void sleeper(void *arg)
{
    static const unsigned offsets_us[ST_TASKS] = { 50, 10, 40, 20, 30 };
    int i = (int)(long)arg;
    sleep_until(sleep_base + offsets_us[i] * 1000ULL);
    wake_order[woken++] = i;
}

/* Main task: five tasks sleep to interleaved deadlines; they must wake
 * in deadline order (1, 3, 4, 2, 0). */
int selftest_sleep_order(void)
{
    static const int expect[ST_TASKS] = { 1, 3, 4, 2, 0 };
    sleep_base = clock_now_ns() + 100000;
    for (int i = 0; i < ST_TASKS; i++)
        task_spawn(&tasks[i], "sleeper", sleeper, (void *)(long)i, stacks[i], ST_STACK_WORDS);
    while (woken < ST_TASKS)
        sleep_for(100000);
    printf("selftest=sleep-order order=%d,%d,%d,%d,%d\n", wake_order[0], wake_order[1],
           wake_order[2], wake_order[3], wake_order[4]);
    return memcmp(wake_order, expect, sizeof expect) == 0;
}

/* Overflow task: recurse far past its 1024-word stack, then yield so the
 * scheduler's guard check sees it. The words below the stack are a
 * landing zone inside the same array, so nothing else is hit. */
static __attribute__((noipa)) unsigned recurse(unsigned depth)
{
    uint8_t frame[256];
    memset(frame, (int)depth, sizeof frame);   /* a frame that is used */
    __asm__ volatile("" :: "r"(frame) : "memory");   /* keep every frame */
    unsigned r = depth ? recurse(depth - 1) : 0;
    __asm__ volatile("" :: "r"(frame) : "memory");
    return r + frame[0];
}

static void overflower(void *arg)
{
    (void)arg;
    recurse(48);      /* ~48 x 288 bytes: well past 8 KiB */
    sched_yield();
}

/* Main task: expected to end in a panic naming task "overflower". */
int selftest_stack_overflow(void)
{
    /* stacks[0..1] are contiguous: stacks[0] is the landing zone. */
    task_spawn(&tasks[0], "overflower", overflower, 0, stacks[1], ST_STACK_WORDS);
    sched_yield();
    sched_yield();
    return 0;         /* not reached when the guard works */
}

static volatile unsigned runs, flag_errors;

/* Counter task, main task: a switch gave the task back its own
 * interrupt flag (on: `on`); counts a miss in flag_errors. */
static void flag_check(bool on)
{
    if (irq_enabled() != on)
        flag_errors++;
}

/* Counter task: count each time it runs, block in between, with
 * interrupts masked (they stay so until it unmasks them). */
static void counter(void *arg)
{
    (void)arg;
    for (;;) {
        if (++runs == 3)
            return;          /* third run: finish */
        unsigned long f = irq_save();
        sched_block();
        flag_check(false);
        irq_restore(f);
    }
}

/* Main task: a double wake enqueues once; waking a finished task does
 * nothing; a task woken while it still runs does not lose the wake; each
 * task comes back from the scheduler with its own interrupt flag (main
 * yields with interrupts on; the counter blocks with them masked; main
 * blocks masked, woken before it blocks, then through the idle loop). */
int selftest_wakers(void)
{
    struct waker w = { &tasks[0] };
    int ok = 1;

    task_spawn(&tasks[0], "counter", counter, 0, stacks[0], ST_STACK_WORDS);
    sched_yield();                        /* runs=1, counter blocks */
    flag_check(true);
    ok &= runs == 1;
    waker_wake(&w);
    waker_wake(&w);                       /* same task: added once */
    sched_yield();
    flag_check(true);
    ok &= runs == 2;
    sched_yield();                        /* nobody woke it: stays blocked */
    ok &= runs == 2;
    struct waker me = waker_current();
    unsigned long f = irq_save();         /* main blocks masked, nobody else ready: */
    waker_wake(&me);
    sched_block();                        /* woken before it blocked: no switch */
    flag_check(false);
    sched_block_until(clock_now_ns() + ST_IDLE_NS);   /* idles until its timer */
    flag_check(false);
    irq_restore(f);
    waker_wake(&w);
    sched_yield();                        /* third run: it finishes */
    flag_check(true);
    ok &= tasks[0].state == TASK_DONE;
    waker_wake(&w);                       /* finished: ignored */
    sched_yield();
    ok &= runs == 3 && tasks[0].state == TASK_DONE && flag_errors == 0;
    printf("selftest=wakers runs=%u state=%d flag_errors=%u\n", runs, tasks[0].state,
           flag_errors);
    return ok;
}

#define RING_ROUNDS 3

static char ring_trace[ST_TASKS * RING_ROUNDS + 1];
static unsigned ring_len;

/* Ring task: note its letter, yield, RING_ROUNDS times. */
static void ring_member(void *arg)
{
    for (int r = 0; r < RING_ROUNDS; r++) {
        ring_trace[ring_len++] = (char)(uintptr_t)arg;
        sched_yield();
    }
}

/* Main task, interrupts masked (so the timer cannot fire before the
 * block): whether sched_block blocks until a timer ST_IDLE_NS away,
 * the hart idling on this task, rather than returning at once. */
static bool blocks_until_timer(struct waker me)
{
    struct timer t = { 0 };

    timer_arm(&t, clock_now_ns() + ST_IDLE_NS, me);
    sched_block();
    return !timer_cancel(&t);             /* it fired: the block waited */
}

/* Main task: the run ring: tasks run in the order they were added, a
 * killed queued task never runs, a wake of the running task is consumed
 * by its yield, and two wakes while its hart idles on it count once;
 * a task given its own account (A) is charged there, the others (B) go
 * to their hart's shared one. */
int selftest_ring(void)
{
    struct waker me = waker_current();
    struct timer t[2] = { 0 };

    for (unsigned i = 0; i < 4; i++)
        task_spawn(&tasks[i], "ring", ring_member, (void *)(uintptr_t)('A' + i), stacks[i],
                   ST_STACK_WORDS);
    task_kill(&tasks[3]);                 /* D: queued, never runs */
    task_acct_own(&tasks[0]);
    while (tasks[0].state != TASK_DONE || tasks[1].state != TASK_DONE ||
           tasks[2].state != TASK_DONE)
        sched_yield();
    unsigned long f = irq_save();
    waker_wake(&me);                      /* kept while it runs ... */
    sched_yield();                        /* ... and consumed here */
    bool yield_consumed = blocks_until_timer(me);
    uint64_t d = clock_now_ns() + ST_IDLE_NS;
    timer_arm(&t[0], d, me);              /* two wakes in one interrupt, */
    timer_arm(&t[1], d, me);              /* the hart idling on this task */
    sched_block();
    bool both_fired = !timer_cancel(&t[0]) && !timer_cancel(&t[1]);
    bool idle_once = both_fired && blocks_until_timer(me);
    irq_restore(f);
    bool own = tasks[0].acct.instret > 0, shared = tasks[1].acct.instret > 0;
    printf("selftest=ring order=%s killed_ran=%d yield_consumed=%d idle_once=%d own_acct=%d "
           "shared_acct=%d\n", ring_trace,
           tasks[3].state != TASK_DONE || strchr(ring_trace, 'D') != NULL, yield_consumed,
           idle_once, own, shared);
    return strcmp(ring_trace, "ABCABCABC") == 0 && !strchr(ring_trace, 'D') && yield_consumed &&
           idle_once && own && !shared;
}

/* Main task: sleep_until_early wakes the boot's measured lead early, so
 * that it is back at its deadline or a little after it (under icount
 * never before: the boot's least wake-up is the least), sooner than a
 * plain sleep, which is back a whole wake-up after it; deadlines at
 * ST_LEAD_PHASES points of a tick of the clock. */
int selftest_lead(void)
{
    uint64_t tick = clock_ticks_to_ns(1), lead = sleep_lead_ns(), plain_min = UINT64_MAX;
    int64_t early_min = INT64_MAX, early_max = INT64_MIN;

    for (unsigned i = 0; i < ST_LEAD_PHASES; i++) {
        uint64_t d = clock_now_ns() + ST_IDLE_NS + i * tick / ST_LEAD_PHASES;
        sleep_until(d);
        uint64_t plain = clock_now_ns() - d;
        plain_min = plain < plain_min ? plain : plain_min;
        d = clock_now_ns() + ST_IDLE_NS + i * tick / ST_LEAD_PHASES;
        sleep_until_early(d);
        int64_t early = (int64_t)(clock_now_ns() - d);
        early_min = early < early_min ? early : early_min;
        early_max = early > early_max ? early : early_max;
    }
    printf("selftest=lead tick_ns=%llu lead_ns=%llu plain_min_ns=%llu early_min_ns=%lld "
           "early_max_ns=%lld\n", (unsigned long long)tick, (unsigned long long)lead,
           (unsigned long long)plain_min, (long long)early_min, (long long)early_max);
    return lead > 0 && early_min >= 0 && (uint64_t)early_max < plain_min;
}

static volatile unsigned fired_count;

/* Timer ISR callback: count one delivered expiry. */
static void count_fire(struct timer *t)
{
    (void)t;
    fired_count++;
}

/* Main task: 100 timers expire while this task computes without
 * yielding; every one must be delivered, none lost or merged. */
int selftest_busy_irq(void)
{
    static struct timer timers[ST_BUSY_TIMERS];
    struct cpu_totals a, b;
    uint64_t start = clock_now_ns();

    cpu_acct_read(&a);
    for (int i = 0; i < ST_BUSY_TIMERS; i++) {
        timers[i].fire = count_fire;
        timer_arm(&timers[i], start + (uint64_t)(i + 1) * ST_BUSY_STEP_NS, (struct waker){ 0 });
    }
    uint64_t end = start + (ST_BUSY_TIMERS + 1) * ST_BUSY_STEP_NS;
    volatile uint64_t work = 0;
    errno = ST_ERRNO_MARK;         /* thread-local: no interrupt may touch it */
    while (clock_now_ns() < end)
        work++;
    int errno_seen = errno;
    cpu_acct_read(&b);
    printf("selftest=busy-irq timers=%d fired=%u isr_instret=%llu busy_iters=%llu errno_kept=%d\n",
           ST_BUSY_TIMERS, fired_count, (unsigned long long)(b.isr.instret - a.isr.instret),
           (unsigned long long)work, errno_seen == ST_ERRNO_MARK);
    return fired_count == ST_BUSY_TIMERS && b.isr.instret > a.isr.instret &&
           errno_seen == ST_ERRNO_MARK;
}
