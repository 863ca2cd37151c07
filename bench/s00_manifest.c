/* S00: everything needed to reproduce and label the run. */
#include <stdio.h>
#include "bench.h"
#include "board_info.h"
#include "csr.h"
#include "kernel.h"
#include "version.h"
#include "wire_model.h"

/* Boot task. */
enum bench_status s00_manifest(void)
{
    char mode[16];
    const struct uart_cfg *u = &board.uart;
    uint64_t real = uart_real_baud_milli(u);

    printf("  version=%s\n", UARTBENCH_VERSION);
    printf("  board=%s\n", board.name);
    printf("  backend=%s\n", UARTBENCH_BACKEND);
    printf("  privilege=%s\n", PRIV_NAME);
    printf("  isa=rv64imac\n");
    printf("  timebase_hz=%llu\n", (unsigned long long)board.timebase_hz);
    printf("  uart_base=0x%08lx uart_irq=%lu uart_reg_shift=%u uart_io_width=%u uart_dw_apb=%u\n",
           (unsigned long)u->base, (unsigned long)board.uart_irq, u->reg_shift,
           u->io_width, u->dw_apb);
    printf("  fifo_depth=%u\n", u->fifo_depth);
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
    return BENCH_PASS;
}
