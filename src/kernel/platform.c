/* The board description, from boards/<board>/board.h. */
#include "board.h"
#include "board_info.h"
#include "mmio.h"

#ifndef BOARD_PLIC_CTRL
#define BOARD_PLIC_CTRL 0UL
#endif
#ifndef BOARD_UART_RX_TRIGGER_FIXED
#define BOARD_UART_RX_TRIGGER_FIXED 0
#endif
#ifndef BOARD_HART_FIRST
#define BOARD_HART_FIRST 0U
#endif
#ifndef BOARD_CLINT_SPLIT32
#define BOARD_CLINT_SPLIT32 0
#endif
#ifndef BOARD_UART_TX_AT_STORE
#define BOARD_UART_TX_AT_STORE 0
#endif

const struct board_info board = {
    .name = BOARD_NAME,
    .timebase_hz = BOARD_TIMEBASE_HZ,
    .plic_base = BOARD_PLIC_BASE,
    .plic_context = BOARD_PLIC_CONTEXT,
    .plic_contexts_per_hart = BOARD_PLIC_CONTEXTS_PER_HART,
    .plic_ctrl = BOARD_PLIC_CTRL,
    .uart_irq = BOARD_UART_IRQ,
    .clint_base = BOARD_CLINT_BASE,
    .clint_split32 = BOARD_CLINT_SPLIT32,
    .test_device = BOARD_TEST_DEVICE,
    .plic_nsources = BOARD_PLIC_NSOURCES,
    .hart_first = BOARD_HART_FIRST,
    .uart_rx_trigger_fixed = BOARD_UART_RX_TRIGGER_FIXED,
    .has_fdt = BOARD_HAS_FDT,
    .qemu = BOARD_QEMU,
    .uart = {
        .base = BOARD_UART_BASE,
        .reg_shift = BOARD_UART_REG_SHIFT,
        .io_width = BOARD_UART_IO_WIDTH,
        .clock_hz = BOARD_UART_CLOCK_HZ,
        .baud = BOARD_UART_BAUD,
        .fifo_depth = BOARD_UART_FIFO_DEPTH,
        .rx_trigger = 1,
        .tx_at_store = BOARD_UART_TX_AT_STORE,
    },
};


/* Boot, interrupts masked, before any output. On the D1 nothing is
 * assumed about what the boot ROM left: UART0 clock and reset, pins. */
void board_early_init(void)
{
#if defined(BOARD_CCU_UART_BGR)
    mmio_write32(BOARD_CCU_UART_BGR,
                 mmio_read32(BOARD_CCU_UART_BGR) | BOARD_CCU_UART0_GATE | BOARD_CCU_UART0_RST);
    uint32_t cfg = mmio_read32(BOARD_GPIO_PB_CFG1);
    cfg &= ~((0xFU << BOARD_GPIO_PB8_SHIFT) | (0xFU << BOARD_GPIO_PB9_SHIFT));
    cfg |= (BOARD_GPIO_FUNC_UART0 << BOARD_GPIO_PB8_SHIFT) |
           (BOARD_GPIO_FUNC_UART0 << BOARD_GPIO_PB9_SHIFT);
    mmio_write32(BOARD_GPIO_PB_CFG1, cfg);
#endif
}
