/* Loopback round trip on the selected backend (uart_backend.h). */
#include "clock.h"
#include "crc32.h"
#include "pattern.h"
#include "uart_backend.h"
#include "uart_loopback.h"

#define LB_CHUNK 16U   /* one FIFO: the loopback alone never overruns it (bytes
                          arriving from the line meanwhile still can: QEMU keeps
                          feeding its RX FIFO from outside during MCR.LOOP) */

/* Any task. */
int uart_loopback_run(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r)
{
    uint8_t out[LB_CHUNK], in[LB_CHUNK];
    struct uart_counters c0 = { 0 }, c1 = { 0 };
    int have_ctr = uart_be_counters(&c0) == 0;

    *r = (struct uart_loopback_result){ 0 };
    while (uart_be_read(in, sizeof in, true) > 0)   /* bytes from before */
        ;
    uint64_t t0 = clock_now_ns();
    uart_be_set_loopback(true);
    while (r->sent < bytes) {
        uint32_t n = bytes - r->sent < LB_CHUNK ? bytes - r->sent : LB_CHUNK;
        pattern_fill(out, n, seed, r->sent);
        r->crc_tx = crc32_update(r->crc_tx, out, n);
        uart_be_write(out, n, false);
        r->sent += n;
        /* cppcheck-suppress knownConditionTrueFalse ; cppcheck 2.10 false positive:
         * it takes the ?: minimum above for "less than 1", but n >= 1 here */
        for (uint32_t got = 0; got < n;) {
            ssize_t k = uart_be_read(in + got, n - got, false);   /* blocking */
            got += k > 0 ? (uint32_t)k : 0;
        }
        /* cppcheck-suppress knownConditionTrueFalse ; the same false positive */
        for (uint32_t i = 0; i < n; i++)
            r->mismatched += in[i] != out[i];
        r->crc_rx = crc32_update(r->crc_rx, in, n);
        r->received += n;
    }
    uart_be_drain();
    uart_be_set_loopback(false);
    r->elapsed_ns = clock_now_ns() - t0;
    if (have_ctr && uart_be_counters(&c1) == 0) {
        r->rx_dropped = c1.rx_dropped - c0.rx_dropped;
        r->rx_overruns = c1.rx_overruns - c0.rx_overruns;
    }
    return r->received == bytes && r->crc_tx == r->crc_rx && !r->mismatched ? 0 : -1;
}
