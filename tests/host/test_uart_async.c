/* Interrupt-driven UART backend (src/drivers/uart/async.c) on the fake
 * UART and the fake kernel: data integrity for random write sizes and
 * FIFO depths, THRE batching, drain timing, ring-full writers, DW quirks
 * (IIR=0xC1 entries, RX timeout without data, busy detect), RX errors.
 * Built twice: with the default 64 KiB TX ring and with
 * -DUART_TX_RING_SIZE=256. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csr.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "uart_16550.h"
#include "uart_backend.h"

#ifndef UART_TX_RING_SIZE
#define UART_TX_RING_SIZE (64U * 1024U)   /* async.c's default */
#endif
#define IRQ 18
#define NS_PER_MS 1000000ULL

static struct uart_cfg cfg;
static uint8_t *expect;                   /* every byte accepted, in order */
static size_t expect_n, expect_cap;
static uint64_t max_late_ns;              /* drain return - last stop bit */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static struct uart_cfg make_cfg(bool dw, unsigned depth)
{
    if (dw)
        return (struct uart_cfg){ .base = 0x02500000, .reg_shift = 2,
            .io_width = 4, .dw_apb = true, .clock_hz = 24000000,
            .baud = 115200, .fifo_depth = (uint16_t)depth };
    return (struct uart_cfg){ .base = 0x10000000, .reg_shift = 0,
        .io_width = 1, .dw_apb = false, .clock_hz = 3686400, .baud = 115200,
        .fifo_depth = (uint16_t)depth };
}

static const char *name_of(const struct uart_cfg *c)
{
    return c->dw_apb ? "dw" : "ns16550";
}

static uint64_t char_ns(void)
{
    return 10ULL * 16ULL * uart_divisor(&cfg) * 1000000000ULL / cfg.clock_hz;
}

static struct uart_counters counters(void)
{
    struct uart_counters c;
    CHECK_EQ(uart_be_counters(&c), 0);
    return c;
}

static void setup(bool dw, unsigned depth)
{
    cfg = make_cfg(dw, depth);
    struct fu_config f = {
        .base = cfg.base, .reg_shift = cfg.reg_shift, .width = cfg.io_width,
        .dw = dw, .fifo_depth = depth, .char_ns = char_ns(), .access_ns = 50,
    };
    fu_init(&f);
    fk_init();
    CHECK_EQ(uart_hw_init(&cfg), 0);
    CHECK_EQ(uart_be_init(&cfg, IRQ), 0);
    CHECK_EQ(fk_irq_number(), IRQ);
    CHECK_EQ(uart_be_counters_reset(), 0);
    fu_stats_clear();
    fu_out_clear();
    expect_n = 0;
}

static void expect_add(const uint8_t *p, size_t n)
{
    if (expect_n + n > expect_cap) {
        expect_cap = (expect_n + n) * 2;
        expect = realloc(expect, expect_cap);
        if (!expect)
            abort();
    }
    memcpy(expect + expect_n, p, n);
    expect_n += n;
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* The fake's output equals every accepted byte, in order. */
static void check_output(const char *what)
{
    size_t n = fu_out_count();
    const struct fu_out *o = fu_out_buf();
    CHECK_EQ(n, expect_n);
    for (size_t i = 0; i < n && i < expect_n; i++)
        if (o[i].b != expect[i]) {
            fprintf(stderr, "%s: %s depth %u: byte %zu is %#x, expected %#x\n",
                    what, name_of(&cfg), cfg.fifo_depth, i, o[i].b, expect[i]);
            CHECK(o[i].b == expect[i]);
            break;
        }
    CHECK_EQ(fu_stats()->lost_stores, 0);
    CHECK_EQ(fu_errors(), 0);
    CHECK(host_csr.xstatus & XSTATUS_XIE);   /* irq_save/restore balanced */
}

static void write_all(const uint8_t *p, size_t n)
{
    ssize_t r = uart_be_write(p, n, false);
    CHECK_EQ(r, (ssize_t)n);
    if (r > 0)
        expect_add(p, (size_t)r);
}

/* Drain, then: 0, the shifter idle with TEMT, every byte out, and not
 * before the last stop bit. */
static int drain_checked(const char *what)
{
    uint64_t t0 = fu_now();
    int rc = uart_be_drain();
    if (rc != 0)
        fprintf(stderr, "%s: %s depth %u: drain returned %d with %zu of %zu "
                "bytes out, TX FIFO level %u\n", what, name_of(&cfg),
                cfg.fifo_depth, rc, fu_out_count(), expect_n, fu_tx_level());
    CHECK_EQ(rc, 0);
    CHECK(fu_lsr_peek() & UART_LSR_TEMT);
    CHECK(!fu_shifter_busy());
    CHECK_EQ(fu_out_count(), expect_n);
    if (fu_out_count()) {
        uint64_t last = fu_out_buf()[fu_out_count() - 1].t_ns;
        CHECK(fu_now() >= last);
        /* Lateness of a drain that had to wait for the last byte. */
        if (t0 < last && fu_now() >= last) {
            if (fu_now() - last > max_late_ns)
                max_late_ns = fu_now() - last;
            CHECK(fu_now() - last <= 2 * char_ns());
        }
    }
    return rc;
}

/* 1. Random write sizes, random drains and pauses: bytes out == bytes in. */
static void test_integrity(bool dw, unsigned depth)
{
    static uint8_t buf[3000];

    setup(dw, depth);
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
static void test_thre_batching(bool dw, unsigned depth)
{
    static uint8_t buf[1024];

    setup(dw, depth);
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
               "%llu THRE, %llu tx_irqs, max chunk %llu)\n", name_of(&cfg),
               depth, per_irq, expect_n, (unsigned long long)thre,
               (unsigned long long)c.tx_irqs,
               (unsigned long long)c.hw_send_max_chunk);
        CHECK(expect_n * 4 >= (size_t)thre * depth * 3);
    }
    CHECK_EQ(c.hw_send_bytes, expect_n);
    CHECK(c.hw_send_max_chunk <= depth);
}

