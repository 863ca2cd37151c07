/* The kernel build's side of the sections' platform seam (bench.h; the
 * Linux side is bench/hosted/): the payload witness's markers, which go
 * on the log because the log is the wire, the manifest's lines on the
 * board, the driver, the modelled line and the CPU, S43's timer settings
 * (none: the kernel's timer has no slack), and no TX counters but the
 * design's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "board_info.h"
#include "bootarg_key.h"
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "kernel.h"
#include "oppoint.h"
#include "posix_io.h"
#include "timer.h"
#include "uart_backend.h"
#include "version.h"
#include "wire_model.h"

/* bootargs_check (boot): qemu_mode=, how scripts/qemu-run ran QEMU (the
 * manifest's qemu_mode=). */
static const char *qemu_mode_forms(const char *value)
{
    return strcmp(value, "icount") == 0 || strcmp(value, "realtime") == 0 ? NULL :
           "icount, realtime (how QEMU ran; scripts/qemu-run passes it)";
}
BOOTARG_KEY(qemu_mode, qemu_mode_forms);

/* Section task (S11, S40, S41): the kernel's TX counters are the design's
 * (UART_IOC_GET_COUNTERS); no platform has others. */
int bench_txdbg_snapshot(struct uart_counters *out)
{
    (void)out;
    errno = ENOTTY;
    return -1;
}

/* Section task (S42, S43): the kernel's tasks always run beside each other. */
const char *bench_threads_missing(void)
{
    return NULL;
}

/* Section task: the marker goes out and drains before timing starts. */
void bench_payload_begin(const char *tag)
{
    printf("  payload-begin=%s\n", tag);
    console_flush();
    tcdrain(bench.fd);
}

/* Section task: ends the payload line, then the witness. */
void bench_payload_end(const char *tag, uint64_t bytes, uint32_t crc)
{
    printf("\n  payload-end=%s bytes=%llu crc32=0x%08lx\n", tag, (unsigned long long)bytes,
           (unsigned long)crc);
}

/* print_wire: the far end's traffic (outside: external). */
static void print_peer(const struct peer_point *pp)
{
    if (bench_peer_external())
        printf("external\n");
    else if (pp->mode == PEER_BURST)
        printf("burst:%lu:%lluns\n", (unsigned long)pp->burst, (unsigned long long)pp->period_ns);
    else
        printf("%s\n", pp->mode == PEER_OFF ? "off" : "stream");
}

/* bench_manifest_platform: the line the UART is on. The wire model's
 * (wire_model=BAUD/FIFO, line=model), the emulator's (line=device: the
 * project's QEMU keeps line time in its 16550, the point from the device
 * tree), QEMU's instant UART (line=instant) or a board's (line=serial). */
static void print_wire(const struct uart_cfg *u)
{
    struct wire_stats w;
    const struct fdt_line *l = fdt_line_info();
    const struct peer_point *pp = oppoint_peer();

    wire_model_stats(&w);
    if (!w.baud) {
        printf("  wire_model=off\n");
        if (l->timed) {
            printf("  line=device line_point=%lu/%u line_bus_ns=%lu line_source=%s\n",
                   (unsigned long)u->baud, (unsigned)u->fifo_depth, (unsigned long)l->bus_ns,
                   oppoint_source());
            printf("  wire_rx_trigger=%u peer=", (unsigned)u->rx_trigger);
            print_peer(pp);
        } else {
            printf("  line=%s\n", board.qemu ? "instant" : "serial");
            if (bench_peer_external())
                printf("  peer=external\n");
        }
        return;
    }
    printf("  wire_model=%llu/%llu wire_source=%s\n", (unsigned long long)w.baud,
           (unsigned long long)w.fifo, oppoint_source());
    printf("  line=model\n");
    printf("  wire_rx_trigger=%u peer=", (unsigned)u->rx_trigger);
    print_peer(pp);
    if (clock_sim_free())
        printf("  wire_clock=free\n");
    else
        printf("  wire_clock=raw%s\n", oppoint_clock_free() ? " reason=no-icount" : "");
}

/* bench.h (runner, main task): the wire model, the emulator's line or a
 * board's keep time; QEMU's instant UART does not. */
bool bench_line_timed(void)
{
    struct wire_stats w;
    wire_model_stats(&w);
    return w.baud || fdt_line_info()->timed || !board.qemu;
}

/* bench.h (S41, section task): the kernel's accounts cost a few
 * instructions, a clock read may trap to the firmware. */
bool bench_clock_outside_accounts(void)
{
    return true;
}

/* s00_manifest (section task). */
void bench_manifest_platform(void)
{
    char mode[16];
    struct uart_info info;

    uart_be_info(&info);
    const struct uart_cfg *u = info.cfg;
    uint64_t real = info.baud_milli;

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
           (unsigned long)info.divisor, (unsigned long long)(real / 1000),
           (unsigned long long)(real % 1000));
    print_wire(u);
    if (!bootarg("qemu_mode", mode, sizeof mode))
        snprintf(mode, sizeof mode, "%s", board.test_device ? "unknown" : "none");
    printf("  qemu_mode=%s\n", mode);
    struct cpu_clock clk = cpu_clock();
    printf("  cpu_hz=%llu cpu_hz_source=%s cycles_unit=%s instret_exact=%d\n",
           (unsigned long long)clk.hz, clk.source, clk.cycles_unit, cpu_instret_exact);
    if (board.qemu && cpu_instret_exact)
        printf("  icount_shift=%u\n", cpu_clock_shift);
    else
        printf("  icount_shift=none\n");
    printf("  device=/dev/console timer_source=CLOCK_MONOTONIC instret_source=rdinstret\n");
}

/* S43 (section task): no timer setting to print. */
void bench_s43_print_timer(void)
{
}

/* S43 (section task): no further idle phase. */
const char *bench_s43_extra_idle(unsigned k)
{
    (void)k;
    return 0;
}
