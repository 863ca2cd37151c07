/* Shared helpers of the sections: raw sample lines and summaries. */
#include <stdio.h>
#include "bench.h"
#include "stats.h"

#define SAMPLES_PER_LINE 32

/* Section task: every raw sample, in collection order, 32 per line. */
void bench_print_samples(const char *tag, const char *unit, const uint64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i += SAMPLES_PER_LINE) {
        printf("  samples tag=%s unit=%s first=%u values=", tag, unit, (unsigned)i);
        for (size_t j = i; j < n && j < i + SAMPLES_PER_LINE; j++)
            printf(j == i ? "%llu" : ",%llu", (unsigned long long)v[j]);
        printf("\n");
    }
}

/* Section task: raw samples, then `diag=<tag> n= avg_<unit>= p50_...`
 * with nearest-rank percentiles. Sorts v in place. */
void bench_print_dist(const char *tag, const char *unit, uint64_t *v, size_t n)
{
    struct stats_summary s;

    bench_print_samples(tag, unit, v, n);
    stats_summarize(v, n, &s);
    printf("  diag=%s n=%u min_%s=%llu avg_%s=%llu p50_%s=%llu p95_%s=%llu p99_%s=%llu max_%s=%llu\n",
           tag, (unsigned)n, unit, (unsigned long long)s.min, unit,
           (unsigned long long)s.avg, unit, (unsigned long long)s.p50, unit,
           (unsigned long long)s.p95, unit, (unsigned long long)s.p99, unit,
           (unsigned long long)s.max);
}