/* 3. Drain returns only once the last stop bit has left, for sizes
 * around the FIFO boundary; an idle drain returns at once. */
static void test_drain_timing(bool dw, unsigned depth)
{
    const size_t sizes[] = { 1, depth - 1, depth, depth + 1, 2 * depth + 3, 1000 };
    uint8_t buf[1000];

    setup(dw, depth);
    uint64_t t0 = fu_now();
    CHECK_EQ(uart_be_drain(), 0);
    CHECK(fu_now() - t0 < char_ns());
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
static void test_ring_full_writer(bool dw, unsigned depth)
{
    size_t n = UART_TX_RING_SIZE + 5000;
    uint8_t *buf = malloc(n);

    setup(dw, depth);
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
static void test_nonblock_full(bool dw, unsigned depth)
{
    size_t n = UART_TX_RING_SIZE + 1000, acc = 0;
    uint8_t *buf = malloc(n);
    ssize_t r;
    bool eagain = false;

    setup(dw, depth);
    fill_random(buf, n);
    r = uart_be_write(buf, n, true);
    CHECK(r > 0 && (size_t)r < n);
    CHECK((size_t)r <= UART_TX_RING_SIZE);
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

/* 6a. DW: spurious IIR=0xC1 entries during a bulk transfer, landing at
 * all FIFO levels: the refill uses TFL, so no store is ever lost. */
static void test_spurious_bulk(bool dw, unsigned depth)
{
    static uint8_t buf[1000];

    setup(dw, depth);
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
    printf("spurious entries (%s depth %u): %llu, %llu with the FIFO partly full, "
           "lost stores %llu\n", name_of(&cfg), depth,
           (unsigned long long)fu_stats()->c1_reads,
           (unsigned long long)fu_stats()->c1_partial,
           (unsigned long long)fu_stats()->lost_stores);
}

/* 6b. A spurious IIR=0xC1 entry after the ring has emptied into the FIFO
 * but while the FIFO still holds bytes: TX must not be declared idle, the
 * drain must still wait for every byte. */
static void test_spurious_short_write(bool dw, unsigned depth, size_t n)
{
    uint8_t buf[64];

    setup(dw, depth);
    fill_random(buf, n);
    write_all(buf, n);
    CHECK(fu_tx_level() > 1);
    fu_spurious(1);
    fk_take_irqs();
    CHECK_EQ(fu_stats()->c1_reads, 1);
    CHECK_EQ(fu_stats()->lost_stores, 0);
    if (fu_tx_level() > 0 && uart_be_tx_pending() == 0)
        fprintf(stderr, "spurious short write: %s depth %u: after the 0xC1 "
                "entry the backend reports tx_pending 0 / copier_active %llu "
                "with %u bytes still in the FIFO\n", name_of(&cfg), depth,
                (unsigned long long)counters().copier_active, fu_tx_level());
    drain_checked("spurious short write");
    check_output("spurious short write");
    /* The backend still works afterwards. */
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    drain_checked("after spurious");
    check_output("after spurious");
}

/* 7. DW RX timeout without data: one dummy RBR read ends it. */
static void test_rx_timeout_nodata(void)
{
    uint8_t b;

    setup(true, 64);
    uint64_t runs = fk_stats()->isr_runs;
    fu_rx_timeout_nodata();
    CHECK(fu_irq_line());
    fk_take_irqs();
    CHECK(!fu_rx_timeout_pending());
    CHECK(!fu_irq_line());
    CHECK_EQ(fu_stats()->timeout_cleared, 1);
    CHECK_EQ(fu_stats()->rbr_empty_reads, 1);
    CHECK(fk_stats()->isr_runs - runs <= 2);
    CHECK_EQ(counters().rx_irqs, 1);
    CHECK_EQ(counters().rx_bytes, 0);
    CHECK_EQ(uart_be_read(&b, 1, true), -EAGAIN);
    CHECK_EQ(fu_errors(), 0);
}

/* 8. DW busy detect (LCR written while busy) is cleared via USR. */
static void test_busy_detect(void)
{
    static uint8_t buf[100];

    setup(true, 64);
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

/* Blocking read of exactly n bytes. */
static void read_n(uint8_t *dst, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = uart_be_read(dst + got, n - got, false);
        CHECK(r > 0);
        if (r <= 0)
            return;
        got += (size_t)r;
    }
}

/* 9. RX bytes with line errors arrive in order; errors and overruns are
 * counted; an empty non-blocking read gives -EAGAIN. */
static void test_rx(bool dw, unsigned depth)
{
    static const uint8_t data[] = { 'H', 'e', 'l', 0x00, 'o', '!' };
    static const unsigned flags[] = { 0, FU_RX_PE, FU_RX_FE, FU_RX_BI, 0, FU_RX_PE | FU_RX_FE };
    uint8_t got[FU_MAX_DEPTH + 8];

    setup(dw, depth);
    CHECK_EQ(uart_be_read(got, 4, true), -EAGAIN);
    CHECK_EQ(uart_be_read(got, 0, true), 0);
    uint64_t t = fu_now();
    for (size_t i = 0; i < sizeof data; i++)
        fu_rx_inject_at(t + (i + 1) * char_ns(), data[i], flags[i]);
    read_n(got, sizeof data);
    CHECK(memcmp(got, data, sizeof data) == 0);
    struct uart_counters c = counters();
    CHECK_EQ(c.rx_bytes, sizeof data);
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
    CHECK_EQ(counters().rx_bytes, sizeof data + depth);
    CHECK_EQ(uart_be_rx_available(), 0);
    CHECK_EQ(fu_errors(), 0);
}

/* 9b. Nobody reads: the RX ring fills, the excess is dropped and counted,
 * and what was kept comes out in order. */
static void test_rx_ring_overflow(void)
{
    const size_t total = 20000;
    static uint8_t got[20000];
    size_t sent = 0, kept;

    setup(true, 64);
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
static void test_counters_keep_rx_errors(void)
{
    uint8_t b;
    struct uart_counters c;

    setup(true, 64);
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
static void test_loopback(void)
{
    static const uint8_t msg[] = "loopback";
    uint8_t got[sizeof msg];

    setup(false, 16);
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

/* 11. Polled flush (panic path) pushes the queued bytes out in order. */
static void test_flush_polled(bool dw, unsigned depth)
{
    static uint8_t buf[200];   /* fits the smallest ring */

    setup(dw, depth);
    fill_random(buf, sizeof buf);
    ssize_t r = uart_be_write(buf, sizeof buf, true);
    CHECK_EQ(r, (ssize_t)sizeof buf);
    expect_add(buf, sizeof buf);
    uart_be_flush_polled();
    CHECK_EQ(uart_be_tx_pending() <= depth + 1, 1);   /* FIFO plus the shifter */
    drain_checked("flush polled");
    check_output("flush polled");
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);   /* keep order with stderr */
    static const unsigned depths[] = { 1, 16, 64 };

    printf("TX ring size %u\n", UART_TX_RING_SIZE);
    for (int dw = 0; dw < 2; dw++)
        for (unsigned d = 0; d < 3; d++) {
            test_integrity(dw, depths[d]);
            test_thre_batching(dw, depths[d]);
            test_drain_timing(dw, depths[d]);
            test_ring_full_writer(dw, depths[d]);
            test_nonblock_full(dw, depths[d]);
            test_rx(dw, depths[d]);
            test_flush_polled(dw, depths[d]);
        }
    printf("drain returned at most %.1f us after the last stop bit\n",
           (double)max_late_ns / 1000.0);
    test_spurious_bulk(true, 64);
    test_spurious_bulk(true, 16);
    test_rx_timeout_nodata();
    test_busy_detect();
    test_loopback();
    test_spurious_short_write(true, 64, 40);
    test_spurious_short_write(false, 16, 12);
    test_rx_ring_overflow();
    test_counters_keep_rx_errors();
    CHECK_EQ(fu_errors(), 0);       /* no bad access anywhere above */
    free(expect);
    return check_exit("uart_async");
}
