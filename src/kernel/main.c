/* C entry: bring up the board and the kernel, run the boot hooks of the
 * components above it by level (BOOT_HOOK: the console device, device
 * models, drivers, the I/O layer), run the application (KERNEL_APP), exit
 * with its status. */
#include <stdio.h>
#include "board_info.h"
#include "boot_hooks.h"
#include "bootarg_key.h"
#include "clock.h"
#include "cpu_acct.h"
#include "harts.h"
#include "ipi.h"
#include "oppoint.h"
#include "csr.h"
#include "kernel.h"
#include "plic.h"
#include "scheduler.h"
#include "timer.h"
#include "trap.h"
#include "waitq.h"

extern uint64_t __stack_bottom[];
extern const kernel_app_fn __kernel_app_start[];   /* sections.ld: exactly one */
extern const struct boot_hook __boot_hooks_start[], __boot_hooks_end[];   /* sections.ld */
static struct uart_cfg uart;           /* board.uart at the boot's operating point */
void fault_inject_from_bootargs(void);

/* kmain: level lvl's hooks in link order; a failure panics (through the
 * console sink once one is registered). */
void boot_hooks_run(enum boot_level lvl, const struct boot_ctx *b)
{
    size_t n = ((uintptr_t)__boot_hooks_end - (uintptr_t)__boot_hooks_start) /
               sizeof __boot_hooks_start[0];
    for (size_t i = 0; i < n; i++) {
        const struct boot_hook *h = &__boot_hooks_start[i];
        int rc = h->level == lvl ? h->fn(b) : 0;
        if (rc)
            panic("boot: %s failed (%d)", h->name, rc);
    }
}

/* Boot, hart 0, interrupts masked, on the boot stack (task "main"). */
void kmain(unsigned long hartid, const void *fdt)
{
    power_clock_from(clock_now_ns);    /* a panic's last wait, bounded */
    cpu_acct_early_init();
    board_early_init();
    trap_init(timer_isr);
    harts_init(hartid);
    bootargs_init(board.has_fdt ? fdt : 0);
    uart = board.uart;
    const char *bad = bootargs_check(), *point = oppoint_apply(&uart);
    bad = bad ? bad : point;
    struct boot_ctx ctx = { &uart, board.uart_irq, NULL };
    boot_hooks_run(BOOT_CONSOLE, &ctx);
    const char *tb = fdt_timebase_check();
    if (tb)                            /* before the clock is read: cpu_acct_init */
        panic("%s", tb);
    sched_init(__stack_bottom);
    cpu_acct_init();
    /* the model's time out of the clock: under -icount only, where the
     * sim account counts virtual ns */
    clock_sim_free_init(board.qemu && cpu_instret_exact && oppoint_clock_free());
    timer_init();
    plic_init();
    ipi_init(sched_ipi);
    ctx.peer = oppoint_peer();
    boot_hooks_run(BOOT_MODEL, &ctx);
    irq_enable();
    sleep_lead_measure();
    boot_hooks_run(BOOT_DRIVER, &ctx);
    boot_hooks_run(BOOT_IO, &ctx);
    harts_release();                   /* the other harts idle in their schedulers */
    if (bad) {                         /* before any section: never a silent default */
        printf("%s\n", bad);
        kernel_exit(EXIT_BOOTARG);
    }
    fault_inject_from_bootargs();
    kernel_exit(__kernel_app_start[0]());
}
