/* Host tests for the timer queue: ordering, FIFO ties, cancel, re-arm,
 * the insert return value and expiry. */
#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "timerq.h"

#define NTIMERS 300
#define DEADLINE_RANGE 50 /* small range: many equal deadlines */
#define ROUNDS 20

/* A kernel-style object embedding a queue entry. */
struct timer {
    int id;
    struct timerq_entry e;
};

#define TIMER_OF(ep) \
    ((struct timer *)((char *)(ep) - offsetof(struct timer, e)))

static uint64_t rng_state = 0xD1B54A32D192ED03ull;

/* Fixed-seed xorshift64 PRNG. */
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Number of entries linked in q. */
static int queue_len(const struct timerq *q)
{
    int n = 0;

    for (const struct timerq_entry *e = q->head; e != NULL; e = e->next)
        n++;
    return n;
}

/* True if the queue holds exactly the timers ids[0..n), in that order. */
static int queue_is(const struct timerq *q, const int *ids, int n)
{
    const struct timerq_entry *e = q->head;

    for (int i = 0; i < n; i++, e = e->next)
        if (e == NULL || TIMER_OF(e)->id != ids[i] || !e->armed)
            return 0;
    return e == NULL;
}

/* Random deadlines come out sorted; equal deadlines in insertion order. */
static void test_random_order(void)
{
    static struct timer t[NTIMERS];
    struct timerq q;

    for (int round = 0; round < ROUNDS; round++) {
        uint64_t min = UINT64_MAX, prev_deadline = 0;
        int prev_id = -1, popped = 0;
        struct timerq_entry *e;

        timerq_init(&q);
        for (int i = 0; i < NTIMERS; i++) {
            uint64_t d = rnd64() % DEADLINE_RANGE;
            bool first = d < min;

            t[i].id = i;
            timerq_entry_init(&t[i].e);
            CHECK_EQ(timerq_insert(&q, &t[i].e, d), first);
            if (first)
                min = d;
            CHECK_EQ(timerq_next_deadline(&q), min);
        }
        CHECK_EQ(queue_len(&q), NTIMERS);
        while ((e = timerq_pop_expired(&q, UINT64_MAX)) != NULL) {
            struct timer *tm = TIMER_OF(e);

            CHECK(e->deadline >= prev_deadline);
            if (e->deadline == prev_deadline)
                CHECK(tm->id > prev_id); /* FIFO among ties */
            CHECK(!e->armed);
            CHECK(e->next == NULL);
            prev_deadline = e->deadline;
            prev_id = tm->id;
            popped++;
        }
        CHECK_EQ(popped, NTIMERS);
        CHECK_EQ(timerq_next_deadline(&q), UINT64_MAX);
    }
}

/* Insert return value: true only when the entry becomes the earliest. */
static void test_insert_return(void)
{
    struct timer a = { .id = 0 }, b = { .id = 1 }, c = { .id = 2 },
                 d = { .id = 3 };
    struct timerq q;

    timerq_init(&q);
    CHECK_EQ(timerq_next_deadline(&q), UINT64_MAX);
    CHECK(timerq_pop_expired(&q, UINT64_MAX) == NULL);
    CHECK(timerq_insert(&q, &a.e, 100));  /* empty queue */
    CHECK(!timerq_insert(&q, &b.e, 200)); /* later */
    CHECK(timerq_insert(&q, &c.e, 50));   /* earlier */
    CHECK(!timerq_insert(&q, &d.e, 50));  /* tie: goes after c */
    CHECK(queue_is(&q, (const int[]){ 2, 3, 0, 1 }, 4));
    CHECK_EQ(timerq_next_deadline(&q), 50);
}

/* Cancel of head, middle, tail and unarmed entries. */
static void test_cancel(void)
{
    struct timer a = { .id = 0 }, b = { .id = 1 }, c = { .id = 2 },
                 d = { .id = 3 }, e = { .id = 4 };
    struct timerq q;

    timerq_init(&q);
    timerq_insert(&q, &a.e, 10);
    timerq_insert(&q, &b.e, 20);
    timerq_insert(&q, &c.e, 30);
    timerq_insert(&q, &d.e, 40);
    CHECK(timerq_cancel(&q, &b.e)); /* middle */
    CHECK(!b.e.armed);
    CHECK(queue_is(&q, (const int[]){ 0, 2, 3 }, 3));
    CHECK(timerq_cancel(&q, &a.e)); /* head */
    CHECK_EQ(timerq_next_deadline(&q), 30);
    CHECK(queue_is(&q, (const int[]){ 2, 3 }, 2));
    CHECK(timerq_cancel(&q, &d.e)); /* tail */
    CHECK(queue_is(&q, (const int[]){ 2 }, 1));
    CHECK(!timerq_cancel(&q, &d.e)); /* already cancelled */
    CHECK(!timerq_cancel(&q, &e.e)); /* never armed */
    CHECK(queue_is(&q, (const int[]){ 2 }, 1));
    CHECK(timerq_cancel(&q, &c.e)); /* last one */
    CHECK(q.head == NULL);
    CHECK_EQ(timerq_next_deadline(&q), UINT64_MAX);
    CHECK(timerq_insert(&q, &b.e, 5)); /* cancelled entries can be re-armed */
    CHECK(queue_is(&q, (const int[]){ 1 }, 1));
}

