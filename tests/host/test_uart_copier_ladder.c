/* The copier's retry ladder on a line held for a known time (the fake's
 * fu_tx_hold_until: the shifter takes no byte, so the TX FIFO keeps what
 * the first send stored), the TX counters' meaning, the CPU phases
 * (test_uart_copier.h).
 *
 * The figures are derived, not measured. In these tests only the TX
 * copier touches the UART while the line is held (main sleeps, the RX
 * copier is parked, no interrupt is pending), every register access takes
 * ACCESS_NS of fake time and every spin hint SPIN_NS, so each TX status
 * read happens at a known time and sees room exactly when the hold has
 * ended by then. One cycle of the ladder is the zero-progress send that
 * ends the progress, CP_FAST retries, THRE on (an IER store), the recheck:
 * CP_FAST + 2 zero sends and 35 accesses; then (COPIER_SLOW_POLL) CP_SLOW
 * rounds of CP_SPINS hints and a send, ROUND_NS each, a self-wake yield,
 * the next cycle; the (CP_YIELDS + 1)-th exhausted slow poll is a yield
 * exhaustion and a pure wait for THRE. Without the slow poll a cycle ends
 * in that wait. */
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_copier.h"
#include "uart_port.h"

#define SPIN_NS   3U                              /* a 256-hint spin: ~0.8 us, the D1's */
#define ROUND_NS  (CP_SPINS * SPIN_NS + ACCESS_NS) /* one slow-poll round */
#define CYCLE_ACC (CP_FAST + 3U)                  /* accesses of a cycle's fast part */
#define HOLD_NS   (40 * NS_PER_MS)                /* > the whole ladder (16.8 ms) */
#define SNAP_NS   (30 * NS_PER_MS)
#define SHORT_R   1000U                           /* zero rounds of the 2nd slow poll */

/* Zero sends of one cycle, and cycles before the pure wait. */
static const uint64_t cycle_zero = CP_FAST + 2U + (COPIER_SLOW_POLL ? CP_SLOW : 0U);
static const uint64_t cycles = COPIER_SLOW_POLL ? CP_YIELDS + 1U : 1U;

/* Any test here: accesses of the first send on a held idle line, a
 * status read and a THR store per byte it takes, and the read that finds
 * no room. */
static uint64_t first_acc(void) { return 2ULL * first_room() + 1; }

/* Each test: copier_setup, w random bytes written (recorded) and the
 * line held until hold_ns from now; returns now, t_c, when the copier
 * starts: main's next block, which the caller does at once. */
static uint64_t start_held(unsigned w, uint64_t hold_ns, unsigned insns)
{
    static uint8_t buf[64];
    copier_setup(16, SPIN_NS);
    hook_cfg.insns = insns;
    fill_random(buf, w);
    write_all(buf, w);
    uint64_t t_c = fu_now();
    fu_tx_hold_until(t_c + hold_ns);
    return t_c;
}

/* 2a. The FIFO stays full longer than the whole ladder: at the snapshot
 * (the copier waits for THRE) cycles x cycle_zero zero sends after the
 * one that filled the FIFO, a budget exhaustion per cycle, an exhausted
 * slow poll per cycle, CP_YIELDS yields, one yield exhaustion; then the
 * line resumes, THRE wakes the copier, one send takes the last byte. */
