/* POSIX layer self-test on the target (boot argument selftest=posix):
 * every error case of the layer through the real backend, each one
 * followed by a check that nothing changed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include "posix_io.h"
#include "selftest.h"
#include "clock.h"
#include "timer.h"
#include "waitq.h"
#include "uart_backend.h"

#define BAD_FD      99
#define UNKNOWN_IOC 0x7777

static int failures;

/* Main task: rc must be -1 with errno == want. */
static void expect_err(const char *what, long rc, int want)
{
    int ok = rc == -1 && errno == want;
    printf("posix case=%s rc=%ld errno=%d want=%d %s\n", what, rc, rc == -1 ? errno : 0, want,
           ok ? "ok" : "FAIL");
    failures += !ok;
}

/* Main task: the error table; returns 1 when every case held. */
int selftest_posix(void)
{
    char buf[8] = "abcdefg";
    struct uart_counters c;
    int one = 1, flags;
    int fd = open("/dev/console", O_RDWR);

    expect_err("write-bad-fd", write(BAD_FD, buf, 1), EBADF);
    expect_err("read-bad-fd", read(-1, buf, 1), EBADF);
    expect_err("close-bad-fd", close(BAD_FD), EBADF);
    expect_err("write-null-buffer", write(fd, NULL, 5), EFAULT);
    expect_err("read-null-buffer", read(fd, NULL, 5), EFAULT);
    expect_err("writev-null-iov", writev(fd, NULL, 1), EFAULT);
    expect_err("open-unknown-path", open("/dev/nothing", O_RDWR), ENOENT);
    expect_err("open-bad-flags", open("/dev/console", 0x40000000), EINVAL);
    flags = fcntl(fd, F_GETFL);
    expect_err("fcntl-bad-cmd", fcntl(fd, 9999), EINVAL);
    failures += fcntl(fd, F_GETFL) != flags;            /* unchanged */
    expect_err("ioctl-unknown", ioctl(fd, UNKNOWN_IOC, &one), ENOTTY);
    expect_err("ioctl-fionbio-null", ioctl(fd, FIONBIO, (int *)NULL), EFAULT);
    expect_err("clock-gettime-null", clock_gettime(CLOCK_MONOTONIC, NULL), EFAULT);
    struct timespec bad = { 0, 2000000000L };
    long rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &bad, NULL);
    printf("posix case=clock-nanosleep-bad-nsec rc=%ld want=%d %s\n", rc, EINVAL,
           rc == EINVAL ? "ok" : "FAIL");
    failures += rc != EINVAL;
    if (uart_be_counters(&c) == -ENOTTY)              /* console backend */
        expect_err("ioctl-counters-console", ioctl(fd, UART_IOC_GET_COUNTERS, &c), ENOTTY);
    else
        failures += ioctl(fd, UART_IOC_GET_COUNTERS, &c) != 0;
    ioctl(fd, FIONBIO, &one);
    while (read(fd, buf, sizeof buf) > 0)            /* empty the port first */
        ;
    expect_err("read-empty-nonblocking", read(fd, buf, sizeof buf), EAGAIN);
    /* Kernel timer API: a NULL timer is refused, a past deadline returns
     * at once, nothing is left armed. */
    int arm_rc = timer_arm(NULL, clock_now_ns() + 1000, waker_current());
    bool cancel_rc = timer_cancel(NULL);
    int past_rc = sched_block_until(clock_now_ns() - 1);
    printf("posix case=timer-bad-args arm_rc=%d cancel=%d past_rc=%d %s\n", arm_rc, cancel_rc,
           past_rc, arm_rc == -EINVAL && !cancel_rc && past_rc == -ETIMEDOUT ? "ok" : "FAIL");
    failures += !(arm_rc == -EINVAL && !cancel_rc && past_rc == -ETIMEDOUT);
    failures += close(fd) != 0;
    expect_err("use-after-close", write(fd, buf, 1), EBADF);
    printf("posix failures=%d\n", failures);
    return failures == 0;
}
