/* S00: everything needed to reproduce and label the run: the platform's
 * lines (bench_manifest_platform: the board or the OS, the driver, the
 * line, the CPU), then the suite's (the sections selected, the scale, the
 * line the figures are taken against, every section's parameters). */
#include <stdio.h>
#include "bench.h"
#include "cpu_acct.h"
#include "harts.h"
#include "params.h"

/* s00_manifest: the sections this run runs and those it skips (boot
 * argument sections=). */
static void print_selection(void)
{
    unsigned n;
    const struct bench_section *t = bench_sections(&n);

    for (int want = 1; want >= 0; want--) {
        const char *sep = "";
        printf(want ? "  sections_selected=" : " sections_skipped=");
        for (unsigned i = 0; i < n; i++)
            if ((int)(bench.selected >> i & 1) == want) {
                printf("%s%s", sep, t[i].id);
                sep = ",";
            }
        if (!*sep)
            printf("none");
    }
    printf("\n");
}

/* s00_manifest: `  key=a,b,c` without a line end (key may start with a
 * space: a second list on the line). */
static void print_list(const char *key, const unsigned *v, size_t n)
{
    printf("%s%s=", key[0] == ' ' ? "" : "  ", key);
    for (size_t i = 0; i < n; i++)
        printf(i ? ",%u" : "%u", v[i]);
}

/* Boot task. */
enum bench_status s00_manifest(void)
{
    bench_manifest_platform();
    print_selection();
    printf("  bench_scale=%s iters=%u rounds=%u s43_groups=%u s43_samples=%u\n",
           bench.quick ? "quick" : "full", bench.iters, bench.rounds, bench.groups,
           bench.samples);
    printf("  line_baud_milli=%llu char_ns=%llu\n", (unsigned long long)bench.baud_milli,
           (unsigned long long)bench.char_ns);
    print_list("tx_throughput_sizes", bench_tx_sizes, BENCH_NELEM(bench_tx_sizes));
    print_list(" tx_break_even_sizes", bench_break_even_sizes,
               BENCH_NELEM(bench_break_even_sizes));
    printf(" tx_throughput_iters=%u\n", bench.iters);
    printf("  tx_baseline_drain_policy=tcdrain-after-each-write "
           "tx_enqueue_policy=no-drain-during-measure-final-tcdrain-after tx_batch_drain_every=%u\n",
           S12_BATCH);
    printf("  tx_writev_fragments=%u tx_writev_fragment_size=%u tx_latency_size=%u "
           "tx_latency_iters=%u tx_latency_counts=%s\n", (unsigned)S13_FRAGMENTS,
           (unsigned)S13_FRAGMENT, S20_SIZE, bench.iters,
           cpu_counter_missing(CPU_COUNTER_INSTRET) ? "ns" : "ns,instructions");
    print_list("fifo_matrix_sizes", bench_fifo_sizes, BENCH_NELEM(bench_fifo_sizes));
    printf(" fifo_matrix_iters=%u\n", bench.iters);
    printf("  rx_mode=empty-nonblocking-eagain rx_fixed_mode=loopback-mcr rx_fixed_bytes=%u\n",
           S31_BYTES);
    printf("  rx_sustained_bytes=%u rx_duplex_bytes=%u rx_peer_pattern=pattern-seed-32-33\n",
           bench.quick ? S32_BYTES / 10 : S32_BYTES, S33_BYTES);
    printf("  s42_payload=%u s43_interval_us=%llu s43_burst_bytes=%u hart_count=%u\n",
           S42_PAYLOAD, (unsigned long long)(S43_INTERVAL_NS / 1000), S43_BURST,
           harts_count());
    printf("  s50_phases=writers,thre,drain,rx\n");
    return BENCH_PASS;
}
