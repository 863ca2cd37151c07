/* Round trip through the UART's internal loopback (ioctl
 * UART_IOC_LOOPBACK), through the POSIX layer like any user of the
 * console: patterned bytes written in FIFO-sized chunks and read back,
 * CRC-32 on both sides; and a deliberate RX overrun through the same
 * loopback. Used by S31 and by the loopback self-tests. */
#include <errno.h>
#include <fcntl.h>
#include "bench.h"
#include "clock.h"
#include "crc32.h"
#include "csr.h"
#include "kernel.h"
#include "pattern.h"
#include "posix_io.h"
#include "uart_loopback.h"
#include "waitq.h"

#define LB_CHUNK 16U   /* one FIFO: the loopback alone never overruns it (bytes
                          arriving from the line meanwhile still can: QEMU keeps
                          feeding its RX FIFO from outside during the loopback) */
#define OVERRUN_MAX 256U               /* bytes uart_loopback_overrun sends at most */
#define OVERRUN_SETTLE_NS 1000000ULL   /* late RX bytes would be in by then */

/* Any task: an fd on the console, non-blocking or not (-1 on error). */
static int console_fd(bool nonblock)
{
    return open("/dev/console", O_RDWR | (nonblock ? O_NONBLOCK : 0));
}

/* Any task: loopback on or off (ioctl UART_IOC_LOOPBACK). */
static int loopback(int fd, int on)
{
    return ioctl(fd, UART_IOC_LOOPBACK, &on);
}

/* Any task: what fd has received already is thrown away. */
static void discard_input(int nb)
{
    uint8_t scratch[LB_CHUNK];
    while (read(nb, scratch, sizeof scratch) > 0)
        ;
}

/* Any task: the RX counters to diff (false: the design has none). */
static bool counters_now(int fd, struct uart_counters *c)
{
    *c = (struct uart_counters){ 0 };
    return ioctl(fd, UART_IOC_GET_COUNTERS, c) == 0;
}

/* Any task: what the RX counters moved by since c0. */
static void counters_delta(int fd, bool have, const struct uart_counters *c0,
                           struct uart_loopback_result *r)
{
    struct uart_counters c1;
    if (have && counters_now(fd, &c1)) {
        r->rx_dropped = c1.rx_dropped - c0->rx_dropped;
        r->rx_overruns = c1.rx_overruns - c0->rx_overruns;
    }
}

/* uart_loopback_run and _overrun, task: bytes of in that differ from out. */
static uint32_t mismatches(const uint8_t *in, const uint8_t *out, uint32_t n)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += in[i] != out[i];
    return bad;
}

/* uart_loopback_run, task: n bytes read back, blocking. */
static void read_all(int fd, uint8_t *in, uint32_t n)
{
    for (uint32_t got = 0; got < n;) {
        ssize_t k = read(fd, in + got, n - got);
        got += k > 0 ? (uint32_t)k : 0;
    }
}

/* Any task: see uart_loopback.h. */
int uart_loopback_run(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r)
{
    uint8_t out[LB_CHUNK] = { 0 }, in[LB_CHUNK] = { 0 };
    struct uart_counters c0;
    int fd = console_fd(false), nb = console_fd(true);
    bool have = counters_now(fd, &c0);

    *r = (struct uart_loopback_result){ 0 };
    discard_input(nb);
    uint64_t t0 = clock_now_ns();
    int rc = loopback(fd, 1);
    r->loopback_errno = rc ? errno : 0;
    while (!rc && r->sent < bytes) {
        uint32_t n = bytes - r->sent < LB_CHUNK ? bytes - r->sent : LB_CHUNK;
        pattern_fill(out, n, seed, r->sent);
        r->crc_tx = crc32_update(r->crc_tx, out, n);
        if (write(fd, out, n) != (ssize_t)n)
            break;
        r->sent += n;
        read_all(fd, in, n);
        r->mismatched += mismatches(in, out, n);
        r->crc_rx = crc32_update(r->crc_rx, in, n);
        r->received += n;
    }
    tcdrain(fd);
    loopback(fd, 0);
    r->elapsed_ns = clock_now_ns() - t0;
    counters_delta(fd, have, &c0, r);
    close(nb);
    close(fd);
    return !rc && r->received == bytes && r->crc_tx == r->crc_rx && !r->mismatched ? 0 : -1;
}

/* Any task: see uart_loopback.h. Interrupts stay masked while the bytes
 * loop back: a non-blocking write (the async kick fills the TX FIFO; the
 * console sends them all) and the polled flush (the exit path) for the
 * rest. The RX FIFO keeps what it has room for and overruns; unmasked,
 * the driver takes the kept bytes and sees LSR.OE. */
int uart_loopback_overrun(uint32_t bytes, uint32_t seed, struct uart_loopback_result *r)
{
    uint8_t out[OVERRUN_MAX] = { 0 }, in[OVERRUN_MAX] = { 0 };   /* read() fills in: the analyzers cannot see it */
    struct uart_counters c0;
    int fd = console_fd(false), nb = console_fd(true);

    *r = (struct uart_loopback_result){ 0 };
    if (bytes > OVERRUN_MAX)
        bytes = OVERRUN_MAX;
    discard_input(nb);
    bool have = counters_now(fd, &c0);
    pattern_fill(out, bytes, seed, 0);
    r->crc_tx = crc32_update(0, out, bytes);
    uint64_t t0 = clock_now_ns();
    int rc = loopback(fd, 1);
    unsigned long f = irq_save();
    ssize_t k = rc ? -1 : write(nb, out, bytes);
    console_flush_polled();
    irq_restore(f);
    r->sent = k > 0 ? (uint32_t)k : 0;
    for (int pass = 0; pass < 2; pass++) {          /* and once more, later */
        ssize_t got = 1;
        while (r->received < bytes && got > 0) {
            got = read(nb, in + r->received, bytes - r->received);
            r->received += got > 0 ? (uint32_t)got : 0;
        }
        sleep_for(OVERRUN_SETTLE_NS);
    }
    tcdrain(fd);
    loopback(fd, 0);
    r->elapsed_ns = clock_now_ns() - t0;
    r->mismatched = mismatches(in, out, r->received);
    r->crc_rx = crc32_update(0, in, r->received);
    counters_delta(fd, have, &c0, r);
    close(nb);
    close(fd);
    return r->sent == bytes && r->received && r->received < bytes && !r->mismatched &&
           (!have || r->rx_overruns) ? 0 : -1;
}
