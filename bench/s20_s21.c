/* S20 single-byte write + tcdrain latency, S21 the same around the FIFO
 * boundary (bench_fifo_sizes, params.h), 100 each; each with the
 * instructions of every write + tcdrain (tx_print_insns). */
#include <stdio.h>
#include "params.h"
#include "tx_common.h"

#define S20_SEED 20
#define S21_SEED 21

/* Section task. */
enum bench_status s20_latency(void)
{
    static struct tx_run r;
    tx_run_counted(&r, "s20-single-byte", S20_SIZE, S20_SEED);
    bench_print_latency("s20-single-byte", r.samples, r.iters, bench_line_ns(S20_SIZE));
    tx_print_insns("s20-single-byte", &r);
    tx_print_drain("S20", &r);
    return bench_tx_status(&r.tx, &r.drain);
}

/* Section task. */
enum bench_status s21_fifo_matrix(void)
{
    const unsigned *sizes = bench_fifo_sizes;
    static struct tx_run r;
    enum bench_status st = BENCH_PASS;
    char tag[32], dtag[32];

    for (unsigned i = 0; i < BENCH_NELEM(bench_fifo_sizes); i++) {
        snprintf(tag, sizeof tag, "s21-fifo-size-%u", sizes[i]);
        snprintf(dtag, sizeof dtag, "fifo-size-%u", sizes[i]);
        tx_run_counted(&r, tag, sizes[i], S21_SEED);
        bench_print_latency(tag, r.samples, r.iters, bench_line_ns(sizes[i]));
        tx_print_insns(tag, &r);
        tx_print_drain(dtag, &r);
        if (bench_tx_status(&r.tx, &r.drain) != BENCH_PASS)
            st = BENCH_FAIL;
    }
    return st;
}