/* Re-arming an armed entry moves it instead of linking it twice. */
static void test_rearm(void)
{
    struct timer a = { .id = 0 }, b = { .id = 1 }, c = { .id = 2 };
    struct timerq q;

    timerq_init(&q);
    timerq_insert(&q, &a.e, 10);
    timerq_insert(&q, &b.e, 20);
    timerq_insert(&q, &c.e, 30);
    CHECK(!timerq_insert(&q, &a.e, 25)); /* head moves back */
    CHECK(queue_is(&q, (const int[]){ 1, 0, 2 }, 3));
    CHECK_EQ(timerq_next_deadline(&q), 20);
    CHECK(timerq_insert(&q, &c.e, 5)); /* tail moves to the front */
    CHECK(queue_is(&q, (const int[]){ 2, 1, 0 }, 3));
    CHECK(!timerq_insert(&q, &c.e, 20)); /* tie with b: after it */
    CHECK(queue_is(&q, (const int[]){ 1, 2, 0 }, 3));
    CHECK(!timerq_insert(&q, &b.e, 20)); /* re-arm is a new insertion */
    CHECK(queue_is(&q, (const int[]){ 2, 1, 0 }, 3));
    CHECK(timerq_insert(&q, &c.e, 1)); /* head re-armed earlier */
    CHECK(queue_is(&q, (const int[]){ 2, 1, 0 }, 3));
    CHECK_EQ(timerq_next_deadline(&q), 1);
    CHECK_EQ(a.e.deadline, 25);
}

/* pop_expired with now between deadlines; deadline == now has expired. */
static void test_pop_expired(void)
{
    struct timer a = { .id = 0 }, b = { .id = 1 }, c = { .id = 2 };
    struct timerq q;
    struct timerq_entry *e;

    timerq_init(&q);
    timerq_insert(&q, &c.e, 30);
    timerq_insert(&q, &a.e, 10);
    timerq_insert(&q, &b.e, 20);
    CHECK(timerq_pop_expired(&q, 0) == NULL);
    CHECK(timerq_pop_expired(&q, 9) == NULL);
    e = timerq_pop_expired(&q, 25);
    CHECK(e == &a.e);
    CHECK(!a.e.armed);
    CHECK(timerq_pop_expired(&q, 25) == &b.e);
    CHECK(timerq_pop_expired(&q, 25) == NULL);
    CHECK_EQ(timerq_next_deadline(&q), 30);
    CHECK(c.e.armed);
    CHECK(timerq_pop_expired(&q, 30) == &c.e);
    CHECK(timerq_pop_expired(&q, UINT64_MAX) == NULL);
    CHECK_EQ(timerq_next_deadline(&q), UINT64_MAX);
    CHECK(!timerq_cancel(&q, &c.e)); /* expired entries are unarmed */
    CHECK(timerq_insert(&q, &a.e, UINT64_MAX)); /* latest possible time */
    CHECK(timerq_pop_expired(&q, UINT64_MAX - 1) == NULL);
    CHECK(timerq_pop_expired(&q, UINT64_MAX) == &a.e);
}

/* Runs every timer-queue test. */
/* Bad arguments, table-driven: every entry refuses a NULL queue or
 * entry and changes nothing. */
static void test_bad_args(void)
{
    struct timerq q;
    struct timerq_entry a = { 0 };
    timerq_init(&q);
    CHECK(timerq_insert(&q, &a, 500));
    static const struct { int op; int null_q; } cases[] = {
        { 0, 1 }, { 0, 0 }, { 1, 1 }, { 1, 0 }, { 2, 1 }, { 3, 1 },
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct timerq *qq = cases[i].null_q ? NULL : &q;
        struct timerq_entry *ee = cases[i].null_q ? &a : NULL;
        switch (cases[i].op) {
        case 0: CHECK(!timerq_insert(qq, ee, 100)); break;
        case 1: CHECK(!timerq_cancel(qq, ee)); break;
        case 2: CHECK(timerq_pop_expired(NULL, UINT64_MAX) == NULL); break;
        default: CHECK(timerq_next_deadline(NULL) == UINT64_MAX); break;
        }
        /* the real queue is untouched: a still armed at 500, alone */
        CHECK(a.armed);
        CHECK_EQ(timerq_next_deadline(&q), 500);
        CHECK(q.head == &a && a.next == NULL);
    }
}

int main(void)
{
    test_random_order();
    test_insert_return();
    test_cancel();
    test_rearm();
    test_pop_expired();
    test_bad_args();
    return check_exit("timerq");
}