void test_hold_long(void)
{
    unsigned room = first_room();
    uint64_t t_c = start_held(room + 1, HOLD_NS, 0);
    uint64_t hints0 = fk_stats()->spin_hints, yields0 = fk_stats()->yields;
    fk_idle_until(t_c + SNAP_NS);
    CHECK(fu_now() < t_c + HOLD_NS);
    struct uart_counters c = counters();
    CHECK_EQ(c.hw_send_calls, 1 + cycles * cycle_zero);
    CHECK_EQ(c.hw_send_zero, cycles * cycle_zero);
    CHECK_EQ(c.hw_send_bytes, room);
    CHECK_EQ(c.hw_send_max_chunk, room);
    CHECK_EQ(c.no_progress_budget, cycles);
    CHECK_EQ(c.slow_poll_exh, COPIER_SLOW_POLL ? cycles : 0);
    CHECK_EQ(c.yield_exh, COPIER_SLOW_POLL ? 1 : 0);
    CHECK_EQ(c.ring_pop_calls, 1);
    CHECK_EQ(c.ring_pop_bytes, room + 1);
    CHECK_EQ(c.staged_bytes, 1);
    CHECK_EQ(c.copier_active, 0);
    CHECK_EQ(c.ring_empty, 1);
    CHECK_EQ(c.tx_irqs, 0);
    CHECK_EQ(fk_stats()->spin_hints - hints0,
             COPIER_SLOW_POLL ? cycles * CP_SLOW * CP_SPINS : 0);
    CHECK_EQ(fk_stats()->yields - yields0, COPIER_SLOW_POLL ? CP_YIELDS : 0);
    CHECK(fu_reg_ier() & UART_IER_THRI);
    CHECK_EQ(fu_stats()->thr_writes, room);
    check_invariant("hold long");
    printf("hold %s: %llu ms held: %llu sends, %llu zero, budget %llu, slow_poll_exh %llu, "
           "yield_exh %llu, %llu slow-poll rounds\n", LOWER_NAME,
           (unsigned long long)(HOLD_NS / NS_PER_MS), (unsigned long long)c.hw_send_calls,
           (unsigned long long)c.hw_send_zero, (unsigned long long)c.no_progress_budget,
           (unsigned long long)c.slow_poll_exh, (unsigned long long)c.yield_exh,
           (unsigned long long)((fk_stats()->spin_hints - hints0) / CP_SPINS));

    drain_checked("hold long");
    check_output("hold long");
    c = counters();
    CHECK_EQ(c.hw_send_calls, 2 + cycles * cycle_zero);
    CHECK_EQ(c.hw_send_zero, cycles * cycle_zero);
    CHECK_EQ(c.hw_send_bytes, room + 1);
    CHECK_EQ(c.no_progress_budget, cycles);
    CHECK_EQ(c.tx_irqs, 2);              /* the wake, and THRE after the last store */
    check_invariant("hold long end");
}

/* 2b. The hold ends in the second slow poll, half a round before its
 * read number SHORT_R + 1: SHORT_R zero rounds there, then the send that
 * takes the last byte and the loop's send of nothing after it (a zero
 * send); one exhausted slow poll and one yield before. No slow poll: the
 * figures of 2a (the copier waits for THRE either way). */
void test_hold_short(void)
{
    unsigned room = first_room();
    uint64_t at = (first_acc() + 2 * CYCLE_ACC) * ACCESS_NS +
                  (uint64_t)(CP_SLOW + SHORT_R) * ROUND_NS + ROUND_NS / 2;
    uint64_t t_c = start_held(room + 1, at, 0);
    uint64_t yields0 = fk_stats()->yields;
    fk_idle_until(t_c + at + 100 * char_ns());
    struct uart_counters c = counters();
    if (COPIER_SLOW_POLL) {
        CHECK_EQ(c.hw_send_zero, 2 * (CP_FAST + 2) + CP_SLOW + SHORT_R + 1);
        CHECK_EQ(c.hw_send_calls, c.hw_send_zero + 2);
        CHECK_EQ(c.no_progress_budget, 2);
        CHECK_EQ(c.slow_poll_exh, 1);
        CHECK_EQ(c.yield_exh, 0);
        CHECK_EQ(fk_stats()->yields - yields0, 1);
    } else {
        CHECK_EQ(c.hw_send_zero, cycle_zero);
        CHECK_EQ(c.hw_send_calls, cycle_zero + 2);
        CHECK_EQ(c.no_progress_budget, 1);
    }
    /* THRE after the last store; without the slow poll the wake first. */
    CHECK_EQ(c.tx_irqs, COPIER_SLOW_POLL ? 1 : 2);
    CHECK_EQ(c.hw_send_bytes, room + 1);
    CHECK_EQ(c.hw_send_max_chunk, room);
    drain_checked("hold short");
    check_output("hold short");
}

