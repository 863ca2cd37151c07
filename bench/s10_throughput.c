/* S10 and S14: write + tcdrain each iteration (the user's "sent and on
 * the wire" throughput), 100 iterations per size, every latency kept. */
#include <stdio.h>
#include "params.h"
#include "tx_common.h"

#define S10_SEED 10
#define S14_SEED 14

/* Section task: one drain-each run per size under diag=<prefix>-<size>. */
static enum bench_status drain_each(const char *prefix, const unsigned *sizes, unsigned n,
                                    uint32_t seed)
{
    static struct tx_run r;
    char tag[40];
    enum bench_status st = BENCH_PASS;

    for (unsigned i = 0; i < n; i++) {
        snprintf(tag, sizeof tag, "%s-%u", prefix, sizes[i]);
        tx_run_loop(&r, tag, sizes[i], 1, seed);
        tx_print_policy("drain-each", &r, "");
        bench_print_latency(tag, r.samples, r.iters, bench_line_ns(sizes[i]));
        if (bench_tx_status(&r.tx, &r.drain) != BENCH_PASS)
            st = BENCH_FAIL;
    }
    return st;
}

/* Section task. */
enum bench_status s10_throughput(void)
{
    return drain_each("drain-each-size", bench_tx_sizes, BENCH_NELEM(bench_tx_sizes), S10_SEED);
}

/* Section task. */
enum bench_status s14_break_even(void)
{
    return drain_each("break-even-size", bench_break_even_sizes,
                      BENCH_NELEM(bench_break_even_sizes), S14_SEED);
}
