/* Wire model, receive side: a modelled far end (the peer) sends a stream
 * of pattern bytes (pattern.h, seeded) into a modelled RX FIFO at the
 * modelled baud: byte k (1-based) of a continuous stream that starts at
 * start arrives at start + ceil(k x 10 s / baud); of a burst stream
 * (N bytes every T), at start + b x T + ceil(j x 10 s / baud), b and j
 * the burst and the byte in it. Arrivals are computed when a register
 * access or the model's timer asks, not stored: a byte that arrives at a
 * full FIFO is lost and sets LSR.OE (the FIFO keeps what it holds, as a
 * 16550 does). Interrupts as a 16550 defines them: received data at the
 * FCR trigger level (1, 4, 8, 14, at most the FIFO), the character
 * timeout when the FIFO holds a byte and nothing entered or left it for
 * 4 character times, the line status interrupt while OE is set. The
 * model keeps the ground truth of each stream: sent, delivered, lost,
 * and the CRC-32 of the delivered bytes (what a perfect reader reads).
 * A stream is attached from wire_peer_start to wire_peer_stop; before
 * and after, QEMU's own RX path (chardev, loopback) is the UART's. */
#include <errno.h>
#include "clock.h"
#include "cpu_acct.h"
#include "crc32.h"
#include "csr.h"
#include "pattern.h"
#include "wire_priv.h"

#if WIRE_BAUD

#define CTI_CHARS 4U

static struct peer_point shape;           /* boot argument peer= */
static uint64_t baud;
static unsigned depth;                    /* FIFO depth */
static unsigned trig_fcr = 1;             /* the trigger the driver's FCR store selects */
static struct rx_state {
    bool on;
    uint32_t seed;
    uint64_t start, arrived;              /* stream bytes on the line by the last sync */
    uint64_t last_io;                     /* last arrival into, or read from, the FIFO */
    unsigned head, level;
    bool oe;
    uint32_t ier;                         /* RDI, RLSI as the driver set them */
    uint8_t fifo[WIRE_FIFO_MAX];
} rx;
static struct wire_rx_stats st;
static bool dirty;                        /* the RX state changed since next_event */

/* Any context: the trigger level, at most the FIFO. */
static unsigned trigger(void)
{
    return trig_fcr < depth ? trig_fcr : depth;
}

/* Any context: when stream byte k (1-based) has arrived. */
static uint64_t arrival(uint64_t k)
{
    uint64_t b = 0, j = k;
    if (shape.mode == PEER_BURST) {
        b = (k - 1) / shape.burst;
        j = k - b * shape.burst;
    }
    return rx.start + b * shape.period_ns + (j * NS_PER_10BITS_NUM + baud - 1) / baud;
}

/* Any context: stream bytes arrived by now (the inverse of arrival; a
 * burst fits in its period, peer_point_fits). */
static uint64_t arrived_by(uint64_t now)
{
    if (now < rx.start)
        return 0;
    uint64_t d = now - rx.start, b = 0, n;
    if (shape.mode == PEER_BURST) {
        b = d / shape.period_ns;
        d -= b * shape.period_ns;
    }
    n = d * baud / NS_PER_10BITS_NUM;
    if (shape.mode == PEER_BURST)
        n = (n < shape.burst ? n : shape.burst) + b * shape.burst;
    return n < st.total ? n : st.total;
}

/* Masked: the bytes arrived since the last sync into the FIFO, in
 * order, those that find it full lost. */
static void advance(uint64_t now)
{
    if (!rx.on)
        return;
    uint64_t a = arrived_by(now);
    if (a == rx.arrived)
        return;
    uint64_t n = a - rx.arrived, room = depth - rx.level, take = n < room ? n : room;
    for (uint64_t i = 0; i < take; i++) {
        uint8_t *b = &rx.fifo[(rx.head + rx.level++) % depth];
        pattern_fill(b, 1, rx.seed, rx.arrived + i);
        st.crc = crc32_update(st.crc, b, 1);
    }
    st.delivered += take;
    st.lost += n - take;
    rx.oe |= n > take;
    rx.arrived = st.sent = a;
    rx.last_io = st.last_ns = arrival(a);
    dirty = true;
}

/* Masked: the next time the causes may change without a register access
 * after now (a byte reaching the trigger, the timeout, an overrun's line
 * status), or UINT64_MAX. */
static uint64_t next_event(uint64_t now)
{
    uint64_t t = UINT64_MAX, trig = trigger();
    bool more = rx.arrived < st.total;

    if (!(rx.ier & (UART_IER_RDI | UART_IER_RLSI)))
        return t;
    if (more && rx.level < trig && rx.arrived + (trig - rx.level) <= st.total)
        t = arrival(rx.arrived + (trig - rx.level));
    else if (more && (rx.level == 0 || rx.level == depth))
        t = arrival(rx.arrived + 1);                 /* the first byte; an overrun */
    else if (!(rx.ier & UART_IER_RDI) && !rx.oe && rx.arrived + (depth - rx.level) < st.total)
        t = arrival(rx.arrived + (depth - rx.level) + 1);   /* line status alone: the overrun */
    if (rx.level && rx.level < trig) {
        uint64_t cto = rx.last_io + (CTI_CHARS * NS_PER_10BITS_NUM + baud - 1) / baud;
        if (cto > now && cto < t)             /* (one due already is pending) */
            t = cto;
    }
    return t;
}

