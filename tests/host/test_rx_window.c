/* bench/rx_window.c against a scripted RX interrupt: the counters
 * (UART_IOC_GET_COUNTERS) and the RX CPU account (cpu_acct_read) are two
 * reads, and an interrupt that falls between them must not give a window
 * interrupts without instructions or bytes without interrupts. Built
 * against the hosted shim's headers (bench/hosted/include), as
 * uartbench-hosted builds the file, with the two reads faked here. */
#include <stdarg.h>
#include <string.h>
#include "bench.h"
#include "check.h"
#include "cpu_acct.h"
#include "posix_io.h"

#define IRQ_BYTES 17
#define IRQ_INSNS 500

struct bench_env bench = { .fd = 3, .async = true };

static struct uart_counters ctr;
static uint64_t rx_instret;
static unsigned acct_reads, irq_at_read;   /* irq_at_read: 1-based, 0 never */
static unsigned begin_reads;               /* account reads of the last window's begin */

/* The interrupt: takes IRQ_BYTES from the FIFO, its instructions charged
 * to the RX account. */
static void rx_irq(void)
{
    ctr.rx_irqs++;
    ctr.rx_bytes += IRQ_BYTES;
    rx_instret += IRQ_INSNS;
}

/* rx_window.c: the driver's counters. */
int hosted_ioctl(int fd, unsigned long request, ...)
{
    va_list ap;

    CHECK_EQ(fd, bench.fd);
    CHECK_EQ(request, UART_IOC_GET_COUNTERS);
    va_start(ap, request);
    memcpy(va_arg(ap, struct uart_counters *), &ctr, sizeof ctr);
    va_end(ap);
    return 0;
}

/* rx_window.c: the account; the scripted interrupt comes just before
 * the read whose number is irq_at_read (after the counters were read). */
void cpu_acct_read(struct cpu_totals *out)
{
    if (++acct_reads == irq_at_read)
        rx_irq();
    *out = (struct cpu_totals){ 0 };
    out->rx.instret = rx_instret;
}

/* main: one window with the interrupt before the n-th account read (0:
 * inside the window, between begin and end). */
static struct bench_foreign window(unsigned n)
{
    struct bench_foreign f;

    memset(&ctr, 0, sizeof ctr);
    rx_instret = 0;
    acct_reads = 0;
    irq_at_read = n;
    bench_rx_window_begin();
    begin_reads = acct_reads;
    if (!n)
        rx_irq();
    bench_rx_window_end(&f);
    return f;
}

int main(void)
{
    struct bench_foreign f = window(0);

    CHECK(f.irqs_known);
    CHECK_EQ(f.bytes, IRQ_BYTES);
    CHECK_EQ(f.irqs, 1);
    CHECK_EQ(f.insns, IRQ_INSNS);

    /* Between the begin's counters and its account: the interrupt
     * belongs wholly to one side of the window's start. */
    f = window(1);
    CHECK_EQ(ctr.rx_irqs, 1);
    CHECK_EQ(f.bytes ? 1 : 0, f.irqs);
    CHECK_EQ(f.irqs * IRQ_INSNS, f.insns);

    /* Between the end's counters and its account. */
    (void)window(0);
    f = window(begin_reads + 1);
    CHECK_EQ(ctr.rx_irqs, 1);   /* the interrupt came */
    CHECK_EQ(f.bytes ? 1 : 0, f.irqs);
    CHECK_EQ(f.irqs * IRQ_INSNS, f.insns);
    return check_exit("rx_window");
}
