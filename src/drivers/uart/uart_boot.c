/* The UART driver's boot hooks (boot_hooks.h), image only (host tests
 * call uart_be_* themselves): the UART up as the kernel's console, its
 * wire model (QEMU with WIRE_BAUD; a no-op without), the engine started. */
#include <string.h>
#include "boot_hooks.h"
#include "kernel.h"
#include "uart_backend.h"
#include "wire_model.h"

/* kmain's fault injection (the boot task): a line fault on the modelled
 * line; -1 where there is none (WIRE_BAUD=0) or for another kind. */
static int model_fault(const char *kind)
{
    return strcmp(kind, "temt-stuck") == 0 ? wire_model_fault(WIRE_FAULT_TEMT_STUCK) : -1;
}

/* kmain, BOOT_CONSOLE: interrupts masked, before any output. */
static int uart_console_up(const struct boot_ctx *b)
{
    return uart_be_hw_init(b->uart);
}
BOOT_HOOK(BOOT_CONSOLE, uart_console_up);

/* kmain, BOOT_MODEL: interrupts masked, timers and PLIC up. */
static int uart_model_up(const struct boot_ctx *b)
{
    wire_model_init(b->uart, b->peer);
    fault_line_injector(model_fault);
    return 0;
}
BOOT_HOOK(BOOT_MODEL, uart_model_up);

/* kmain, BOOT_DRIVER: the boot task, interrupts on. */
static int uart_start(const struct boot_ctx *b)
{
    return uart_be_init(b->uart_irq);
}
BOOT_HOOK(BOOT_DRIVER, uart_start);
