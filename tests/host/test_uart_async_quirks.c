/* Host test of the async TX engine (test_uart_async.c): the DW quirks
 * (IIR=0xC1 entries, RX timeout without data, busy detect) through the
 * whole driver, RX with line errors, overruns and a full ring, and
 * loopback. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "uart_16550.h"
#include "uart_backend.h"

/* test_spurious_bulk: the entries' refills counted (async_counters): the
 * bytes each sent, a ring read for each that sent (one run of THR
 * stores; the ring, at its start, does not wrap in the test's bytes
 * unless it is smaller). */
static void spurious_counters(void)
{
    struct uart_counters c = counters();
    CHECK_EQ(c.hw_send_bytes, expect_n);
    if (UART_TX_RING_SIZE >= 8192)
        CHECK_EQ(c.ring_pop_calls, fu_stats()->thr_runs);
}

/* 6a. Spurious IIR=0xC1 entries (a DW UART's) during a bulk transfer,
 * landing at all FIFO levels: the refill takes the room the lower half
 * reports (DW: from TFL), so no store is ever lost. */
void test_spurious_bulk(unsigned depth)
{
    static uint8_t buf[1000];

    setup(depth);
    fu_spurious_period(char_ns() * 37 / 11);
    for (int i = 0; i < 5; i++) {
        fill_random(buf, sizeof buf);
        write_all(buf, sizeof buf);
    }
    /* Spurious entries through the transfer while the ring still has
     * data; 6b covers an entry after the ring has emptied. */
    while (counters().staged_bytes > 2 * depth)
        fk_idle_until(fu_now() + 10 * char_ns());
    fu_spurious_period(0);
    drain_checked("spurious bulk");
    check_output("spurious bulk");
    CHECK(fu_stats()->c1_partial > 0);
    CHECK(counters().spurious_irqs > 0);
    /* A 16550 reports no room while its FIFO holds a byte (LSR.THRE
     * clear): each such entry while the ring has bytes (TX on) is a look
     * that found none, and the kicks count theirs too. */
    CHECK(LOWER_DW || counters().hw_send_zero >= fu_stats()->c1_partial);
    spurious_counters();
    /* The same with entries through a drain too: while the drainer waits
     * for the FIFO to empty (the TX interrupt on, the ring empty), an
     * entry with the FIFO still holding bytes finds no room (a 16550)
     * or some (a DW UART), with nothing to send. */
    fu_spurious_period(char_ns() * 37 / 11);
    write_all(buf, 3 * depth + 5);
    drain_checked("spurious drain");
    fu_spurious_period(0);
    check_output("spurious drain");
    spurious_counters();
    printf("spurious entries (%s depth %u): %llu, %llu with the FIFO partly full, "
           "lost stores %llu\n", LOWER_NAME, depth,
           (unsigned long long)fu_stats()->c1_reads,
           (unsigned long long)fu_stats()->c1_partial,
           (unsigned long long)fu_stats()->lost_stores);
}

/* 6b. A spurious IIR=0xC1 entry after the ring has emptied into the FIFO
 * but while the FIFO still holds bytes: TX must not be declared idle, the
 * drain must still wait for every byte. */
void test_spurious_short_write(unsigned depth, size_t n)
{
    uint8_t buf[64];

    setup(depth);
    fill_random(buf, n);
    write_all(buf, n);
    CHECK(fu_tx_level() > 1);
    fu_spurious(1);
    fk_take_irqs();
    CHECK_EQ(fu_stats()->c1_reads, 1);
    CHECK_EQ(fu_stats()->lost_stores, 0);
    /* Bytes still in the FIFO: the backend must not call TX idle. */
    CHECK(fu_tx_level() > 0);
    size_t pending = uart_be_tx_pending();
    if (pending == 0)
        fprintf(stderr, "spurious short write: %s depth %u: after the 0xC1 "
                "entry the backend reports tx_pending 0 / copier_active %llu "
                "with %u bytes still in the FIFO\n", LOWER_NAME, depth,
                (unsigned long long)counters().copier_active, fu_tx_level());
    CHECK(pending >= (LOWER_DW ? fu_tx_level() + 1U : 1U));
    drain_checked("spurious short write");
    check_output("spurious short write");
    /* The backend still works afterwards. */
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    drain_checked("after spurious");
    check_output("after spurious");
}

