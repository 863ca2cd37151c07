/* Both TX engines with the tty core and the NS16550A lower half, built
 * with the wire model (WIRE_BAUD=115200, WIRE_FIFO=16), as on QEMU: the
 * fake UART stands for QEMU's instant 16550 (a 1 ns character), the model
 * behind the register seam (its entry points fake_acct.c's uart_model_*)
 * makes the line real, and the fake kernel runs the model's THRE timer.
 * Built once per engine (BACKEND_ASYNC / BACKEND_CONSOLE:
 * host.uart_wire_<engine>.ns16550). Checked: a byte takes 10
 * bit times (a burst of N bytes ends exactly at the N-th modelled stop
 * bit, the line never idles mid-burst, no byte enters before the modelled
 * FIFO has room), TEMT as the backend sees it (tx_pending) rises exactly
 * then, the async backend refills a FIFO's worth per modelled THRE, the
 * drain returns within two characters of the last stop bit and gives up
 * within its bound on the modelled temt-stuck fault, no byte is lost or
 * repeated, and every modelled access is the sim account's. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_acct.h"
#include "fake_kernel.h"
#include "fake_uart.h"
#include "uart_backend.h"
#include "uart_port.h"
#include "wire_model.h"

#define BAUD          115200ULL
#define DEPTH         16U
#define MODEL_CALL_NS 40ULL        /* fake time one modelled access takes */
#define DRAIN_MARGIN_NS 10000000ULL   /* both backends' drain margin */

static const struct uart_cfg cfg = { .base = 0x10000000, .io_width = 1, .clock_hz = 3686400,
                                     .baud = 115200, .fifo_depth = DEPTH };
/* The boot's default far end; no test here starts a stream, so the
 * model's RX side stays detached and the RX registers are the fake's. */
static const struct peer_point peer = { PEER_STREAM, 0, 0 };
static struct cpu_acct task_acct;
static uint8_t *expect;
static size_t expect_n;
static unsigned runs;

/* The fake charged call, with the sim account owning the CPU: the
 * model's instructions take fake time, as they do on QEMU. */
static void model_costs_time(void) { fu_advance_to(fu_now() + MODEL_CALL_NS); }

/* Time byte k of a burst that started at t0 leaves the modelled wire. */
static uint64_t done_at(uint64_t t0, uint64_t k)
{
    return t0 + (k * 10000000000ULL + BAUD - 1) / BAUD;
}

/* Each test: fake UART (QEMU-like), fake kernel, accounts, the model on
 * an idle line, the backend. */
static void setup(void)
{
    struct fu_config f = { .base = cfg.base, .width = 1, .fifo_depth = DEPTH, .char_ns = 1,
                           .access_ns = 20 };
    fu_init(&f);
    fk_init();
    fk_irq_schedule(++runs, 500);           /* interrupts at any access too */
    fa_call_hook = model_costs_time;
    fu_advance_to(fu_now() + 10000000);     /* the previous test's line is idle */
    uart_port = (struct uart_port){ 0 };
    CHECK_EQ(uart_be_hw_init(&cfg), 0);
    wire_model_init(&cfg, &peer);
    fa_init(&task_acct);                    /* its calls and the model's counted alike */
    CHECK_EQ(wire_model_fault(WIRE_FAULT_NONE), 0);
    CHECK_EQ(uart_be_init(10), 0);
    fu_out_clear();
    free(expect);
    expect = NULL;
    expect_n = 0;
}

/* Write n pattern bytes (blocking), remembered for check_wire. */
static void write_n(size_t n, unsigned seed)
{
    uint8_t *p = malloc(n);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 31 + seed);
    CHECK_EQ(uart_be_write(p, n, false), (ssize_t)n);
    expect = realloc(expect, expect_n + n);
    memcpy(expect + expect_n, p, n);
    expect_n += n;
    free(p);
}

/* The bytes QEMU's UART got: every byte written, once, in order; none
 * before the modelled FIFO (and shifter) had room; the model lost none;
 * every modelled access went through a charged call (the model counts
 * its calls too). */
static void check_wire(const char *what, uint64_t t0, uint64_t first)
{
    struct wire_stats st;
    const struct fu_out *o = fu_out_buf();

    wire_model_stats(&st);
    CHECK_EQ(fu_out_count(), expect_n);
    for (size_t i = 0; i < fu_out_count() && i < expect_n; i++)
        if (o[i].b != expect[i] ||
            (i >= first + DEPTH + 1 && o[i].t_ns < done_at(t0, i - first - DEPTH))) {
            fprintf(stderr, "%s: byte %zu: %#x at %llu ns\n", what, i, o[i].b,
                    (unsigned long long)o[i].t_ns);
            CHECK(0);
            break;
        }
    CHECK_EQ(st.lost, 0);
    CHECK_EQ(fu_errors(), 0);
    CHECK_EQ(fa_stats()->calls, st.calls);
    CHECK(st.instret > 0);
}

