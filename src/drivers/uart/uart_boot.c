/* The UART driver's boot hooks (boot_hooks.h), image only (host tests
 * call uart_be_* themselves): the UART up as the kernel's console, its
 * wire model (QEMU with WIRE_BAUD; a no-op without), the engine started. */
#include "boot_hooks.h"
#include "uart_backend.h"
#include "wire_model.h"

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
    return 0;
}
BOOT_HOOK(BOOT_MODEL, uart_model_up);

/* kmain, BOOT_DRIVER: the boot task, interrupts on. */
static int uart_start(const struct boot_ctx *b)
{
    return uart_be_init(b->uart_irq);
}
BOOT_HOOK(BOOT_DRIVER, uart_start);
