/* The async TX engine under load (host.uart_async_load.<lower>), on the
 * fake UART and the fake kernel:
 * the TX counters add up exactly at every snapshot across writes,
 * interrupts and resets (user_acc + queued_at_reset == ring_pop_bytes +
 * staged_bytes, hw_send_bytes == ring_pop_bytes), and the RX budget
 * keeps an RX flood faster than any line from holding the CPU in the
 * interrupt while a drain waits (receive livelock), and charges its
 * claims to the RX CPU account. Uses the helpers of test_uart_async_util.c. */
#include <stdlib.h>

#include "check.h"
#include "cpu_acct.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "uart_16550.h"
#include "uart_backend.h"

#define FLOOD_BYTES 4000U
#define FLOOD_GAP_NS 100U    /* LSR + RBR take 2 x 50 ns: the handler never catches up */

/* The invariant of one snapshot; what names the step on failure. */
static void check_sums(const char *what)
{
    struct uart_counters c = counters();
    if (c.user_acc + c.queued_at_reset != c.ring_pop_bytes + c.staged_bytes ||
        c.hw_send_bytes != c.ring_pop_bytes)
        fprintf(stderr, "%s: %s depth %u: user_acc %llu + queued_at_reset %llu != "
                "ring_pop_bytes %llu + staged_bytes %llu (hw_send_bytes %llu)\n", what,
                LOWER_NAME, cfg.fifo_depth, (unsigned long long)c.user_acc,
                (unsigned long long)c.queued_at_reset, (unsigned long long)c.ring_pop_bytes,
                (unsigned long long)c.staged_bytes, (unsigned long long)c.hw_send_bytes);
    CHECK_EQ(c.user_acc + c.queued_at_reset, c.ring_pop_bytes + c.staged_bytes);
    CHECK_EQ(c.hw_send_bytes, c.ring_pop_bytes);
}

/* 1. Random writes (blocking and not), interrupts, pauses and counter
 * resets, some with bytes in the ring: the sums hold after every step,
 * and every accepted byte leaves in order. */
static void test_counter_sums(unsigned depth)
{
    static uint8_t buf[2000];

    setup(depth);
    for (int step = 0; step < 400; step++) {
        size_t n = 1 + rnd() % (rnd() % 4 ? 64 : sizeof buf);
        fill_random(buf, n);
        switch (rnd() % 6) {
        case 0: {
            ssize_t r = uart_be_write(buf, n, true);
            if (r > 0)
                expect_add(buf, (size_t)r);
            break;
        }
        case 1:
            CHECK_EQ(uart_be_counters_reset(), 0);   /* often with bytes queued */
            break;
        case 2:
            fk_idle_until(fu_now() + rnd() % (3 * depth * char_ns()));
            break;
        case 3:
            fk_take_irqs();
            break;
        case 4:
            if (rnd() % 8 == 0)
                drain_checked("sums");
            break;
        default:
            write_all(buf, n);
            break;
        }
        check_sums("sums");
    }
    drain_checked("sums");
    check_sums("sums, drained");
    struct uart_counters c = counters();
    CHECK_EQ(c.staged_bytes, 0);
    check_output("sums");
}

/* 2. A reset with a full FIFO and a queued ring: queued_at_reset is the
 * ring's content at that moment (what the kick did not store), and the first snapshot adds up. */
static void test_reset_with_queue(void)
{
    static uint8_t buf[600];

    setup(16);
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    CHECK_EQ(uart_be_counters_reset(), 0);
    uint64_t stored = fu_stats()->thr_writes;       /* the kick's refills */
    struct uart_counters c = counters();
    CHECK(stored >= 16 && stored < 2 * 16);
    CHECK_EQ(c.queued_at_reset, sizeof buf - stored);
    CHECK_EQ(c.user_acc, 0);
    check_sums("reset-queued");
    drain_checked("reset-queued");
    c = counters();
    CHECK_EQ(c.ring_pop_bytes, c.queued_at_reset);
    check_output("reset-queued");
}

/* 3. An RX flood faster than the handler can read, during a drain: the
 * drain returns on time, the budget masks RX (no interrupt delivery runs
 * the handler more than a few times), what was taken is at most the
 * budget per window plus a FIFO, and every byte is accounted for
 * (taken + lost to overrun = sent). */