/* 7. DW RX timeout without data: one dummy RBR read ends it (the lower
 * half serves it: no RX claim, no RX interrupt counted). */
void test_rx_timeout_nodata(void)
{
    uint8_t b;

    setup(64);
    uint64_t runs = fk_stats()->isr_runs;
    fu_rx_timeout_nodata();
    CHECK(fu_irq_line());
    fk_take_irqs();
    CHECK(!fu_rx_timeout_pending());
    CHECK(!fu_irq_line());
    CHECK_EQ(fu_stats()->timeout_cleared, 1);
    CHECK_EQ(fu_stats()->rbr_empty_reads, 1);
    CHECK(fk_stats()->isr_runs - runs <= 2);
    CHECK_EQ(counters().rx_irqs, 0);
    CHECK_EQ(counters().rx_bytes, 0);
    CHECK_EQ(uart_be_read(&b, 1, true), -EAGAIN);
    CHECK_EQ(fu_errors(), 0);
}

/* 8. DW busy detect (LCR written while busy) is cleared via USR and
 * counted. */
void test_busy_detect(void)
{
    static uint8_t buf[100];

    setup(64);
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    uart_write(&cfg, UART_LCR, UART_LCR_8N1);
    CHECK(fu_busy_detect_pending());
    CHECK_EQ(fu_stats()->lcr_ignored, 1);
    fk_take_irqs();
    CHECK(!fu_busy_detect_pending());
    CHECK_EQ(counters().busy_detect, 1);
    drain_checked("busy detect");
    check_output("busy detect");
}

/* 9. RX bytes with line errors arrive in order; errors and overruns are
 * counted; an empty non-blocking read gives -EAGAIN. */
void test_rx(unsigned depth)
{
    static const uint8_t data[] = { 'H', 'e', 'l', 0x00, 'o', '!' };
    static const unsigned flags[] = { 0, FU_RX_PE, FU_RX_FE, FU_RX_BI, 0, FU_RX_PE | FU_RX_FE };
    uint8_t got[FU_MAX_DEPTH + 8];

    setup(depth);
    CHECK_EQ(uart_be_read(got, 4, true), -EAGAIN);
    CHECK_EQ(uart_be_read(got, 0, true), 0);
    uint64_t t = fu_now();
    for (size_t i = 0; i < sizeof data; i++)
        fu_rx_inject_at(t + (i + 1) * char_ns(), data[i], flags[i]);
    read_n(got, sizeof data);
    CHECK(memcmp(got, data, sizeof data) == 0);
    /* A timed read (VMIN 0, VTIME): 0 at its deadline with none, the byte
     * that comes before it. */
    t = fu_now();
    CHECK_EQ(uart_be_read_until(got, 4, t + 20 * char_ns()), 0);
    CHECK(fu_now() >= t + 20 * char_ns());
    fu_rx_inject_at(fu_now() + 5 * char_ns(), 'T', 0);
    t = fu_now();
    CHECK_EQ(uart_be_read_until(got, 4, t + 20 * char_ns()), 1);
    CHECK(got[0] == 'T' && fu_now() < t + 20 * char_ns());
    struct uart_counters c = counters();
    CHECK_EQ(c.rx_bytes, sizeof data + 1);
    CHECK_EQ(c.rx_parity, 2);
    CHECK_EQ(c.rx_framing, 2);
    CHECK_EQ(c.rx_breaks, 1);
    CHECK_EQ(c.rx_overruns, 0);
    CHECK_EQ(uart_be_read(got, 4, true), -EAGAIN);

    /* Overrun: depth + 3 bytes arrive before the CPU looks. */
    for (unsigned i = 0; i < depth + 3; i++)
        fu_rx_inject((uint8_t)('A' + i), 0);
    CHECK_EQ(fu_stats()->rx_lost, 3);
    read_n(got, depth);
    for (unsigned i = 0; i < depth; i++)
        CHECK_EQ(got[i], 'A' + i);
    fk_take_irqs();
    CHECK_EQ(uart_be_read(got, 4, true), -EAGAIN);
    CHECK_EQ(counters().rx_overruns, 1);
    CHECK_EQ(counters().rx_bytes, sizeof data + 1 + depth);
    CHECK_EQ(uart_be_rx_available(), 0);
    CHECK_EQ(fu_errors(), 0);
}

