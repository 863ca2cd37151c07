/* Statistics over uint64_t samples (latencies in nanoseconds, counts):
 * in-place sort, nearest-rank percentiles, a one-call summary, and a
 * fixed-width histogram in the style of cyclictest. No allocation; the
 * caller provides all storage. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>
#include <stdint.h>

/* Sorts v[0..n) ascending in place (heapsort: O(n log n), no recursion,
 * no extra memory). */
void stats_sort(uint64_t *v, size_t n);

/* Nearest-rank percentile of an ascending array: the value at 1-based rank
 * ceil(pct * n / 100), clamped to [1, n]. pct 0 gives the minimum, pct
 * >= 100 the maximum; P99 of 100 samples is the 99th value. n == 0 gives 0. */
uint64_t stats_nearest_rank(const uint64_t *sorted, size_t n, unsigned pct);

/* Median of v[0..n): the middle value, or for an even n the mean of the
 * two middle values (rounded down); n == 0 gives 0. Sorts v in place. */
uint64_t stats_median(uint64_t *v, size_t n);

struct stats_summary {
    size_t n;
    uint64_t min, max, sum, avg, p50, p95, p99;
};

/* Sorts v in place and fills *out; avg = sum / n (integer). The caller
 * keeps the sum below 2^64. n == 0 gives an all-zero summary. */
void stats_summarize(uint64_t *v, size_t n, struct stats_summary *out);

struct hist {
    uint64_t bucket_width; /* value units per bucket */
    uint32_t nbuckets;     /* entries in counts */
    uint32_t *counts;      /* counts[i]: values in [i*width, (i+1)*width) */
    uint32_t overflow;     /* values >= nbuckets * width */
    uint64_t total;        /* samples added, overflow included */
};

/* Binds counts[0..nbuckets) and zeroes them and the totals. Returns 0, or
 * -EINVAL if h or counts is NULL, nbuckets is 0 or bucket_width is 0. */
int hist_init(struct hist *h, uint32_t *counts, uint32_t nbuckets,
              uint64_t bucket_width);

/* Counts one sample in bucket value / bucket_width, or in overflow past
 * the last bucket. */
void hist_add(struct hist *h, uint64_t value);

#endif
