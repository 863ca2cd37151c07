/* Async backend: TX/RX rings, THRE-interrupt refill, wakers for writers,
 * readers and drainers. No path spins on a register: a writer that finds
 * the ring full, a reader with nothing to read and a drainer all block.
 * This file: the THRE interrupt and the interrupt's dispatch; async_tx.c
 * the write path and drain; async_rx.c the RX path; async_ctr.c the
 * counters. */
#include "async_priv.h"
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "plic.h"

const char uart_be_name[] = "async";

const struct uart_cfg *be_cfg;
struct ring be_tx;
volatile bool be_thre_on;
uint32_t be_ier;
uint64_t be_char_ns;
struct uart_counters be_ctr;
static uint8_t tx_store[UART_TX_RING_SIZE];
struct waker be_tx_space_waiter, be_drain_waiter;
volatile uint32_t be_tx_space_wanted;
volatile bool be_fifo_empty_seen;
volatile uint64_t be_fifo_empty_ns;

/* Interrupts masked (every path). */
uint32_t lsr_read(void)
{
    uint32_t lsr = uart_read(be_cfg, UART_LSR);
    if (lsr & (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)) {
        be_ctr.rx_overruns += !!(lsr & UART_LSR_OE);
        be_ctr.rx_parity += !!(lsr & UART_LSR_PE);
        be_ctr.rx_framing += !!(lsr & UART_LSR_FE);
        be_ctr.rx_breaks += !!(lsr & UART_LSR_BI);
    }
    return lsr;
}

/* Interrupts masked: stop THRE interrupts. */
static void thre_stop(void)
{
    ier_update(0, UART_IER_THRI);
    be_thre_on = false;
}

/* THRE interrupt: refill the FIFO from the ring. THRE stays enabled while
 * the ring has bytes, or while a drainer waits for the FIFO to empty:
 * that event (ring and FIFO really empty; an IIR=0xC1 entry may come with
 * the FIFO still holding bytes) is stamped and wakes the drainer. Without
 * a drainer the last refill stops THRE at once: no interrupt is spent on
 * an event nobody waits for. Writers waiting for ring space are woken. */
static void tx_irq(void)
{
    bool fifo_empty;

    be_ctr.tx_irqs++;
    unsigned sent = tx_refill(&fifo_empty);
    uint32_t used = ring_used(&be_tx);
    if (used == 0) {
        if (sent == 0 && fifo_empty) {
            thre_stop();
            be_fifo_empty_seen = true;
            be_fifo_empty_ns = clock_now_ns();
            waker_wake(&be_drain_waiter);
        } else if (sent && !be_drain_waiter.task) {
            thre_stop();
        }
    }
    if (be_tx_space_waiter.task && ring_capacity(&be_tx) - used >= be_tx_space_wanted)
        waker_wake(&be_tx_space_waiter);
}

/* UART interrupt, interrupts masked, an RX claim's THRE cause: the
 * refill is TX work, charged to the ISR account. */
void async_tx_irq_in_rx(void)
{
    struct cpu_acct *prev = cpu_acct_switch(&cpu_acct_isr);
    tx_irq();
    cpu_acct_switch(prev);
}

/* UART interrupt: a cause neither TX nor RX. */
void async_other_irq(uint32_t iir)
{
    if (iir == UART_IIR_BUSY && be_cfg->dw_apb) {
        be_ctr.busy_detect++;
        (void)uart_read(be_cfg, UART_DW_USR);   /* clears busy detect */
        return;
    }
    /* a 16550 has no busy cause (and no USR): as an unknown one */
    (void)uart_read(be_cfg, UART_MSR);          /* modem status */
}

/* uart_isr: a cause other than THRE and "none" in round `round`; true
 * when it was RX, whose path then served the rest of the claim. Not
 * inlined: its registers would be saved on every TX interrupt too. */
static __attribute__((noinline)) bool other_cause(uint32_t iir, int round)
{
    if (iir == UART_IIR_RDI || iir == UART_IIR_RX_TIMEOUT || iir == UART_IIR_RLSI) {
        async_rx_claim(iir, round);
        return true;
    }
    async_other_irq(iir);
    return false;
}

/* UART interrupt (PLIC), interrupts masked: serve IIR causes in order. */
static void uart_isr(void *arg)
{
    (void)arg;
    for (int round = 0; round < UART_ISR_MAX_ROUNDS; round++) {
        uint32_t iir = uart_read(be_cfg, UART_IIR) & UART_IIR_ID;
        if (iir == UART_IIR_THRI) {
            tx_irq();
        } else if (iir == UART_IIR_NO_INT) {
            if (round == 0) {
                be_ctr.spurious_irqs++;      /* e.g. DW IIR=0xC1 at entry */
                if (be_thre_on)
                    tx_irq();             /* fills only the FIFO's room */
            }
            return;
        } else if (other_cause(iir, round)) {
            return;                   /* the rest of this claim was RX work */
        }
    }
}

/* Boot task, after uart_hw_init(c). */
int uart_be_init(const struct uart_cfg *c, uint32_t irq)
{
    be_cfg = c;
    be_char_ns = uart_char_ns(c);
    be_ctr = (struct uart_counters){ 0 };
    ring_init(&be_tx, tx_store, sizeof tx_store);
    async_rx_init();
    return irq_register(irq, uart_isr, 0);
}

/* Any context: polled flush of the TX ring (exit, panic); the bytes
 * count as sent. */
void uart_be_flush_polled(void)
{
    uint8_t b;
    if (!be_cfg)
        return;
    unsigned long f = irq_save();
    while (ring_pop(&be_tx, &b, 1)) {
        uart_putc_polled(be_cfg, (char)b);
        be_ctr.hw_send_bytes++;
    }
    irq_restore(f);
}

