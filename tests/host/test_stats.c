/* Host tests for sorting, nearest-rank percentiles, summaries and the
 * histogram. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "stats.h"

#define MAX_N 2000
#define BRUTE_MAX_N 300

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

/* Fixed-seed xorshift64 PRNG. */
static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Reference sort: plain insertion sort. */
static void insertion_sort(uint64_t *v, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        size_t j = i;

        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
}

/* Reference rank: the smallest k >= 1 with k * 100 >= pct * n. */
static size_t brute_rank(size_t n, unsigned pct)
{
    size_t k = 1;

    while (k < n && k * 100 < (size_t)pct * n)
        k++;
    return k;
}

/* stats_sort against insertion sort on assorted sizes and value ranges. */
static void test_sort(void)
{
    static const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 7, 16, 31, 100, 257,
                                    1000, MAX_N };
    static uint64_t a[MAX_N], b[MAX_N];

    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
        for (int range = 0; range < 4; range++) {
            size_t n = sizes[s];

            for (size_t i = 0; i < n; i++) {
                uint64_t x = rnd64();

                if (range == 0)
                    x %= 5; /* many duplicates */
                else if (range == 1)
                    x = n - i; /* descending */
                else if (range == 2)
                    x = i; /* already sorted */
                a[i] = b[i] = x;
            }
            if (n > 1 && range == 3) {
                a[0] = b[0] = UINT64_MAX;
                a[n - 1] = b[n - 1] = 0;
            }
            stats_sort(a, n);
            insertion_sort(b, n);
            CHECK(memcmp(a, b, n * sizeof(a[0])) == 0);
        }
    }
    stats_sort(NULL, 0);
}

/* Nearest-rank on hand-checked cases and against the brute-force rank. */
static void test_nearest_rank(void)
{
    static uint64_t v[BRUTE_MAX_N];
    const uint64_t one[1] = { 42 }, two[2] = { 10, 20 };
    const uint64_t dup[6] = { 1, 3, 3, 3, 3, 9 };

    for (size_t i = 0; i < BRUTE_MAX_N; i++)
        v[i] = i + 1; /* v[k - 1] == k */
    CHECK_EQ(stats_nearest_rank(v, 100, 50), 50);
    CHECK_EQ(stats_nearest_rank(v, 100, 95), 95);
    CHECK_EQ(stats_nearest_rank(v, 100, 99), 99); /* not the max */
    CHECK_EQ(stats_nearest_rank(v, 100, 100), 100);
    CHECK_EQ(stats_nearest_rank(v, 100, 0), 1);
    CHECK_EQ(stats_nearest_rank(v, 100, 1), 1);
    CHECK_EQ(stats_nearest_rank(v, 100, 150), 100);
    CHECK_EQ(stats_nearest_rank(v, 50, 99), 50); /* ceil(49.5) */
    CHECK_EQ(stats_nearest_rank(v, 50, 98), 49);
    CHECK_EQ(stats_nearest_rank(v, 50, 50), 25);
    CHECK_EQ(stats_nearest_rank(v, 10, 95), 10);
    CHECK_EQ(stats_nearest_rank(v, 10, 90), 9);
    CHECK_EQ(stats_nearest_rank(v, 0, 50), 0);
    CHECK_EQ(stats_nearest_rank(NULL, 0, 50), 0);
    for (unsigned pct = 0; pct <= 100; pct++)
        CHECK_EQ(stats_nearest_rank(one, 1, pct), 42);
    CHECK_EQ(stats_nearest_rank(two, 2, 0), 10);
    CHECK_EQ(stats_nearest_rank(two, 2, 50), 10);
    CHECK_EQ(stats_nearest_rank(two, 2, 51), 20);
    CHECK_EQ(stats_nearest_rank(two, 2, 99), 20);
    CHECK_EQ(stats_nearest_rank(dup, 6, 50), 3);
    CHECK_EQ(stats_nearest_rank(dup, 6, 83), 3);
    CHECK_EQ(stats_nearest_rank(dup, 6, 84), 9);
    for (size_t n = 1; n <= BRUTE_MAX_N; n++)
        for (unsigned pct = 0; pct <= 100; pct++)
            CHECK_EQ(stats_nearest_rank(v, n, pct), brute_rank(n, pct));
}

