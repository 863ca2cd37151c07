/* Host tests for the kernel's timer queue (src/kernel/timer.c) through
 * its entry points: expiry in deadline order, FIFO among equal deadlines,
 * cancel, re-arm, the compare register kept at the earliest deadline,
 * callbacks that re-arm, bad arguments and the foreign-hart refusal. The
 * clock, the compare register, the wakers and panic are this file's. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "clock.h"
#include "cpu_acct.h"
#include "harts.h"
#include "kernel.h"
#include "timer.h"

#define NTIMERS 300
#define DEADLINE_RANGE 50 /* small range: many equal deadlines */
#define ROUNDS 20

/* ---- what timer.c calls ---------------------------------------------- */

struct host_csr host_csr;
HART_LOCAL unsigned hart_self_index;
struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim, cpu_acct_rx;
struct cpu_acct_now cpu_acct_now = { .owner = &cpu_acct_isr };
unsigned cpu_clock_shift;

static uint64_t now;           /* the fake clock, ns */
static uint64_t hw;            /* the compare register, ns (ticks = ns) */
static unsigned hw_writes;
static int woken[NTIMERS + 8]; /* ids of the timers woken, in order */
static int nwoken;
static jmp_buf panicked;

/* timer.c: the fake clock. */
uint64_t clock_now_ns(void) { return now; }
uint64_t clock_deadline_ticks(uint64_t ns) { return ns; }
/* timer_init: nothing to set up. */
void timer_hw_init(void) {}
/* reprogram: the compare register's new value. */
void timer_hw_set(uint64_t ticks)
{
    hw = ticks;
    hw_writes++;
}
/* irq_restore: no fake interrupts here. */
void host_irq_enabled(void) {}
/* timer_isr: a timer's waker; the "task" pointer carries the timer's id. */
void waker_wake(const struct waker *w)
{
    if (w->task && nwoken < (int)(sizeof woken / sizeof woken[0]))
        woken[nwoken++] = (int)(intptr_t)w->task - 1;
}
/* foreign_timer: back to the test that expected it. */
_Noreturn void panic(const char *fmt, ...)
{
    (void)fmt;
    longjmp(panicked, 1);
}

/* ---- helpers ------------------------------------------------------------ */

static uint64_t rng_state = 0xD1B54A32D192ED03ull;

/* Fixed-seed xorshift64 PRNG. */
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A waker that records id when its timer fires. */
static struct waker id_waker(int id)
{
    return (struct waker){ (struct task *)(intptr_t)(id + 1) };
}

/* Each test: an empty queue at time 0. */
static void reset(void)
{
    now = 0;
    hart_self_index = 0;
    timer_init();
    nwoken = 0;
    hw_writes = 0;
}

/* Fire everything due at t; true if the timers woken are ids[0..n), in
 * that order. */
static bool fire_at(uint64_t t, const int *ids, int n)
{
    now = t;
    nwoken = 0;
    timer_isr();
    if (nwoken != n)
        return false;
    for (int i = 0; i < n; i++)
        if (woken[i] != ids[i])
            return false;
    return true;
}

/* ---- tests ---------------------------------------------------------------- */

/* Random deadlines fire sorted, equal deadlines in arming order; the
 * compare register holds the earliest deadline after every arm. */
static void test_random_order(void)
{
    static struct timer t[NTIMERS];

    for (int round = 0; round < ROUNDS; round++) {
        uint64_t min = UINT64_MAX;
        reset();
        CHECK_EQ(hw, UINT64_MAX);
        for (int i = 0; i < NTIMERS; i++) {
            uint64_t d = 1 + rnd64() % DEADLINE_RANGE;   /* never 0 ns */
            t[i] = (struct timer){ 0 };
            CHECK_EQ(timer_arm(&t[i], d, id_waker(i)), 0);
            if (d < min)
                min = d;
            CHECK_EQ(hw, min);
        }
        now = UINT64_MAX;
        timer_isr();
        CHECK_EQ(nwoken, NTIMERS);
        for (int k = 1; k < nwoken; k++) {
            uint64_t a = t[woken[k - 1]].entry.deadline, b = t[woken[k]].entry.deadline;
            CHECK(a <= b);
            if (a == b)
                CHECK(woken[k - 1] < woken[k]);   /* FIFO among ties */
        }
        for (int i = 0; i < NTIMERS; i++)
            CHECK(t[i].fired && !t[i].entry.armed && t[i].entry.next == NULL);
        CHECK_EQ(hw, UINT64_MAX);
    }
}

/* The register is written only when the earliest deadline changes. */
static void test_earliest(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };

    reset();
    unsigned w0 = hw_writes;
    timer_arm(&a, 100, id_waker(0));     /* empty queue */
    CHECK_EQ(hw, 100);
    CHECK_EQ(hw_writes, w0 + 1);
    timer_arm(&b, 200, id_waker(1));     /* later: no write */
    CHECK_EQ(hw_writes, w0 + 1);
    timer_arm(&c, 50, id_waker(2));      /* earlier */
    CHECK_EQ(hw, 50);
    CHECK_EQ(hw_writes, w0 + 2);
    timer_arm(&d, 50, id_waker(3));      /* tie: after c, no write */
    CHECK_EQ(hw_writes, w0 + 2);
    CHECK(fire_at(UINT64_MAX, (const int[]){ 2, 3, 0, 1 }, 4));
}

