/* Host tests for the kernel's timers (src/kernel/time.c) through their
 * entry points: expiry in deadline order, FIFO among equal deadlines,
 * cancel, re-arm, the compare register kept at the tick where the clock
 * reaches the earliest deadline, callbacks that re-arm, bad arguments and
 * the foreign-hart refusal. The clock is time.c's own, built for
 * qemu-virt's timebase (100 ns a tick) over a timebase the tests set;
 * the compare register, the wakers and panic are fake_time_env.c's. */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "check.h"
#include "clock.h"
#include "csr.h"
#include "fake_time_env.h"
#include "harts.h"
#include "timer.h"

#define NTIMERS 300
#define DEADLINE_RANGE 50 /* small range: many equal deadlines */
#define ROUNDS 20

/* The tests' times are ticks of the timebase: T(t) is tick t's ns. */
#define TICK_NS 100
_Static_assert(BOARD_TICK_NS_NUM == TICK_NS && BOARD_TICK_NS_DEN == 1,
               "host.timer is built for qemu-virt's 10 MHz timebase");
#define T(t) ((uint64_t)(t) * TICK_NS)
/* The last tick whose time the clock's 64-bit ns still holds. */
#define LAST_TICK (UINT64_MAX / TICK_NS)

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

/* The id of the k-th timer woken. */
static int woken(int k)
{
    return (int)(intptr_t)fte_woken[k] - 1;
}

/* Each test: an empty queue at time 0. */
static void reset(void)
{
    host_csr.time = 0;
    hart_self_index = 0;
    timer_init();
    fte_nwoken = 0;
    fte_hw_writes = 0;
}

/* Fire everything due at tick t; true if the timers woken are ids[0..n),
 * in that order. */
static bool fire_at(uint64_t t, const int *ids, int n)
{
    host_csr.time = t;
    fte_nwoken = 0;
    timer_isr();
    if (fte_nwoken != n)
        return false;
    for (int i = 0; i < n; i++)
        if (woken(i) != ids[i])
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
        CHECK_EQ(fte_hw, UINT64_MAX);
        for (int i = 0; i < NTIMERS; i++) {
            uint64_t d = 1 + rnd64() % DEADLINE_RANGE;   /* never 0 ns */
            t[i] = (struct timer){ 0 };
            CHECK_EQ(timer_arm(&t[i], T(d), id_waker(i)), 0);
            if (d < min)
                min = d;
            CHECK_EQ(fte_hw, min);
        }
        host_csr.time = LAST_TICK;
        timer_isr();
        CHECK_EQ(fte_nwoken, NTIMERS);
        for (int k = 1; k < fte_nwoken; k++) {
            uint64_t a = t[woken(k - 1)].entry.deadline, b = t[woken(k)].entry.deadline;
            CHECK(a <= b);
            if (a == b)
                CHECK(woken(k - 1) < woken(k));   /* FIFO among ties */
        }
        for (int i = 0; i < NTIMERS; i++)
            CHECK(t[i].fired && !t[i].entry.armed && t[i].entry.next == NULL);
        CHECK_EQ(fte_hw, UINT64_MAX);
    }
}

/* The register is written only when the earliest deadline changes. */
static void test_earliest(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };

    reset();
    unsigned w0 = fte_hw_writes;
    timer_arm(&a, T(100), id_waker(0));  /* empty queue */
    CHECK_EQ(fte_hw, 100);
    CHECK_EQ(fte_hw_writes, w0 + 1);
    timer_arm(&b, T(200), id_waker(1));  /* later: no write */
    CHECK_EQ(fte_hw_writes, w0 + 1);
    timer_arm(&c, T(50), id_waker(2));   /* earlier */
    CHECK_EQ(fte_hw, 50);
    CHECK_EQ(fte_hw_writes, w0 + 2);
    timer_arm(&d, T(50), id_waker(3));   /* tie: after c, no write */
    CHECK_EQ(fte_hw_writes, w0 + 2);
    CHECK(fire_at(LAST_TICK, (const int[]){ 2, 3, 0, 1 }, 4));
}

/* A deadline between two ticks: the register is set at the later one,
 * the first at which the clock has reached it. */
static void test_tick_rounding(void)
{
    struct timer a = { 0 };

    reset();
    timer_arm(&a, T(10) + 1, id_waker(0));
    CHECK_EQ(fte_hw, 11);
    CHECK(fire_at(10, NULL, 0));         /* T(10): 1 ns short */
    CHECK_EQ(fte_hw, 11);
    CHECK(fire_at(11, (const int[]){ 0 }, 1));
    CHECK_EQ(fte_hw, UINT64_MAX);
}