/* 9b. Nobody reads: the RX ring fills, the excess is dropped and counted,
 * and what was kept comes out in order. */
void test_rx_ring_overflow(void)
{
    const size_t total = 20000;
    static uint8_t got[20000];
    size_t sent = 0, kept;

    setup(64);
    while (sent < total) {
        size_t batch = total - sent < 2000 ? total - sent : 2000;
        uint64_t t = fu_now();
        for (size_t i = 0; i < batch; i++)
            fu_rx_inject_at(t + (i + 1) * char_ns(), (uint8_t)((sent + i) * 7), 0);
        sent += batch;
        fk_idle_until(t + (batch + 1) * char_ns());
    }
    struct uart_counters c = counters();
    kept = uart_be_rx_available();
    CHECK(kept > 0 && kept < total);
    CHECK_EQ(c.rx_bytes, kept);
    CHECK_EQ(c.rx_dropped, total - kept);
    CHECK_EQ(c.rx_overruns, 0);
    CHECK_EQ(fu_stats()->rx_lost, 0);      /* the FIFO never overflowed */
    CHECK_EQ(uart_be_read(got, sizeof got, true), (ssize_t)kept);
    for (size_t i = 0; i < kept; i++)
        if (got[i] != (uint8_t)(i * 7)) {
            CHECK_EQ(got[i], (uint8_t)(i * 7));
            break;
        }
    CHECK_EQ(uart_be_read(got, 1, true), -EAGAIN);
}

/* 9c. An RX byte with a parity error arrives while uart_be_counters()
 * holds interrupts masked (before its LSR read). The snapshot must not
 * swallow the error: reading LSR clears PE/FE/BI/OE, so the ISR that runs
 * afterwards would no longer see it. */
void test_counters_keep_rx_errors(void)
{
    uint8_t b;
    struct uart_counters c;

    setup(64);
    fu_rx_inject_at(fu_now() + 1, 'p', FU_RX_PE);
    CHECK_EQ(uart_be_counters(&c), 0);      /* its LSR read lands after */
    fk_take_irqs();
    CHECK_EQ(uart_be_read(&b, 1, true), 1);
    CHECK_EQ(b, 'p');
    c = counters();
    if (c.rx_parity != 1)
        fprintf(stderr, "counters snapshot: the parity error of a byte that "
                "arrived during uart_be_counters() was not counted "
                "(rx_parity %llu)\n", (unsigned long long)c.rx_parity);
    CHECK_EQ(c.rx_parity, 1);
}

/* 10. Loopback: written bytes come back through the RX path. */
void test_loopback(void)
{
    static const uint8_t msg[] = "loopback";
    uint8_t got[sizeof msg];

    setup(16);
    CHECK_EQ(uart_be_set_loopback(true), 0);
    CHECK(fu_reg_mcr() & UART_MCR_LOOP);
    CHECK_EQ(uart_be_write(msg, sizeof msg, false), (ssize_t)sizeof msg);
    read_n(got, sizeof msg);
    CHECK(memcmp(got, msg, sizeof msg) == 0);
    CHECK_EQ(fu_out_count(), 0);
    CHECK_EQ(uart_be_drain(), 0);
    CHECK_EQ(uart_be_set_loopback(false), 0);
    CHECK(!(fu_reg_mcr() & UART_MCR_LOOP));
    CHECK_EQ(fu_errors(), 0);
}

/* main(): this file's failed checks. */
int uart_async_quirks_failures(void) { return check_failures; }
