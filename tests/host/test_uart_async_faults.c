/* Host test of the async TX engine (test_uart_async.c): the drain's
 * two give-up paths under injected line faults, each within its bound,
 * counted, and the backend sound afterwards. */
#include <errno.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_async.h"

#define DRAIN_MARGIN_NS (10 * NS_PER_MS)   /* tty.c DRAIN_MARGIN_NS */
#define DRAIN_TEMT_TRIES 4                 /* tty.c DRAIN_TEMT_TRIES */

/* What a timed-out drain leaves: the counters say so, nothing is lost or
 * sent twice, and a drain after the fault is gone succeeds. */
static void check_after_timeout(const char *what, uint64_t timeouts)
{
    struct uart_counters c = counters();
    CHECK_EQ(c.drain_timeouts, timeouts);
    drain_checked(what);
    check_output(what);
    CHECK_EQ(counters().drain_timeouts, timeouts);
}

/* 12a. TEMT never rises: the ring and the FIFO empty, the drain sleeps
 * its character-time retries after the FIFO-empty event and gives up:
 * -ETIMEDOUT, one character after the last retry is due at the latest,
 * and never before the line time. */
void test_drain_temt_stuck(unsigned depth, size_t n)
{
    uint8_t buf[256];

    setup(depth);
    fill_random(buf, n);
    uint64_t t0 = fu_now();
    write_all(buf, n);
    fu_temt_stuck(true);
    int rc = uart_be_drain();
    uint64_t dt = fu_now() - t0;
    CHECK_EQ(rc, -ETIMEDOUT);
    CHECK_EQ(fu_out_count(), n);                /* the bytes themselves went out */
    CHECK(dt >= (n - 1 + DRAIN_TEMT_TRIES) * char_ns());
    CHECK(dt <= (n + DRAIN_TEMT_TRIES + 1) * char_ns());
    CHECK_EQ(counters().drain_timer_waits, DRAIN_TEMT_TRIES);
    CHECK_EQ(uart_be_drain(), -ETIMEDOUT);      /* idle line, still no TEMT */
    fu_temt_stuck(false);
    check_after_timeout("temt stuck", 2);
}

/* 12b. The transmitter stalls with bytes in ring and FIFO: no FIFO-empty
 * event ever comes, the drain gives up at its deadline (10 ms + two
 * characters per pending byte, FIFO byte and shifter); released, every
 * byte goes out once, in order. */
void test_drain_tx_stall(unsigned depth, size_t n)
{
    uint8_t buf[256];

    setup(depth);
    fill_random(buf, n);
    write_all(buf, n);
    fu_tx_stall(true);
    uint64_t t0 = fu_now();
    int rc = uart_be_drain();
    uint64_t dt = fu_now() - t0;
    CHECK_EQ(rc, -ETIMEDOUT);
    CHECK(fu_out_count() < n);
    CHECK(dt >= DRAIN_MARGIN_NS);
    CHECK(dt <= DRAIN_MARGIN_NS + 2 * char_ns() * (n + depth + 1) + char_ns());
    fu_tx_stall(false);
    check_after_timeout("tx stall", 1);
}

/* main(): this file's failed checks. */
int uart_async_faults_failures(void) { return check_failures; }