/* wire_line_update (wire_model.c), masked: after a change of the RX
 * state (or, with `again`, after the model's RX timer fired), when the
 * causes may next change without a register access; UINT64_MAX: no
 * change, or no event. */
uint64_t wire_rx_next(uint64_t now, bool again)
{
    if (!dirty && !again)
        return UINT64_MAX;
    dirty = false;
    return rx.on ? next_event(now) : UINT64_MAX;
}

/* Boot, interrupts masked (the driver has programmed FCR already: the
 * trigger is what it wrote, not the config's). */
void wire_rx_init(const struct uart_cfg *c, const struct peer_point *p)
{
    shape = *p;
    baud = c->baud;
    depth = c->fifo_depth < WIRE_FIFO_MAX ? c->fifo_depth : WIRE_FIFO_MAX;
}

/* Masked. */
bool wire_rx_attached(void)
{
    return rx.on;
}

/* Masked, an LSR read: DR and OE (a read that looks at the error bits
 * clears OE, and the model counts it: what the driver's count must be). */
uint32_t wire_rx_lsr(uint64_t now, bool read_errors)
{
    advance(now);
    uint32_t v = (rx.level ? UART_LSR_DR : 0) | (rx.oe ? UART_LSR_OE : 0);
    if (read_errors && rx.oe) {
        rx.oe = false;
        st.overruns++;
    }
    return v;
}

/* Masked, an RBR read: the oldest byte (0 from an empty FIFO). */
uint32_t wire_rx_rbr(uint64_t now)
{
    advance(now);
    if (!rx.level)
        return 0;
    uint8_t b = rx.fifo[rx.head];
    rx.head = (rx.head + 1) % depth;
    rx.level--;
    rx.last_io = now;
    dirty = true;
    return b;
}

/* Masked, a DW RFL read: the FIFO's level. */
uint32_t wire_rx_level(uint64_t now)
{
    advance(now);
    return rx.level;
}

/* Masked: the highest RX cause enabled and pending, or NO_INT. */
uint32_t wire_rx_iir(uint64_t now)
{
    if (!rx.on)
        return UART_IIR_NO_INT;
    advance(now);
    if ((rx.ier & UART_IER_RLSI) && rx.oe)
        return UART_IIR_RLSI;
    if (!(rx.ier & UART_IER_RDI) || !rx.level)
        return UART_IIR_NO_INT;
    if (rx.level >= trigger())
        return UART_IIR_RDI;
    uint64_t cto = rx.last_io + (CTI_CHARS * NS_PER_10BITS_NUM + baud - 1) / baud;
    return now >= cto ? UART_IIR_RX_TIMEOUT : UART_IIR_NO_INT;
}

/* Masked, an IER write: the RX enables. */
void wire_rx_ier(uint32_t ier, uint64_t now)
{
    advance(now);
    rx.ier = ier & (UART_IER_RDI | UART_IER_RLSI);
    dirty = true;
}

/* Masked, an FCR write: the trigger level; an RX clear empties the FIFO. */
void wire_rx_fcr(uint32_t fcr, uint64_t now)
{
    advance(now);
    trig_fcr = uart_fcr_level(fcr);
    if (fcr & UART_FCR_CLR_RX) {
        st.flushed += rx.level;
        rx.level = rx.head = 0;
    }
    dirty = true;
}

/* wire_peer_start (wire_model.c), wire_lock held, sim account: a stream
 * of `bytes` pattern bytes (seed) from start_ns attached: 0, -ENOTCONN
 * (no far end: peer=off), -EBUSY (one is attached). */
int wire_rx_attach(uint64_t bytes, uint32_t seed, uint64_t start_ns)
{
    if (shape.mode == PEER_OFF)
        return -ENOTCONN;
    if (rx.on)
        return -EBUSY;
    rx = (struct rx_state){ .on = true, .seed = seed, .start = start_ns, .last_io = start_ns,
                       .ier = rx.ier };
    st = (struct wire_rx_stats){ .total = bytes, .attached = true, .stream = st.stream + 1 };
    st.first_ns = bytes ? arrival(1) : start_ns;
    dirty = true;                           /* a new stream: its first event */
    return 0;
}

/* wire_peer_stop (wire_model.c), wire_lock held, sim account: the stream
 * ends at now (bytes still to come are not sent); what the FIFO still
 * holds is counted as left. Whether one was attached. */
bool wire_rx_detach(uint64_t now)
{
    if (!rx.on)
        return false;
    advance(now);
    st.left = rx.level;
    st.attached = rx.on = false;
    return true;
}

/* Any task: the ground truth of the current (or last) stream, up to now;
 * the time it takes is the sim account's (the model's bookkeeping). */
void wire_peer_stats(struct wire_rx_stats *out)
{
    unsigned long f = irq_save();
    bool took = wire_enter();
    struct cpu_acct *prev = cpu_acct_switch_task(&cpu_acct_sim);
    advance(clock_now_ns());
    *out = st;
    out->fifo_level = rx.level;
    cpu_acct_switch_task(prev);
    wire_leave(took);
    irq_restore(f);
}

#endif
