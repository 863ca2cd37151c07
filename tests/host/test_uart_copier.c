/* The copier engine (src/drivers/uart/engine_copier.c) with the tty core
 * on one lower half, the fake UART and the fake kernel, its two copier
 * tasks real tasks of the fake (fake_tasks.c: task_spawn). This file:
 * main(), the setup, the access hook and the RX ring's push log shared
 * by the tests (test_uart_copier.h), and the byte tests: every byte
 * written reaches THR once and in order through the 1 KiB staging buffer
 * and across the 64 KiB ring's wrap; a write returns short exactly at the
 * ring's contiguous free run; a blocking write on a full ring waits for
 * room, a non-blocking one gets EAGAIN. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "csr.h"
#include "fake_acct.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "scheduler.h"
#include "test_uart_copier.h"
#include "uart_port.h"

#define BULK_SPIN_NS 300U             /* a slow-poll round about one character */

struct copier_hook_cfg hook_cfg;
struct rx_log rx_log;

uint32_t __real_ring_push(struct ring *r, const void *src, uint32_t n);
uint32_t __wrap_ring_push(struct ring *r, const void *src, uint32_t n);

/* The fake UART's access hook (fake_uart.h), any context, both sides of
 * every register access: the instructions an access stands for, and the
 * RX flood (a byte arrives whenever the RX FIFO is empty, so no read of
 * the RX copier ever finds it empty while the flood lasts). */
static void copier_hook(void)
{
    if (hook_cfg.insns)
        fa_work(hook_cfg.insns);
    if (hook_cfg.flood && fu_rx_level() == 0)
        fu_rx_inject(hook_cfg.next++, 0);
}

/* The linker's --wrap (uart_tests.cmake), any context: every ring_push;
 * the RX ring's are logged while rx_log.on (the RX copier's reads, one
 * push each, empty ones included), the flood stopped at rx_log.stop_at. */
uint32_t __wrap_ring_push(struct ring *r, const void *src, uint32_t n)
{
    if (rx_log.on && r == &uart_port.rx && rx_log.n < RX_LOG_MAX) {
        rx_log.len[rx_log.n] = n;
        rx_log.irqs[rx_log.n] = uart_port.ctr.rx_irqs;
        if (++rx_log.n == rx_log.stop_at)
            hook_cfg.flood = false;
    }
    return __real_ring_push(r, src, n);
}

/* Every test: setup() (fake UART and kernel, the driver as at boot, a
 * FIFO of depth bytes), the CPU accounts on task main, spin hints of
 * spin_ns each, the access hook idle; then the copiers' first run (the
 * TX copier parks: THRE on once, its interrupt, THRE off; the RX copier
 * reads nothing and re-arms RX), and counters, stats and record cleared. */
void copier_setup(unsigned depth, uint64_t spin_ns)
{
    setup(depth);
    fa_init(&sched_current()->acct);
    fk_set_spin_ns(spin_ns);
    hook_cfg = (struct copier_hook_cfg){ 0 };
    rx_log = (struct rx_log){ 0 };
    fu_set_access_hook(copier_hook);
    fk_idle_until(fu_now() + 2 * char_ns());
    CHECK_EQ(fu_reg_ier() & UART_IER_THRI, 0);
    CHECK(fu_reg_ier() & UART_IER_RDI);
    CHECK_EQ(uart_be_counters_reset(), 0);
    fu_stats_clear();
    fu_out_clear();
    expect_n = 0;
}

/* Any test: the bytes the copier's first send_bytes stores on a held
 * idle line (the shifter takes none): one on a 16550, whose LSR.THRE
 * means "FIFO empty"; a FIFO's worth on the DW UART (USR.TFNF). */
unsigned first_room(void)
{
    return LOWER_DW ? cfg.fifo_depth : 1U;
}

/* Any test: bytes in the TX ring now. */
uint64_t ring_bytes(void)
{
    return ring_used(&uart_port.tx);
}

/* Any test, a snapshot: every byte accepted since the reset (and those
 * queued then) is stored into THR, staged, or still in the ring. */
void check_invariant(const char *what)
{
    struct uart_counters c = counters();
    if (c.user_acc + c.queued_at_reset != c.hw_send_bytes + c.staged_bytes + ring_bytes())
        fprintf(stderr, "%s: user_acc %llu + queued_at_reset %llu != hw_send_bytes %llu + "
                "staged %llu + ring %llu\n", what, (unsigned long long)c.user_acc,
                (unsigned long long)c.queued_at_reset, (unsigned long long)c.hw_send_bytes,
                (unsigned long long)c.staged_bytes, (unsigned long long)ring_bytes());
    CHECK_EQ(c.user_acc + c.queued_at_reset, c.hw_send_bytes + c.staged_bytes + ring_bytes());
}

/* test_bulk: a blocking write of all n bytes, looping on short returns;
 * each short return must end exactly at the ring's contiguous free run
 * as it was at the call (or, on a full ring, take some after waiting).
 * Returns the short returns. */
