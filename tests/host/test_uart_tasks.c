/* Two writers and two drainers at once, as tasks of the fake kernel
 * (fake_tasks.c), on the async engine and the lower half this executable
 * is built with (host.uart_tasks.<lower>; with a 256-byte TX ring, where
 * writers block on a full ring: host.uart_tasks_ring256.<lower>). The
 * writers write tagged records (writer, sequence, length, payload) with
 * blocking writes, one of A's larger than the ring; the drainers
 * tcdrain repeatedly; interrupts come at a seeded choice of register
 * accesses too. Checked: each writer's records arrive complete and in
 * order on the fake's wire, interleaved only at write boundaries; every
 * call returns (a lost wake-up leaves a task blocked: the fake kernel
 * fails the test when nothing could wake it, or at its time budget); a
 * drain that returns 0 does so once every byte accepted before it began
 * is out, and with the line idle within two characters of the later of
 * its start and the last stop bit; a drain times out only while writers
 * added bytes, and never once they are done; at every snapshot
 * user_acc + queued_at_reset == ring_pop_bytes + staged_bytes. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "clock.h"
#include "csr.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "waitq.h"

#define WRITES   24                      /* records per writer */
#define HDR      5                       /* tag, sequence, length (3) */
#define MAX_LEN  700                     /* an ordinary record's payload */
#define BIG_LEN  (UART_TX_RING_SIZE + 3000)   /* blocks on a full ring */
#define DRAIN_MARGIN_NS (10 * NS_PER_MS)  /* tty.c */
#define LATE_SLACK_NS 10000ULL            /* the drainer's own register accesses */

struct writer {
    unsigned id;
    uint32_t len[WRITES];
};
static struct writer wr[2];
static unsigned writers_left;
static uint64_t drains, drains_behind;   /* behind: later bytes followed */

/* Byte k of writer w's record seq. */
static uint8_t payload(unsigned w, unsigned seq, size_t k)
{
    return (uint8_t)(w * 97 + seq * 31 + k * 7 + (k >> 8));
}

/* writer: record seq of writer w with len payload bytes into b. */
static size_t record(uint8_t *b, unsigned w, unsigned seq, uint32_t len)
{
    b[0] = (uint8_t)(0xF0 | w);
    b[1] = (uint8_t)seq;
    b[2] = (uint8_t)len;
    b[3] = (uint8_t)(len >> 8);
    b[4] = (uint8_t)(len >> 16);
    for (uint32_t k = 0; k < len; k++)
        b[HDR + k] = payload(w, seq, k);
    return HDR + len;
}

/* Task: WRITES records, blocking, each in one write; after every other
 * one, a pause about as long as the line needs for what is queued (both
 * writers pausing at once lets the line go idle under the drainers). */
static void writer(void *arg)
{
    struct writer *w = arg;
    uint8_t *buf = malloc(HDR + BIG_LEN);

    for (unsigned i = 0; i < WRITES; i++) {
        w->len[i] = w->id == 0 && i == WRITES / 3 ? BIG_LEN : 1 + rnd() % MAX_LEN;
        size_t n = record(buf, w->id, i, w->len[i]);
        CHECK_EQ(uart_be_write(buf, n, false), (ssize_t)n);
        uint64_t queued = counters().staged_bytes + cfg.fifo_depth;
        if (rnd() % 2 == 0)
            sleep_for(((queued < 300 ? 2 * queued : 600) + rnd() % 40) * char_ns());
    }
    free(buf);
    writers_left--;
}

/* The invariant of one snapshot (any task). */
static void check_sums(void)
{
    struct uart_counters c = counters();
    CHECK_EQ(c.user_acc + c.queued_at_reset, c.ring_pop_bytes + c.staged_bytes);
    CHECK_EQ(c.hw_send_bytes, c.ring_pop_bytes);
}

/* drainer, after a drain that returned 0 and began at t0: if the line is
 * idle, the drain came back at once, or within two characters of the
 * last stop bit (a drainer left asleep returns at its deadline). */
static void check_not_late(uint64_t t0)
{
    if (counters().staged_bytes || !(fu_lsr_peek() & UART_LSR_TEMT) || !fu_out_count())
        return;
    uint64_t last = fu_out_buf()[fu_out_count() - 1].t_ns, since = last > t0 ? last : t0;
    if (fu_now() - since > 2 * char_ns() + LATE_SLACK_NS)
        fprintf(stderr, "tasks: %s: drain returned %llu ns after the line went idle\n",
                sched_current_name(), (unsigned long long)(fu_now() - since));
    CHECK(fu_now() - since <= 2 * char_ns() + LATE_SLACK_NS);
}

/* drainer, after a drain that returned 0 and began at t0 with n bytes
 * accepted: their last one left the wire, and, if the drain came back
 * with later bytes still going out, no later than a FIFO's and a
 * shifter's characters after it (the bound of a drain that cannot see
 * where its bytes are in the FIFO). */
