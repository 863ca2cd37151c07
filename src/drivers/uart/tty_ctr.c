/* The tty core's counters: snapshot and reset, both with interrupts
 * masked. The engine keeps the TX ones (and derives some in its
 * engine's counters op); the RX ones, the line errors and the interrupts are
 * the core's and the lower half's, and count since boot. Both under the
 * port lock. A design without counters (ENGINE_COUNTERS clear: the
 * polling console, as the original's) answers ENOTTY. */
#include <errno.h>
#include "cpu_acct.h"
#include "csr.h"
#include "tty_priv.h"

#define CTR_WORDS (sizeof(struct uart_counters) / sizeof(uint64_t))
_Static_assert(sizeof(struct uart_counters) % sizeof(uint64_t) == 0, "counters are words");

/* uart_be_counters, uart_be_counters_reset, the port lock held: *to :=
 * *from, word by word, each a relaxed atomic load of from (the writer
 * turn's holder and drainers add to some fields without the port lock:
 * port_ctr_add) and store to to (the same, for a reset of the port's). */
static void ctr_copy(struct uart_counters *to, const struct uart_counters *from)
{
    const uint64_t *f = (const uint64_t *)(const void *)from;
    uint64_t *t = (uint64_t *)(void *)to;
    for (size_t i = 0; i < CTR_WORDS; i++)
        __atomic_store_n(&t[i], __atomic_load_n(&f[i], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

/* Task. */
int uart_be_counters(struct uart_counters *out)
{
    struct uart_port *p = &uart_port;
    if (!(uart_engine.flags & ENGINE_COUNTERS))
        return -ENOTTY;
    unsigned long f = port_lock(p);
    bool temt = uart_lower.tx_empty(&p->hw);
    ctr_copy(out, &p->ctr);
    out->rx_overruns = p->hw.err.overrun;
    out->rx_parity = p->hw.err.parity;
    out->rx_framing = p->hw.err.framing;
    out->rx_breaks = p->hw.err.brk;
    out->busy_detect = p->hw.busy_detect;
    out->transmitter_empty = temt;
    uart_engine.counters(p, out);
    port_unlock(p, f);
    return 0;
}

/* Task: the TX counters to zero, the bytes the engine holds at this moment
 * kept as queued_at_reset; the RX counters count on. */
int uart_be_counters_reset(void)
{
    struct uart_port *p = &uart_port;
    if (!(uart_engine.flags & ENGINE_COUNTERS))
        return -ENOTTY;
    unsigned long f = port_lock(p);
    struct uart_counters keep, zero = { 0 };
    ctr_copy(&keep, &p->ctr);
    ctr_copy(&p->ctr, &zero);
    p->ctr.queued_at_reset = uart_engine.queued(p);
    p->ctr.rx_irqs = keep.rx_irqs;
    p->ctr.rx_bytes = keep.rx_bytes;
    p->ctr.rx_dropped = keep.rx_dropped;
    p->ctr.rx_deferred = keep.rx_deferred;
    port_unlock(p, f);
    return 0;
}

/* Task: the engine's CPU sub-accounts, instructions since boot, up to max
 * of them; returns how many the engine has (0: none). */
unsigned uart_be_phases(struct uart_phase *out, unsigned max)
{
    unsigned n = uart_engine.n_phases < max ? uart_engine.n_phases : max;
    if (!uart_port.up)
        n = 0;                        /* (no engine state before uart_be_init) */
    unsigned long f = irq_save();
    for (unsigned i = 0; i < n; i++)
        out[i] = (struct uart_phase){ uart_engine.phase_names[i],
                                      uart_engine.phase_instret(&uart_port, i) };
    irq_restore(f);
    return uart_engine.n_phases;
}

/* Any task (S50): IER's shadow against the register (its four enable
 * bits), under the port lock. */
int uart_be_irq_state(struct uart_irq_state *out)
{
    struct uart_port *p = &uart_port;
    unsigned long f = port_lock(p);
    out->ier_shadow = p->hw.ier & 0x0FU;
    out->ier_reg = uart_lower.irq_read(&p->hw);
    out->tx_on = p->hw.irqs & UART_IRQ_TX;
    port_unlock(p, f);
    return 0;
}

/* Any task (S50). */
void uart_be_lock_stats(struct spinlock_stats *out)
{
    *out = spin_stats(&uart_port.lock);
}

/* Any task. */
uint64_t uart_be_overruns(void)
{
    unsigned long f = irq_save();
    uint64_t n = uart_port.hw.err.overrun;
    irq_restore(f);
    return n;
}
