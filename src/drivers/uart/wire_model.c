/* Wire model: a modelled 8N1 line and TX FIFO in front of QEMU's UART,
 * its register layer and its interrupt line (the RX side, wire_rx.c,
 * below it; wire_priv.h). Byte k (1-based) of a continuous burst that
 * started at line_start leaves the wire at line_start + ceil(k * 10 s /
 * baud): exact, no drift. */
#include <errno.h>
#include "clock.h"
#include "csr.h"
#include "cpu_acct.h"
#include "timer.h"
#include "wire_priv.h"

#if WIRE_BAUD

static struct wire_stats st;              /* baud and FIFO: the boot's operating point */
static const struct uart_cfg *uart;
static bool dlab, ier_thri, thri_raised;  /* thri_raised: the THRE interrupt is pending */
static bool line_up;                      /* stream attached: QEMU's IER.THRI, the line */
static uint32_t ier_hw;                   /* the driver's IER, THRI aside */
static uint64_t line_start, line_bytes;   /* current burst */
static struct timer thre_timer[WIRE_HARTS];   /* one per hart (wire_priv.h) */
static uint64_t thre_due = UINT64_MAX;    /* the THRE event wanted, UINT64_MAX: none */
static struct timer rx_timer[WIRE_HARTS]; /* the RX side's events (wire_rx_next) */
static uint64_t rx_armed_at = UINT64_MAX; /* rx_timer's deadline, UINT64_MAX: none */
static enum wire_fault fault;

static void line_update(uint64_t now);

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

/* Interrupts masked: the THRE interrupt raised or cleared. Without a
 * stream attached, THRI on or off in QEMU's IER: QEMU's FIFO is always
 * empty, so THRI on raises its THRE interrupt at once, and the modelled
 * THRE reaches the driver through the PLIC like a real one; with one, the
 * modelled IIR shows it and the line follows (line_update). */
static void thri_hw(bool on, uint64_t now)
{
    thri_raised = on;
    if (wire_rx_attached())
        line_update(now);
    else
        uart_write_raw(uart, UART_IER, ier_hw | (on ? UART_IER_THRI : 0));
}

/* Interrupts masked, a stream attached: the line up or down, as QEMU's
 * IER.THRI (QEMU's THR is always empty: THRI on raises its interrupt).
 * again: the access or event is one on which a 16550 in QEMU evaluates
 * its interrupt anew (a byte's arrival, an RBR read, an OE read, an IER
 * or FCR write; not an IIR read of an RX cause): a line that stays up is
 * raised again (an RBR read of QEMU's empty FIFO), for QEMU's PLIC
 * latches a raise, not a level, and a claim that ends with the cause
 * pending must be taken again. */
static void line_set(bool want, bool again)
{
    if (want != line_up) {
        line_up = want;
        uart_write_raw(uart, UART_IER, want ? UART_IER_THRI : 0);
    } else if (want && again) {
        (void)uart_read_raw(uart, UART_RBR);
    }
}

/* Interrupts masked, wire_lock held: after a change of the RX state
 * (again: the RX timer fired), this hart's RX timer no later than the
 * RX side's next event. A timer set for an earlier time stays (it fires
 * and looks again): moving it is dearer than a look. */
static void rx_rearm(uint64_t now, bool again)
{
    uint64_t t = wire_rx_next(now, again);
    if (t >= rx_armed_at)
        return;
    rx_armed_at = t;
    timer_arm(&rx_timer[wire_hart()], t, (struct waker){ 0 });
}

/* Interrupts masked, wire_lock held: the RX timers off (the stream
 * ended, or this hart quiesces); one left on another hart fires and
 * finds nothing to do. */
static void rx_disarm(void)
{
    timer_cancel(&rx_timer[wire_hart()]);
    rx_armed_at = UINT64_MAX;
}

/* Interrupts masked, a stream attached (a register access, a model
 * timer; no-op otherwise): the line up while a modelled cause is pending
 * and enabled, down otherwise; the RX timer for the next RX event. */
static void line_follow(uint64_t now, bool again)
{
    if (!wire_rx_attached())
        return;
    line_set(wire_rx_iir(now) != UART_IIR_NO_INT || (thri_raised && ier_thri && !dlab), true);
    rx_rearm(now, again);
}

/* The register layer, interrupts masked: line_follow after an access. */
static void line_update(uint64_t now)
{
    line_follow(now, false);
}

