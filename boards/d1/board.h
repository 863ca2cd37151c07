/* Allwinner D1 (Lichee RV / Nezha): one XuanTie C906, M-mode after FEL.
 * Addresses from the D1 device tree (sun20i-d1.dtsi) and the D1 user
 * manual; register names beside each value. */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME            "d1"
#define BOARD_DRAM_BASE       0x40000000UL  /* memory@40000000 */
#define BOARD_TIMEBASE_HZ     24000000UL    /* /cpus/timebase-frequency */
#define BOARD_TICK_NS_NUM     125U          /* ns = ticks * 125 / 3 */
#define BOARD_TICK_NS_DEN     3U
#define BOARD_HAS_FDT         0             /* FEL passes no device tree */
#define BOARD_QEMU            0             /* real counters: mcycle, minstret */
#define BOARD_CPU_C906        1             /* src/arch/riscv/c906.S at entry */

/* serial@2500000: snps,dw-apb-uart, reg-shift 2, reg-io-width 4, PLIC 18. */
#define BOARD_UART_BASE       0x02500000UL
#define BOARD_UART_IRQ        18U
#define BOARD_UART_REG_SHIFT  2U
#define BOARD_UART_IO_WIDTH   4U
#define BOARD_UART_CLOCK_HZ   24000000U     /* APB1 / UART0 clock (24 MHz) */
#define BOARD_UART_BAUD       115200U       /* divisor 13 -> 115384.6 */
#define BOARD_UART_FIFO_DEPTH 16U           /* read from CPR when present */

/* UART0 clock gate and reset: CCU UART_BGR_REG (0x0200190C). */
#define BOARD_CCU_UART_BGR    0x0200190CUL
#define BOARD_CCU_UART0_GATE  (1U << 0)
#define BOARD_CCU_UART0_RST   (1U << 16)
/* PB8 = UART0_TX, PB9 = UART0_RX, function 6: GPIO PB_CFG1 (0x02000034). */
#define BOARD_GPIO_PB_CFG1    0x02000034UL
#define BOARD_GPIO_PB8_SHIFT  0U
#define BOARD_GPIO_PB9_SHIFT  4U
#define BOARD_GPIO_FUNC_UART0 6U

/* interrupt-controller@10000000: T-Head PLIC; context 0 = hart 0 M-mode. */
#define BOARD_PLIC_BASE       0x10000000UL
#define BOARD_PLIC_CONTEXT    0U
#define BOARD_PLIC_NSOURCES   175U          /* riscv,ndev */
#define BOARD_PLIC_CONTEXTS_PER_HART 2U     /* M and S context (one hart) */
#define BOARD_PLIC_CTRL       0x101FFFFCUL  /* PLIC_CTRL: S-mode access */
/* clint@14000000: mtimecmp as 32-bit halves; mtime only via the time CSR. */
#define BOARD_CLINT_BASE      0x14000000    /* also used by start.S */
#define BOARD_CLINT_SPLIT32   1
#define BOARD_TEST_DEVICE     0UL           /* no finisher: park at exit */

#endif