static void check_own_bytes(uint64_t t0, uint64_t n)
{
    CHECK(fu_out_count() >= n);
    if (n == 0 || fu_out_count() < n)
        return;
    if (fu_out_count() > n || counters().staged_bytes)
        drains_behind++;
    uint64_t mine = fu_out_buf()[n - 1].t_ns, since = mine > t0 ? mine : t0;
    uint64_t bound = (fu_cfg()->fifo_depth + 2U) * char_ns() + LATE_SLACK_NS;
    if (fu_now() - since > bound)
        fprintf(stderr, "tasks: %s: drain returned %llu ns after its last byte left\n",
                sched_current_name(), (unsigned long long)(fu_now() - since));
    CHECK(fu_now() - since <= bound);
}

/* Task: tcdrain again and again until the writers are done, then once
 * more, each result checked. */
static void drainer(void *arg)
{
    (void)arg;
    for (bool last = false; !last;) {
        last = writers_left == 0;
        uint64_t t0 = fu_now(), acc0 = counters().user_acc;
        int rc = uart_be_drain();
        uint64_t acc1 = counters().user_acc;
        drains++;
        if (rc == 0) {
            check_own_bytes(t0, acc0);
            check_not_late(t0);
        } else {
            /* tcdrain waits for the caller's bytes only: later writers
             * keeping the line busy must not make it time out. */
            fprintf(stderr, "tasks: %s: drain returned %d after %llu ns (%llu bytes "
                    "written meanwhile)\n", sched_current_name(), rc,
                    (unsigned long long)(fu_now() - t0), (unsigned long long)(acc1 - acc0));
            CHECK_EQ(rc, 0);
        }
        check_sums();
        if (!last)
            sleep_for(rnd() % (30 * char_ns()));
    }
}

/* main, after the tasks: the wire is the two writers' records, each
 * whole and in order; returns the bytes parsed. */
static size_t check_records(void)
{
    const struct fu_out *o = fu_out_buf();
    size_t n = fu_out_count(), i = 0;
    unsigned next[2] = { 0, 0 };

    while (i < n) {
        unsigned w = o[i].b & 0x0F, seq = next[w < 2 ? w : 0];
        bool ok = n - i >= HDR && (o[i].b & 0xF0) == 0xF0 && w < 2 && seq < WRITES &&
                  o[i + 1].b == (uint8_t)seq &&
                  (o[i + 2].b | (uint32_t)o[i + 3].b << 8 | (uint32_t)o[i + 4].b << 16) ==
                      wr[w].len[seq];
        for (uint32_t k = 0; ok && k < wr[w].len[seq]; k++)
            ok = i + HDR + k < n && o[i + HDR + k].b == payload(w, seq, k);
        if (!ok) {
            fprintf(stderr, "tasks: %s depth %u: wire byte %zu is not the start of a whole "
                    "record (next: A %u, B %u): writes interleaved or cut\n", LOWER_NAME,
                    cfg.fifo_depth, i, next[0], next[1]);
            CHECK(ok);
            return i;
        }
        i += HDR + wr[w].len[seq];
        next[w]++;
    }
    CHECK_EQ(next[0], WRITES);
    CHECK_EQ(next[1], WRITES);
    return i;
}

/* main(): one run: four tasks on a FIFO of depth bytes, seeded. */
static void run(unsigned depth, uint64_t seed)
{
    setup(depth);
    rnd_seed(seed);
    fk_irq_schedule(seed, 300);
    fk_set_budget(120ULL * 1000 * NS_PER_MS);
    wr[0].id = 0;
    wr[1].id = 1;
    writers_left = 2;
    fk_task_spawn("writer-A", writer, &wr[0]);
    fk_task_spawn("drainer-X", drainer, 0);
    fk_task_spawn("writer-B", writer, &wr[1]);
    fk_task_spawn("drainer-Y", drainer, 0);
    fk_tasks_join();
    fk_irq_schedule(0, 0);
    size_t parsed = check_records();
    struct uart_counters c = counters();
    CHECK_EQ(c.user_acc, parsed);
    CHECK_EQ(c.staged_bytes, 0);
    CHECK_EQ(c.drain_timeouts, 0);
    CHECK(c.writer_blocks > 0);
    check_sums();
    CHECK_EQ(fu_stats()->lost_stores, 0);
    CHECK_EQ(fu_errors(), 0);
    CHECK(host_csr.xstatus & XSTATUS_XIE);
}

/* Task of run_stalled: a write while the drainer waits on the dead line. */
static void late_writer(void *arg)
{
    (void)arg;
    static const uint8_t more[8] = "late....";
    sleep_for(3 * NS_PER_MS);
    write_all(more, sizeof more);
}

