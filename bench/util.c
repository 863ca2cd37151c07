/* Shared helpers of the sections: full writes, drains, payloads, raw
 * sample lines and the original's summary lines. The payload witness's
 * markers are the platform's (bench_payload_begin/end: bench/kernel_seam.c,
 * bench/hosted/witness.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include "bench.h"
#include "kernel.h"
#include "pattern.h"
#include "posix_io.h"
#include "stats.h"

#define SAMPLES_PER_LINE 32
#define NS_PER_MS        1000000ULL
#define SLOW_NS          (10 * NS_PER_MS)   /* the original's 10 ms marks */

struct bench_env bench;
static uint8_t payload[BENCH_PAYLOAD_MAX];
static uint32_t payload_seed = UINT32_MAX;

/* Section task: 10 bits per byte at the line's baud. */
uint64_t bench_line_ns(uint64_t bytes)
{
    return bytes * 10000000000000ULL / bench.baud_milli;
}

/* Section task. */
enum bench_status bench_fail(const char *fmt, ...)
{
    if (!bench.reason[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(bench.reason, sizeof bench.reason, fmt, ap);
        va_end(ap);
    }
    return BENCH_FAIL;
}

/* Section task. */
enum bench_status bench_skip(const char *reason)
{
    if (!bench.reason[0])
        snprintf(bench.reason, sizeof bench.reason, "%s", reason);
    return BENCH_SKIPPED;
}

/* Section task. */
int bench_write_full(const void *buf, size_t n, struct bench_tx *t)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t k = write(bench.fd, p, n);
        if (k <= 0) {
            if (!t->err)
                t->err = k < 0 ? errno : BENCH_NO_PROGRESS;
            return -1;
        }
        if ((size_t)k < n)
            t->short_writes++;
        t->written += (size_t)k;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Section task. */
enum bench_status bench_tx_status(const struct bench_tx *t, const struct bench_drain *d)
{
    if (t && t->err == BENCH_NO_PROGRESS)
        return bench_fail("write-no-progress");
    if (t && t->err)
        return bench_fail("write-errno-%d", t->err);
    if (d && d->errors)
        return bench_fail("drain-errno-%d", d->last_errno);
    return BENCH_PASS;
}

/* Section task. */
int bench_drain(struct bench_drain *d)
{
    d->calls++;
    if (tcdrain(bench.fd) == 0)
        return 0;
    d->errors++;
    d->last_errno = errno;
    return -d->last_errno;
}

/* Section task: pattern bytes, regenerated only when the seed changes. */
const uint8_t *bench_payload(size_t n, uint32_t seed)
{
    if (n > BENCH_PAYLOAD_MAX)
        panic("bench_payload: %u bytes > %u", (unsigned)n, BENCH_PAYLOAD_MAX);
    if (seed != payload_seed) {
        pattern_fill(payload, BENCH_PAYLOAD_MAX, seed, 0);
        payload_seed = seed;
    }
    return payload;
}

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

/* Section task: raw samples, then `diag=<tag> n= min_<unit>= ...`. */
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

/* Section task: "x.yyy" from a value in thousandths. */
const char *bench_milli(char *buf, size_t n, uint64_t milli)
{
    snprintf(buf, n, "%llu.%03llu", (unsigned long long)(milli / 1000),
             (unsigned long long)(milli % 1000));
    return buf;
}

/* Section task: ratio a/b with two decimals (b == 0 -> 0.00). */
static const char *ratio2(char *buf, size_t n, uint64_t a, uint64_t b)
{
    uint64_t r = b ? (a * 100 + b / 2) / b : 0;
    snprintf(buf, n, "%llu.%02llu", (unsigned long long)(r / 100), (unsigned long long)(r % 100));
    return buf;
}

/* Section task: the original's latency line, from ns samples. */
void bench_print_latency(const char *tag, uint64_t *v, size_t n, uint64_t line_ns)
{
    struct stats_summary s;
    char a[24], p50[24], p95[24], p99[24], mx[24], r1[24], r2[24], r3[24], c50[24], c99[24];
    unsigned slow = 0, over = 0;

    bench_print_samples(tag, "ns", v, n);
    for (size_t i = 0; i < n; i++) {
        slow += v[i] > SLOW_NS;
        over += v[i] > line_ns + SLOW_NS;
    }
    stats_summarize(v, n, &s);
    printf("  diag=%s n=%u avg_ms=%s p50_ms=%s p95_ms=%s p99_ms=%s max_ms=%s slow_gt10ms=%u "
           "slow_over_line_plus10ms=%u max_line_ratio=%s p99_p50_ratio=%s max_p50_ratio=%s "
           "p50_ns=%llu p99_ns=%llu max_ns=%llu line_ns=%llu p50_chars=%s p99_chars=%s\n",
           tag, (unsigned)n, bench_milli(a, sizeof a, s.avg / 1000),
           bench_milli(p50, sizeof p50, s.p50 / 1000), bench_milli(p95, sizeof p95, s.p95 / 1000),
           bench_milli(p99, sizeof p99, s.p99 / 1000), bench_milli(mx, sizeof mx, s.max / 1000),
           slow, over, ratio2(r1, sizeof r1, s.max, line_ns), ratio2(r2, sizeof r2, s.p99, s.p50),
           ratio2(r3, sizeof r3, s.max, s.p50), (unsigned long long)s.p50,
           (unsigned long long)s.p99, (unsigned long long)s.max, (unsigned long long)line_ns,
           ratio2(c50, sizeof c50, s.p50, bench.char_ns), ratio2(c99, sizeof c99, s.p99, bench.char_ns));
}