/* 2c. The hold ends between the THRE-on store and the recheck: the
 * recheck stores a byte, one stays. As the original, partial progress
 * there goes on to the slow poll (or, without it, the THRE wait), not to
 * another CP_FAST retries: one budget exhaustion. The slow poll's zero
 * rounds end at the first read a character time after the hold; its
 * success ends the chunk, and the send of nothing after it is a zero. */
void test_recheck_room(void)
{
    unsigned room = first_room();
    uint64_t at = (first_acc() + CP_FAST + 2) * ACCESS_NS + ACCESS_NS / 2;
    uint64_t t_c = start_held(room + 2, at, 0);
    fk_idle_until(t_c + at + 100 * char_ns());
    struct uart_counters c = counters();
    /* The recheck (accesses k0 + 35 to 37: read, store, read) ends at t_c + base. */
    uint64_t base = (first_acc() + CP_FAST + 5) * ACCESS_NS, room_at = at + char_ns();
    uint64_t slow_zero = COPIER_SLOW_POLL ? (room_at - base + ROUND_NS - 1) / ROUND_NS - 1 : 0;
    CHECK_EQ(c.no_progress_budget, 1);
    CHECK_EQ(c.hw_send_zero, CP_FAST + 1 + slow_zero + COPIER_SLOW_POLL);
    CHECK_EQ(c.hw_send_calls, c.hw_send_zero + 3);
    CHECK_EQ(c.hw_send_bytes, room + 2);
    CHECK_EQ(c.slow_poll_exh, 0);
    CHECK_EQ(c.tx_irqs, COPIER_SLOW_POLL ? 1 : 2);
    drain_checked("recheck");
    check_output("recheck");
}

/* 3. The counters over a 3 KiB write on a free line: three pops, each of
 * the whole staging buffer; the first send takes the shifter's
 * byte and a FIFO's worth (the largest chunk), each later one a byte on
 * a 16550 (THRE is "FIFO empty") and on the DW UART while the slow poll
 * sees each freed slot; every wait for room is one budget exhaustion
 * after exactly CP_FAST + 1 zero sends plus the recheck; the spin hints
 * are the slow-poll rounds (a budget's successful round included) and
 * CP_TEMT_POLLS per chunk; each chunk's last byte goes in a slow poll,
 * and the send of nothing after it is a zero send. */
void test_counters_bulk(void)
{
    static uint8_t buf[3 * CP_STAGE];
    const uint64_t n = sizeof buf, idle = LOWER_DW ? 17 : 2;

    copier_setup(16, 100);              /* a round, and the TEMT polls, < a character */
    uint64_t hints0 = fk_stats()->spin_hints;
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    drain_checked("counters");
    check_output("counters");
    check_invariant("counters");
    struct uart_counters c = counters();
    uint64_t pops = n / CP_STAGE, ones = !LOWER_DW || COPIER_SLOW_POLL;
    CHECK_EQ(c.ring_pop_calls, pops);
    CHECK_EQ(c.ring_pop_bytes, n);
    CHECK_EQ(c.hw_send_bytes, n);
    CHECK_EQ(fu_stats()->thr_writes, n);
    CHECK_EQ(c.hw_send_max_chunk, idle);
    CHECK_EQ(c.slow_poll_exh, 0);
    CHECK_EQ(c.yield_exh, 0);
    CHECK(c.hw_send_zero >= (CP_FAST + 2) * c.no_progress_budget);
    if (ones) {
        CHECK_EQ(c.hw_send_calls - c.hw_send_zero, n - idle + 1);
        CHECK_EQ(c.no_progress_budget, n - idle);
    }
    uint64_t hints = fk_stats()->spin_hints - hints0, temt = pops * CP_TEMT_POLLS;
    if (COPIER_SLOW_POLL)
        CHECK_EQ(hints - temt, CP_SPINS * (c.hw_send_zero - pops - (CP_FAST + 1) *
                                           c.no_progress_budget));
    else
        CHECK_EQ(c.hw_send_zero, (CP_FAST + 2) * c.no_progress_budget);
    if (!COPIER_SLOW_POLL)
        CHECK_EQ(hints, temt);
    printf("counters %s: %llu bytes: %llu sends (%llu zero, max chunk %llu), budget %llu, "
           "%llu pops, %llu THRE interrupts\n", LOWER_NAME, (unsigned long long)n,
           (unsigned long long)c.hw_send_calls, (unsigned long long)c.hw_send_zero,
           (unsigned long long)c.hw_send_max_chunk, (unsigned long long)c.no_progress_budget,
           (unsigned long long)c.ring_pop_calls, (unsigned long long)c.tx_irqs);
}

