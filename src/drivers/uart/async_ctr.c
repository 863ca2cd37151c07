/* Async backend, the counters: snapshot and reset, both with interrupts
 * masked, so that at any snapshot
 *   user_acc + queued_at_reset == ring_pop_bytes + staged_bytes
 * holds exactly (bytes accepted since the reset, plus those the ring held
 * at it, equal bytes the refills took from the ring plus those it holds
 * now); ring_pop_bytes is hw_send_bytes: each refill stores into THR
 * exactly the bytes it takes from the ring. */
#include "async_priv.h"
#include "csr.h"

/* Task. */
int uart_be_counters(struct uart_counters *out)
{
    unsigned long f = irq_save();
    uint32_t lsr = lsr_read();            /* counts errors before the copy */
    *out = be_ctr;
    out->hw_send_calls = be_ctr.hw_send_calls + be_ctr.tx_irqs;   /* each THRE entry refills */
    out->ring_pop_bytes = be_ctr.hw_send_bytes;   /* every byte taken goes to THR */
    out->ring_empty = ring_used(&be_tx) == 0;
    out->copier_active = be_thre_on;
    out->staged_bytes = ring_used(&be_tx);
    out->transmitter_empty = !!(lsr & UART_LSR_TEMT);
    irq_restore(f);
    return 0;
}

/* Task: TX counters to zero, the TX ring's bytes at this moment kept as
 * queued_at_reset. */
int uart_be_counters_reset(void)
{
    unsigned long f = irq_save();
    struct uart_counters keep = be_ctr;
    be_ctr = (struct uart_counters){ 0 };
    be_ctr.queued_at_reset = ring_used(&be_tx);
    /* RX counters stay cumulative since boot: a section resetting the TX
     * counters must not hide what the line delivered or lost. */
    be_ctr.rx_irqs = keep.rx_irqs;
    be_ctr.rx_bytes = keep.rx_bytes;
    be_ctr.rx_dropped = keep.rx_dropped;
    be_ctr.rx_overruns = keep.rx_overruns;
    be_ctr.rx_framing = keep.rx_framing;
    be_ctr.rx_parity = keep.rx_parity;
    be_ctr.rx_breaks = keep.rx_breaks;
    be_ctr.rx_deferred = keep.rx_deferred;
    irq_restore(f);
    return 0;
}
