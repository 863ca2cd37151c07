/* Host test of the async TX engine: the configuration under test, the
 * record of accepted bytes and the helpers the test files share
 * (test_uart_async.h). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csr.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"
#include "uart_port.h"

struct uart_cfg cfg;
uint8_t *expect;                          /* every byte accepted, in order */
size_t expect_n;
static size_t expect_cap;
uint64_t max_late_ns;                     /* drain return - last stop bit */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

/* Any test: restart the generator (a seeded run). */
void rnd_seed(uint64_t seed) { rng = seed * 0x2545F4914F6CDD1DULL | 1; }

/* Any test or task: the next pseudo-random number (xorshift). */
uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Any test: one 8N1 character on the line under test. */
uint64_t char_ns(void)
{
    return uart_char_ns(&cfg);
}

/* Any test: a snapshot, which must succeed. */
struct uart_counters counters(void)
{
    struct uart_counters c;
    CHECK_EQ(uart_be_counters(&c), 0);
    return c;
}

/* Every test: the fake UART, the fake kernel and the driver as at boot
 * (its port zeroed like the image's bss), the lower half under test with
 * a FIFO of depth bytes; counters reset, nothing recorded. */
void setup(unsigned depth)
{
    struct uart_info info;

    cfg = lower_cfg(depth);
    lower_fake_init(&cfg, depth, ACCESS_NS);
    uart_port = (struct uart_port){ 0 };
    CHECK_EQ(uart_be_hw_init(&cfg), 0);
    CHECK_EQ(uart_be_init(IRQ), 0);
    CHECK_EQ(fk_irq_number(), IRQ);
    uart_be_info(&info);
    CHECK(strcmp(info.ip, LOWER_NAME) == 0 && strcmp(info.engine, TEST_ENGINE) == 0);
    CHECK_EQ(info.fifo_depth, depth);
    CHECK_EQ(uart_be_counters_reset(), 0);
    fu_stats_clear();
    fu_out_clear();
    expect_n = 0;
}

/* Any test: n more bytes the wire must carry, in order. */
void expect_add(const uint8_t *p, size_t n)
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

/* Any test: n random bytes. */
void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)rnd();
}

/* The fake's output equals every accepted byte, in order. */
void check_output(const char *what)
{
    size_t n = fu_out_count();
    const struct fu_out *o = fu_out_buf();
    CHECK_EQ(n, expect_n);
    for (size_t i = 0; i < n && i < expect_n; i++)
        if (o[i].b != expect[i]) {
            fprintf(stderr, "%s: %s depth %u: byte %zu is %#x, expected %#x\n",
                    what, LOWER_NAME, cfg.fifo_depth, i, o[i].b, expect[i]);
            CHECK(o[i].b == expect[i]);
            break;
        }
    CHECK_EQ(fu_stats()->lost_stores, 0);
    CHECK_EQ(fu_errors(), 0);
    CHECK(host_csr.xstatus & XSTATUS_XIE);   /* irq_save/restore balanced */
}

/* Any test or task: a blocking write of n bytes, all taken, recorded. */
void write_all(const uint8_t *p, size_t n)
{
    ssize_t r = uart_be_write(p, n, false);
    CHECK_EQ(r, (ssize_t)n);
    if (r > 0)
        expect_add(p, (size_t)r);
}

/* Drain, then: 0, the shifter idle with TEMT, every byte out, and not
 * before the last stop bit. */
int drain_checked(const char *what)
{
    uint64_t t0 = fu_now();
    int rc = uart_be_drain();
    if (rc != 0)
        fprintf(stderr, "%s: %s depth %u: drain returned %d with %zu of %zu "
                "bytes out, TX FIFO level %u\n", what, LOWER_NAME,
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

/* Blocking read of exactly n bytes. */
void read_n(uint8_t *dst, size_t n)
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

/* main(): this file's failed checks. */
int uart_async_util_failures(void) { return check_failures; }