static void test_rx_flood(unsigned depth)
{
    static uint8_t buf[200], got[FLOOD_BYTES];

    setup(depth);
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    uint64_t t0 = fu_now() + 1000;
    for (unsigned i = 0; i < FLOOD_BYTES; i++)
        fu_rx_inject_at(t0 + (uint64_t)i * FLOOD_GAP_NS, (uint8_t)i, 0);
    drain_checked("rx-flood");
    check_output("rx-flood");
    fk_idle_until(t0 + FLOOD_BYTES * FLOOD_GAP_NS + 4 * depth * char_ns());
    struct uart_counters c = counters();
    uint64_t windows = (fu_now() - t0) / (depth * char_ns()) + 1;
    printf("rx flood: %s depth %2u: %u bytes in %.2f ms: taken %llu, lost %llu, budget "
           "spent %llu times, most handler runs per delivery %llu\n", LOWER_NAME, depth,
           FLOOD_BYTES, (double)(FLOOD_BYTES * FLOOD_GAP_NS) / 1e6,
           (unsigned long long)c.rx_bytes, (unsigned long long)fu_stats()->rx_lost,
           (unsigned long long)c.rx_deferred, (unsigned long long)fk_stats()->max_isr_burst);
    CHECK(c.rx_deferred > 0);
    CHECK(fk_stats()->max_isr_burst <= 2);
    CHECK(c.rx_bytes <= windows * 2 * depth + depth);
    CHECK_EQ(c.rx_bytes + c.rx_dropped + fu_stats()->rx_lost, FLOOD_BYTES);
    CHECK(fu_stats()->rx_lost == 0 || c.rx_overruns > 0);
    /* In order: the first window took the flood's first bytes as sent
     * (a 1-byte FIFO overruns between two reads of the handler). */
    ssize_t n = uart_be_read(got, sizeof got, true);
    CHECK_EQ(n, (ssize_t)c.rx_bytes);
    for (ssize_t i = 0; depth > 1 && i < n && i < (ssize_t)(2 * depth); i++)
        CHECK_EQ(got[i], (uint8_t)i);
}

/* 4. The RX CPU account: a claim that starts with an RX cause is the RX
 * account's to its end (the owner the trap exit charges), a THRE claim
 * stays the ISR account's. Here the state a handler's switch leaves (the
 * ISR account the owner) is made by hand; then the trap entry's own
 * (cpu_acct_trap's cycle set, no switch): the claim names the RX account
 * for the exit and leaves the interrupted owner alone. */
static void test_rx_account(void)
{
    static uint8_t buf[64];

    setup(16);
    cpu_acct_now.owner = &cpu_acct_isr;
    fu_rx_inject('r', 0);
    fk_take_irqs();
    CHECK(cpu_acct_now.owner == &cpu_acct_rx);
    CHECK_EQ(counters().rx_bytes, 1);
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    fk_idle_until(fu_now() + 20 * char_ns());       /* a THRE claim or more */
    cpu_acct_now.owner = &cpu_acct_isr;
    fk_idle_until(fu_now() + 20 * char_ns());
    CHECK(counters().tx_irqs > 0);
    CHECK(cpu_acct_now.owner == &cpu_acct_isr);
    drain_checked("rx-account");
    check_output("rx-account");
    cpu_acct_now.owner = &cpu_acct_idle;
    cpu_acct_trap = (struct cpu_acct_trap){ .cycle = 1, .instret = rdinstret() };
    fu_rx_inject('s', 0);
    fk_take_irqs();
    CHECK(cpu_acct_trap.owner == &cpu_acct_rx);
    CHECK(cpu_acct_trap.cycle == 1);
    CHECK(cpu_acct_now.owner == &cpu_acct_idle);
    cpu_acct_trap = (struct cpu_acct_trap){ 0 };
    cpu_acct_now.owner = &cpu_acct_isr;
}

/* The test program: the sums and the flood on each FIFO depth, then the
 * reset and account tests. */
int main(void)
{
    static const unsigned depths[] = { 1, 16, 64 };

    setvbuf(stdout, NULL, _IOLBF, 0);
    for (unsigned d = 0; d < 3; d++) {
        test_counter_sums(depths[d]);
        test_rx_flood(depths[d]);
    }
    test_reset_with_queue();
    test_rx_account();
    CHECK_EQ(fu_errors(), 0);
    free(expect);
    check_failures += uart_async_util_failures();
    return check_exit(LOWER_SUITE("uart_async_load"));
}
