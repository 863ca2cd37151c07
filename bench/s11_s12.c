/* S11 enqueue cost (no drain while timing, one timed final drain) and
 * S12 batch drain (tcdrain every 8 writes). S11's counter snapshots after
 * the enqueue and after the drain are the design's, or where it has none
 * the platform's own (StarryOS's, bench_txdbg_snapshot). */
#include <stdio.h>
#include "clock.h"
#include "posix_io.h"
#include "params.h"
#include "tx_common.h"

#define S11_SEED 11
#define S12_SEED 12

/* Section task: enqueue timing, then the final drain timed apart. */
enum bench_status s11_enqueue(void)
{
    char tag[24], eq[24], fd[24], lt[24], kb[24];
    enum bench_status st = BENCH_PASS;
    struct uart_counters c;

    for (unsigned i = 0; i < BENCH_NELEM(bench_tx_sizes); i++) {
        unsigned size = bench_tx_sizes[i];
        const uint8_t *p = bench_payload(size, S11_SEED);
        struct bench_tx tx = { 0 };
        struct bench_drain d = { 0 };

        snprintf(tag, sizeof tag, "s11-size-%u", size);
        int reset_rc = ioctl(bench.fd, UART_IOC_RESET_COUNTERS);
        bench_payload_begin(tag);
        uint64_t t0 = clock_now_ns();
        for (unsigned k = 0; k < bench.iters && !bench_write_full(p, size, &tx); k++)
            ;
        uint64_t t1 = clock_now_ns();
        int have = ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c) == 0;
        bool platform = !have && bench_txdbg_snapshot(&c) == 0;   /* StarryOS's own */
        int drc = bench_drain(&d);
        uint64_t t2 = clock_now_ns();
        uint64_t bytes = tx.written, enq = (t1 - t0) ? (t1 - t0) : 1;
        bench_payload_end(tag, bytes, tx_crc_repeat(0, p, size, bytes));
        printf("  policy=no-drain size=%u iters=%u bytes=%llu short_writes=%lu enqueue_ms=%s "
               "final_drain_ms=%s final_drain_rc=%d final_drain_errno=%d drain_calls=%lu "
               "drain_errors=%lu last_drain_errno=%d line_time_ms=%s enqueue_kbps=%s "
               "enqueue_ns=%llu final_drain_ns=%llu write_errno=%d\n",
               size, bench.iters, (unsigned long long)bytes, (unsigned long)tx.short_writes,
               bench_milli(eq, sizeof eq, enq / 1000), bench_milli(fd, sizeof fd, (t2 - t1) / 1000),
               drc, drc ? -drc : 0, (unsigned long)d.calls, (unsigned long)d.errors, d.last_errno,
               bench_milli(lt, sizeof lt, bench_line_ns(bytes) / 1000),
               bench_milli(kb, sizeof kb, bytes * 1000000000ULL / enq),
               (unsigned long long)enq, (unsigned long long)(t2 - t1), tx.err);
        printf("  diag=s11-txdbg-reset size=%u ioctl_rc=%d\n", size, reset_rc);
        if (have || platform) {
            printf("  diag=s11-txdbg phase=enqueue size=%u ioctl_rc=0", size);
            (have ? bench_print_counter_fields : bench_print_txdbg_fields)(&c);
            if (have ? ioctl(bench.fd, UART_IOC_GET_COUNTERS, &c) : bench_txdbg_snapshot(&c))
                c = (struct uart_counters){ 0 };
            printf("  diag=s11-txdbg phase=final-drain size=%u ioctl_rc=0", size);
            (have ? bench_print_counter_fields : bench_print_txdbg_fields)(&c);
        }
        if (bench_tx_status(&tx, &d) != BENCH_PASS)
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

    for (unsigned i = 0; i < BENCH_NELEM(bench_tx_sizes); i++) {
        snprintf(tag, sizeof tag, "s12-size-%u", bench_tx_sizes[i]);
        tx_run_loop(&r, tag, bench_tx_sizes[i], S12_BATCH, S12_SEED);
        snprintf(extra, sizeof extra, "batch=%u drains=%lu ", S12_BATCH,
                 (unsigned long)r.drain.calls);
        tx_print_policy("batch-drain", &r, extra);
        if (bench_tx_status(&r.tx, &r.drain) != BENCH_PASS)
            st = BENCH_FAIL;
    }
    return st;
}
