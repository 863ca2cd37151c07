/* Wire model: a modelled 8N1 line and TX FIFO in front of QEMU's UART.
 * Byte k (1-based) of a continuous burst that started at line_start
 * leaves the wire at line_start + ceil(k * 10 s / baud): exact, no drift. */
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "cpu_acct.h"
#include "timer.h"
#include "wire_model.h"

#if WIRE_BAUD

#define NS_PER_10BITS_NUM 10000000000ULL   /* 10 bits x 1e9 ns */

static struct wire_stats st;              /* baud and FIFO: the boot's operating point */
static const struct uart_cfg *uart;
static bool dlab, ier_thri, thri_raised;
static uint32_t ier_hw;                   /* IER as QEMU has it, THRI aside */
static uint64_t line_start, line_bytes;   /* current burst */
static struct timer thre_timer;
static enum wire_fault fault;

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

/* Interrupts masked: THRI on or off in QEMU's IER. QEMU's FIFO is always
 * empty, so THRI on raises its THRE interrupt at once: the modelled THRE
 * reaches the driver through the PLIC like a real one. */
static void thri_hw(bool on)
{
    thri_raised = on;
    uart_write_raw(uart, UART_IER, ier_hw | (on ? UART_IER_THRI : 0));
}

/* Timer ISR (a sim timer: a real UART needs no such interrupt, and the
 * timer code charges it to the sim account): the modelled FIFO emptied;
 * raise THRE, and the driver's handler runs in the UART interrupt after. */
static void thre_fire(struct timer *t)
{
    (void)t;
    if (ier_thri && !dlab && !thri_raised && outstanding(clock_now_ns()) <= 1) {
        st.thre_irqs++;
        thri_hw(true);
    }
}

/* Interrupts masked: schedule the THRE interrupt for when the FIFO empties. */
static void thre_arm(uint64_t now)
{
    uint64_t when = line_bytes && outstanding(now) > 1 ? byte_done(line_bytes - 1) : now;
    timer_arm(&thre_timer, when, (struct waker){ 0 });
}

/* Boot, interrupts masked. */
void wire_model_init(const struct uart_cfg *c)
{
    uart = c;
    st = (struct wire_stats){ .baud = c->baud, .fifo = c->fifo_depth };
    thre_timer.fire = thre_fire;
    thre_timer.sim = true;
}

/* Boot task (fault injection). */
int wire_model_fault(enum wire_fault f)
{
    fault = f;
    return 0;
}

/* Any task. */
void wire_model_stats(struct wire_stats *out)
{
    unsigned long f = irq_save();
    *out = st;
    out->instret = cpu_insns(cpu_acct_sim.instret);
    out->cycles = cpu_acct_sim.cycles;
    irq_restore(f);
}

/* Register seam through cpu_acct_call (interrupts masked): modelled LSR
 * and IER bits. IIR is QEMU's own: it shows THRE only while the
 * model has raised it. */
uint32_t wire_read(const struct uart_cfg *c, unsigned r, uint32_t v)
{
    uint64_t out = outstanding(clock_now_ns());
    bool idle = out == 0 && fault != WIRE_FAULT_TEMT_STUCK;   /* shifter empty */

    (void)c;
    if (r == UART_LSR) {
        v &= ~(uint32_t)(UART_LSR_THRE | UART_LSR_TEMT);
        v |= (out <= 1 ? UART_LSR_THRE : 0) | (idle ? UART_LSR_TEMT : 0);
    } else if (r == UART_IER && !dlab) {
        v = (v & ~(uint32_t)UART_IER_THRI) | (ier_thri ? UART_IER_THRI : 0);
    }
    st.calls++;
    return v;
}

/* The seam's entry points (wire_seam.S) through cpu_acct_call, sim
 * account, interrupts masked: wire_read, wire_write, wire_write_thr with
 * the seam's arguments. */
uintptr_t wire_hook_read(uintptr_t c, uintptr_t r, uintptr_t v)
{
    return wire_read((const struct uart_cfg *)c, (unsigned)r, (uint32_t)v);
}
uintptr_t wire_hook_write(uintptr_t c, uintptr_t r, uintptr_t pv)
{
    return wire_write((const struct uart_cfg *)c, (unsigned)r, (uint32_t *)pv);
}
uintptr_t wire_hook_thr(uintptr_t c, uintptr_t n, uintptr_t unused)
{
    (void)unused;
    return wire_write_thr((const struct uart_cfg *)c, (uint32_t)n);
}

/* Interrupts masked: n THR stores at now enter the modelled line, as
 * many as shifter and FIFO take; the rest are lost and counted. Returns
 * the bytes taken (they are the first ones of the n). */
static uint32_t thr_take(uint64_t now, uint32_t n)
{
    uint64_t out = outstanding(now);
    uint64_t room = out > st.fifo ? 0 : st.fifo + 1 - out;   /* FIFO + idle shifter */
    uint32_t k = n < room ? n : (uint32_t)room;

    st.lost += n - k;
    if (!k)
        return 0;
    if (out == 0) {
        line_start = now;
        line_bytes = 0;
    }
    line_bytes += k;
    st.bytes += k;
    if (thri_raised)                         /* a THR write clears THRE */
        thri_hw(false);
    if (ier_thri)
        thre_arm(now);
    return k;
}

/* Register layer (THR burst) through cpu_acct_call (interrupts masked):
 * n stores to THR at once; the bytes the modelled FIFO takes (the first
 * ones) go on to the UART. */
uint32_t wire_write_thr(const struct uart_cfg *c, uint32_t n)
{
    (void)c;
    if (!dlab)
        n = thr_take(clock_now_ns(), n);
    st.calls++;
    return n;
}

/* Register layer through cpu_acct_call (interrupts masked): THR stores
 * enter the modelled line (or are lost when the modelled FIFO is full);
 * IER.THRI stays in the model and reaches QEMU only while the model
 * raises THRE. */
bool wire_write(const struct uart_cfg *c, unsigned r, uint32_t *v)
{
    uint64_t now = clock_now_ns();
    bool pass = true;
    (void)c;

    if (r == UART_LCR) {
        bool was = dlab;
        dlab = *v & UART_LCR_DLAB;
        if (!was && dlab && thri_raised)
            thri_hw(false);                  /* IER is the divisor's from here */
        else if (was && !dlab && ier_thri)
            thre_arm(now);                   /* a THRE held back under DLAB */
    } else if (r == UART_THR && !dlab) {
        pass = thr_take(now, 1) == 1;
    } else if (r == UART_IER && !dlab) {
        bool was = ier_thri;
        ier_thri = *v & UART_IER_THRI;
        ier_hw = *v & ~(uint32_t)UART_IER_THRI;
        if (!ier_thri) {
            timer_cancel(&thre_timer);
            thri_raised = false;
        } else if (!was && outstanding(now) <= 1) {
            st.thre_irqs++;                  /* FIFO already empty: at once */
            thri_raised = true;
        } else if (!was) {
            thre_arm(now);
        }
        *v = ier_hw | (thri_raised ? UART_IER_THRI : 0);
    }
    st.calls++;
    return pass;
}

#else /* model off: the hooks are never called; stats read all zero */

/* Boot: nothing to model. */
void wire_model_init(const struct uart_cfg *c)
{
    (void)c;
}

/* Boot task: no modelled line, no line fault. */
int wire_model_fault(enum wire_fault f)
{
    return f == WIRE_FAULT_NONE ? 0 : -ENODEV;
}

/* Any task. */
void wire_model_stats(struct wire_stats *out)
{
    *out = (struct wire_stats){ 0 };
}

#endif
