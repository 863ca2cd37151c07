/* The copier's tcdrain, its interrupt handler and its RX copier
 * (test_uart_copier.h): a drain returns only with the ring empty, the
 * copier idle, nothing staged and TEMT up, never while TEMT stays down,
 * nor while a lost THRE edge leaves a byte staged, re-checking once per
 * character time; THRE masks THRE and wakes
 * the TX copier; a nothing-pending entry (DW IIR 0xC1) wakes it when the
 * FIFO has room, and only then; an RX cause masks RX and wakes the RX
 * copier; the RX copier's NAPI rule. */
#include <string.h>

#include "check.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_uart_copier.h"
#include "uart_port.h"

#define FLOW_SPIN_NS 300U             /* a slow-poll round about one character */
#define LADDER_SPIN_NS 3U             /* the whole ladder in ~17 ms */

struct drainer {
    int rc;
    bool done;
    uint64_t t;                       /* when it returned */
    struct uart_counters c;           /* the snapshot right after */
    uint64_t ring;                    /* ring bytes then */
    bool temt;                        /* LSR.TEMT then (the fake's own view) */
};

/* Task: one tcdrain, what it returned into and what held right after. */
static void drainer(void *arg)
{
    struct drainer *d = arg;
    d->rc = uart_be_drain();
    d->t = fu_now();
    d->c = counters();
    d->ring = ring_bytes();
    d->temt = fu_lsr_peek() & UART_LSR_TEMT;
    d->done = true;
}

/* 4a. The drain's four terms: a drain right after a write on an idle
 * line (ring full of bytes, nothing staged, TEMT up) waits for them all;
 * a drain from another task while the line is held returns only once the
 * held bytes, and the rest, have left the wire and TEMT is up; on an idle
 * line with nothing queued it returns at once. */
void test_drain_rule(void)
{
    static uint8_t buf[2500];
    struct drainer d = { 0 };

    copier_setup(16, FLOW_SPIN_NS);
    fill_random(buf, 200);
    write_all(buf, 200);
    drain_checked("drain rule");
    CHECK_EQ(ring_bytes(), 0);
    struct uart_counters c = counters();
    CHECK(!c.copier_active && c.staged_bytes == 0 && c.transmitter_empty);

    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    fu_tx_hold_until(fu_now() + 50 * char_ns());
    fk_task_spawn("drainer", drainer, &d);
    fk_tasks_join();
    CHECK_EQ(d.rc, 0);
    CHECK_EQ(fu_out_count(), expect_n);
    if (fu_out_count())
        CHECK(d.t >= fu_out_buf()[fu_out_count() - 1].t_ns);
    CHECK(d.ring == 0 && !d.c.copier_active && d.c.staged_bytes == 0 && d.c.transmitter_empty);
    CHECK(d.temt);

    uint64_t t0 = fu_now(), waits = counters().drain_timer_waits;
    CHECK_EQ(uart_be_drain(), 0);
    CHECK(fu_now() - t0 < char_ns());
    CHECK_EQ(counters().drain_timer_waits, waits);
    check_output("drain rule");
}

/* 4b. TEMT never rises: the drain has no bound and never returns; after
 * the bytes are out it re-checks once per character time, so over a
 * window of dt, drain_timer_waits grows by dt / (char + 2 accesses) at
 * least (each re-check's own status reads) and dt / char + 1 at most.
 * TEMT back: the drain returns 0, with no timeout counted. */
void test_drain_never_temt(void)
{
    static uint8_t buf[20];
    struct drainer d = { 0 };

    copier_setup(16, FLOW_SPIN_NS);
    fu_temt_stuck(true);
    fill_random(buf, sizeof buf);
    write_all(buf, sizeof buf);
    fk_task_spawn("drainer", drainer, &d);
    fk_idle_until(fu_now() + (sizeof buf + 10) * char_ns());
    CHECK_EQ(fu_out_count(), sizeof buf);
    CHECK(!d.done);
    uint64_t t0 = fu_now(), w0 = counters().drain_timer_waits;
    fk_idle_until(t0 + 1000 * char_ns());
    uint64_t dt = fu_now() - t0, dw = counters().drain_timer_waits - w0;
    CHECK(!d.done);
    CHECK(dw >= dt / (char_ns() + 2 * ACCESS_NS) && dw <= dt / char_ns() + 1);
    printf("temt stuck %s: %llu re-checks in %llu character times, drain still waiting\n",
           LOWER_NAME, (unsigned long long)dw, (unsigned long long)(dt / char_ns()));
    struct uart_counters c = counters();
    CHECK(!c.copier_active && c.staged_bytes == 0 && ring_bytes() == 0);
    fu_temt_stuck(false);
    fk_tasks_join();
    CHECK_EQ(d.rc, 0);
    CHECK(d.t - t0 - dt <= 2 * char_ns());
    CHECK_EQ(counters().drain_timeouts, 0);
    check_output("temt stuck");
}

