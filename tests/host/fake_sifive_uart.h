/* Host unit tests: a register-level fake of the SiFive UART (sifive,uart0)
 * behind the seam's fake_mmio_* (fake_sifive_uart.c): txdata with FULL
 * and an 8-entry TX FIFO that the test drains, rxdata with EMPTY and an
 * 8-entry RX FIFO the test fills, txctrl/rxctrl watermarks, ie and ip as
 * the FU540 manual defines them (txwm while the TX FIFO holds fewer than
 * txcnt entries, rxwm while the RX FIFO holds more than rxcnt), div. */
#ifndef FAKE_SIFIVE_UART_H
#define FAKE_SIFIVE_UART_H

#include <stdbool.h>
#include <stdint.h>

#define FS_BASE  0x10010000UL
#define FS_FIFO  8U

struct fs_regs {
    uint32_t txctrl, rxctrl, ie, div;
    unsigned tx_level, rx_level;    /* FIFO entries */
    uint8_t sent[64];               /* bytes that left the TX FIFO, in order */
    unsigned n_sent;
    uint64_t txdata_reads, ip_reads, dropped_tx;
};

/* Test: reset the UART (FIFOs empty, every register 0). */
void fs_reset(void);
/* Test: the state and counts, to check. */
struct fs_regs *fs_regs(void);
/* Test: n bytes leave the TX FIFO (at most what it holds). */
void fs_tx_drain(unsigned n);
/* Test: after every k-th read of txdata or ip, one byte leaves the TX
 * FIFO by itself (0: never): a line draining while the driver polls. */
void fs_tx_drain_every(unsigned k);
/* Test: a byte arrives in the RX FIFO (false: the FIFO is full). */
bool fs_rx_inject(uint8_t b);
/* Test: the interrupt line (ie & ip). */
bool fs_irq_line(void);
/* Test: accesses the fake refused (wrong width, not a register). */
unsigned fs_errors(void);

#endif
