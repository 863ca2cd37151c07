/* Boot hooks (as Linux's initcalls): a component above the kernel (the
 * UART driver, its wire model, the POSIX layer) registers what kmain runs
 * at each boot level, so that the kernel calls none of them by name. An
 * image links its hooks into .boot_hooks (sections.ld); a level's hooks
 * run in link order (src/CMakeLists.txt lists the files). */
#ifndef BOOT_HOOKS_H
#define BOOT_HOOKS_H

#include <stdint.h>
#include "line_point.h"
#include "uart_cfg.h"

/* What the kernel knows at boot and hands every hook: the board's UART
 * at the boot's operating point, its interrupt, the far end's traffic. */
struct boot_ctx {
    const struct uart_cfg *uart;
    uint32_t uart_irq;
    const struct peer_point *peer;
};

enum boot_level {
    BOOT_CONSOLE,   /* interrupts masked, before any output: the console device */
    BOOT_MODEL,     /* interrupts masked, timers and PLIC up: device models */
    BOOT_DRIVER,    /* the boot task, interrupts on: drivers started */
    BOOT_IO,        /* the boot task: the I/O layer over the drivers */
};

struct boot_hook {
    uint32_t level;                          /* enum boot_level */
    const char *name;
    int (*fn)(const struct boot_ctx *b);     /* 0, or a negative errno */
};

/* In a component's file: fn runs at level lvl. */
#define BOOT_HOOK(lvl, fn)                                               \
    static const struct boot_hook boot_hook_##fn                         \
        __attribute__((used, section(".boot_hooks"), aligned(8))) = { lvl, #fn, fn }

/* kmain: run level lvl's hooks; one that fails panics, naming itself. */
void boot_hooks_run(enum boot_level lvl, const struct boot_ctx *b);

#endif
