/* Async backend, the RX path. The UART interrupt moves received bytes
 * into the RX ring under a budget, as Linux's NAPI does, counted over a
 * window of one FIFO's fill time (it starts at the first RX claim after
 * the last window ended): at most two FIFOs' worth of bytes, and at most
 * a quarter of the window's time spent in RX claims, so that one byte per
 * interrupt adds up as well as a full FIFO, and a slow register access
 * (QEMU in real time) as well as a fast one. A claim that spends the
 * budget masks the RX interrupt (IER.RDI, RLSI) and arms a timer that
 * unmasks it at the window's end, or later, when the claims took more
 * than a quarter of the time since the window began; the UART interrupts
 * again at once if data waits. A claim that ends with a timer interrupt
 * pending masks RX until the timer interrupt has run (the hart ranks the
 * external interrupt above the timer: a stream of RX interrupts would
 * hold timers back). Input faster than twice the line rate
 * (QEMU's chardev delivers at no line rate) thus leaves most of the
 * CPU, and the THRE cause the 16550 ranks below RX, to the rest of
 * the system instead of holding both in the RX interrupt (receive
 * livelock). A real line at its own rate spends neither budget (a FIFO's
 * bytes cost microseconds of a window of milliseconds), and cannot
 * overrun the FIFO while RX is masked. The interrupt is the only reader
 * of the FIFO, so the bytes keep their order; drops (ring full) and line
 * errors are counted as before.
 * The path's time is the RX CPU account's: a claim that starts with an
 * RX cause whole (cpu_acct_retag), less its THRE refills; RX causes in a
 * THRE claim, and the timer's callback, switched to it. */
#include <errno.h>
#include "async_priv.h"
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "timer.h"

#define RX_BUDGET_FIFOS   2U   /* bytes per window, in FIFOs */
#define RX_SHARE_DIV      4U   /* at most 1/4 of a window's time in RX claims */

static struct ring rx;
static uint8_t rx_store[UART_RX_RING_SIZE];
static struct waker rx_waiter;
static struct timer rx_resume_timer;
static uint64_t win_start, win_end;   /* the budget window (ns) */
static uint64_t win_busy;       /* ns spent in RX claims in it */
static unsigned win_left;       /* bytes it still allows */

/* Timer interrupt (rx_resume_timer): unmask RX; its time is RX work. */
static void rx_resume(struct timer *t)
{
    (void)t;
    struct cpu_acct *prev = cpu_acct_switch(&cpu_acct_rx);
    ier_update(UART_IER_RDI | UART_IER_RLSI, 0);
    cpu_acct_switch(prev);
}

/* Boot task, from uart_be_init. */
void async_rx_init(void)
{
    ring_init(&rx, rx_store, sizeof rx_store);
    rx_resume_timer = (struct timer){ .fire = rx_resume };
    win_start = win_end = win_busy = 0;
    win_left = 0;
    unsigned long f = irq_save();
    ier_update(UART_IER_RDI | UART_IER_RLSI, 0);
    irq_restore(f);
}

/* async_rx_claim, interrupts masked, at its start (now): a new budget
 * window when the last one has ended. */
static void window_open(uint64_t now)
{
    if (now < win_end)
        return;
    win_start = now;
    win_end = now + be_char_ns * be_cfg->fifo_depth;
    win_busy = 0;
    win_left = RX_BUDGET_FIFOS * be_cfg->fifo_depth;
}

/* async_rx_claim, interrupts masked: mask RX until `resume`. */
static void rx_defer(uint64_t resume)
{
    be_ctr.rx_deferred++;
    ier_update(0, UART_IER_RDI | UART_IER_RLSI);
    timer_arm(&rx_resume_timer, resume, (struct waker){ 0 });
}

/* UART interrupt, interrupts masked, an RX cause: move received bytes
 * into the ring while the budget lasts, counting line errors and bytes
 * dropped because the ring was full; false when the budget ran out with
 * data still waiting. */
static bool rx_take(uint32_t iir)
{
    unsigned n = 0;
    bool more = false;

    be_ctr.rx_irqs++;
    for (;;) {
        uint32_t lsr = lsr_read();
        if (!(lsr & UART_LSR_DR))
            break;
        if (!win_left) {
            more = true;
            break;
        }
        win_left--;
        uint8_t b = (uint8_t)uart_read(be_cfg, UART_RBR);
        if (ring_push(&rx, &b, 1))
            be_ctr.rx_bytes++;
        else
            be_ctr.rx_dropped++;
        n++;
    }
    if (n == 0 && !more && iir == UART_IIR_RX_TIMEOUT)
        (void)uart_read(be_cfg, UART_RBR);   /* DW: timeout without data */
    waker_wake(&rx_waiter);
    return !more;
}

/* UART interrupt (uart_isr), interrupts masked: an RX cause in round
 * `round`; serves it and the causes after it. A claim that begins with
 * RX is the RX account's from its first instruction (no switch has
 * happened in it yet); one that began with THRE switches here. */
void async_rx_claim(uint32_t iir, int round)
{
    struct cpu_acct *prev = 0;
    bool spent = false;

    if (round == 0)
        cpu_acct_retag(&cpu_acct_rx);
    else
        prev = cpu_acct_switch(&cpu_acct_rx);
    uint64_t t0 = clock_now_ns();
    window_open(t0);
    for (;;) {
        if (iir == UART_IIR_RDI || iir == UART_IIR_RX_TIMEOUT || iir == UART_IIR_RLSI) {
            spent |= !rx_take(iir);
        } else if (iir == UART_IIR_THRI) {
            async_tx_irq_in_rx();
        } else if (iir == UART_IIR_NO_INT) {
            break;
        } else {
            async_other_irq(iir);
        }
        if (spent || ++round == UART_ISR_MAX_ROUNDS)
            break;
        iir = uart_read(be_cfg, UART_IIR) & UART_IIR_ID;
    }
    uint64_t now = clock_now_ns(), fair = win_start + RX_SHARE_DIV * (win_busy += now - t0);
    if (spent || fair >= win_end)   /* the window's end, or RX's share of the time */
        rx_defer(fair > win_end ? fair : win_end);
    else if (csr_read(CSR_XIP) & (1UL << IRQ_XTIMER))
        rx_defer(now);              /* the timer ISR runs, then unmasks */
    if (prev)
        cpu_acct_switch(prev);
}

static bool rx_has_data(void) { return ring_used(&rx) != 0; }

/* Task. */
ssize_t uart_be_read(void *buf, size_t n, bool nonblock)
{
    for (;;) {
        uint32_t k = ring_pop(&rx, buf, (uint32_t)n);
        if (k || n == 0)
            return k;
        if (nonblock)
            return -EAGAIN;
        async_wait_for(&rx_waiter, rx_has_data);
    }
}

/* Task. */
size_t uart_be_rx_available(void) { return ring_used(&rx); }

/* Task. */
int uart_be_set_loopback(bool on)
{
    uint32_t mcr = uart_read(be_cfg, UART_MCR);
    uart_write(be_cfg, UART_MCR, on ? mcr | UART_MCR_LOOP : mcr & ~UART_MCR_LOOP);
    return 0;
}