/* Cancel of head, middle, tail, fired and never armed timers. */
static void test_cancel(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 }, e = { 0 };

    reset();
    timer_arm(&a, T(10), id_waker(0));
    timer_arm(&b, T(20), id_waker(1));
    timer_arm(&c, T(30), id_waker(2));
    timer_arm(&d, T(40), id_waker(3));
    CHECK(timer_cancel(&b));             /* middle */
    CHECK(!b.entry.armed);
    CHECK_EQ(fte_hw, 10);
    CHECK(timer_cancel(&a));             /* head: the register moves on */
    CHECK_EQ(fte_hw, 30);
    CHECK(timer_cancel(&d));             /* tail */
    CHECK(!timer_cancel(&d));            /* already cancelled */
    CHECK(!timer_cancel(&e));            /* never armed */
    CHECK_EQ(fte_hw, 30);
    CHECK(timer_cancel(&c));             /* the last one: no deadline */
    CHECK_EQ(fte_hw, UINT64_MAX);
    CHECK(fire_at(LAST_TICK, NULL, 0));
    timer_arm(&b, T(5), id_waker(1));    /* a cancelled timer re-arms */
    CHECK(fire_at(5, (const int[]){ 1 }, 1));
    CHECK(!timer_cancel(&b));            /* fired: nothing to cancel */
}
/* Re-arming an armed timer moves it instead of linking it twice. */
static void test_rearm(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 };

    reset();
    timer_arm(&a, T(10), id_waker(0));
    timer_arm(&b, T(20), id_waker(1));
    timer_arm(&c, T(30), id_waker(2));
    timer_arm(&a, T(25), id_waker(0));   /* head moves back */
    CHECK_EQ(fte_hw, 20);
    timer_arm(&c, T(5), id_waker(2));    /* tail moves to the front */
    CHECK_EQ(fte_hw, 5);
    timer_arm(&c, T(20), id_waker(2));   /* tie with b: after it */
    timer_arm(&b, T(20), id_waker(1));   /* re-arm is a new arming */
    CHECK_EQ(fte_hw, 20);
    CHECK(fire_at(LAST_TICK, (const int[]){ 2, 1, 0 }, 3));
    CHECK_EQ(a.entry.deadline, T(25));
}

/* Expiry with the clock between deadlines; deadline == now has expired. */
static void test_expiry(void)
{
    struct timer a = { 0 }, b = { 0 }, c = { 0 };

    reset();
    timer_arm(&c, T(30), id_waker(2));
    timer_arm(&a, T(10), id_waker(0));
    timer_arm(&b, T(20), id_waker(1));
    CHECK(fire_at(9, NULL, 0));          /* early interrupt: nothing */
    CHECK_EQ(fte_hw, 10);
    CHECK(fire_at(25, (const int[]){ 0, 1 }, 2));
    CHECK(a.fired && b.fired && !c.fired);
    CHECK_EQ(fte_hw, 30);
    CHECK(c.entry.armed);
    CHECK(fire_at(30, (const int[]){ 2 }, 1));
    CHECK_EQ(fte_hw, UINT64_MAX);
    timer_arm(&a, T(LAST_TICK), id_waker(0));   /* the latest deadline */
    CHECK_EQ(fte_hw, LAST_TICK);
    CHECK(fire_at(LAST_TICK - 1, NULL, 0));
    CHECK(fire_at(LAST_TICK, (const int[]){ 0 }, 1));
}

static struct timer periodic;
static int periodic_runs;

/* timer_isr: a callback that re-arms its timer 10 ticks on, three times. */
static void periodic_fire(struct timer *t)
{
    if (++periodic_runs < 3)
        timer_arm(t, clock_now_ns() + T(10), t->waker);
}

/* A callback runs in the interrupt and may re-arm its own timer: the
 * interrupt takes it again only when due, and the register follows. */
static void test_callback_rearm(void)
{
    reset();
    periodic = (struct timer){ .fire = periodic_fire };
    periodic_runs = 0;
    timer_arm(&periodic, T(10), id_waker(7));
    CHECK(fire_at(10, (const int[]){ 7 }, 1));
    CHECK_EQ(periodic_runs, 1);
    CHECK(periodic.entry.armed);
    CHECK_EQ(fte_hw, 20);
    CHECK(fire_at(20, (const int[]){ 7 }, 1));
    CHECK(fire_at(30, (const int[]){ 7 }, 1));
    CHECK_EQ(periodic_runs, 3);
    CHECK(!periodic.entry.armed);
    CHECK_EQ(fte_hw, UINT64_MAX);
}

/* NULL timers are refused and change nothing; an armed timer used from
 * another hart panics. */
static void test_refusals(void)
{
    struct timer a = { 0 };

    reset();
    timer_arm(&a, T(500), id_waker(0));
    CHECK_EQ(timer_arm(NULL, T(100), id_waker(1)), -EINVAL);
    CHECK(!timer_cancel(NULL));
    CHECK(a.entry.armed);
    CHECK_EQ(fte_hw, 500);
    hart_self_index = 1;
    if (!setjmp(fte_panicked)) {
        timer_cancel(&a);
        CHECK(!"cancel from another hart did not panic");
    }
    if (!setjmp(fte_panicked)) {
        timer_arm(&a, T(600), id_waker(0));
        CHECK(!"re-arm from another hart did not panic");
    }
    hart_self_index = 0;
    CHECK(a.entry.armed && a.entry.deadline == T(500));
    CHECK(fire_at(500, (const int[]){ 0 }, 1));
}

/* Runs every timer test. */
int main(void)
{
    test_random_order();
    test_earliest();
    test_tick_rounding();
    test_cancel();
    test_rearm();
    test_expiry();
    test_callback_rearm();
    test_refusals();
    return check_exit("timer");
}
