/* QEMU virt (QEMU 7.2), S-mode under OpenSBI. Addresses from QEMU's
 * hw/riscv/virt.c memory map (virt_memmap[]) and its device tree. */
#ifndef BOARD_QEMU_VIRT_H
#define BOARD_QEMU_VIRT_H

#define BOARD_NAME            "qemu-virt"
#define BOARD_DRAM_BASE       0x80000000UL  /* virt_memmap[VIRT_DRAM] */
/* /cpus/timebase-frequency: 10 MHz, or the build's TIMEBASE_HZ (a divisor
 * of 10^9, QEMU's -machine virt,timebase-frequency=: CMakeLists.txt). */
#ifdef TIMEBASE_HZ
#define BOARD_TIMEBASE_HZ     TIMEBASE_HZ
#else
#define BOARD_TIMEBASE_HZ     10000000UL
#endif
#define BOARD_TICK_NS_NUM     ((unsigned)(1000000000UL / BOARD_TIMEBASE_HZ))  /* ns = ticks * 100 / 1 at 10 MHz */
#define BOARD_TICK_NS_DEN     1U
#define BOARD_HAS_FDT         1             /* a1 at entry points to the DTB */
#define BOARD_QEMU            1             /* counters are QEMU's (cpu_acct.h) */

/* /soc/serial@10000000: ns16550a, byte registers, PLIC source 10. */
#define BOARD_UART_BASE       0x10000000UL
#define BOARD_UART_IRQ        10U
#define BOARD_UART_REG_SHIFT  0U
#define BOARD_UART_IO_WIDTH   1U
#define BOARD_UART_CLOCK_HZ   3686400U      /* clock-frequency (0x384000) */
#define BOARD_UART_BAUD       115200U
#define BOARD_UART_FIFO_DEPTH 16U
/* The project's QEMU starts a character at the THR store of an idle
 * transmitter (scripts/qemu/patches/0004: docs/qemu-line.md). */
#define BOARD_UART_TX_AT_STORE 1

/* /soc/plic@c000000; context 1 = hart 0 S-mode. */
#define BOARD_PLIC_BASE       0x0c000000UL
#define BOARD_PLIC_CONTEXT    1U
#define BOARD_PLIC_NSOURCES   95U           /* riscv,ndev */
#define BOARD_PLIC_CONTEXTS_PER_HART 2U     /* M and S context per hart */
/* /soc/clint@2000000: mtimecmp at +0x4000 (M-mode images only). */
#define BOARD_CLINT_BASE      0x02000000    /* also used by start.S */
/* /soc/test@100000: sifive,test1 finisher; carries the exit status. */
#define BOARD_TEST_DEVICE     0x100000UL

#endif
