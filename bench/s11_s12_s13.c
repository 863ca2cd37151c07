/* S11 enqueue cost (no drain while timing, one timed final drain), S12
 * batch drain (tcdrain every 8 writes), S13 writev of 4 x 64 B with
 * ONLCR on, drained each iteration. */
#include <errno.h>
#include <stdio.h>
#include "clock.h"
#include "crc32.h"
#include "posix_io.h"
#include "tx_common.h"

#define S11_SEED 11
#define S12_SEED 12
#define S13_SEED 13
#define S12_BATCH 8U
#define S13_FRAGMENTS 4
#define S13_FRAGMENT 64

static const unsigned sizes[] = { 64, 256, 1024 };

/* Section task: enqueue timing, then the final drain timed apart. */
enum bench_status s11_enqueue(void)
{
    char tag[24], eq[24], fd[24], lt[24], kb[24];
    enum bench_status st = BENCH_PASS;
    struct uart_counters c;

    for (unsigned i = 0; i < 3; i++) {
        unsigned size = sizes[i];
        const uint8_t *p = bench_payload(size, S11_SEED);
        uint32_t shorts = 0, crc = 0;
        struct bench_drain d = { 0 };

        snprintf(tag, sizeof tag, "s11-size-%u", size);
        int reset_rc = ioctl(bench.fd, UART_IOC_RESET_COUNTERS);
        bench_payload_begin(tag);
        uint64_t t0 = clock_now_ns();
        for (unsigned k = 0; k < bench.iters; k++)
            bench_write_full(p, size, &shorts);
        uint64_t t1 = clock_now_ns();
        int have = ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c) == 0;
        int drc = bench_drain(&d);
        uint64_t t2 = clock_now_ns();
        for (unsigned k = 0; k < bench.iters; k++)
            crc = crc32_update(crc, p, size);
        uint64_t bytes = (uint64_t)size * bench.iters, enq = (t1 - t0) ? (t1 - t0) : 1;
        bench_payload_end(tag, bytes, crc);
        printf("  policy=no-drain size=%u iters=%u bytes=%llu short_writes=%lu enqueue_ms=%s "
               "final_drain_ms=%s final_drain_rc=%d final_drain_errno=%d drain_calls=%lu "
               "drain_errors=%lu last_drain_errno=%d line_time_ms=%s enqueue_kbps=%s "
               "enqueue_ns=%llu final_drain_ns=%llu\n",
               size, bench.iters, (unsigned long long)bytes, (unsigned long)shorts,
               bench_milli(eq, sizeof eq, enq / 1000), bench_milli(fd, sizeof fd, (t2 - t1) / 1000),
               drc, drc ? -drc : 0, (unsigned long)d.calls, (unsigned long)d.errors, d.last_errno,
               bench_milli(lt, sizeof lt, bench_line_ns(bytes) / 1000),
               bench_milli(kb, sizeof kb, bytes * 1000000000ULL / enq),
               (unsigned long long)enq, (unsigned long long)(t2 - t1));
        printf("  diag=s11-txdbg-reset size=%u ioctl_rc=%d\n", size, reset_rc);
        if (have) {
            printf("  diag=s11-txdbg phase=enqueue size=%u ioctl_rc=0", size);
            bench_print_counter_fields(&c);
            ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c);
            printf("  diag=s11-txdbg phase=final-drain size=%u ioctl_rc=0", size);
            bench_print_counter_fields(&c);
        }
        if (d.errors)
            st = BENCH_FAIL;
    }
    return st;
}

/* Section task: tcdrain after every 8th write and at the end. */
enum bench_status s12_batch(void)
{
    static struct tx_run r;
    char tag[24], extra[48];
    enum bench_status st = BENCH_PASS;

    for (unsigned i = 0; i < 3; i++) {
        snprintf(tag, sizeof tag, "s12-size-%u", sizes[i]);
        tx_run_loop(&r, tag, sizes[i], S12_BATCH, S12_SEED);
        snprintf(extra, sizeof extra, "batch=%u drains=%lu ", S12_BATCH,
                 (unsigned long)r.drain.calls);
        tx_print_policy("batch-drain", &r, extra);
        if (r.drain.errors)
            st = BENCH_FAIL;
    }
    return st;
}

/* Section task: 4 fragments of 64 B per writev, ONLCR on, drain each. */
enum bench_status s13_writev(void)
{
    static struct tx_run r;
    struct termios t, saved;
    struct iovec iov[S13_FRAGMENTS];
    const uint8_t *p = bench_payload((size_t)S13_FRAGMENTS * S13_FRAGMENT, S13_SEED);
    uint32_t calls_short = 0;

    if (tcgetattr(bench.fd, &saved) != 0) {
        printf("  diag=s13-tcgetattr errno=%d\n", errno);
        return BENCH_FAIL;
    }
    t = saved;
    t.c_oflag |= OPOST | ONLCR;
    int onlcr_rc = tcsetattr(bench.fd, TCSANOW, &t);
    for (int i = 0; i < S13_FRAGMENTS; i++)
        iov[i] = (struct iovec){ (void *)(p + (size_t)i * S13_FRAGMENT), S13_FRAGMENT };
    r = (struct tx_run){ .size = S13_FRAGMENTS * S13_FRAGMENT, .iters = bench.iters };
    bench_payload_begin("s13-writev");
    uint64_t start = clock_now_ns();
    for (unsigned k = 0; k < bench.iters; k++) {
        ssize_t n = writev(bench.fd, iov, S13_FRAGMENTS);
        if (n >= 0 && n < (ssize_t)r.size) {
            calls_short++;
            bench_write_full(p + n, r.size - (size_t)n, 0);
        }
        bench_drain(&r.drain);
    }
    r.elapsed_ns = clock_now_ns() - start;
    for (unsigned k = 0; k < bench.iters; k++)   /* outside the timed loop */
        r.crc = crc32_update(r.crc, p, r.size);
    r.bytes = (uint64_t)r.size * r.iters;
    r.short_writes = calls_short;
    bench_payload_end("s13-writev", r.bytes, r.crc);
    tcsetattr(bench.fd, TCSANOW, &saved);
    printf("  s13-onlcr tcsetattr_rc=%d oflag=0x%lx\n", onlcr_rc, (unsigned long)t.c_oflag);
    tx_print_policy("writev-drain-each", &r, "fragments=4 fragment_size=64 total_size=256 ");
    return r.drain.errors || onlcr_rc ? BENCH_FAIL : BENCH_PASS;
}
