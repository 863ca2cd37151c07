/* S05: driver internals at boot, no line involved: TX ring write and RX
 * ring read throughput next to memcpy of the same bytes in the same run,
 * and RX latency (write one byte, read it back) through the loopback;
 * SKIPPED where the UART has none. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "clock.h"
#include "posix_io.h"
#include "ring.h"
#include "scheduler.h"
#include "bench.h"
#include "kernel.h"

#define S05_RING      (64U * 1024U)   /* the async TX ring's default size */
#define S05_CHUNK     1024U
#define S05_RX_N      100
#define S05_SEED      5

static uint8_t store[S05_RING], copy[S05_RING], chunk[S05_CHUNK];
static uint64_t lat[S05_RX_N];

/* Section task: one ring direction against memcpy of the same bytes. */
static void ring_vs_memcpy(const char *op, bool write_side)
{
    struct ring r;
    char kb[24], mk[24], ratio[24];

    ring_init(&r, store, S05_RING);
    if (!write_side)
        while (ring_push(&r, chunk, S05_CHUNK))
            ;
    uint64_t t0 = clock_now_ns();
    for (uint32_t done = 0; done < S05_RING; done += S05_CHUNK) {
        if (write_side)
            ring_push(&r, chunk, S05_CHUNK);
        else
            ring_pop(&r, chunk, S05_CHUNK);
    }
    uint64_t t1 = clock_now_ns();
    for (uint32_t done = 0; done < S05_RING; done += S05_CHUNK) {
        if (write_side)
            memcpy(copy + done, chunk, S05_CHUNK);
        else
            memcpy(chunk, copy + done, S05_CHUNK);
    }
    uint64_t t2 = clock_now_ns();
    uint64_t rn = (t1 - t0) ? (t1 - t0) : 1, mn = (t2 - t1) ? (t2 - t1) : 1;
    printf("  diag=s05-ring op=%s bytes=%u chunk=%u ns=%llu kbps=%s memcpy_ns=%llu memcpy_kbps=%s "
           "ring_over_memcpy=%s\n", op, S05_RING, S05_CHUNK, (unsigned long long)rn,
           bench_milli(kb, sizeof kb, (uint64_t)S05_RING * 1000000000ULL / rn),
           (unsigned long long)mn,
           bench_milli(mk, sizeof mk, (uint64_t)S05_RING * 1000000000ULL / mn),
           bench_milli(ratio, sizeof ratio, mn * 1000 / rn));
}

/* Section task. */
enum bench_status s05_internals(void)
{
    int on = 1, off = 0, n = 0;
    uint8_t b = '#', in;

    memset(chunk, 'x', sizeof chunk);
    ring_vs_memcpy("tx-write", true);
    ring_vs_memcpy("rx-read", false);

    /* RX latency: nothing may print while the loopback is on, and what
     * was printed must have left before it is switched on. */
    console_flush();
    tcdrain(bench.fd);
    bench_rx_flush();                                /* bytes from before */
    bench_rx_own_begin();
    int rc = ioctl(bench.fd, UART_IOC_LOOPBACK, &on);
    int lb_errno = rc ? errno : 0;
    for (int i = 0; rc == 0 && i < S05_RX_N; i++) {
        uint64_t t0 = clock_now_ns();
        write(bench.fd, &b, 1);
        if (read(bench.fd, &in, 1) == 1 && in == b)
            n++;
        lat[i] = clock_now_ns() - t0;
    }
    tcdrain(bench.fd);
    ioctl(bench.fd, UART_IOC_LOOPBACK, &off);
    bench_rx_own_end(rc == 0 ? S05_RX_N : 0);
    bench_rx_flush();          /* own bytes a foreign one displaced (console) */
    if (rc && lb_errno == ENOTTY) {   /* a UART without loopback (SiFive, a pty) */
        printf("  s05-rx-latency mode=none reason=no-loopback\n");
        return bench_skip("no-loopback");
    }
    printf("  s05-rx-latency mode=loopback-mcr rx_line_model=none loopback_rc=%d ok=%d\n", rc, n);
    bench_print_dist("s05-rx-latency", "ns", lat, S05_RX_N);
    bench_rx_mark("s05-rx-window");
    printf("  s05-driver backend=%s char_ns=%llu test_ring=%u\n", uart_be_name,
           (unsigned long long)bench.char_ns, S05_RING);
    if (rc)
        return bench_fail("loopback-errno-%d", lb_errno);
    return n == S05_RX_N ? BENCH_PASS : bench_fail("rx-mismatch");
}
