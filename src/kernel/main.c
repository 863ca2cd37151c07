/* C entry: bring up the board and the kernel, run the application
 * (KERNEL_APP), exit with its status. */
#include <stdio.h>
#include "board_info.h"
#include "clock.h"
#include "cpu_acct.h"
#include "harts.h"
#include "ipi.h"
#include "oppoint.h"
#include "csr.h"
#include "kernel.h"
#include "plic.h"
#include "posix_io.h"
#include "scheduler.h"
#include "timer.h"
#include "trap.h"
#include "uart_backend.h"
#include "wire_model.h"

extern uint64_t __stack_bottom[];
extern const kernel_app_fn __kernel_app_start[];   /* sections.ld: exactly one */
static struct uart_cfg uart;           /* board.uart at the boot's operating point */
void fault_inject_from_bootargs(void);
void stdio_use_backend(void);

/* Boot, hart 0, interrupts masked, on the boot stack (task "main"). */
void kmain(unsigned long hartid, const void *fdt)
{
    cpu_acct_early_init();
    board_early_init();
    trap_init();
    harts_init(hartid);
    bootargs_init(board.has_fdt ? fdt : 0);
    uart = board.uart;
    const char *bad = oppoint_apply(&uart);
    uart_be_hw_init(&uart);
    sched_init(__stack_bottom);
    cpu_acct_init();
    /* the model's time out of the clock: under -icount only, where the
     * sim account counts virtual ns */
    clock_sim_free_init(board.qemu && cpu_instret_exact && oppoint_clock_free());
    timer_init();
    plic_init();
    ipi_init();
    wire_model_init(&uart, oppoint_peer());
    irq_enable();
    if (uart_be_init(board.uart_irq))
        panic("UART backend %s failed to start", uart_be_name);
    posix_io_init();
    stdio_use_backend();
    harts_release();                   /* the other harts idle in their schedulers */
    if (bad) {                         /* before any section: never a silent default */
        printf("%s\n", bad);
        kernel_exit(EXIT_BOOTARG);
    }
    fault_inject_from_bootargs();
    kernel_exit(__kernel_app_start[0]());
}
