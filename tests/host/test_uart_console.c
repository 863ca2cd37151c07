/* The polling console engine (src/drivers/uart/engine_console.c) with the
 * tty core on one lower half (host.uart_console.<lower>) and the fake
 * UART: bytes out equal bytes in for every FIFO depth,
 * drain returns only with TEMT and gives up within its bound under line
 * faults, counters ioctls give -ENOTTY, reads. */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "console.h"
#include "csr.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "uart_16550.h"
#include "uart_backend.h"
#include "uart_port.h"
#include "test_lower.h"

static struct uart_cfg cfg;
static uint8_t expect[64 * 1024];
static size_t expect_n;
static uint64_t rng = 0x2545F4914F6CDD1DULL;

/* Any test: the next pseudo-random number (xorshift). */
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Any test: one 8N1 character on the line under test. */
static uint64_t char_ns(void)
{
    return uart_char_ns(&cfg);
}

/* Every test: fake UART and kernel, the driver as at boot on the lower
 * half under test with a FIFO of depth bytes. */
static void setup(unsigned depth)
{
    struct uart_info info;

    cfg = lower_cfg(depth);
    lower_fake_init(&cfg, depth, 500);
    uart_port = (struct uart_port){ 0 };
    CHECK_EQ(uart_be_hw_init(&cfg), 0);
    CHECK_EQ(uart_be_init(18), 0);
    CHECK_EQ(strcmp(uart_be_name, "console"), 0);
    uart_be_info(&info);
    CHECK(strcmp(info.ip, LOWER_NAME) == 0 && strcmp(info.engine, "console") == 0);
    fu_stats_clear();
    fu_out_clear();
    expect_n = 0;
}

/* Every test, at its end: the wire carried every byte written, in order. */
static void check_output(void)
{
    size_t n = fu_out_count();
    CHECK_EQ(n, expect_n);
    for (size_t i = 0; i < n && i < expect_n; i++)
        if (fu_out_buf()[i].b != expect[i]) {
            fprintf(stderr, "console %s depth %u: byte %zu differs\n",
                    LOWER_NAME, cfg.fifo_depth, i);
            CHECK(fu_out_buf()[i].b == expect[i]);
            break;
        }
    CHECK_EQ(fu_stats()->lost_stores, 0);
    CHECK_EQ(fu_errors(), 0);
    CHECK(host_csr.xstatus & XSTATUS_XIE);
}

/* Any test: a drain that returns 0 with every byte out and TEMT. */
static void drain_checked(void)
{
    CHECK_EQ(uart_be_drain(), 0);
    CHECK(fu_lsr_peek() & UART_LSR_TEMT);
    CHECK(!fu_shifter_busy());
    CHECK_EQ(fu_out_count(), expect_n);
    if (fu_out_count())
        CHECK(fu_now() >= fu_out_buf()[fu_out_count() - 1].t_ns);
    CHECK_EQ(uart_be_tx_pending(), 0);
}

/* main(): random writes (blocking or not: the same), drains between. */
static void test_write(unsigned depth)
{
    static uint8_t buf[3000];

    setup(depth);
    for (int round = 0; round < 6; round++) {
        size_t n = 1 + rnd() % sizeof buf;
        for (size_t i = 0; i < n; i++)
            buf[i] = (uint8_t)rnd();
        uint64_t t0 = fu_now();
        CHECK_EQ(uart_be_write(buf, n, rnd() % 2), (ssize_t)n);
        /* write returns with at most a FIFO's worth (plus the shifter)
         * still on its way */
        CHECK(fu_now() - t0 + (depth + 1) * char_ns() >= n * char_ns());
        memcpy(expect + expect_n, buf, n);
        expect_n += n;
        if (rnd() % 2)
            drain_checked();
    }
    drain_checked();
    check_output();
    CHECK_EQ(uart_be_drain(), 0);                   /* idle: at once */
}

/* Drain under line faults (TEMT never rises; the transmitter stalls with
 * a byte in the shifter): -ETIMEDOUT after the whole spin bound (10 ms +
 * two characters per FIFO byte and shifter, tty.c), not before and
 * not more than a poll after; the bytes intact once the fault is gone. */
