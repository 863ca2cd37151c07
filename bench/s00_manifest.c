/* S00: everything needed to reproduce and label the run. */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "board_info.h"
#include "cpu_acct.h"
#include "csr.h"
#include "kernel.h"
#include "timer.h"
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

/* Boot task. */
enum bench_status s00_manifest(void)
{
    char mode[16];
    const struct uart_cfg *u = &board.uart;
    uint64_t real = uart_real_baud_milli(u);
    struct uart_info info;

    uart_be_info(&info);

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
    if (w.baud)
        printf("  wire_model=%llu/%llu\n", (unsigned long long)w.baud, (unsigned long long)w.fifo);
    else
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
    printf("  tx_throughput_sizes=64,256,1024 tx_break_even_sizes=64,128,256 "
           "tx_throughput_iters=%u\n", bench.iters);
    printf("  tx_baseline_drain_policy=tcdrain-after-each-write "
           "tx_enqueue_policy=no-drain-during-measure-final-tcdrain-after tx_batch_drain_every=8\n");
    printf("  tx_writev_fragments=4 tx_writev_fragment_size=64 tx_latency_size=1 "
           "tx_latency_iters=%u\n", bench.iters);
    printf("  fifo_matrix_sizes=1,15,16,17,31,32,33,48,49 fifo_matrix_iters=%u\n", bench.iters);
    printf("  rx_mode=empty-nonblocking-eagain rx_fixed_mode=loopback-mcr rx_fixed_bytes=4096\n");
    printf("  s42_payload=64 s43_interval_us=5000 s43_burst_bytes=4096 hart_count=1\n");
    return BENCH_PASS;
}
