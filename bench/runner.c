/* Section runner: the table of sections, one status line per section and
 * the closing summary. */
#include <stdio.h>
#include "bench.h"
#include "clock.h"

static const struct bench_section sections[] = {
    { "S00", "Benchmark Manifest", s00_manifest },
    { "S06", "Kernel Primitives", s06_kernel },
};

static const char *const status_names[] = {
    [BENCH_PASS] = "PASS", [BENCH_FAIL] = "FAIL",
    [BENCH_TIMEOUT] = "TIMEOUT", [BENCH_SKIPPED] = "SKIPPED",
};

/* Boot task. */
int bench_run_all(void)
{
    const unsigned n = sizeof sections / sizeof sections[0];
    unsigned passed = 0, failed = 0;

    for (unsigned i = 0; i < n; i++) {
        const struct bench_section *s = &sections[i];
        printf("=== [%s] %s ===\n", s->id, s->title);
        uint64_t t0 = clock_now_ns();
        enum bench_status st = s->run();
        uint64_t dt = clock_now_ns() - t0;
        printf("  section=%s status=%s elapsed_ms=%llu.%03llu\n\n", s->id,
               status_names[st], (unsigned long long)(dt / 1000000),
               (unsigned long long)(dt / 1000 % 1000));
        if (st == BENCH_FAIL || st == BENCH_TIMEOUT)
            failed++;
        else
            passed++;
    }
    printf("Done. sections=%u passed=%u failed=%u\n", n, passed, failed);
    return (int)failed;
}
