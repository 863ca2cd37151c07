/* QEMU sifive_u (QEMU 7.2's HiFive Unleashed A00), S-mode under OpenSBI.
 * Addresses from QEMU's hw/riscv/sifive_u.c memory map (sifive_u_memmap[])
 * and its device tree. */
#ifndef BOARD_QEMU_SIFIVE_U_H
#define BOARD_QEMU_SIFIVE_U_H

#define BOARD_NAME            "qemu-sifive-u"
#define BOARD_DRAM_BASE       0x80000000UL  /* sifive_u_memmap[SIFIVE_U_DEV_DRAM] */
#define BOARD_TIMEBASE_HZ     1000000UL     /* /cpus/timebase-frequency */
#define BOARD_TICK_NS_NUM     1000U         /* ns = ticks * 1000 / 1 */
#define BOARD_TICK_NS_DEN     1U
#define BOARD_HAS_FDT         1             /* a1 at entry points to the DTB */
#define BOARD_QEMU            1             /* counters are QEMU's (cpu_acct.h) */
#define BOARD_HART_FIRST      1U            /* hart 0, the E51, has no S-mode */

/* /soc/serial@10010000: sifive,uart0, 32-bit registers, PLIC source 4.
 * Its clock is the PRCI's tlclk, for which QEMU's device tree gives no
 * frequency: 500 MHz assumed (the FU540's coreclk / 2 at 1 GHz); on the
 * project's QEMU's line the device tree gives clock, baud and FIFO depth.
 * FIFOs 8 deep; no RX timeout, so the lower half interrupts at every
 * received byte. */
#define BOARD_UART_BASE       0x10010000UL
#define BOARD_UART_IRQ        4U
#define BOARD_UART_REG_SHIFT  2U
#define BOARD_UART_IO_WIDTH   4U
#define BOARD_UART_CLOCK_HZ   500000000U
#define BOARD_UART_BAUD       115200U
#define BOARD_UART_FIFO_DEPTH 8U
#define BOARD_UART_RX_TRIGGER_FIXED 1       /* no RX trigger levels: rx_trigger=1 only */

/* /soc/interrupt-controller@c000000: hart 0 has an M context (0) only,
 * hart h >= 1 an M (2h - 1) and an S context (2h). */
#define BOARD_PLIC_BASE       0x0c000000UL
#define BOARD_PLIC_CONTEXT    0U
#define BOARD_PLIC_NSOURCES   54U           /* riscv,ndev */
#define BOARD_PLIC_CONTEXTS_PER_HART 2U
/* /soc/clint@2000000 (M-mode images only; this board is S-mode). */
#define BOARD_CLINT_BASE      0x02000000
/* /soc/test@100000: sifive,test0 finisher; carries the exit status. */
#define BOARD_TEST_DEVICE     0x100000UL

#endif
