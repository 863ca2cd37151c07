/* The async TX engine (src/drivers/uart/engine_async.c) with the tty core
 * on one lower half (the executable's: host.uart_async.<lower>), the fake
 * UART and the fake kernel: data integrity for random write sizes and
 * FIFO depths, THRE batching, drain timing, ring-full writers, a write's
 * refills across the ring's wrap, DW quirks
 * (IIR=0xC1 entries, RX timeout without data, busy detect), RX errors.
 * Built with the default 64 KiB TX ring and with -DUART_TX_RING_SIZE=256
 * (host.uart_async_ring256.<lower>). This file: the TX tests and main();
 * test_uart_async_quirks.c: the DW quirk, RX and loopback tests;
 * test_uart_async_util.c: the helpers they share. */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "uart_16550.h"
#include "uart_backend.h"
#include "uart_port.h"

/* 1. Random write sizes, random drains and pauses: bytes out == bytes in. */
static void test_integrity(unsigned depth)
{
    static uint8_t buf[3000];

    setup(depth);
    for (int round = 0; round < 14; round++) {
        size_t n = 1 + rnd() % sizeof buf;
        fill_random(buf, n);
        write_all(buf, n);
        if (rnd() % 2)
            drain_checked("integrity");
        if (rnd() % 4 == 0)
            fk_idle_until(fu_now() + rnd() % (5 * NS_PER_MS));
    }
    drain_checked("integrity");
    check_output("integrity");
    CHECK_EQ(counters().drain_timeouts, 0);
}

/* 2. Bulk writes: about one THRE interrupt per FIFO's worth of bytes. */
static void test_thre_batching(unsigned depth)
{
    static uint8_t buf[1024];

    setup(depth);
    for (int i = 0; i < 16; i++) {
        fill_random(buf, sizeof buf);
        write_all(buf, sizeof buf);
    }
    drain_checked("batching");
    check_output("batching");
    struct uart_counters c = counters();
    uint64_t thre = fu_stats()->iir_thri;
    CHECK(c.tx_irqs > 0 && thre > 0);
    if (thre) {
        double per_irq = (double)expect_n / (double)thre;
        printf("bytes per THRE interrupt: %-7s depth %2u: %6.2f (%zu bytes, "
               "%llu THRE, %llu tx_irqs, max chunk %llu)\n", LOWER_NAME,
               depth, per_irq, expect_n, (unsigned long long)thre,
               (unsigned long long)c.tx_irqs,
               (unsigned long long)c.hw_send_max_chunk);
        CHECK(expect_n * 4 >= (size_t)thre * depth * 3);
    }
    CHECK_EQ(c.hw_send_bytes, expect_n);
    CHECK(c.hw_send_max_chunk <= depth);
    /* A TX interrupt is the FIFO's emptying: the handler reads its cause
     * and loads the FIFO, and asks no register for the room. */
    CHECK_EQ(fk_stats()->isr_reads, fk_stats()->isr_runs);
}

/* 3. Drain returns only once the last stop bit has left, for sizes
 * around the FIFO boundary; an idle drain returns at once. */