/* stats_summarize on unsorted input, duplicates, truncation and n == 0. */
static void test_summarize(void)
{
    uint64_t v[5] = { 70, 10, 90, 30, 50 };
    uint64_t w[3] = { 1, 2, 2 };
    uint64_t big[100];
    struct stats_summary s;

    stats_summarize(v, 5, &s);
    CHECK_EQ(s.n, 5);
    CHECK_EQ(s.min, 10);
    CHECK_EQ(s.max, 90);
    CHECK_EQ(s.sum, 250);
    CHECK_EQ(s.avg, 50);
    CHECK_EQ(s.p50, 50); /* rank 3 */
    CHECK_EQ(s.p95, 90); /* rank 5 */
    CHECK_EQ(s.p99, 90);
    CHECK(v[0] == 10 && v[1] == 30 && v[2] == 50 && v[3] == 70 && v[4] == 90);

    stats_summarize(w, 3, &s);
    CHECK_EQ(s.sum, 5);
    CHECK_EQ(s.avg, 1); /* 5 / 3 truncated */
    CHECK_EQ(s.p50, 2);

    for (size_t i = 0; i < 100; i++)
        big[i] = (uint64_t)(100 - i) * 1000000000ull; /* 1..100 s, reversed */
    stats_summarize(big, 100, &s);
    CHECK_EQ(s.min, 1000000000ull);
    CHECK_EQ(s.p99, 99000000000ull);
    CHECK_EQ(s.max, 100000000000ull);
    CHECK_EQ(s.sum, 5050000000000ull);
    CHECK_EQ(s.avg, 50500000000ull);

    memset(&s, 0xAB, sizeof(s));
    stats_summarize(v, 0, &s);
    CHECK(s.n == 0 && s.min == 0 && s.max == 0 && s.sum == 0 && s.avg == 0 &&
          s.p50 == 0 && s.p95 == 0 && s.p99 == 0);
}

/* Histogram argument checks, bucket edges and overflow. */
static void test_hist(void)
{
    uint32_t counts[5];
    struct hist h;

    memset(counts, 0xFF, sizeof(counts));
    CHECK_EQ(hist_init(NULL, counts, 5, 10), -EINVAL);
    CHECK_EQ(hist_init(&h, NULL, 5, 10), -EINVAL);
    CHECK_EQ(hist_init(&h, counts, 0, 10), -EINVAL);
    CHECK_EQ(hist_init(&h, counts, 5, 0), -EINVAL);
    CHECK_EQ(counts[0], UINT32_MAX); /* untouched by failed init */
    CHECK_EQ(hist_init(&h, counts, 5, 10), 0);
    for (int i = 0; i < 5; i++)
        CHECK_EQ(counts[i], 0);
    CHECK_EQ(h.overflow, 0);
    CHECK_EQ(h.total, 0);

    hist_add(&h, 0);
    hist_add(&h, 9);   /* last value of bucket 0 */
    hist_add(&h, 10);  /* first value of bucket 1 */
    hist_add(&h, 25);
    hist_add(&h, 49);  /* last value of the last bucket */
    hist_add(&h, 50);  /* first overflow value */
    hist_add(&h, UINT64_MAX);
    CHECK_EQ(counts[0], 2);
    CHECK_EQ(counts[1], 1);
    CHECK_EQ(counts[2], 1);
    CHECK_EQ(counts[3], 0);
    CHECK_EQ(counts[4], 1);
    CHECK_EQ(h.overflow, 2);
    CHECK_EQ(h.total, 7);

    counts[3] = 77;
    CHECK_EQ(hist_init(&h, counts, 3, 1), 0); /* width 1: one value each */
    for (uint64_t x = 0; x < 5; x++)
        hist_add(&h, x);
    CHECK(counts[0] == 1 && counts[1] == 1 && counts[2] == 1);
    CHECK_EQ(counts[3], 77); /* beyond nbuckets: untouched */
    CHECK_EQ(h.overflow, 2);
    CHECK_EQ(h.total, 5);
}

/* Median: odd count, even count (mean of the middle pair, rounded down),
 * large values without overflow, empty input. */
static void test_median(void)
{
    uint64_t odd[] = { 9, 1, 5, 7, 3 };
    uint64_t even[] = { 8, 2, 6, 4 };
    uint64_t odd_pair[] = { 3, 4 };
    uint64_t big[] = { UINT64_MAX, UINT64_MAX - 2 };
    CHECK_EQ(stats_median(odd, 5), 5);
    CHECK_EQ(stats_median(even, 4), 5);
    CHECK_EQ(stats_median(odd_pair, 2), 3);
    CHECK(stats_median(big, 2) == UINT64_MAX - 1);
    CHECK_EQ(stats_median(odd, 0), 0);
    CHECK_EQ(odd[0], 1);                   /* sorted in place */
}

/* Runs every stats test. */
int main(void)
{
    test_sort();
    test_nearest_rank();
    test_summarize();
    test_hist();
    test_median();
    return check_exit("stats");
}