/* Cancel of head, middle, tail, fired and never armed timers. */
static void test_cancel(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 };

    reset();
    timer_arm(&a, 10, id_waker(0));
    timer_arm(&b, 20, id_waker(1));
    timer_arm(&c, 30, id_waker(2));
    timer_arm(&d, 40, id_waker(3));
    CHECK(timer_cancel(&b));             /* middle */
    CHECK(!b.entry.armed);
    CHECK_EQ(hw, 10);
    CHECK(timer_cancel(&a));             /* head: the register moves on */
    CHECK_EQ(hw, 30);
    CHECK(timer_cancel(&d));             /* tail */
    CHECK(!timer_cancel(&d));            /* already cancelled */
    CHECK(!timer_cancel(&e));            /* never armed */
    CHECK_EQ(hw, 30);
    CHECK(timer_cancel(&c));             /* the last one: no deadline */
    CHECK_EQ(hw, UINT64_MAX);
    CHECK(fire_at(UINT64_MAX, NULL, 0));
    timer_arm(&b, 5, id_waker(1));       /* a cancelled timer re-arms */
    CHECK(fire_at(5, (const int[]){ 1 }, 1));
    CHECK(!timer_cancel(&b));            /* fired: nothing to cancel */
}

/* Re-arming an armed timer moves it instead of linking it twice. */
static void test_rearm(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 };

    reset();
    timer_arm(&a, 10, id_waker(0));
    timer_arm(&b, 20, id_waker(1));
    timer_arm(&c, 30, id_waker(2));
    timer_arm(&a, 25, id_waker(0));      /* head moves back */
    CHECK_EQ(hw, 20);
    timer_arm(&c, 5, id_waker(2));       /* tail moves to the front */
    CHECK_EQ(hw, 5);
    timer_arm(&c, 20, id_waker(2));      /* tie with b: after it */
    timer_arm(&b, 20, id_waker(1));      /* re-arm is a new arming */
    CHECK_EQ(hw, 20);
    CHECK(fire_at(UINT64_MAX, (const int[]){ 2, 1, 0 }, 3));
    CHECK_EQ(a.entry.deadline, 25);
}

/* Expiry with the clock between deadlines; deadline == now has expired. */
static void test_expiry(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 };

    reset();
    timer_arm(&c, 30, id_waker(2));
    timer_arm(&a, 10, id_waker(0));
    timer_arm(&b, 20, id_waker(1));
    CHECK(fire_at(9, NULL, 0));          /* early interrupt: nothing */
    CHECK_EQ(hw, 10);
    CHECK(fire_at(25, (const int[]){ 0, 1 }, 2));
    CHECK(a.fired && b.fired && !c.fired);
    CHECK_EQ(hw, 30);
    CHECK(c.entry.armed);
    CHECK(fire_at(30, (const int[]){ 2 }, 1));
    CHECK_EQ(hw, UINT64_MAX);
    timer_arm(&a, UINT64_MAX - 1, id_waker(0));   /* the latest deadline */
    CHECK(fire_at(UINT64_MAX - 2, NULL, 0));
    CHECK(fire_at(UINT64_MAX - 1, (const int[]){ 0 }, 1));
}

static struct timer periodic;
static int periodic_runs;

/* timer_isr: a callback that re-arms its timer 10 ns on, three times. */
static void periodic_fire(struct timer *t)
{
    if (++periodic_runs < 3)
        timer_arm(t, now + 10, t->waker);
}

/* A callback runs in the interrupt and may re-arm its own timer: the
 * interrupt takes it again only when due, and the register follows. */
static void test_callback_rearm(void)
{
    reset();
    periodic = (struct timer){ .fire = periodic_fire };
    periodic_runs = 0;
    timer_arm(&periodic, 10, id_waker(7));
    CHECK(fire_at(10, (const int[]){ 7 }, 1));
    CHECK_EQ(periodic_runs, 1);
    CHECK(periodic.entry.armed);
    CHECK_EQ(hw, 20);
    CHECK(fire_at(20, (const int[]){ 7 }, 1));
    CHECK(fire_at(30, (const int[]){ 7 }, 1));
    CHECK_EQ(periodic_runs, 3);
    CHECK(!periodic.entry.armed);
    CHECK_EQ(hw, UINT64_MAX);
}

/* NULL timers are refused and change nothing; an armed timer used from
 * another hart panics. */
static void test_refusals(void)
{
    struct timer a = { 0 };

    reset();
    timer_arm(&a, 500, id_waker(0));
    CHECK_EQ(timer_arm(NULL, 100, id_waker(1)), -EINVAL);
    CHECK(!timer_cancel(NULL));
    CHECK(a.entry.armed);
    CHECK_EQ(hw, 500);
    hart_self_index = 1;
    if (!setjmp(panicked)) {
        timer_cancel(&a);
        CHECK(!"cancel from another hart did not panic");
    }
    if (!setjmp(panicked)) {
        timer_arm(&a, 600, id_waker(0));
        CHECK(!"re-arm from another hart did not panic");
    }
    hart_self_index = 0;
    CHECK(a.entry.armed && a.entry.deadline == 500);
    CHECK(fire_at(500, (const int[]){ 0 }, 1));
}

/* Runs every timer test. */
int main(void)
{
    test_random_order();
    test_earliest();
    test_cancel();
    test_rearm();
    test_expiry();
    test_callback_rearm();
    test_refusals();
    return check_exit("timer");
}
