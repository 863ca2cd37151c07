/* Loopback round trip on the selected backend (uart_backend.h), and a
 * deliberate RX overrun through the same loopback. */
#include "clock.h"
#include "crc32.h"
#include "csr.h"
#include "pattern.h"
#include "timer.h"
#include "uart_backend.h"
#include "uart_loopback.h"

#define LB_CHUNK 16U   /* one FIFO: the loopback alone never overruns it (bytes
                          arriving from the line meanwhile still can: QEMU keeps
                          feeding its RX FIFO from outside during MCR.LOOP) */

#define OVERRUN_MAX 256U   /* bytes uart_loopback_overrun sends at most */
#define OVERRUN_SETTLE_NS 1000000ULL   /* late RX bytes would be in by then */

/* uart_loopback_run, uart_loopback_overrun (task): the counters to diff. */
static int counters_now(struct uart_counters *c)
{
    *c = (struct uart_counters){ 0 };
    return uart_be_counters(c) == 0;
}

/* The same: what the RX counters moved by since c0. */
static void counters_delta(bool have, const struct uart_counters *c0,
                           struct uart_loopback_result *r)
{
    struct uart_counters c1;
    if (have && counters_now(&c1)) {
        r->rx_dropped = c1.rx_dropped - c0->rx_dropped;
        r->rx_overruns = c1.rx_overruns - c0->rx_overruns;
    }
}

/* Any task: see uart_loopback.h. Interrupts stay masked while the bytes
 * loop back: the backend's non-blocking write (the async kick fills the
 * TX FIFO; the console sends them all) and its polled flush (the panic
 * path) for the rest. The RX FIFO keeps what it has room for and
 * overruns; unmasked, the driver takes the kept bytes and sees LSR.OE. */
int uart_loopback_overrun(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r)
{
    uint8_t out[OVERRUN_MAX], in[OVERRUN_MAX];
    struct uart_counters c0;

    *r = (struct uart_loopback_result){ 0 };
    if (bytes > OVERRUN_MAX)
        bytes = OVERRUN_MAX;
    while (uart_be_read(in, sizeof in, true) > 0)   /* bytes from before */
        ;
    bool have = counters_now(&c0);
    pattern_fill(out, bytes, seed, 0);
    r->crc_tx = crc32_update(0, out, bytes);
    uint64_t t0 = clock_now_ns();
    unsigned long f = irq_save();
    uart_be_set_loopback(true);
    ssize_t k = uart_be_write(out, bytes, true);
    uart_be_flush_polled();
    irq_restore(f);
    r->sent = k > 0 ? (uint32_t)k : 0;
    for (int pass = 0; pass < 2; pass++) {          /* and once more, later */
        ssize_t got = 1;
        while (r->received < bytes && got > 0) {
            got = uart_be_read(in + r->received, bytes - r->received, true);
            r->received += got > 0 ? (uint32_t)got : 0;
        }
        sleep_for(OVERRUN_SETTLE_NS);
    }
    uart_be_drain();
    uart_be_set_loopback(false);
    r->elapsed_ns = clock_now_ns() - t0;
    for (uint32_t i = 0; i < r->received; i++)
        r->mismatched += in[i] != out[i];
    r->crc_rx = crc32_update(0, in, r->received);
    counters_delta(have, &c0, r);
    return r->sent == bytes && r->received && r->received < bytes && !r->mismatched &&
           (!have || r->rx_overruns) ? 0 : -1;
}

/* Any task. */
int uart_loopback_run(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r)
{
    uint8_t out[LB_CHUNK], in[LB_CHUNK];
    struct uart_counters c0;
    bool have_ctr = counters_now(&c0);

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
    counters_delta(have_ctr, &c0, r);
    return r->received == bytes && r->crc_tx == r->crc_rx && !r->mismatched ? 0 : -1;
}