/* Timer ISR on any hart (a sim timer): an RX event may be due (the timer
 * is set no later than the next one, and may fire before it); the line
 * follows. */
static void rx_fire(struct timer *t)
{
    (void)t;
    bool took = wire_enter();
    rx_armed_at = UINT64_MAX;
    line_follow(clock_now_ns(), true);
    wire_leave(took);
}

/* Interrupts masked, a stream attached or detached: QEMU's IER for the
 * mode (attached: the line alone; detached: the driver's IER, THRI
 * while the THRE interrupt is pending). */
static void line_mode(bool attached, uint64_t now)
{
    line_up = false;
    uart_write_raw(uart, UART_IER, attached ? 0 : ier_hw | (thri_raised ? UART_IER_THRI : 0));
    if (attached)
        line_update(now);
}

/* Timer ISR on any hart (a sim timer: a real UART needs no such interrupt, and the
 * timer code charges it to the sim account): the modelled FIFO emptied;
 * raise THRE, and the driver's handler runs in the UART interrupt after. */
static void thre_fire(struct timer *t)
{
    (void)t;
    bool took = wire_enter();
    uint64_t now = clock_now_ns();
    if (now >= thre_due) {                   /* (else another hart's, moved since) */
        thre_due = UINT64_MAX;
        if (ier_thri && !dlab && !thri_raised && outstanding(now) <= 1) {
            st.thre_irqs++;
            thri_hw(true, now);
        }
    }
    wire_leave(took);
}

/* Interrupts masked, wire_lock held: schedule the THRE interrupt for
 * when the FIFO empties, on this hart's timer. */
static void thre_arm(uint64_t now)
{
    uint64_t when = line_bytes && outstanding(now) > 1 ? byte_done(line_bytes - 1) : now;
    thre_due = when;
    timer_arm(&thre_timer[wire_hart()], when, (struct waker){ 0 });
}

/* Boot, interrupts masked. */
void wire_model_init(const struct uart_cfg *c, const struct peer_point *peer)
{
    uart = c;
    wire_rx_init(c, peer);
    st = (struct wire_stats){ .baud = c->baud, .fifo = c->fifo_depth };
    for (unsigned h = 0; h < WIRE_HARTS; h++) {
        thre_timer[h] = (struct timer){ .fire = thre_fire, .sim = true };
        rx_timer[h] = (struct timer){ .fire = rx_fire, .sim = true };
    }
    thre_due = rx_armed_at = UINT64_MAX;
}

/* Boot task or section task, any hart: the modelled far end's stream
 * (wire_model.h). */
int wire_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns)
{
    unsigned long f = irq_save();
    bool took = wire_enter();
    struct cpu_acct *prev = cpu_acct_switch_task(&cpu_acct_sim);
    int rc = wire_rx_attach(bytes, seed, start_ns);
    if (rc == 0)
        line_mode(true, clock_now_ns());
    cpu_acct_switch_task(prev);
    wire_leave(took);
    irq_restore(f);
    return rc;
}

/* Section task: the stream ends (wire_model.h); QEMU's RX is the UART's
 * again. */
void wire_peer_stop(void)
{
    unsigned long f = irq_save();
    bool took = wire_enter();
    struct cpu_acct *prev = cpu_acct_switch_task(&cpu_acct_sim);
    uint64_t now = clock_now_ns();
    if (wire_rx_detach(now)) {
        line_mode(false, now);
        rx_disarm();
    }
    cpu_acct_switch_task(prev);
    wire_leave(took);
    irq_restore(f);
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
    bool took = wire_enter();
    *out = st;
    wire_leave(took);
    irq_restore(f);
    out->instret = cpu_acct_sim.instret;
    out->cycles = cpu_acct_sim.cycles;
}

/* Any task on a hart other than 0 (wire_model.h). */
bool wire_model_hart_quiesce(void)
{
    unsigned long f = irq_save();
    bool took = wire_enter();
    bool idle = thre_due == UINT64_MAX && !wire_rx_attached();
    if (idle) {
        timer_cancel(&thre_timer[wire_hart()]);
        rx_disarm();
    }
    wire_leave(took);
    irq_restore(f);
    return idle;
}

/* wire_read, an LSR read: THRE and TEMT modelled; the RX bits the
 * stream's (attached) or the UART's (read only when the caller wants
 * them). */
