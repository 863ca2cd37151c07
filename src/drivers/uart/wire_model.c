/* Wire model: a modelled 8N1 line and TX FIFO in front of QEMU's UART.
 * Byte k (1-based) of a continuous burst that started at line_start
 * leaves the wire at line_start + ceil(k * 10 s / baud): exact, no drift. */
#include "clock.h"
#include "csr.h"
#include "plic.h"
#include "timer.h"
#include "wire_model.h"

#if WIRE_BAUD

#define NS_PER_10BITS_NUM 10000000000ULL   /* 10 bits x 1e9 ns */
#define UART_IIR_FIFO_BITS 0xC0

static struct wire_stats st;
static uint32_t uart_irq;
static bool dlab, ier_thri, thre_pending;
static uint64_t line_start, line_bytes;   /* current burst */
static struct timer thre_timer;

/* Any context: time byte k of the burst leaves the wire. */
static uint64_t byte_done(uint64_t k)
{
    return line_start + (k * NS_PER_10BITS_NUM + st.baud - 1) / st.baud;
}

/* Any context: bytes not yet fully sent (FIFO plus shifter) at now. */
static uint64_t outstanding(uint64_t now)
{
    if (!line_bytes || now < line_start)
        return line_bytes;
    uint64_t done = (now - line_start) * st.baud / NS_PER_10BITS_NUM;
    return done >= line_bytes ? 0 : line_bytes - done;
}

/* Any context (register layer, THRE delivery): charge the instructions
 * and cycles since i0, c0 to the model's own account. */
void wire_charge(uint64_t i0, uint64_t c0)
{
    st.instret += rdinstret() - i0;
    st.cycles += rdcycle() - c0;
}

/* Timer ISR: the modelled FIFO emptied; raise THRE and run the handler
 * (the handler's own work is the driver's, not the model's). */
static void thre_fire(struct timer *t)
{
    uint64_t i0 = rdinstret(), c0 = rdcycle();
    (void)t;
    if (ier_thri && outstanding(clock_now_ns()) <= 1) {
        thre_pending = true;
        st.thre_irqs++;
        wire_charge(i0, c0);
        plic_dispatch(uart_irq);
        i0 = rdinstret();
        c0 = rdcycle();
    }
    wire_charge(i0, c0);
}

/* Interrupts masked: schedule the THRE interrupt for when the FIFO empties. */
static void thre_arm(uint64_t now)
{
    uint64_t when = line_bytes && outstanding(now) > 1 ? byte_done(line_bytes - 1) : now;
    timer_arm(&thre_timer, when, (struct waker){ 0 });
}

/* Boot, interrupts masked. */
void wire_model_init(const struct uart_cfg *c, uint32_t irq)
{
    (void)c;
    st.baud = WIRE_BAUD;
    st.fifo = WIRE_FIFO;
    uart_irq = irq;
    thre_timer.fire = thre_fire;
}

/* Any task. */
void wire_model_stats(struct wire_stats *out)
{
    unsigned long f = irq_save();
    *out = st;
    irq_restore(f);
}

/* Register layer, any context: modelled LSR/IIR/IER/USR/TFL bits. */
uint32_t wire_read(const struct uart_cfg *c, enum uart_reg r, uint32_t v)
{
    unsigned long f = irq_save();
    uint64_t out = outstanding(clock_now_ns());
    uint64_t level = out > 1 ? out - 1 : 0;

    if (r == UART_LSR) {
        v &= ~(uint32_t)(UART_LSR_THRE | UART_LSR_TEMT);
        v |= (out <= 1 ? UART_LSR_THRE : 0) | (out == 0 ? UART_LSR_TEMT : 0);
    } else if (r == UART_IIR) {
        uint32_t id = v & UART_IIR_ID;
        bool real_first = !(v & UART_IIR_NO_INT) && id != 0;   /* RX causes outrank THRE */
        if (!real_first && thre_pending && ier_thri && out <= 1) {
            v = UART_IIR_FIFO_BITS | UART_IIR_THRI;
            thre_pending = false;                       /* read of IIR clears it */
        }
    } else if (r == UART_IER && !dlab) {
        v = (v & ~(uint32_t)UART_IER_THRI) | (ier_thri ? UART_IER_THRI : 0);
    } else if (c->dw_apb && r == UART_DW_USR) {
        v &= ~(uint32_t)(UART_DW_USR_BUSY | UART_DW_USR_TFNF | UART_DW_USR_TFE);
        v |= (out ? UART_DW_USR_BUSY : 0) | (level < st.fifo ? UART_DW_USR_TFNF : 0) |
             (level == 0 ? UART_DW_USR_TFE : 0);
    } else if (c->dw_apb && r == UART_DW_TFL) {
        v = (uint32_t)level;
    }
    st.calls++;
    irq_restore(f);
    return v;
}

/* Register layer, any context: THR stores enter the modelled line (or
 * are lost when the modelled FIFO is full); IER.THRI stays in the model. */
bool wire_write(const struct uart_cfg *c, enum uart_reg r, uint32_t *v)
{
    unsigned long f = irq_save();
    uint64_t now = clock_now_ns();
    bool pass = true;
    (void)c;

    if (r == UART_LCR) {
        dlab = *v & UART_LCR_DLAB;
    } else if (r == UART_THR && !dlab) {
        uint64_t out = outstanding(now);
        if (out > st.fifo) {                 /* shifter busy and FIFO full */
            st.lost++;
            pass = false;
        } else {
            if (out == 0) {
                line_start = now;
                line_bytes = 0;
            }
            line_bytes++;
            st.bytes++;
            thre_pending = false;            /* a THR write clears THRE */
            if (ier_thri)
                thre_arm(now);
        }
    } else if (r == UART_IER && !dlab) {
        bool was = ier_thri;
        ier_thri = *v & UART_IER_THRI;
        *v &= ~(uint32_t)UART_IER_THRI;      /* QEMU's own THRE stays off */
        if (ier_thri && !was)
            thre_arm(now);
        else if (!ier_thri) {
            timer_cancel(&thre_timer);
            thre_pending = false;
        }
    }
    st.calls++;
    irq_restore(f);
    return pass;
}

#else /* model off: the hooks are never called; stats read all zero */

/* Boot: nothing to model. */
void wire_model_init(const struct uart_cfg *c, uint32_t irq)
{
    (void)c;
    (void)irq;
}

/* Any task. */
void wire_model_stats(struct wire_stats *out)
{
    *out = (struct wire_stats){ 0 };
}

#endif
