/* Console backend: the synchronous polling baseline. write() waits for
 * FIFO room and stores byte by byte; drain spins on LSR.TEMT; reads poll
 * LSR.DR. No interrupts, no rings, no counters (ioctls give ENOTTY, as
 * the original's console did). */
#include <errno.h>
#include "clock.h"
#include "uart_backend.h"
#include "uart_16550.h"

#define UART_DRAIN_MARGIN_NS 10000000ULL

const char uart_be_name[] = "console";

static const struct uart_cfg *cfg;
static uint64_t char_ns;

/* Boot task, after uart_hw_init(c). */
int uart_be_init(const struct uart_cfg *c, uint32_t irq)
{
    (void)irq;
    cfg = c;
    char_ns = uart_char_ns(c);
    return 0;
}

/* Task: spin until the FIFO has room (DW: USR.TFNF; 16550: THRE). */
static void wait_tx_room(void)
{
    if (cfg->dw_apb) {
        while (!uart_read_bits(cfg, UART_DW_USR, UART_DW_USR_TFNF))
            ;
    } else {
        while (!uart_read_bits(cfg, UART_LSR, UART_LSR_THRE))
            ;
    }
}

/* Task: every byte out before returning (non-blocking changes nothing:
 * a polled console has no queue to be full). */
ssize_t uart_be_write(const void *buf, size_t n, bool nonblock)
{
    const uint8_t *p = buf;
    (void)nonblock;
    for (size_t i = 0; i < n; i++) {
        wait_tx_room();
        uart_write(cfg, UART_THR, p[i]);
    }
    return (ssize_t)n;
}

/* Task: poll LSR.DR; blocking reads spin for the first byte. */
ssize_t uart_be_read(void *buf, size_t n, bool nonblock)
{
    uint8_t *p = buf;
    size_t k = 0;
    if (n == 0)
        return 0;
    while (!(uart_read(cfg, UART_LSR) & UART_LSR_DR))
        if (nonblock)
            return -EAGAIN;
    while (k < n && (uart_read(cfg, UART_LSR) & UART_LSR_DR))
        p[k++] = (uint8_t)uart_read(cfg, UART_RBR);
    return (ssize_t)k;
}

/* Task: spin on TEMT, bounded by a FIFO's worth of character times. */
int uart_be_drain(void)
{
    uint64_t deadline = clock_now_ns() + UART_DRAIN_MARGIN_NS +
                        2 * char_ns * (cfg->fifo_depth + 1U);
    while (!uart_read_bits(cfg, UART_LSR, UART_LSR_TEMT))
        if (clock_now_ns() > deadline)
            return -ETIMEDOUT;
    return 0;
}

/* Task. */
size_t uart_be_rx_available(void)
{
    return (uart_read(cfg, UART_LSR) & UART_LSR_DR) ? 1 : 0;
}

/* Task: nothing is ever queued in software. */
size_t uart_be_tx_pending(void)
{
    return uart_read_bits(cfg, UART_LSR, UART_LSR_TEMT) ? 0 : 1;
}

/* Task. */
int uart_be_counters(struct uart_counters *out)
{
    (void)out;
    return -ENOTTY;
}

/* Task. */
int uart_be_counters_reset(void)
{
    return -ENOTTY;
}

/* Task. */
int uart_be_set_loopback(bool on)
{
    uint32_t mcr = uart_read(cfg, UART_MCR);
    uart_write(cfg, UART_MCR, on ? mcr | UART_MCR_LOOP : mcr & ~UART_MCR_LOOP);
    return 0;
}

/* Any context: nothing is queued. */
void uart_be_flush_polled(void)
{
}