static void test_drain_timing(unsigned depth)
{
    const size_t sizes[] = { 1, depth - 1, depth, depth + 1, 2 * depth + 3, 1000 };
    uint8_t buf[1000];

    setup(depth);
    uint64_t t0 = fu_now();
    CHECK_EQ(uart_be_drain(), 0);
    CHECK(fu_now() - t0 < char_ns());
    /* One byte into an idle UART that may start it a baud clock's tick
     * after the store (tx_at_store off): the drain's look reads the
     * transmitter's level once (a 16550: LSR; a DW UART: LSR and TFL;
     * with a one-byte FIFO the room too), finds the FIFO empty, sleeps
     * until the last stop bit is due and confirms TEMT (an LSR read). */
    cfg.tx_at_store = false;
    fill_random(buf, 1);
    write_all(buf, 1);
    uint64_t reads = fu_stats()->reads;
    drain_checked("drain reads");
    CHECK_EQ(fu_stats()->reads - reads, (LOWER_DW ? 4U : 3U) + (depth == 1));
    /* On a UART that starts it at the store (the fake, as the project's
     * QEMU): the write's store is the drain's start (the look reads
     * nothing), so the drain reads TEMT alone, before its sleep and after
     * it, and is back one access after the stop bit. */
    cfg.tx_at_store = true;
    fill_random(buf, 1);
    write_all(buf, 1);
    reads = fu_stats()->reads;
    drain_checked("idle drain reads");
    CHECK_EQ(fu_stats()->reads - reads, 2U);
    CHECK_EQ(fu_now() - fu_out_buf()[fu_out_count() - 1].t_ns, ACCESS_NS);
    /* Two bytes back to back: the second finds the shifter still busy
     * with the first (its level not 0), so the drain's start is not its
     * store, and the drain's one sleep ends at the second's stop bit. */
    fill_random(buf, 2);
    write_all(buf, 1);
    write_all(buf + 1, 1);
    uint64_t waits = counters().drain_timer_waits;
    drain_checked("back to back");
    CHECK_EQ(counters().drain_timer_waits - waits, 1U);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (!sizes[i])
            continue;
        fill_random(buf, sizes[i]);
        uint64_t start = fu_now();
        write_all(buf, sizes[i]);
        drain_checked("drain timing");
        CHECK(fu_now() - start >= sizes[i] * char_ns());
    }
    check_output("drain timing");
}

/* 4. A writer bigger than the ring blocks, resumes, and loses nothing. */
static void test_ring_full_writer(unsigned depth)
{
    size_t n = UART_TX_RING_SIZE + 5000;
    uint8_t *buf = malloc(n);

    setup(depth);
    fill_random(buf, n);
    write_all(buf, n);
    struct uart_counters c = counters();
    CHECK(c.writer_blocks > 0);
    CHECK_EQ(c.user_acc, n);
    drain_checked("ring-full writer");
    check_output("ring-full writer");
    free(buf);
}

/* 5. Non-blocking writes on a filling ring: a short count, then -EAGAIN. */
static void test_nonblock_full(unsigned depth)
{
    size_t n = UART_TX_RING_SIZE + 1000, acc = 0;
    uint8_t *buf = malloc(n);
    ssize_t r;
    bool eagain = false;

    setup(depth);
    fill_random(buf, n);
    r = uart_be_write(buf, n, true);
    CHECK(r > 0 && (size_t)r < n);
    CHECK((size_t)r <= UART_TX_RING_SIZE + depth + 1);   /* the ring, the FIFO, the shifter */
    if (r > 0)
        acc = (size_t)r;
    for (int i = 0; i < 8 && acc < n; i++) {
        r = uart_be_write(buf + acc, n - acc, true);
        if (r == -EAGAIN) {
            eagain = true;
            break;
        }
        CHECK(r > 0);
        if (r <= 0)
            break;
        acc += (size_t)r;
    }
    CHECK(eagain);
    CHECK(acc < n);
    CHECK_EQ(uart_be_write(buf, 0, true), 0);
    expect_add(buf, acc);
    drain_checked("nonblock");
    check_output("nonblock");
    free(buf);
}

/* 11. Polled flush (panic path) pushes the queued bytes out in order. */
static void test_flush_polled(unsigned depth)
{
    static uint8_t buf[200];   /* fits the smallest ring */

    setup(depth);
    fill_random(buf, sizeof buf);
    ssize_t r = uart_be_write(buf, sizeof buf, true);
    CHECK_EQ(r, (ssize_t)sizeof buf);
    expect_add(buf, sizeof buf);
    uart_be_flush_polled();
    CHECK_EQ(uart_be_tx_pending() <= depth + 1, 1);   /* FIFO plus the shifter */
    drain_checked("flush polled");
    check_output("flush polled");
}

/* fast_line's access hook: every register access lets a FIFO's worth of
 * characters go, a UART faster than the CPU (QEMU's without a line). */
static void fast_line(void)
{
    fu_advance_to(fu_now() + fu_cfg()->char_ns * fu_cfg()->fifo_depth);
}

