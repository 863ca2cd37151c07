/* S00: everything needed to reproduce and label the run. */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "board_info.h"
#include "cpu_acct.h"
#include "csr.h"
#include "harts.h"
#include "kernel.h"
#include "params.h"
#include "timer.h"
#include "oppoint.h"
#include "uart_backend.h"
#include "version.h"
#include "wire_model.h"

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
    char mode[16];
    struct uart_info info;

    uart_be_info(&info);
    const struct uart_cfg *u = info.cfg;
    uint64_t real = uart_real_baud_milli(u);

    printf("  version=%s\n", UARTBENCH_VERSION);
    printf("  board=%s\n", board.name);
    printf("  backend=%s\n", UARTBENCH_BACKEND);
    printf("  privilege=%s\n", PRIV_NAME);
    printf("  isa=rv64imac\n");
    printf("  timebase_hz=%llu timer=%s\n", (unsigned long long)board.timebase_hz,
           timer_hw_name());
    printf("  uart_base=0x%08lx uart_irq=%lu uart_reg_shift=%u uart_io_width=%u uart_dw_apb=%d "
           "uart_ip=%s engine=%s\n", (unsigned long)u->base, (unsigned long)board.uart_irq,
           u->reg_shift, u->io_width, strcmp(info.ip, "dw-apb") == 0, info.ip, info.engine);
    printf("  fifo_depth=%u fifo_depth_source=%s\n", info.fifo_depth, info.fifo_source);
    printf("  baud=%lu uart_clock_hz=%lu divisor=%lu baud_real=%llu.%03llu\n",
           (unsigned long)u->baud, (unsigned long)u->clock_hz,
           (unsigned long)uart_divisor(u), (unsigned long long)(real / 1000),
           (unsigned long long)(real % 1000));
    struct wire_stats w;
    wire_model_stats(&w);
    if (w.baud) {
        const struct peer_point *pp = oppoint_peer();
        printf("  wire_model=%llu/%llu wire_source=%s\n", (unsigned long long)w.baud,
               (unsigned long long)w.fifo, oppoint_source());
        printf("  wire_rx_trigger=%u peer=", (unsigned)u->rx_trigger);
        if (pp->mode == PEER_BURST)
            printf("burst:%lu:%lluns\n", (unsigned long)pp->burst,
                   (unsigned long long)pp->period_ns);
        else
            printf("%s\n", pp->mode == PEER_OFF ? "off" : "stream");
    } else
        printf("  wire_model=off\n");
    if (!bootarg("qemu_mode", mode, sizeof mode))
        snprintf(mode, sizeof mode, "%s", board.test_device ? "unknown" : "none");
    printf("  qemu_mode=%s\n", mode);
    struct cpu_clock clk = cpu_clock();
    printf("  cpu_hz=%llu cpu_hz_source=%s cycles_unit=%s instret_exact=%d\n",
           (unsigned long long)clk.hz, clk.source, clk.cycles_unit, cpu_instret_exact);
    if (board.qemu && cpu_instret_exact)
        printf("  icount_shift=%u\n", cpu_instret_shift);
    else
        printf("  icount_shift=none\n");
    print_selection();
    printf("  bench_scale=%s iters=%u rounds=%u s43_groups=%u s43_samples=%u\n",
           bench.quick ? "quick" : "full", bench.iters, bench.rounds, bench.groups,
           bench.samples);
    printf("  line_baud_milli=%llu char_ns=%llu\n", (unsigned long long)bench.baud_milli,
           (unsigned long long)bench.char_ns);
    printf("  device=/dev/console timer_source=CLOCK_MONOTONIC instret_source=rdinstret\n");
    print_list("tx_throughput_sizes", bench_tx_sizes, BENCH_NELEM(bench_tx_sizes));
    print_list(" tx_break_even_sizes", bench_break_even_sizes,
               BENCH_NELEM(bench_break_even_sizes));
    printf(" tx_throughput_iters=%u\n", bench.iters);
    printf("  tx_baseline_drain_policy=tcdrain-after-each-write "
           "tx_enqueue_policy=no-drain-during-measure-final-tcdrain-after tx_batch_drain_every=%u\n",
           S12_BATCH);
    printf("  tx_writev_fragments=%u tx_writev_fragment_size=%u tx_latency_size=%u "
           "tx_latency_iters=%u\n", (unsigned)S13_FRAGMENTS, (unsigned)S13_FRAGMENT, S20_SIZE, bench.iters);
    print_list("fifo_matrix_sizes", bench_fifo_sizes, BENCH_NELEM(bench_fifo_sizes));
    printf(" fifo_matrix_iters=%u\n", bench.iters);
    printf("  rx_mode=empty-nonblocking-eagain rx_fixed_mode=loopback-mcr rx_fixed_bytes=%u\n",
           S31_BYTES);
    printf("  rx_sustained_bytes=%u rx_duplex_bytes=%u rx_peer_pattern=pattern-seed-32-33\n",
           bench.quick ? S32_BYTES / 10 : S32_BYTES, S33_BYTES);
    printf("  s42_payload=%u s43_interval_us=%llu s43_burst_bytes=%u hart_count=%u\n",
           S42_PAYLOAD, (unsigned long long)(S43_INTERVAL_NS / 1000), S43_BURST,
           harts_count());
    return BENCH_PASS;
}