/* test_isr_*, test_drain_lost_thre: the copier parked on THRE with a
 * byte staged: the line held from the start, the whole ladder run (fast
 * retries, slow polls and yields where built), THRE enabled, no
 * interrupt pending. */
static void park_on_thre(void)
{
    static uint8_t buf[64];
    unsigned w = first_room() + 1;
    copier_setup(16, LADDER_SPIN_NS);
    fill_random(buf, w);
    write_all(buf, w);
    fu_tx_hold_until(UINT64_MAX);
    fk_idle_until(fu_now() + 30 * NS_PER_MS);
    struct uart_counters c = counters();
    CHECK_EQ(c.staged_bytes, 1);
    CHECK_EQ(c.copier_active, 0);
    CHECK_EQ(c.yield_exh, COPIER_SLOW_POLL ? 1 : 0);
    CHECK(fu_reg_ier() & UART_IER_THRI);
    CHECK(!fu_irq_line());
}

/* 4c. A lost THRE edge (the D1's): the copier waits for THRE with a byte
 * staged while the line drains to TEMT and nothing wakes it; the drain
 * must not return (the staged byte is not out), it waits with its
 * re-checks, as the original's would for ever; a write wakes the copier,
 * and then the drain returns with every byte out. */
void test_drain_lost_thre(void)
{
    static const uint8_t more[4] = "more";
    struct drainer d = { 0 };

    park_on_thre();
    fu_thre_drop(1);
    fk_task_spawn("drainer", drainer, &d);
    fu_tx_hold_until(0);
    fk_idle_until(fu_now() + (cfg.fifo_depth + 100ULL) * char_ns());
    CHECK_EQ(fu_stats()->thre_dropped, 1);
    CHECK(fu_lsr_peek() & UART_LSR_TEMT);
    CHECK_EQ(fu_out_count(), first_room());
    struct uart_counters c = counters();
    CHECK_EQ(c.staged_bytes, 1);
    CHECK_EQ(c.tx_irqs, 0);
    CHECK(c.drain_timer_waits >= 100);
    CHECK(!d.done);
    write_all(more, sizeof more);
    fk_tasks_join();
    CHECK_EQ(d.rc, 0);
    CHECK_EQ(fu_out_count(), expect_n);
    CHECK(d.temt && d.c.staged_bytes == 0 && d.ring == 0);
    check_output("lost thre");
}

/* 5a. THRE: the line resumes until its FIFO is empty (fake time only, no
 * interrupt taken); the interrupt then masks THRE, counts, and wakes the
 * copier (one wake: no drainer waits), which has not run yet; once it
 * runs it stores the staged byte. */
void test_isr_thre(void)
{
    park_on_thre();
    fu_tx_hold_until(0);
    while (fu_tx_level())
        fu_advance_to(fu_next_event());
    CHECK(fu_irq_line());
    uint64_t wakes = fk_stats()->wakes;
    fk_take_irqs();
    CHECK_EQ(fu_reg_ier() & UART_IER_THRI, 0);
    CHECK(fu_reg_ier() & UART_IER_RDI);
    CHECK(!fu_irq_line());
    CHECK_EQ(fk_stats()->wakes - wakes, 1);
    struct uart_counters c = counters();
    CHECK_EQ(c.tx_irqs, 1);
    CHECK_EQ(c.staged_bytes, 1);
    fk_idle_until(fu_now() + char_ns() / 2);
    CHECK_EQ(counters().staged_bytes, 0);
    drain_checked("isr thre");
    check_output("isr thre");
}

/* 5b. An entry with nothing pending (IIR 0xC1): with the FIFO full it
 * wakes nobody and changes nothing; on the DW UART, once the line has
 * taken a byte (TFNF up, FIFO not empty, so no THRE interrupt), it wakes
 * the copier, which stores its byte before any THRE interrupt. */
void test_isr_spurious(void)
{
    park_on_thre();
    uint64_t wakes = fk_stats()->wakes;
    fu_spurious(1);
    fk_take_irqs();
    struct uart_counters c = counters();
    CHECK_EQ(c.spurious_irqs, 1);
    CHECK_EQ(fk_stats()->wakes, wakes);
    CHECK(fu_reg_ier() & UART_IER_THRI);
    if (LOWER_DW) {
        fu_tx_hold_until(0);
        CHECK(fu_tx_level() > 0 && !fu_irq_line());
        fu_spurious(1);
        fk_take_irqs();
        CHECK_EQ(counters().spurious_irqs, 2);
        CHECK_EQ(fk_stats()->wakes - wakes, 1);
        CHECK(fu_reg_ier() & UART_IER_THRI);
        fk_idle_until(fu_now() + char_ns() / 2);
        c = counters();
        CHECK_EQ(c.staged_bytes, 0);
        CHECK_EQ(c.tx_irqs, 0);
    } else {
        fu_tx_hold_until(0);
    }
    drain_checked("isr spurious");
    check_output("isr spurious");
}