/* kick_wrap_run's access hook: fast_line once the ring holds bytes (the
 * write's first bytes went straight into the FIFO and filled it). */
static void fast_once_queued(void)
{
    if (ring_used(&uart_port.tx))
        fast_line();
}

/* kick_across_wrap: one write of n bytes with the ring's counters at
 * `at`, on a UART that is still while the ring is empty and then faster
 * than the CPU; checks what any such write gives (one look found the FIFO
 * full, the write's direct part's last; every other look loaded once, a
 * refill across the ring's wrap `split` times twice) and returns the
 * counters. */
static struct uart_counters kick_wrap_run(unsigned depth, ring_idx_t at, const uint8_t *buf,
                                          size_t n, unsigned split)
{
    setup(depth);
    uart_port.tx.head = uart_port.tx.tail = at;
    fu_set_access_hook(fast_once_queued);
    write_all(buf, n);
    fu_set_access_hook(NULL);
    struct uart_counters c = counters();
    CHECK(uart_port.tx.tail - at > 0 && uart_port.tx.tail - at < n);   /* both ways */
    CHECK_EQ(c.hw_send_bytes, n);
    CHECK_EQ(c.tx_irqs, 0);
    CHECK_EQ(c.hw_send_max_chunk, depth);
    CHECK_EQ(c.hw_send_zero, 1);
    CHECK(c.hw_send_calls - c.hw_send_zero >= (n + depth - 1) / depth);
    CHECK_EQ(c.ring_pop_calls, c.hw_send_calls - c.hw_send_zero + split);
    drain_checked("kick across wrap");
    check_output("kick across wrap");
    return c;
}

/* 8. A write to an idle UART whose first bytes fill the FIFO straight from
 * the buffer and whose rest, in the ring, crosses its wrap (10 bytes
 * before its end), against the same write with the ring at its start: on
 * a UART faster than the CPU, the write's kick sends the ring's bytes
 * with no interrupt and counts its refills as the interrupt's refill
 * does: the refill that reaches the ring's end goes on at its start with
 * the room it has left (one refill, two loads: one load more than at the
 * ring's start, no look more). */
static void test_kick_across_wrap(unsigned depth)
{
    static uint8_t buf[2 * 64 + 40];
    const size_t n = 2 * depth + 40;
    const ring_idx_t before_end = 10;

    fill_random(buf, n);
    const unsigned split = before_end % depth != 0;
    struct uart_counters at0 = kick_wrap_run(depth, 0, buf, n, 0);
    struct uart_counters wrap =
        kick_wrap_run(depth, 3 * (uart_port.tx.mask + 1) - before_end, buf, n, split);
    CHECK_EQ(wrap.hw_send_calls, at0.hw_send_calls);
    CHECK_EQ(wrap.ring_pop_calls, at0.ring_pop_calls + split);
}

/* 12. A write to an idle UART that the FIFO takes whole: its bytes go
 * straight from the buffer into the FIFO, none into the ring. */
static void test_direct_write(unsigned depth)
{
    static uint8_t buf[16];
    const size_t n = depth < sizeof buf ? depth : sizeof buf;

    setup(depth);
    ring_idx_t head = uart_port.tx.head;
    fill_random(buf, n);
    write_all(buf, n);
    CHECK_EQ(uart_port.tx.head, head);
    struct uart_counters c = counters();
    CHECK_EQ(c.hw_send_bytes, n);
    CHECK(c.hw_send_calls == 1 && c.ring_pop_calls == 1 && c.hw_send_zero == 0);
    drain_checked("direct write");
    check_output("direct write");
}

/* 13. A write of a ring's worth and more to an idle UART faster than the
 * CPU: the direct part stops at a ring's worth (interrupts stay masked no
 * longer than for a kick of a full ring); the rest goes through the ring.
 * With the 256-byte ring (host.uart_async_ring256.*): a 64 KiB one would
 * take the fake line past its time budget. */