/* Task of run_stalled: one drain on the stalled line, timed. */
static void stalled_drainer(void *arg)
{
    uint64_t t0 = fu_now(), bound = DRAIN_MARGIN_NS + 2 * char_ns() * (64 + 2 * 64 + 1);
    *(int *)arg = uart_be_drain();
    CHECK(fu_now() - t0 >= DRAIN_MARGIN_NS && fu_now() - t0 <= bound);
}

/* main(): the shifter stalls with bytes queued; a write comes while a
 * drain waits: the drain still gives up at its deadline (it does not spin
 * on the passed deadline, the budget or the spin guard would fail). */
static void run_stalled(unsigned depth)
{
    static uint8_t buf[64];
    int rc = 1;
    setup(depth);
    fk_set_budget(1000 * NS_PER_MS);
    write_all(buf, sizeof buf);
    fu_tx_stall(true);
    fk_task_spawn("drainer", stalled_drainer, &rc);
    fk_task_spawn("late-writer", late_writer, 0);
    fk_tasks_join();
    CHECK_EQ(rc, -ETIMEDOUT);
    CHECK_EQ(counters().drain_timeouts, 1);
    fu_tx_stall(false);
    drain_checked("stalled");
}

/* run_slow_recheck's: the setter ran; the poller's re-checks. */
static bool setter_ran;
static unsigned rechecks;
static struct waitq recheck_q;

#define RECHECK_NS 20000U                 /* the poller's period */

/* The poller's condition (interrupts masked): slower than its period
 * (the check itself takes two of them). */
static bool slow_check(void *arg)
{
    (void)arg;
    fu_advance_to(fu_now() + 2 * RECHECK_NS);
    return setter_ran;
}

/* Task: re-checks every period until the setter ran, at most 100 times. */
static void slow_poller(void *arg)
{
    (void)arg;
    while (rechecks < 100 && waitq_wait_step(&recheck_q, slow_check, NULL,
                                             clock_now_ns() + RECHECK_NS, RECHECK_NS) != 0)
        rechecks++;
}

/* Task: what the poller waits for. */
static void recheck_setter(void *arg)
{
    (void)arg;
    setter_ran = true;
    waitq_wake_all(&recheck_q);
}

/* The step's condition: never true, at no cost. */
static bool never(void *arg)
{
    (void)arg;
    return false;
}

/* Task: wakes recheck_q every half period, ten times (its waiters' condition stays false). */
static void nagger(void *arg)
{
    (void)arg;
    for (int i = 0; i < 10; i++) {
        sleep_for(RECHECK_NS / 2);
        waitq_wake_all(&recheck_q);
    }
}

/* A re-check slower than its period (waitq_wait_step, as tcdrain's for a
 * design without events): the deadline has passed when the wait would
 * block, so it blocks a period from then. With nobody to wake it, the
 * wait times out then (after its check, two periods, the period, and the
 * check again); with the hart's other task to run, that task runs and
 * the poller's first wait returns 0, woken. */
static void run_slow_recheck(void)
{
    setup(16);
    setter_ran = false;
    rechecks = 0;
    recheck_q = (struct waitq){ 0 };
    uint64_t t0 = fu_now();
    CHECK_EQ(waitq_wait_step(&recheck_q, slow_check, NULL, t0 + RECHECK_NS, RECHECK_NS),
             -ETIMEDOUT);
    CHECK_EQ(fu_now() - t0, 5 * RECHECK_NS);
    /* woken every half period with the condition still false, a wait
     * whose deadline had passed still ends a period after it began */
    fk_task_spawn("nagger", nagger, 0);
    t0 = fu_now();
    CHECK_EQ(waitq_wait_step(&recheck_q, never, NULL, t0, RECHECK_NS), -ETIMEDOUT);
    CHECK_EQ(fu_now() - t0, RECHECK_NS);
    fk_tasks_join();
    uint64_t blocks = fk_stats()->blocks;
    fk_task_spawn("poller", slow_poller, 0);
    fk_task_spawn("setter", recheck_setter, 0);
    fk_tasks_join();
    CHECK(setter_ran);
    CHECK_EQ(rechecks, 0);
    CHECK(fk_stats()->blocks - blocks >= 1);
}

/* The test program: three FIFO depths, three seeds each. */
int main(void)
{
    static const unsigned depths[] = { 1, 16, 64 };

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (unsigned d = 0; d < 3; d++)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            drains_behind = 0;
            run(depths[d], seed);
            printf("depth %2u seed %llu: %llu drains (%llu with later bytes behind), "
                   "%llu task switches, %.1f ms of line\n", depths[d],
                   (unsigned long long)seed, (unsigned long long)drains,
                   (unsigned long long)drains_behind,
                   (unsigned long long)fk_stats()->switches, (double)fu_now() / 1e6);
            drains = 0;
        }
    for (unsigned d = 0; d < 3; d++)
        run_stalled(depths[d]);
    run_slow_recheck();
    check_failures += uart_async_util_failures();
    free(expect);
    return check_exit(LOWER_SUITE("uart_tasks"));
}