static void test_drain_faults(unsigned depth)
{
    const uint64_t bound = 10 * 1000000ULL + 2 * char_ns() * (depth + 1);
    static const uint8_t b[2] = { 'f', 'g' };

    setup(depth);
    for (int stall = 0; stall < 2; stall++) {
        CHECK_EQ(uart_be_write(&b[stall], 1, false), 1);
        expect[expect_n++] = b[stall];
        if (stall)
            fu_tx_stall(true);
        else
            fu_temt_stuck(true);
        uint64_t t0 = fu_now();
        CHECK_EQ(uart_be_drain(), -ETIMEDOUT);
        uint64_t dt = fu_now() - t0;
        CHECK(dt >= bound && dt <= bound + 2 * fu_cfg()->access_ns);
        CHECK_EQ(uart_be_tx_pending(), 1);
        fu_tx_stall(false);
        fu_temt_stuck(false);
        drain_checked();
    }
    check_output();
}

/* main(): counters give -ENOTTY; polled reads; loopback. */
static void test_ioctls_and_reads(void)
{
    struct uart_counters c;
    uint8_t b[8];

    setup(16);
    CHECK_EQ(uart_be_counters(&c), -ENOTTY);
    CHECK_EQ(uart_be_counters_reset(), -ENOTTY);
    CHECK_EQ(uart_be_read(b, sizeof b, true), -EAGAIN);
    CHECK_EQ(uart_be_read(b, 0, true), 0);
    CHECK_EQ(uart_be_rx_available(), 0);
    fu_rx_inject('x', 0);
    fu_rx_inject('y', 0);
    CHECK_EQ(uart_be_rx_available(), 2);     /* both: polled into the ring */
    CHECK_EQ(uart_be_read(b, sizeof b, true), 2);
    CHECK(b[0] == 'x' && b[1] == 'y');
    /* Blocking read spins until a byte arrives later. */
    fu_rx_inject_at(fu_now() + 50 * char_ns(), 'z', 0);
    CHECK_EQ(uart_be_read(b, sizeof b, false), 1);
    CHECK_EQ(b[0], 'z');
    CHECK_EQ(uart_be_read(b, sizeof b, true), -EAGAIN);
    /* A timed read spins until its deadline (0) or a byte. */
    uint64_t t = fu_now();
    CHECK_EQ(uart_be_read_until(b, sizeof b, t + 20 * char_ns()), 0);
    CHECK(fu_now() >= t + 20 * char_ns());
    fu_rx_inject_at(fu_now() + 5 * char_ns(), 'T', 0);
    t = fu_now();
    CHECK_EQ(uart_be_read_until(b, sizeof b, t + 20 * char_ns()), 1);
    CHECK(b[0] == 'T' && fu_now() < t + 20 * char_ns());
    /* Loopback through MCR. */
    CHECK_EQ(uart_be_set_loopback(true), 0);
    CHECK(fu_reg_mcr() & UART_MCR_LOOP);
    CHECK_EQ(uart_be_write("ok", 2, false), 2);
    CHECK_EQ(uart_be_drain(), 0);
    CHECK_EQ(uart_be_read(b, sizeof b, true), 2);
    CHECK(b[0] == 'o' && b[1] == 'k');
    CHECK_EQ(uart_be_set_loopback(false), 0);
    uart_be_flush_polled();
    CHECK_EQ(fu_errors(), 0);
}

/* Test: bring-up registers the port as the kernel's console sink, with
 * its character time and FIFO; the sink's polled output reaches the wire
 * with CR NL, and it is idle only once the last stop bit is out. */
static void test_console_sink(void)
{
    setup(16);
    const struct console_sink *s = console_sink();
    CHECK(s != NULL);
    CHECK_EQ(console_char_ns(), char_ns());
    CHECK_EQ(console_fifo_depth(), 16);
    if (!s)
        return;
    CHECK(s->tx_idle());
    console_write_polled("k\n", 2);
    CHECK(!s->tx_idle());
    CHECK(s->tx_pending() >= 1);
    fu_advance_to(fu_now() + 4 * char_ns());
    CHECK(s->tx_idle());
    CHECK_EQ(fu_out_count(), 3);
    if (fu_out_count() == 3)
        CHECK(fu_out_buf()[0].b == 'k' && fu_out_buf()[1].b == '\r' &&
              fu_out_buf()[2].b == '\n');
    CHECK_EQ(fu_errors(), 0);
}

/* The test program: writes and drain faults on each FIFO depth, then the
 * ioctls and reads. */
int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);   /* keep order with stderr */
    static const unsigned depths[] = { 1, 16, 64 };
    for (unsigned d = 0; d < 3; d++) {
        test_write(depths[d]);
        test_drain_faults(depths[d]);
    }
    test_ioctls_and_reads();
    test_console_sink();
    CHECK_EQ(fu_errors(), 0);       /* no bad access anywhere above */
    return check_exit(LOWER_SUITE("uart_console"));
}
