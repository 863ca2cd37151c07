/* host.wire_rx: the model's surroundings. The kernel services the model
 * calls (the clock, timer_arm and timer_cancel: the RX timer's deadline
 * recorded, an arm at or before now counted as stale), the MMIO of
 * QEMU's UART below it (raw IER stores and RBR loads recorded), and the
 * register helpers, which go through the register seam (uart_16550.h
 * built with WIRE_BAUD: fake_acct.c's uart_model_* into the model's
 * hooks) as the drivers' accesses do. */
#include <stdlib.h>
#include "check.h"
#include "cpu_acct.h"
#include "csr.h"
#include "fake_acct.h"
#include "pattern.h"
#include "test_wire_rx.h"
#include "timer.h"

#define BASE 0x10000000UL

struct host_csr host_csr;   /* declared by csr.h under HOST_TEST */
uint64_t now_ns;
struct rx_stub rs;
struct uart_cfg cfg;
struct peer_point peer;
static struct timer *rx_tm;        /* wire_rx.c's timer (find_rx_timer) */
static bool finding;

/* csr.h's irq_restore, any context: no fake interrupts here. */
void host_irq_enabled(void) {}
/* The model's lock (wire_priv.h), contended: never, on one thread. */
void host_spin_hint(void)
{
    abort();
}
/* The model, any context: the stubbed clock. */
uint64_t clock_now_ns(void)
{
    return now_ns;
}
/* The model, interrupts masked: the RX timer's deadline recorded (the TX
 * side's THRE timer is test_wire_model.c's subject). */
int timer_arm(struct timer *t, uint64_t deadline_ns, struct waker w)
{
    (void)w;
    if (finding && !rx_tm)
        rx_tm = t;
    if (t != rx_tm)
        return 0;
    rs.arms++;
    rs.stale_arms += deadline_ns <= now_ns;
    rs.armed = true;
    rs.armed_at = deadline_ns;
    return 0;
}
/* The model, interrupts masked. */
bool timer_cancel(struct timer *t)
{
    bool was = t == rx_tm && rs.armed;
    if (t == rx_tm)
        rs.armed = false;
    return was;
}
/* The seam (uart_read_raw), any context: QEMU's UART, idle, nothing
 * received of its own. */
uint32_t fake_mmio_read(uintptr_t addr, unsigned width)
{
    CHECK_EQ(width, 1);
    if (addr == BASE + UART_RBR) {
        rs.rbr_reads++;
        return RAW_RBR;
    }
    rs.other_reads++;
    return addr == BASE + UART_LSR ? UART_LSR_THRE | UART_LSR_TEMT
         : addr == BASE + UART_IIR ? IIR_NONE : 0;
}
/* The seam (uart_write_raw), any context: QEMU's IER recorded. */
void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t v)
{
    CHECK_EQ(width, 1);
    if (addr == BASE + UART_IER) {
        rs.ier_writes++;
        rs.ier = v;
    }
}

/* Each test: the model fresh for the line baud/depth and the far end p
 * (a second later than the last test: its TX side idle), the driver's
 * IER and FIFO control (RX trigger trig) written through the seam. */
void setup(uint32_t baud, uint16_t depth, struct peer_point p, uint32_t ier, unsigned trig)
{
    CHECK_EQ(rs.stale_arms, 0);                 /* the last test's */
    wire_peer_stop();
    cfg = (struct uart_cfg){ .base = BASE, .io_width = 1, .clock_hz = 16U * baud, .baud = baud,
                             .fifo_depth = depth, .rx_trigger = (uint8_t)trig };
    peer = p;
    now_ns += 1000000000ULL;
    wire_model_init(&cfg, &peer);
    reg_write(UART_IER, ier);
    reg_write(UART_FCR, UART_FCR_ENABLE | UART_FCR_CLR_RX | UART_FCR_CLR_TX |
                            uart_fcr_trigger(trig));
    rs = (struct rx_stub){ 0 };
}

/* main, first: which timer is the RX side's. With the RX interrupts on
 * and no TX traffic, the only timer a stream arms is the RX timer, a sim
 * timer, for the first byte's arrival (trigger 1). */
void find_rx_timer(void)
{
    struct peer_point stream = { PEER_STREAM, 0, 0 };
    finding = true;
    setup(115200, 16, stream, RX_IER, 1);
    CHECK_EQ(wire_peer_start(4, 1, now_ns), 0);
    finding = false;
    CHECK(rx_tm != NULL);
    CHECK(rx_tm && rx_tm->sim);
    CHECK(rs.armed);
    CHECK_EQ(rs.armed_at, now_ns + 86806);   /* ceil(1e10 / 115200) */
    wire_peer_stop();
    CHECK(!rs.armed);
}

/* Expected time stream byte k (1-based) of a stream started at start
 * arrives, in the shape `peer` at cfg.baud. */
uint64_t arrival(uint64_t start, uint64_t k)
{
    uint64_t b = 0, j = k;
    if (peer.mode == PEER_BURST) {
        b = (k - 1) / peer.burst;
        j = k - b * peer.burst;
    }
    return start + b * peer.period_ns + chars_ns(j);
}

/* n characters of 10 bits at cfg.baud, rounded up to the ns. */
uint64_t chars_ns(uint64_t n)
{
    return (n * NS_10BITS + cfg.baud - 1) / cfg.baud;
}

/* The pattern's byte at stream offset off (pattern.h). */
uint8_t pattern_at(uint32_t seed, uint64_t off)
{
    uint8_t b;
    pattern_fill(&b, 1, seed, off);
    return b;
}

/* Register accesses at now_ns, through the seam as a driver makes them. */
uint32_t lsr(uint32_t mask)
{
    return uart_read_bits(&cfg, UART_LSR, mask);
}
uint32_t rbr(void)
{
    return uart_read(&cfg, UART_RBR);
}
uint32_t iir(void)
{
    return uart_read(&cfg, UART_IIR);
}
uint32_t rfl(void)
{
    return uart_read(&cfg, UART_DW_RFL);
}
/* A store (the model filters it; what reaches QEMU's IER is recorded). */
void reg_write(unsigned r, uint32_t v)
{
    uart_write(&cfg, r, v);
}

/* The model's ground truth at now_ns. */
struct wire_rx_stats peer_stats(void)
{
    struct wire_rx_stats s;
    wire_peer_stats(&s);
    return s;
}

/* The RX timer's interrupt at now_ns (the kernel disarms it first). */
void fire_rx(void)
{
    rs.armed = false;
    rx_tm->fire(rx_tm);
}

/* The RX timer taken at each deadline it is armed for up to t; then now
 * is t. */
void run_timer_until(uint64_t t)
{
    for (unsigned n = 0; rs.armed && rs.armed_at <= t; n++) {
        if (n == 100000) {
            CHECK(!"RX timer re-armed without end");
            break;
        }
        now_ns = rs.armed_at;
        fire_rx();
    }
    now_ns = t;
}

/* main(): this file's failed checks. */
int wire_rx_env_failures(void) { return check_failures; }