static void test_direct_write_capped(unsigned depth)
{
    if (UART_TX_RING_SIZE > 256)
        return;
    const size_t cap = UART_TX_RING_SIZE, n = cap + 100;
    uint8_t *buf = malloc(n);

    setup(depth);
    ring_idx_t head = uart_port.tx.head;
    fu_set_access_hook(fast_line);
    fill_random(buf, n);
    write_all(buf, n);
    fu_set_access_hook(NULL);
    CHECK_EQ(uart_port.tx.head - head, n - cap);
    CHECK_EQ(counters().hw_send_bytes, n);
    drain_checked("direct write capped");
    check_output("direct write capped");
    free(buf);
}

/* test_irq_refill_counters: a write of 4 FIFOs' worth and 5 bytes to an idle
 * UART on a line slower than the CPU, with the ring's counters at `at`,
 * and its drain: the first FIFO's worth goes straight in, the rest
 * through the ring, one TX interrupt's refill per FIFO's worth. Every
 * byte stored into THR is in hw_send_bytes, and every ring read in
 * ring_pop_calls: one per run of THR stores (a refill, the direct load:
 * no other access between a run's stores), one more where a refill
 * crosses the ring's wrap (`split`), none for the drainer's last refill,
 * which finds the ring empty. */
static void irq_refill_run(unsigned depth, ring_idx_t at, unsigned split)
{
    static uint8_t buf[4 * 64 + 5];
    const size_t n = 4 * depth + 5;

    setup(depth);
    uart_port.tx.head = uart_port.tx.tail = at;
    fill_random(buf, n);
    write_all(buf, n);
    drain_checked("irq refill counters");
    check_output("irq refill counters");
    struct uart_counters c = counters();
    CHECK_EQ(c.hw_send_bytes, n);
    CHECK_EQ(c.ring_pop_bytes, n);
    CHECK(c.tx_irqs >= 4);
    CHECK_EQ(c.ring_pop_calls, fu_stats()->thr_runs + split);
}

/* 14. The TX interrupt's counters (async_counters counts each refill as
 * a FIFO's worth in one ring read and corrects where a refill differs):
 * with the ring at its start, and with its end 10 bytes into the ring's
 * part of the write. */
static void test_irq_refill_counters(unsigned depth)
{
    const ring_idx_t before_end = 10;
    irq_refill_run(depth, 0, 0);
    irq_refill_run(depth, 3 * (uart_port.tx.mask + 1) - before_end, before_end % depth != 0);
}

/* The test program: every test on each FIFO depth, then the quirk tests
 * where the lower half has the quirk. */
int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);   /* keep order with stderr */
    static const unsigned depths[] = { 1, 16, 64 };

    printf("TX ring size %u, lower half %s\n", UART_TX_RING_SIZE, LOWER_NAME);
    for (unsigned d = 0; d < 3; d++) {
        test_integrity(depths[d]);
        test_thre_batching(depths[d]);
        test_drain_timing(depths[d]);
        test_drain_lead(depths[d]);
        test_ring_full_writer(depths[d]);
        test_nonblock_full(depths[d]);
        test_rx(depths[d]);
        test_flush_polled(depths[d]);
        test_drain_temt_stuck(depths[d], 1 + depths[d] / 2);
        test_drain_tx_stall(depths[d], 3 * depths[d] + 5);
        test_kick_across_wrap(depths[d]);
        test_direct_write(depths[d]);
        test_direct_write_capped(depths[d]);
        test_irq_refill_counters(depths[d]);
    }
    printf("drain returned at most %.1f us after the last stop bit\n",
           (double)max_late_ns / 1000.0);
    test_spurious_bulk(64);
    test_spurious_bulk(16);
    if (LOWER_DW) {
        test_rx_timeout_nodata();
        test_busy_detect();
    }
    test_loopback();
    if (LOWER_DW)
        test_spurious_short_write(64, 40);
    else
        test_spurious_short_write(16, 12);
    test_rx_ring_overflow();
    test_counters_keep_rx_errors();
    CHECK_EQ(fu_errors(), 0);       /* no bad access anywhere above */
    free(expect);
    check_failures += uart_async_util_failures() + uart_async_quirks_failures() +
                      uart_async_faults_failures() + uart_async_lead_failures();
    return check_exit(LOWER_SUITE("uart_async"));
}