static unsigned write_looping(const uint8_t *p, size_t n)
{
    unsigned shorts = 0;
    while (n) {
        uint8_t *slot;
        uint32_t run = ring_write_slice(&uart_port.tx, &slot);
        ssize_t r = uart_be_write(p, n, false);
        CHECK(r > 0 && (size_t)r <= n);
        if (r <= 0)
            return shorts;
        if (run)
            CHECK_EQ(r, n < run ? n : run);
        expect_add(p, (size_t)r);
        shorts += (size_t)r < n;
        p += r, n -= (size_t)r;
        if (rnd() % 16 == 0)
            check_invariant("bulk");
    }
    return shorts;
}

/* 1a. Random writes, 2.2 rings' worth, drains and pauses between some:
 * the wire carries each byte once, in order; every pop is at most the
 * staging buffer; the ring wrapped and writes came back short there. */
static void test_bulk(void)
{
    static uint8_t buf[6000];
    size_t total = 0;
    unsigned shorts = 0;

    copier_setup(16, BULK_SPIN_NS);
    fk_set_budget(120ULL * 1000 * NS_PER_MS);
    while (total < CP_RING * 22 / 10) {
        size_t n = 1 + rnd() % (rnd() % 4 ? 1500 : sizeof buf);
        fill_random(buf, n);
        shorts += write_looping(buf, n);
        total += n;
        if (rnd() % 8 == 0)
            drain_checked("bulk");
        else if (rnd() % 8 == 0)
            fk_idle_until(fu_now() + rnd() % (200 * char_ns()));
    }
    drain_checked("bulk");
    check_output("bulk");
    check_invariant("bulk end");
    struct uart_counters c = counters();
    CHECK_EQ(c.user_acc, total);
    CHECK_EQ(c.hw_send_bytes, total);
    CHECK_EQ(fu_stats()->thr_writes, total);
    CHECK_EQ(c.ring_pop_bytes, total);
    CHECK(c.ring_pop_calls * CP_STAGE >= total);
    CHECK_EQ(c.staged_bytes, 0);
    CHECK(shorts >= 2);
    printf("bulk %s: %zu bytes, %u short writes, %llu pops, %llu sends (%llu zero), "
           "%llu budget exhaustions, %.1f ms of line\n", LOWER_NAME, total, shorts,
           (unsigned long long)c.ring_pop_calls, (unsigned long long)c.hw_send_calls,
           (unsigned long long)c.hw_send_zero, (unsigned long long)c.no_progress_budget,
           (double)fu_now() / 1e6);
}

/* 1b. The wrap, exactly: with the ring's indices at 1000, a ring's worth
 * is taken up to the end of storage only (CP_RING - 1000), the next write
 * only the 1000 bytes at its start; the full ring gives a non-blocking
 * write EAGAIN and makes a blocking one wait until the copier pops. */
static void test_wrap(void)
{
    static uint8_t buf[CP_RING];

    copier_setup(16, BULK_SPIN_NS);
    fk_set_budget(60ULL * 1000 * NS_PER_MS);
    fill_random(buf, 1000);
    write_all(buf, 1000);
    drain_checked("wrap");
    CHECK_EQ(uart_port.tx.head & uart_port.tx.mask, 1000);
    CHECK_EQ(ring_bytes(), 0);

    fill_random(buf, sizeof buf);
    ssize_t r = uart_be_write(buf, sizeof buf, false);
    CHECK_EQ(r, CP_RING - 1000);
    if (r > 0)
        expect_add(buf, (size_t)r);
    CHECK_EQ(ring_bytes(), CP_RING - 1000);
    ssize_t r2 = uart_be_write(buf + 2000, 1500, false);
    CHECK_EQ(r2, 1000);
    if (r2 > 0)
        expect_add(buf + 2000, (size_t)r2);
    CHECK_EQ(ring_bytes(), CP_RING);
    check_invariant("wrap full");

    CHECK_EQ(uart_be_write(buf, 10, true), -EAGAIN);
    CHECK_EQ(counters().writer_blocks, 0);
    uint64_t t0 = fu_now();
    ssize_t r3 = uart_be_write(buf + 5000, 500, false);
    CHECK_EQ(r3, 500);
    if (r3 > 0)
        expect_add(buf + 5000, (size_t)r3);
    struct uart_counters c = counters();
    CHECK_EQ(c.writer_blocks, 1);
    CHECK(c.ring_pop_calls >= 1 && c.hw_send_bytes > 0);
    CHECK(fu_now() > t0);
    check_invariant("wrap blocked");
    drain_checked("wrap");
    check_output("wrap");
    CHECK_EQ(counters().ring_pop_bytes, 1000 + CP_RING + 500);
}

/* The test program: every test on the lower half it is built for. */
int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    test_bulk();
    test_wrap();
    test_hold_long();
    test_hold_short();
    test_recheck_room();
    test_counters_bulk();
    test_phases();
    test_drain_rule();
    test_drain_never_temt();
    test_drain_lost_thre();
    test_isr_thre();
    test_isr_spurious();
    test_isr_rx();
    test_napi();
    check_failures += uart_async_util_failures() + uart_copier_ladder_failures() +
                      uart_copier_irq_failures();
    free(expect);
    return check_exit(COPIER_SLOW_POLL ? LOWER_SUITE("uart_copier")
                                       : LOWER_SUITE("uart_copier_noslow"));
}
