/* StarryOS's TX telemetry as uartbench-hosted reads it
 * (bench/hosted/txdbg.c), against a fake kernel: this file's
 * __wrap_ioctl stands for StarryOS's sys_ioctl (the test links with
 * --wrap=ioctl). It answers UART_TXDBG_SNAPSHOT by writing sixteen u64,
 * 101..116, the whole of StarryOS's 128-byte UartTxDebugSnapshot, to the
 * pointer it is given (ASan: a smaller buffer would be overrun), and
 * UART_TXDBG_RESET with 0; or, as Linux or a kernel without them, fails
 * with a chosen errno. Checks the request numbers, the fd, the field
 * order and names, and that only "no such ioctl" answers become ENOTTY. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include "bench.h"
#include "check.h"
#include "hosted.h"
#include "uart_backend.h"

#define FD 7
#define SNAPSHOT 0x54584431UL
#define RESET    0x54584432UL

struct bench_env bench = { .fd = FD };
static int fail_with;                 /* 0: answer as StarryOS; else this errno */
static unsigned long last_request;
static void *last_arg;
static int last_fd;

/* txdbg.c's ioctl calls (the fake kernel). */
int __wrap_ioctl(int fd, unsigned long request, ...)
{
    va_list ap;
    va_start(ap, request);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    last_fd = fd;
    last_request = request;
    last_arg = arg;
    if (fail_with) {
        errno = fail_with;
        return -1;
    }
    if (request == SNAPSHOT) {
        uint64_t v[16];
        for (int i = 0; i < 16; i++)
            v[i] = 101 + (uint64_t)i;
        memcpy(arg, v, sizeof v);
        return 0;
    }
    if (request == RESET)
        return 0;
    errno = ENOTTY;
    return -1;
}

/* main: a snapshot maps StarryOS's fields, in its order, onto ours. */
static void test_snapshot(void)
{
    struct uart_counters c;

    memset(&c, 0xff, sizeof c);
    fail_with = 0;
    CHECK_EQ(bench_txdbg_snapshot(&c), 0);
    CHECK_EQ(last_request, SNAPSHOT);
    CHECK_EQ(last_fd, FD);
    const uint64_t want[16] = {
        c.user_calls, c.user_req, c.user_acc, c.ring_pop_calls, c.ring_pop_bytes,
        c.hw_send_calls, c.hw_send_bytes, c.hw_send_zero, c.hw_send_max_chunk,
        c.no_progress_budget, c.slow_poll_exh, c.yield_exh, c.ring_empty, c.copier_active,
        c.staged_bytes, c.transmitter_empty,
    };
    for (int i = 0; i < 16; i++)
        CHECK_EQ(want[i], 101 + i);
    CHECK_EQ(c.tx_irqs, 0);           /* StarryOS has none of ours */
    CHECK_EQ(c.queued_at_reset, 0);
    CHECK_EQ(c.rx_deferred, 0);
}

/* main: the reset is StarryOS's request, with no argument. */
static void test_reset(void)
{
    fail_with = 0;
    last_arg = &last_arg;
    CHECK_EQ(hosted_txdbg_reset(3), 0);
    CHECK_EQ(last_request, RESET);
    CHECK_EQ(last_fd, 3);
    CHECK(last_arg == NULL);
}

/* main: "no such ioctl" in any of its forms is ENOTTY, as before the
 * fallback; another error is kept. */
static void test_refusals(void)
{
    const int none[] = { ENOTTY, EINVAL, ENOSYS, EOPNOTSUPP };
    struct uart_counters c;

    for (unsigned i = 0; i < sizeof none / sizeof none[0]; i++) {
        fail_with = none[i];
        errno = 0;
        CHECK_EQ(bench_txdbg_snapshot(&c), -1);
        CHECK_EQ(errno, ENOTTY);
        errno = 0;
        CHECK_EQ(hosted_txdbg_reset(FD), -1);
        CHECK_EQ(errno, ENOTTY);
    }
    fail_with = EIO;
    CHECK_EQ(bench_txdbg_snapshot(&c), -1);
    CHECK_EQ(errno, EIO);
    CHECK_EQ(hosted_txdbg_reset(FD), -1);
    CHECK_EQ(errno, EIO);
}

/* The test's entry. */
int main(void)
{
    test_snapshot();
    test_reset();
    test_refusals();
    return check_exit("txdbg");
}
