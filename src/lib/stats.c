/* Sorting, percentiles, summaries and histograms over uint64_t samples. */
#include <errno.h>
#include <string.h>

#include "stats.h"

#define PERCENT 100u
#define P50 50u
#define P95 95u
#define P99 99u

/* stats_sort: moves v[root] down the max-heap v[0..n) until both children
 * are smaller or equal. */
static void sift_down(uint64_t *v, size_t root, size_t n)
{
    uint64_t x = v[root];

    for (;;) {
        size_t child = 2 * root + 1;

        if (child >= n)
            break;
        if (child + 1 < n && v[child + 1] > v[child])
            child++;
        if (v[child] <= x)
            break;
        v[root] = v[child];
        root = child;
    }
    v[root] = x;
}

/* Task context, after a measurement run: heapsort, ascending. */
void stats_sort(uint64_t *v, size_t n)
{
    size_t i;

    if (v == NULL || n < 2)
        return;
    for (i = n / 2; i-- > 0;)
        sift_down(v, i, n);
    for (i = n - 1; i > 0; i--) {
        uint64_t top = v[0];

        v[0] = v[i];
        v[i] = top;
        sift_down(v, 0, i);
    }
}

/* Task context: nearest-rank percentile. ceil(pct * n / 100) is computed
 * as pct * (n / 100) + ceil(pct * (n % 100) / 100) so it cannot overflow. */
uint64_t stats_nearest_rank(const uint64_t *sorted, size_t n, unsigned pct)
{
    size_t rank;

    if (sorted == NULL || n == 0)
        return 0;
    if (pct > PERCENT)
        pct = PERCENT;
    rank = (size_t)pct * (n / PERCENT) +
           ((size_t)pct * (n % PERCENT) + PERCENT - 1) / PERCENT;
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return sorted[rank - 1];
}

/* Task context, after a measurement run: sorts v and fills the summary. */
void stats_summarize(uint64_t *v, size_t n, struct stats_summary *out)
{
    uint64_t sum = 0;
    size_t i;

    memset(out, 0, sizeof(*out));
    if (v == NULL || n == 0)
        return;
    stats_sort(v, n);
    for (i = 0; i < n; i++)
        sum += v[i];
    out->n = n;
    out->min = v[0];
    out->max = v[n - 1];
    out->sum = sum;
    out->avg = sum / n;
    out->p50 = stats_nearest_rank(v, n, P50);
    out->p95 = stats_nearest_rank(v, n, P95);
    out->p99 = stats_nearest_rank(v, n, P99);
}

/* Task context, before a run: binds and clears the bucket array. */
int hist_init(struct hist *h, uint32_t *counts, uint32_t nbuckets,
              uint64_t bucket_width)
{
    if (h == NULL || counts == NULL || nbuckets == 0 || bucket_width == 0)
        return -EINVAL;
    memset(counts, 0, (size_t)nbuckets * sizeof(*counts));
    h->bucket_width = bucket_width;
    h->nbuckets = nbuckets;
    h->counts = counts;
    h->overflow = 0;
    h->total = 0;
    return 0;
}

/* Task or ISR (one writer at a time): counts one sample. */
void hist_add(struct hist *h, uint64_t value)
{
    uint64_t bucket = value / h->bucket_width;

    if (bucket < h->nbuckets)
        h->counts[bucket]++;
    else
        h->overflow++;
    h->total++;
}

/* Any context: see stats.h. */
uint64_t stats_median(uint64_t *v, size_t n)
{
    if (n == 0)
        return 0;
    stats_sort(v, n);
    if (n % 2)
        return v[n / 2];
    return v[n / 2 - 1] / 2 + v[n / 2] / 2 + (v[n / 2 - 1] % 2 + v[n / 2] % 2) / 2;
}
