/* TX loops shared by S10-S21. */
#include <stdio.h>
#include "clock.h"
#include "cpu_acct.h"
#include "crc32.h"
#include "tx_common.h"

/* tx_run_loop, tx_run_counted (section task): the loop, counting each
 * step's instructions when count is set. */
static void run(struct tx_run *r, const char *tag, unsigned size, unsigned drain_every,
                uint32_t seed, bool count)
{
    const uint8_t *p = bench_payload(size, seed);

    *r = (struct tx_run){ .size = size, .iters = bench.iters };
    r->crc = crc32_update(0, p, 0);
    bench_payload_begin(tag);
    uint64_t start = clock_now_ns();
    for (unsigned i = 0; i < r->iters; i++) {
        uint64_t c0 = count ? cpu_busy_counts() : 0;
        uint64_t t0 = clock_now_ns();
        int bad = bench_write_full(p, size, &r->tx);
        if (!bad && drain_every && (i + 1) % drain_every == 0)
            bench_drain(&r->drain);
        r->samples[i] = clock_now_ns() - t0;
        if (count)
            r->insns[i] = (cpu_busy_counts() - c0);
        if (bad) {
            r->iters = i + 1;
            break;
        }
    }
    if (r->tx.err || !drain_every || r->iters % drain_every)
        bench_drain(&r->drain);
    r->elapsed_ns = clock_now_ns() - start;
    r->bytes = r->tx.written;
    r->crc = tx_crc_repeat(r->crc, p, size, r->bytes);   /* outside the timed loop */
    bench_payload_end(tag, r->bytes, r->crc);
}

/* Section task. */
void tx_run_loop(struct tx_run *r, const char *tag, unsigned size, unsigned drain_every,
                 uint32_t seed)
{
    run(r, tag, size, drain_every, seed, false);
}

/* Section task. */
void tx_run_counted(struct tx_run *r, const char *tag, unsigned size, uint32_t seed)
{
    run(r, tag, size, 1, seed, true);
}

/* Section task. */
void tx_print_insns(const char *tag, struct tx_run *r)
{
    char name[40];

    if (cpu_counter_missing(CPU_COUNTER_INSTRET))
        return;
    snprintf(name, sizeof name, "%s-insns", tag);
    bench_print_dist(name, "instructions", r->insns, r->iters);
}

/* Section task. */
uint32_t tx_crc_repeat(uint32_t crc, const uint8_t *p, size_t n, uint64_t bytes)
{
    for (; bytes >= n; bytes -= n)
        crc = crc32_update(crc, p, n);
    return crc32_update(crc, p, (size_t)bytes);
}

/* Section task. */
void tx_print_policy(const char *policy, const struct tx_run *r, const char *extra)
{
    char el[24], lt[24], kb[24], pct[24];
    uint64_t line = bench_line_ns(r->bytes);
    uint64_t ns = r->elapsed_ns ? r->elapsed_ns : 1;
    uint64_t bps = r->bytes * 1000000000ULL / ns;
    /* line rate in thousandths of a percent: (bytes x 10 bits / baud) / elapsed */
    uint64_t pct_milli = (uint64_t)((unsigned __int128)r->bytes * 1000000000000000000ULL /
                                    ((unsigned __int128)bench.baud_milli * ns));

    printf("  policy=%s size=%u %siters=%u bytes=%llu short_writes=%lu drain_calls=%lu "
           "drain_errors=%lu last_drain_errno=%d elapsed_ms=%s line_time_ms=%s kbps=%s "
           "line_rate_pct=%s bytes_per_s=%llu elapsed_ns=%llu line_time_ns=%llu write_errno=%d\n",
           policy, r->size, extra, r->iters, (unsigned long long)r->bytes,
           (unsigned long)r->tx.short_writes, (unsigned long)r->drain.calls,
           (unsigned long)r->drain.errors, r->drain.last_errno,
           bench_milli(el, sizeof el, r->elapsed_ns / 1000), bench_milli(lt, sizeof lt, line / 1000),
           bench_milli(kb, sizeof kb, bps), bench_milli(pct, sizeof pct, pct_milli),
           (unsigned long long)bps, (unsigned long long)r->elapsed_ns, (unsigned long long)line,
           r->tx.err);
}

/* Section task. */
void tx_print_drain(const char *tag, const struct tx_run *r)
{
    printf("  diag=%s drain_calls=%lu drain_errors=%lu last_drain_errno=%d\n", tag,
           (unsigned long)r->drain.calls, (unsigned long)r->drain.errors, r->drain.last_errno);
}
