/* C entry: bring up the board, run the benchmark sections, exit with the
 * number of failed sections. */
#include "bench.h"
#include "board_info.h"
#include "kernel.h"
#include "trap.h"

void fault_inject_from_bootargs(void);

/* Boot, hart 0, interrupts masked, on the boot stack. */
void kmain(unsigned long hartid, const void *fdt)
{
    (void)hartid;
    board_early_init();
    trap_init();
    uart_hw_init(&board.uart);
    bootargs_init(board.has_fdt ? fdt : 0);
    fault_inject_from_bootargs();
    kernel_exit(bench_run_all());
}