static uint32_t lsr_read(const struct uart_cfg *c, uint32_t mask, uint64_t now)
{
    const uint32_t tx = UART_LSR_THRE | UART_LSR_TEMT;
    uint64_t out = outstanding(now);
    bool idle = out == 0 && fault != WIRE_FAULT_TEMT_STUCK;   /* shifter empty */
    uint32_t v = (out <= 1 ? UART_LSR_THRE : 0) | (idle ? UART_LSR_TEMT : 0);

    if (wire_rx_attached()) {
        uint32_t rxv = wire_rx_lsr(now, mask & UART_LSR_OE);
        if ((rxv & UART_LSR_OE) && (mask & UART_LSR_OE))
            line_update(now);             /* OE read: the line status cause ends */
        v |= rxv;
    } else if (mask & ~tx) {
        v |= uart_read_raw(c, UART_LSR) & ~tx;
    }
    return v;
}

/* wire_read, an IIR read with a stream attached: the highest modelled
 * cause (RX ones from the stream, then THRE, which the read clears).
 * The line stays up while a cause is left, not raised again (a 16550
 * evaluates its interrupt at an IIR read only when it clears THRE): the
 * access that serves the cause does (line_set), as the device's does. */
static uint32_t iir_read(uint64_t now)
{
    const uint32_t fifo_on = 0xC0;
    uint32_t id = wire_rx_iir(now);

    if (id == UART_IIR_NO_INT && thri_raised && ier_thri) {
        thri_raised = false;
        line_set(false, false);
        return UART_IIR_THRI | fifo_on;
    }
    line_set(id != UART_IIR_NO_INT, false);
    rx_rearm(now, false);
    return id | fifo_on;
}

/* Register seam through cpu_acct_call (interrupts masked): a read of a
 * modelled register (uart_modelled_reg). LSR's TX bits and IER are the
 * model's always; RBR, IIR and RFL while a stream is attached; the rest
 * is the UART's. */
uint32_t wire_read(const struct uart_cfg *c, unsigned r, uint32_t mask)
{
    uint64_t now = clock_now_ns();

    st.calls++;
    if (r == UART_LSR)
        return lsr_read(c, mask, now);
    if (r == UART_IIR && wire_rx_attached())
        return iir_read(now);                    /* (DLAB does not hide IIR) */
    if (dlab || !wire_rx_attached())
        return r == UART_IER && !dlab ? ier_hw | (ier_thri ? UART_IER_THRI : 0)
                                      : uart_read_raw(c, r);
    if (r == UART_RBR) {
        uint32_t v = wire_rx_rbr(now);
        line_update(now);
        return v;
    }
    if (r == UART_DW_RFL)
        return wire_rx_level(now);
    return ier_hw | (ier_thri ? UART_IER_THRI : 0);   /* IER */
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
        thri_hw(false, now);
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
 * raises THRE; with a stream attached, IER stays in the model whole and
 * QEMU's is the line (line_update). FCR's RX trigger and clear go
 * to the RX side too. */
bool wire_write(const struct uart_cfg *c, unsigned r, uint32_t *v)
{
    uint64_t now = clock_now_ns();
    bool pass = true;
    (void)c;

    if (r == UART_LCR) {
        bool was = dlab;
        dlab = *v & UART_LCR_DLAB;
        if (!was && dlab && thri_raised)
            thri_hw(false, now);             /* IER is the divisor's from here */
        else if (was && !dlab && ier_thri)
            thre_arm(now);                   /* a THRE held back under DLAB */
    } else if (r == UART_THR && !dlab) {
        pass = thr_take(now, 1) == 1;
    } else if (r == UART_IER && !dlab) {
        bool was = ier_thri;
        ier_thri = *v & UART_IER_THRI;
        ier_hw = *v & ~(uint32_t)UART_IER_THRI;
        if (!ier_thri) {
            timer_cancel(&thre_timer[wire_hart()]);   /* another hart's: thre_due */
            thre_due = UINT64_MAX;
            thri_raised = false;
        } else if (!was && outstanding(now) <= 1) {
            st.thre_irqs++;                  /* FIFO already empty: at once */
            thri_raised = true;
        } else if (!was) {
            thre_arm(now);
        }
        wire_rx_ier(*v, now);
        if (wire_rx_attached()) {
            line_update(now);
            pass = false;
        }
        *v = ier_hw | (thri_raised ? UART_IER_THRI : 0);
    } else if (r == UART_FCR) {
        wire_rx_fcr(*v, now);
        line_update(now);                    /* an RX clear may end the cause */
    }
    st.calls++;
    return pass;
}

#endif
