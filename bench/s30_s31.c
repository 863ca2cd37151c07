/* S30: a non-blocking read of an empty port gives EAGAIN, through
 * open(O_NONBLOCK), ioctl(FIONBIO) and fcntl(F_SETFL). S31: a fixed RX
 * payload through the UART's loopback (the original skipped it for lack
 * of a peer on the line); SKIPPED where the UART has no loopback. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include "bench.h"
#include "kernel.h"
#include "params.h"
#include "posix_io.h"
#include "uart_loopback.h"

#define S30_READ   16
#define S31_SEED   31

/* Section task: one read on fd; PASS when it fails with EAGAIN. */
static bool expect_eagain(const char *method, int fd)
{
    char buf[S30_READ];
    ssize_t n = read(fd, buf, sizeof buf);
    int err = n < 0 ? errno : 0;
    bool ok = n < 0 && err == EAGAIN;
    if (n > 0)
        bench_rx_found((uint64_t)n);   /* bytes on a port that should be empty */
    printf("  method=%s status=%s result=%s read_rc=%d errno=%d fd=%d\n", method,
           ok ? "PASS" : "FAIL", err == EAGAIN ? "EAGAIN" : "unexpected", (int)n, err, fd);
    return ok;
}

/* Section task. */
enum bench_status s30_nonblock(void)
{
    int one = 1;
    bool ok = true;

    bench_rx_flush();                             /* start from an empty port */
    int fd1 = open("/dev/console", O_RDONLY | O_NONBLOCK);
    ok &= expect_eagain("open-o-nonblock", fd1);
    int fd2 = open("/dev/console", O_RDONLY);
    ok &= ioctl(fd2, FIONBIO, &one) == 0 && expect_eagain("ioctl-fionbio", fd2);
    int fd3 = open("/dev/console", O_RDONLY);
    ok &= fcntl(fd3, F_SETFL, fcntl(fd3, F_GETFL) | O_NONBLOCK) == 0 &&
          expect_eagain("fcntl-setfl", fd3);
    close(fd1);
    close(fd2);
    close(fd3);
    bench_rx_mark("s30-rx-window");
    return ok ? BENCH_PASS : bench_fail("no-eagain");
}

/* Section task. */
enum bench_status s31_rx_fixed(void)
{
    struct uart_loopback_result r;
    char ms[24];

    console_flush();
    tcdrain(bench.fd);
    bench_rx_flush();
    bench_rx_own_begin();
    int rc = uart_loopback_run(S31_BYTES, S31_SEED, &r);
    bench_rx_own_end(r.sent);
    bench_rx_flush();          /* own bytes a foreign one displaced (console) */
    if (r.loopback_errno == ENOTTY) {   /* a UART without loopback (a pty) */
        printf("  diag=s31-skip reason=no-loopback\n");
        bench_rx_mark("s31-rx-window");
        return bench_skip("no-loopback");
    }
    printf("  status=%s rx_mode=loopback-mcr rx_fixed_bytes=%u received=%lu mismatched=%lu "
           "crc_tx=0x%08lx crc_rx=0x%08lx elapsed_ms=%s rx_dropped=%llu rx_overruns=%llu\n",
           rc ? "FAIL" : "PASS", S31_BYTES, (unsigned long)r.received,
           (unsigned long)r.mismatched, (unsigned long)r.crc_tx, (unsigned long)r.crc_rx,
           bench_milli(ms, sizeof ms, r.elapsed_ns / 1000), (unsigned long long)r.rx_dropped,
           (unsigned long long)r.rx_overruns);
    bench_rx_mark("s31-rx-window");
    if (r.loopback_errno)
        return bench_fail("loopback-errno-%d", r.loopback_errno);
    return rc ? bench_fail("rx-mismatch") : BENCH_PASS;
}
