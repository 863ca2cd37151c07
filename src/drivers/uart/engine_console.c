/* TX engine "console": the synchronous polling baseline. A write waits
 * for FIFO room and stores byte by byte; a drain spins until the
 * transmitter is idle; RX is polled (ENGINE_RX_POLLED): no interrupts, no
 * TX ring, no counters (ioctls give ENOTTY, as the original's console
 * did). Writers on several harts are serialised by the tty core's writer
 * turn (one write's bytes together); each register access is the lower
 * half's, and with the wire model the model's own lock guards the line. */
#include <errno.h>
#include "clock.h"
#include "uart_port.h"

const char uart_be_name[] = "console";

/* Boot task: no state, no TX ring (the port's stays empty), no TX
 * interrupt. */
void polling_init(struct uart_port *p)
{
    p->eng = NULL;
}

/* Task, any hart, holding the writer turn: every byte out before
 * returning (non-blocking changes nothing: a polled console has no
 * queue to be full). */
size_t polling_write(struct uart_port *p, const uint8_t *buf, size_t n, bool nonblock)
{
    (void)nonblock;
    for (size_t i = 0; i < n; i++) {
        while (!uart_lower.tx_ready(&p->hw))
            ;
        uart_lower.tx_load(&p->hw, buf + i, 1);
    }
    port_ctr_add(&p->ctr.user_acc, n);
    return n;
}

/* Never (tx_irq and tx_room_irq both): the console asks for no TX
 * interrupt. */
void polling_tx_irq(struct uart_port *p)
{
    (void)p;
}

/* uart_be_drain (task, any hart): every byte written is in the FIFO
 * when its write returns; the drain spins on the transmitter
 * (ENGINE_DRAIN_SPIN), up to its deadline (another hart's bytes may keep
 * it busy: the deadline's margin covers a writer turn's worth of them). */
void polling_drain_view(const struct uart_port *p, struct drain_view *v)
{
    v->out = port_tx_in(p);
    v->busy = false;
}

/* Task: nothing is ever queued in software. */
size_t polling_queued(const struct uart_port *p)
{
    (void)p;
    return 0;
}

/* Never: no counters (ENGINE_COUNTERS clear). */
void polling_counters(const struct uart_port *p, struct uart_counters *out)
{
    (void)p;
    (void)out;
}

/* Any context: nothing is queued. */
void polling_flush_polled(struct uart_port *p)
{
    (void)p;
}