/* 5c. An RX cause: the interrupt masks RX, counts, wakes the RX copier
 * (which has not read yet); the copier reads the byte (a read of one),
 * re-arms RX, reads nothing, re-arms and parks; the reader gets it. */
void test_isr_rx(void)
{
    uint8_t b = 0;
    copier_setup(16, 0);
    rx_log.on = true;
    fu_rx_inject('x', 0);
    CHECK(fu_irq_line());
    uint64_t wakes = fk_stats()->wakes;
    fk_take_irqs();
    CHECK_EQ(fu_reg_ier() & UART_IER_RDI, 0);
    CHECK(!fu_irq_line());
    CHECK_EQ(fk_stats()->wakes - wakes, 1);
    CHECK_EQ(counters().rx_irqs, 1);
    CHECK_EQ(rx_log.n, 0);
    CHECK_EQ(uart_be_read(&b, 1, false), 1);
    CHECK_EQ(b, 'x');
    CHECK_EQ(rx_log.n, 2);
    CHECK(rx_log.len[0] == 1 && rx_log.len[1] == 0);
    CHECK(fu_reg_ier() & UART_IER_RDI);
    CHECK_EQ(counters().rx_bytes, 1);
}

/* test_napi: the logged reads from `from` on are len[i] bytes with
 * rx_irqs irqs[i], i < n. */
static void check_reads(unsigned from, unsigned n, const uint32_t *len, const uint64_t *irqs)
{
    CHECK_EQ(rx_log.n, from + n);
    for (unsigned i = 0; i < n && from + i < rx_log.n; i++)
        if (rx_log.len[from + i] != len[i] || rx_log.irqs[from + i] != irqs[i]) {
            fprintf(stderr, "napi %s: read %u took %u bytes at rx_irqs %llu, expected %u "
                    "at %llu\n", LOWER_NAME, from + i + 1, rx_log.len[from + i],
                    (unsigned long long)rx_log.irqs[from + i], len[i],
                    (unsigned long long)irqs[i]);
            CHECK(0);
        }
}

/* 5d. NAPI, under a flood no read can empty (a byte arrives whenever the
 * RX FIFO is empty): reads 1..16 take the 1 KiB batch and each re-arms RX,
 * whose interrupt comes at once (rx_irqs k at read k); from read 17 the
 * batch is 64 and RX stays masked. Flood over after read 20: read 21
 * takes the byte left, read 22 none: RX re-armed; the wakes of the
 * flood's interrupts make the copier read once more (none) before it
 * parks. A new flood: the first read is a 1 KiB one again. */
void test_napi(void)
{
    uint32_t len[23];
    uint64_t irqs[23];

    copier_setup(16, 0);
    rx_log.on = true;
    rx_log.stop_at = 20;
    hook_cfg.flood = true;
    fu_rx_inject(hook_cfg.next++, 0);
    fk_idle_until(fu_now() + 10 * NS_PER_MS);
    for (unsigned i = 0; i < 23; i++) {
        len[i] = i < CP_NAPI ? 1024 : i < 20 ? CP_NAPI_BATCH : i == 20 ? 1 : 0;
        irqs[i] = i < CP_NAPI ? i + 1 : CP_NAPI;
    }
    check_reads(0, 23, len, irqs);
    CHECK(fu_reg_ier() & UART_IER_RDI);
    CHECK(!fu_irq_line());
    struct uart_counters c = counters();
    CHECK_EQ(c.rx_irqs, CP_NAPI);
    CHECK_EQ(c.rx_bytes + c.rx_dropped, 16 * 1024 + 4 * CP_NAPI_BATCH + 1);

    unsigned from = rx_log.n;
    rx_log.stop_at = from + 1;
    hook_cfg.flood = true;
    fu_rx_inject(hook_cfg.next++, 0);
    fk_idle_until(fu_now() + 10 * NS_PER_MS);
    check_reads(from, 4, (const uint32_t[]){ 1024, 1, 0, 0 },
                (const uint64_t[]){ CP_NAPI + 1, CP_NAPI + 2, CP_NAPI + 2, CP_NAPI + 2 });
    CHECK(fu_reg_ier() & UART_IER_RDI);
    CHECK(!hook_cfg.flood);
    CHECK_EQ(fu_errors(), 0);
}

/* main(): this file's failed checks. */
int uart_copier_irq_failures(void) { return check_failures; }
