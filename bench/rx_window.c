/* Foreign RX traffic in a section's window: what the UART received that
 * the section did not send itself, so that a section whose result
 * depends on RX can tell a noisy line from a fault, and every section
 * says whether its figures were taken on a quiet line.
 *
 * Async backend: the driver's RX counters (bytes stored + dropped, RX
 * interrupts, since boot) and the RX CPU account, read at the window's
 * ends: exact, counted when the interrupt takes a byte from the FIFO.
 * A section's own_phase loopback phases are left out: their declared bytes,
 * and all their interrupts and instructions (own_phase and foreign ones cannot
 * be told apart there). Console backend (no RX interrupt, no counters):
 * the bytes found: drained by RX sections at their start and end, read
 * by them in place of their own_phase, and drained by the runner at the end of
 * every window. */
#include <stdio.h>
#include "bench.h"
#include "cpu_acct.h"
#include "posix_io.h"

#define FLUSH_CHUNK 64
#define U(x) ((unsigned long long)(x))

struct rx_snap { uint64_t bytes, irqs, insns; };

static struct rx_snap win0, own0, own_phase;   /* own_phase: irqs, insns; declared bytes */
static uint64_t found, flushed;

/* Section task or runner: RX totals since boot (zero on the console).
 * The counters and the account are two reads an RX interrupt can fall
 * between; they are taken again until the interrupt count is the same
 * after the account as before it, so both hold the same interrupts. */
static void snap(struct rx_snap *s)
{
    struct uart_counters c, again;
    struct cpu_totals t;

    *s = (struct rx_snap){ 0 };
    if (!bench.async || ioctl(bench.fd, UART_IOC_GET_COUNTERS, &again) != 0)
        return;
    do {
        c = again;
        cpu_acct_read(&t);
        if (ioctl(bench.fd, UART_IOC_GET_COUNTERS, &again) != 0)
            return;
    } while (again.rx_irqs != c.rx_irqs);
    *s = (struct rx_snap){ c.rx_bytes + c.rx_dropped, c.rx_irqs, t.rx.instret };
}

/* Section task or runner: a - b - c, 0 if negative. */
static uint64_t rest(uint64_t a, uint64_t b, uint64_t c)
{
    return a > b + c ? a - b - c : 0;
}

/* Section task or runner: the foreign counts of the window up to now. */
static void foreign_now(struct bench_foreign *f)
{
    struct rx_snap s;

    snap(&s);
    *f = (struct bench_foreign){ found, 0, 0, bench.async };
    if (bench.async)
        *f = (struct bench_foreign){ rest(s.bytes, win0.bytes, own_phase.bytes),
                                     rest(s.irqs, win0.irqs, own_phase.irqs),
                                     rest(s.insns, win0.insns, own_phase.insns), true };
}

/* Runner, before a section. */
void bench_rx_window_begin(void)
{
    found = flushed = 0;
    own_phase = (struct rx_snap){ 0 };
    snap(&win0);
}

/* Runner, after a section (the console's RX is drained and counted). */
void bench_rx_window_end(struct bench_foreign *f)
{
    if (!bench.async)
        (void)bench_rx_flush();     /* counts what it finds */
    foreign_now(f);
}

/* Section task or runner: read without blocking until nothing is left. */
uint64_t bench_rx_flush(void)
{
    char junk[FLUSH_CHUNK];
    int on = 1, off = 0;
    uint64_t n = 0;
    ssize_t k;

    ioctl(bench.fd, FIONBIO, &on);
    while ((k = read(bench.fd, junk, sizeof junk)) > 0)
        n += (uint64_t)k;
    ioctl(bench.fd, FIONBIO, &off);
    flushed += n;
    if (!bench.async)
        found += n;
    return n;
}

/* Section task. */
void bench_rx_found(uint64_t n)
{
    found += n;
}

/* Section task. */
void bench_rx_own_begin(void)
{
    snap(&own0);
}

/* Section task. */
void bench_rx_own_end(uint64_t own_bytes)
{
    struct rx_snap s;

    snap(&s);
    own_phase.bytes += own_bytes;
    own_phase.irqs += s.irqs - own0.irqs;
    own_phase.insns += s.insns - own0.insns;
}

/* Section task. */
void bench_rx_mark(const char *tag)
{
    struct bench_foreign f;

    foreign_now(&f);
    printf("  diag=%s rx_flushed=%llu foreign_rx_bytes=%llu figures=%s own_rx_bytes=%llu", tag,
           U(flushed), U(f.bytes), f.bytes ? "invalid" : "valid", U(own_phase.bytes));
    if (bench.async)
        printf(" own_rx_irqs=%llu own_rx_instructions=%llu\n", U(own_phase.irqs), U(own_phase.insns));
    else
        printf(" own_rx_irqs=na own_rx_instructions=na\n");
}