/* test_phases: the engine's sub-accounts now, into ph (n of them). */
static unsigned phases_now(struct uart_phase *ph)
{
    return uart_be_phases(ph, 8);
}

/* 6. The phases: the engine's names, in its order, and, in 2a's hold
 * with each register access counted as two instructions (the access
 * hook) and each spin hint as one, every instruction where the engine
 * says: the first send and each cycle's first zero send are "send"'s
 * (the phase of a send until it has found no room), the CP_FAST retries,
 * THRE on and the recheck "fast_retry"'s, the slow poll's hints and
 * sends "slow_poll"'s, nothing else's. Then, with the line free, the
 * chunk's CP_TEMT_POLLS TEMT reads and hints, the last read and THRE on
 * are "temt_poll"'s; no phase ever goes back. */
void test_phases(void)
{
    static const char *const names[] = { "user_write", "ring_pop", "send", "fast_retry",
                                          "slow_poll", "temt_poll", "park", "copier_other" };
    struct uart_phase a[8], b[8], d[8];
    enum { USER, RING, SEND, FAST, SLOW, TEMT, PARK, OTHER };

    CHECK_EQ(uart_be_phases(a, 3), 8);
    CHECK_EQ(phases_now(a), 8);
    for (unsigned i = 0; i < 8; i++)
        CHECK(a[i].name && strcmp(a[i].name, names[i]) == 0);
    uint64_t t_c = start_held(first_room() + 1, HOLD_NS, 1);
    phases_now(a);
    fk_idle_until(t_c + SNAP_NS);
    phases_now(b);
    uint64_t want[8] = { 0 };
    want[SEND] = 2 * (first_acc() + cycles);
    want[FAST] = 2 * cycles * (CP_FAST + 2);
    want[SLOW] = COPIER_SLOW_POLL ? cycles * CP_SLOW * (CP_SPINS + 2) : 0;
    for (unsigned i = 0; i < 8; i++) {
        if (b[i].instructions - a[i].instructions != want[i])
            fprintf(stderr, "phases %s: %s: %llu instructions, expected %llu\n", LOWER_NAME,
                    names[i], (unsigned long long)(b[i].instructions - a[i].instructions),
                    (unsigned long long)want[i]);
        CHECK_EQ(b[i].instructions - a[i].instructions, want[i]);
    }
    fk_idle_until(t_c + HOLD_NS + 20 * char_ns());
    phases_now(d);
    CHECK_EQ(d[TEMT].instructions - b[TEMT].instructions, CP_TEMT_POLLS * 3 + 2 + 2);
    CHECK(d[SEND].instructions > b[SEND].instructions);
    for (unsigned i = 0; i < 8; i++)
        CHECK(d[i].instructions >= b[i].instructions);
    drain_checked("phases");
    check_output("phases");
}

/* main(): this file's failed checks. */
int uart_copier_ladder_failures(void) { return check_failures; }
