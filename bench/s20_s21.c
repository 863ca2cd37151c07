/* S20 single-byte write + tcdrain latency, S21 the same around the FIFO
 * boundary (1, 15, 16, 17, 31, 32, 33, 48, 49 bytes), 100 each. */
#include <stdio.h>
#include "tx_common.h"

#define S20_SEED 20
#define S21_SEED 21

/* Section task. */
enum bench_status s20_latency(void)
{
    static struct tx_run r;
    tx_run_loop(&r, "s20-single-byte", 1, 1, S20_SEED);
    bench_print_latency("s20-single-byte", r.samples, r.iters, bench_line_ns(1));
    tx_print_drain("S20", &r);
    return bench_tx_status(&r.tx, &r.drain);
}

/* Section task. */
enum bench_status s21_fifo_matrix(void)
{
    static const unsigned sizes[] = { 1, 15, 16, 17, 31, 32, 33, 48, 49 };
    static struct tx_run r;
    enum bench_status st = BENCH_PASS;
    char tag[32], dtag[32];

    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        snprintf(tag, sizeof tag, "s21-fifo-size-%u", sizes[i]);
        snprintf(dtag, sizeof dtag, "fifo-size-%u", sizes[i]);
        tx_run_loop(&r, tag, sizes[i], 1, S21_SEED);
        bench_print_latency(tag, r.samples, r.iters, bench_line_ns(sizes[i]));
        tx_print_drain(dtag, &r);
        if (bench_tx_status(&r.tx, &r.drain) != BENCH_PASS)
            st = BENCH_FAIL;
    }
    return st;
}
