/* Round trip through the UART's internal loopback (MCR.LOOP): patterned
 * bytes written in FIFO-sized chunks and read back, CRC-32 on both sides.
 * Used by the loopback self-tests and by section S31 (RX fixed payload). */
#ifndef UART_LOOPBACK_H
#define UART_LOOPBACK_H

#include <stdint.h>

struct uart_loopback_result {
    uint32_t sent, received, mismatched;
    uint32_t crc_tx, crc_rx;
    uint64_t elapsed_ns;
    uint64_t rx_dropped, rx_overruns;   /* counter deltas (async only) */
    int loopback_errno;                 /* 0, or why the loopback would not switch on
                                           (ENOTTY: the UART has none) */
};

/* Any task: send bytes through loopback and read them back. Output of
 * the console must be drained by the caller first (it would loop back).
 * Returns 0 when every byte came back in order. */
int uart_loopback_run(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r);
/* Any task, RX overrun on purpose: bytes (up to 256, more than the RX
 * FIFO holds) pattern bytes sent through loopback in one go while
 * interrupts are masked, so nobody services RX; then what the RX FIFO
 * kept is read back (received, its CRC, mismatches against the first
 * bytes sent) and the counters' rx_overruns delta is filled in (async).
 * The caller drains console output first. Returns 0 when every byte was
 * sent, some but fewer came back, those in order, and an overrun counted
 * where the backend counts. */
int uart_loopback_overrun(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r);

#endif