/* A burst of n bytes on an idle line: drain returns at the n-th modelled
 * stop bit (within two characters); TEMT, as tx_pending shows it, rises
 * exactly there: the line never idled mid-burst. */
static void test_burst(size_t n)
{
    setup();
    uint64_t t0 = fu_now();
    write_n(n, (unsigned)n);
    uint64_t end = done_at(t0, n);
    CHECK(fu_now() < end);
    if (n > 1) {
        fk_idle_until(done_at(t0, n) - 2 * MODEL_CALL_NS - 100);
        CHECK(uart_be_tx_pending() > 0);      /* the last stop bit is not out */
    }
    CHECK_EQ(uart_be_drain(), 0);
    uint64_t t1 = fu_now();
    if (t1 < end || t1 > end + 2 * uart_char_ns(&cfg))
        fprintf(stderr, "burst %zu: drain returned at %llu ns, last stop bit at %llu\n", n,
                (unsigned long long)(t1 - t0), (unsigned long long)(end - t0));
    CHECK(t1 >= end && t1 <= end + 2 * uart_char_ns(&cfg));
    CHECK_EQ(uart_be_tx_pending(), 0);
    check_wire("burst", t0, 0);
#if BACKEND_ASYNC
    struct uart_counters c;
    struct wire_stats st;
    CHECK_EQ(uart_be_counters(&c), 0);
    wire_model_stats(&st);
    CHECK_EQ(c.hw_send_bytes, n);
    CHECK(c.hw_send_max_chunk <= DEPTH);
    /* The kick loads a FIFO's worth, each modelled THRE refills one more:
     * one interrupt per FIFO's worth, and at most one for the drainer. */
    uint64_t refills = n > DEPTH ? (n - 1) / DEPTH : 0;
    CHECK(c.tx_irqs >= refills && c.tx_irqs <= refills + 1);
    CHECK(st.thre_irqs >= c.tx_irqs);
#endif
}

/* Bursts back to back with pauses: each starts a new modelled burst. */
static void test_bursts_and_pauses(void)
{
    setup();
    for (unsigned r = 0; r < 6; r++) {
        uint64_t t0 = fu_now();
        size_t first = expect_n, n = 1 + r * 13;
        write_n(n, r);
        CHECK_EQ(uart_be_drain(), 0);
        CHECK(fu_now() >= done_at(t0, n));
        check_wire("bursts", t0, first);
        fk_idle_until(fu_now() + r * uart_char_ns(&cfg) / 2);
    }
}

/* The modelled temt-stuck fault: the drain gives up within its bound
 * (async: four character-time retries after the FIFO emptied; console:
 * its whole spin bound), the bytes went out, the line recovers. */
static void test_temt_stuck(void)
{
    const uint64_t ch = uart_char_ns(&cfg);
    setup();
    CHECK_EQ(wire_model_fault(WIRE_FAULT_TEMT_STUCK), 0);
    uint64_t t0 = fu_now();
    write_n(20, 7);
    CHECK_EQ(uart_be_drain(), -ETIMEDOUT);
    uint64_t dt = fu_now() - t0;
#if BACKEND_ASYNC
    CHECK(dt >= done_at(0, 19) + 4 * ch && dt <= done_at(0, 20) + 5 * ch);
#else
    CHECK(dt >= DRAIN_MARGIN_NS + 2 * ch * (DEPTH + 1));
    CHECK(dt <= DRAIN_MARGIN_NS + 2 * ch * (DEPTH + 1) + 20 * ch);
#endif
    CHECK_EQ(uart_be_tx_pending(), 1);       /* the shifter never reports empty */
    CHECK_EQ(wire_model_fault(WIRE_FAULT_NONE), 0);
    CHECK_EQ(uart_be_drain(), 0);
    check_wire("temt stuck", t0, 0);
}

/* The test program: bursts of several sizes, bursts with pauses, the
 * temt-stuck fault. */
int main(void)
{
    static const size_t sizes[] = { 1, 15, 16, 17, 18, 33, 100, 1000, 5000 };

    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("backend %s with the wire model %llu/%u\n", uart_be_name, BAUD, DEPTH);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        test_burst(sizes[i]);
    test_bursts_and_pauses();
    test_temt_stuck();
    free(expect);
#if BACKEND_ASYNC
    return check_exit("uart_wire_async.ns16550");
#else
    return check_exit("uart_wire_console.ns16550");
#endif
}
