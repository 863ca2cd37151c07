/* libFuzzer target: the async UART backend (src/drivers/uart/async.c) with
 * its interrupt handler fed fuzzer-chosen register values.
 *
 * This file includes async.c, so that every input starts from the same
 * backend state (its statics are reset here) and the checks can see the
 * IER shadow, the THRE flag and the rings. The UART behind the register
 * layer (ns16550.c, HOST_TEST) is a fake of its own, different from
 * tests/host/fake_uart.c: it has no model of a UART at all. Every register
 * read (IIR, LSR, USR, TFL, RBR, MSR, MCR, ...) returns the next input
 * byte, so the values can contradict each other in any way hardware or a
 * glitch could; it records what the driver does with them.
 *
 * Input: two configuration bytes (16550 or DesignWare APB, FIFO depth,
 * baud), then operations: the interrupt handler, non-blocking writes and
 * reads, counter snapshots and resets, TX pending, drain, loopback, the
 * polled flush. Interrupts also arrive, when the input says so, whenever
 * task code unmasks them (irq_restore). Register reads take their values
 * from the same byte stream; after the input ends, reads return an idle
 * UART (IIR no interrupt, LSR THRE|TEMT, TFL 0).
 *
 * Invariants (a violation prints what and aborts):
 *  - no FIFO overfill: after a read that reports FIFO room (LSR.THRE: a
 *    FIFO's depth, on a 16550 THRE clear: none; DW TFL: depth - TFL), no
 *    more THR stores than that room before the next such read;
 *  - no runaway: at most UART_ISR_MAX_ROUNDS IIR reads and a bounded
 *    number of register accesses per handler run; bounded blocking in
 *    drain; AddressSanitizer and UBSan for memory and arithmetic;
 *  - only registers of the configured UART, with its access width, and no
 *    store into a read-only register; IER writes only valid bits;
 *  - bytes: THR stores equal the accepted bytes in order; accepted = sent
 *    + flushed + in the ring; RX bytes read back equal the RBR values the
 *    handler took as data (after LSR.DR), minus those dropped on a full
 *    ring;
 *  - counters equal what the fake saw: IIR causes (THRE, RX, busy,
 *    spurious), line errors of every LSR read, RX bytes and drops, THR
 *    bytes, write calls; the IER shadow equals the last IER write and its
 *    THRI bit equals the THRE flag; interrupts are unmasked after every
 *    task call. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Small rings: full and wrapping rings within a short input. */
#define UART_TX_RING_SIZE 256U
#define UART_RX_RING_SIZE 64U
#include "async.c"

#include "fake_mmio.h"

#define BASE_16550 0x10000000UL
#define BASE_DW    0x02500000UL
#define IRQ        10
#define ACCESS_NS  100               /* fake time per register access */
#define MAX_BLOCKS_PER_OP 1000       /* drain: blocks before it counts as a hang */
#define MAX_ACCESSES_PER_OP 200000
#define MAX_WRITE  400
#define LOG_MAX    (1U << 20)

#define FAIL(...) do { fprintf(stderr, "fuzz_uart_isr: op %u (%s): ", op_no, op_name); \
                       fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

static unsigned op_no;
static const char *op_name = "";

/* ---- input ------------------------------------------------------------ */

static const uint8_t *in_p;
static size_t in_n;

static bool more(void) { return in_n != 0; }

static uint8_t take8_or(uint8_t dflt)
{
    if (!in_n)
        return dflt;
    in_n--;
    return *in_p++;
}

static uint8_t take8(void) { return take8_or(0); }

/* ---- the fake kernel: time, interrupt registration, blocking ------------ */

struct host_csr host_csr;
static struct task main_task = { .name = "fuzz", .state = TASK_RUNNING };
static irq_handler_t handler;
static void *handler_arg;
static bool woken, in_isr;
static bool no_irq_at_restore;   /* a counter snapshot is compared right after */
static uint64_t now_ns;
static unsigned blocks_this_op;

static void run_isr(void);

uint64_t clock_now_ns(void) { return now_ns; }

int irq_register(uint32_t irq, irq_handler_t fn, void *arg)
{
    if (irq != IRQ || !fn)
        FAIL("irq_register(%u, %p)", irq, (void *)(uintptr_t)fn);
    handler = fn;
    handler_arg = arg;
    return 0;
}

struct task *sched_current(void) { return &main_task; }

void waker_wake(const struct waker *w)
{
    if (w && w->task == &main_task)
        woken = true;
}

/* Task code unmasked interrupts: one may be pending (input decides). */
void host_irq_enabled(void)
{
    if (!in_isr && !no_irq_at_restore && more() && (take8() & 0x80))
        run_isr();
}

void sched_block(void)
{
    FAIL("sched_block: a non-blocking call blocked");
}

/* Block until woken or the deadline: a few interrupts (input decides),
 * then the wake or the timeout. Interrupts are taken although the caller
 * masked them: blocking switches away with them enabled. */
int sched_block_until(uint64_t deadline_ns)
{
    if (++blocks_this_op > MAX_BLOCKS_PER_OP)
        FAIL("blocked %u times in one call: a hang", MAX_BLOCKS_PER_OP);
    woken = false;
    for (unsigned n = take8_or(1) % 4; n && !woken; n--)
        run_isr();
    if (woken)
        return 0;
    if (deadline_ns > now_ns)
        now_ns = deadline_ns;
    return -ETIMEDOUT;
}

void sleep_until(uint64_t deadline_ns)
{
    if (++blocks_this_op > MAX_BLOCKS_PER_OP)
        FAIL("slept %u times in one call: a hang", MAX_BLOCKS_PER_OP);
    if (take8() & 1)
        run_isr();
    if (deadline_ns > now_ns)
        now_ns = deadline_ns;
}

/* ---- the fake UART: input bytes in, accounting out ---------------------- */

#define LSR_ERRS (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)

static struct {
    struct uart_cfg cfg;
    long credit;                 /* THR stores allowed until the next room read */
    bool last_lsr_dr;            /* the previous access was an LSR read with DR */
    bool flushing;               /* inside uart_be_flush_polled */
    bool isr_first_iir;          /* the next IIR read is a handler's first */
    uint32_t last_lsr, last_tfl; /* values of the latest reads */
    uint32_t task_lsr, task_tfl; /* ... in task context */
    int ier_written;             /* last IER write, -1: none */
    unsigned mcr_read, mcr_written;
    bool mcr_wrote;
    unsigned isr_iir_reads;
    uint64_t isr_accesses, op_accesses;
    uint64_t round_accesses, round_rx_data;   /* since the handler's last IIR read */
    /* since the last counter reset */
    uint64_t iir_thri, iir_rx, iir_busy, iir_spurious, iir_spurious_thre;
    uint64_t lsr_oe, lsr_pe, lsr_fe, lsr_bi;
    uint64_t rx_data, rx_drop, thr_refill;
    uint64_t writes, write_req, write_acc;
    /* whole input */
    uint64_t thr_total, flushed_total, accepted_total;
} f;

/* Every byte accepted by uart_be_write, in order; THR stores must match. */
static uint8_t *tx_log;
static size_t tx_log_n, tx_log_sent;
/* RX model: bytes the handler took as data and had room for. */
static uint8_t rx_q[UART_RX_RING_SIZE];
static size_t rx_q_n;

static const char *reg_name(int r)
{
    switch (r) {
    case UART_RBR: return "RBR/THR";
    case UART_IER: return "IER";
    case UART_IIR: return "IIR/FCR";
    case UART_LCR: return "LCR";
    case UART_MCR: return "MCR";
    case UART_LSR: return "LSR";
    case UART_MSR: return "MSR";
    case UART_SCR: return "SCR";
    case UART_DW_USR: return "USR";
    case UART_DW_TFL: return "TFL";
    case UART_DW_RFL: return "RFL";
    case UART_DW_CPR: return "CPR";
    }
    return "?";
}

/* The register at addr, or a failure: only the configured UART's
 * registers, with its width, on its stride. */
static int decode(uintptr_t addr, unsigned width, bool write)
{
    const struct uart_cfg *c = &f.cfg;
    uintptr_t stride = (uintptr_t)1 << c->reg_shift;
    if (addr < c->base || addr - c->base >= 0x100)
        FAIL("%s of %#lx: outside the UART", write ? "write" : "read", (unsigned long)addr);
    uintptr_t off = addr - c->base;
    if (width != c->io_width || off % stride)
        FAIL("%s of offset %#lx width %u (UART: width %u, stride %lu)",
             write ? "write" : "read", (unsigned long)off, width, c->io_width,
             (unsigned long)stride);
    int r = (int)(off / stride);
    bool ok = r <= UART_SCR || (c->dw_apb && (r == UART_DW_USR || r == UART_DW_TFL ||
                                              r == UART_DW_RFL || r == UART_DW_CPR));
    if (!ok)
        FAIL("%s of offset %#lx: no such register on this UART",
             write ? "write" : "read", (unsigned long)off);
    return r;
}

/* One round of the handler: its IIR read, then at most an RX drain (4 x
 * depth LSR+RBR pairs and the LSR that ends it, or a dummy RBR), a TX
 * refill (room read, depth stores, IER) or one more read. */
static void check_round(void)
{
    uint64_t d = f.cfg.fifo_depth;
    if (f.round_accesses > 8 * d + 3 || f.round_rx_data > 4 * d)
        FAIL("one handler round made %llu register accesses and took %llu RX bytes "
             "(depth %llu)", (unsigned long long)f.round_accesses,
             (unsigned long long)f.round_rx_data, (unsigned long long)d);
}

static void count_access(void)
{
    now_ns += ACCESS_NS;
    f.isr_accesses++;
    f.round_accesses++;
    if (++f.op_accesses > MAX_ACCESSES_PER_OP)
        FAIL("%d register accesses in one call: a hang", MAX_ACCESSES_PER_OP);
}

/* IIR: mostly a valid cause with FIFO bits, sometimes any byte. A 16550
 * reports only the causes 0x0, 0x1, 0x2, 0x4, 0x6 and 0xC; its other
 * values (0x7 is the DesignWare busy detect) are reserved and replaced by
 * "no interrupt" unless built with -DFUZZ_RESERVED_IIR=1 (then the handler
 * reads USR on a 16550, outside its registers: docs/robustness.md). */
static uint32_t iir_value(void)
{
    static const uint8_t ids[] = { UART_IIR_NO_INT, UART_IIR_THRI, UART_IIR_RDI,
                                   UART_IIR_RLSI, UART_IIR_BUSY, UART_IIR_RX_TIMEOUT, 0x00 };
    if (!more())
        return 0xC0 | UART_IIR_NO_INT;
    uint8_t b = take8();
    uint32_t v = b < 0xE0 ? 0xC0u | ids[b % 7] : take8();
#if !FUZZ_RESERVED_IIR
    unsigned id = v & UART_IIR_ID;
    if (!f.cfg.dw_apb && id != 0x0 && id != UART_IIR_NO_INT && id != UART_IIR_THRI &&
        id != UART_IIR_RDI && id != UART_IIR_RLSI && id != UART_IIR_RX_TIMEOUT)
        v = (v & ~(uint32_t)UART_IIR_ID) | UART_IIR_NO_INT;
#endif
    return v;
}

uint32_t fake_mmio_read(uintptr_t addr, unsigned width)
{
    int r = decode(addr, width, false);
    bool prev_dr = f.last_lsr_dr;
    uint32_t v;
    count_access();
    f.last_lsr_dr = false;
    switch (r) {
    case UART_IIR: {
        v = iir_value();
        unsigned id = v & UART_IIR_ID;
        if (!in_isr)
            break;
        if (++f.isr_iir_reads > UART_ISR_MAX_ROUNDS)
            FAIL("handler read IIR %u times in one run", f.isr_iir_reads);
        f.round_accesses--;             /* this read starts the new round */
        check_round();
        f.round_accesses = 1;
        f.round_rx_data = 0;
        if (f.isr_first_iir && id == UART_IIR_NO_INT) {
            f.iir_spurious++;
            f.iir_spurious_thre += thre_on;
        }
        f.isr_first_iir = false;
        f.iir_thri += id == UART_IIR_THRI;
        f.iir_rx += id == UART_IIR_RDI || id == UART_IIR_RLSI || id == UART_IIR_RX_TIMEOUT;
        f.iir_busy += id == UART_IIR_BUSY;
        break;
    }
    case UART_LSR:
        v = take8_or(UART_LSR_THRE | UART_LSR_TEMT);
        f.last_lsr = v;
        if (!in_isr)
            f.task_lsr = v;
        f.last_lsr_dr = v & UART_LSR_DR;
        if (v & UART_LSR_THRE)
            f.credit = f.cfg.fifo_depth;            /* FIFO empty */
        else if (!f.cfg.dw_apb)
            f.credit = 0;                           /* 16550: room unknown */
        if (!f.flushing) {                          /* lsr_read() counts these */
            f.lsr_oe += !!(v & UART_LSR_OE);
            f.lsr_pe += !!(v & UART_LSR_PE);
            f.lsr_fe += !!(v & UART_LSR_FE);
            f.lsr_bi += !!(v & UART_LSR_BI);
        }
        break;
    case UART_DW_TFL: {
        uint8_t b = take8();
        v = b < 0xC0 ? b % (f.cfg.fifo_depth + 1u) : b;   /* sometimes > depth */
        f.last_tfl = v;
        if (!in_isr)
            f.task_tfl = v;
        f.credit = v < f.cfg.fifo_depth ? (long)(f.cfg.fifo_depth - v) : 0;
        break;
    }
    case UART_RBR:
        v = take8();
        if (in_isr && prev_dr) {                    /* a data byte for the ring */
            f.round_rx_data++;
            if (rx_q_n < UART_RX_RING_SIZE) {
                rx_q[rx_q_n++] = (uint8_t)v;
                f.rx_data++;
            } else {
                f.rx_drop++;
            }
        }
        break;
    case UART_MCR:
        v = take8();
        f.mcr_read = v;
        break;
    case UART_DW_USR:
        v = take8_or(UART_DW_USR_TFNF | UART_DW_USR_TFE);
        break;
    default:
        v = take8();
        break;
    }
    return v;
}

void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value)
{
    int r = decode(addr, width, true);
    count_access();
    f.last_lsr_dr = false;
    if (value > 0xFF)
        FAIL("write of %#x to %s: more than 8 bits", value, reg_name(r));
    switch (r) {
    case UART_THR:
        if (f.credit <= 0)
            FAIL("THR store with no FIFO room reported (LSR %#x, TFL %u, depth %u)",
                 f.last_lsr, f.last_tfl, f.cfg.fifo_depth);
        f.credit--;
        if (tx_log_sent >= tx_log_n)
            FAIL("THR store of %#x: no accepted byte left to send", value);
        if (tx_log[tx_log_sent] != value)
            FAIL("THR store %zu is %#x, the accepted byte is %#x", tx_log_sent, value,
                 tx_log[tx_log_sent]);
        tx_log_sent++;
        f.thr_total++;
        if (f.flushing)
            f.flushed_total++;
        else
            f.thr_refill++;
        break;
    case UART_IER:
        if (value & ~0x0Fu)
            FAIL("IER write %#x: reserved bits", value);
        f.ier_written = (int)value;
        break;
    case UART_MCR:
        f.mcr_written = value;
        f.mcr_wrote = true;
        break;
    case UART_IIR:      /* FCR */
    case UART_LCR:
    case UART_SCR:
        break;
    default:
        FAIL("write of %#x to read-only register %s", value, reg_name(r));
    }
}

/* ---- checks ---------------------------------------------------------------- */

static void check_counters(const struct uart_counters *c)
{
#define EQ(field, want) do { if ((uint64_t)(c->field) != (uint64_t)(want)) \
    FAIL("counter " #field " = %llu, the fake saw %llu", \
         (unsigned long long)(c->field), (unsigned long long)(want)); } while (0)
    EQ(user_calls, f.writes);
    EQ(user_req, f.write_req);
    EQ(user_acc, f.write_acc);
    EQ(hw_send_bytes, f.thr_refill);
    EQ(ring_pop_bytes, f.thr_refill);
    EQ(tx_irqs, f.iir_thri + f.iir_spurious_thre);
    EQ(rx_irqs, f.iir_rx);
    EQ(busy_detect, f.iir_busy);
    EQ(spurious_irqs, f.iir_spurious);
    EQ(rx_overruns, f.lsr_oe);
    EQ(rx_parity, f.lsr_pe);
    EQ(rx_framing, f.lsr_fe);
    EQ(rx_breaks, f.lsr_bi);
    EQ(rx_bytes, f.rx_data);
    EQ(rx_dropped, f.rx_drop);
    EQ(writer_blocks, 0);
#undef EQ
    if (c->hw_send_max_chunk > f.cfg.fifo_depth)
        FAIL("hw_send_max_chunk %llu > FIFO depth %u",
             (unsigned long long)c->hw_send_max_chunk, f.cfg.fifo_depth);
    if (c->hw_send_zero > c->hw_send_calls)
        FAIL("hw_send_zero %llu > hw_send_calls %llu",
             (unsigned long long)c->hw_send_zero, (unsigned long long)c->hw_send_calls);
}

/* After every operation (task context, interrupts enabled). */
static void check_state(void)
{
    if (!(host_csr.xstatus & XSTATUS_XIE))
        FAIL("interrupts left masked");
    if (f.ier_written != (int)ier)
        FAIL("IER shadow %#x, last IER write %#x", ier, f.ier_written);
    if (!!(ier & UART_IER_THRI) != thre_on)
        FAIL("IER.THRI %u but thre_on %u", !!(ier & UART_IER_THRI), thre_on);
    if (ring_used(&tx) > UART_TX_RING_SIZE || ring_used(&rx) > UART_RX_RING_SIZE)
        FAIL("ring overfull: tx %u rx %u", ring_used(&tx), ring_used(&rx));
    if (f.accepted_total != f.thr_total + ring_used(&tx))
        FAIL("accepted %llu bytes, sent %llu (%llu flushed), %u in the ring",
             (unsigned long long)f.accepted_total, (unsigned long long)f.thr_total,
             (unsigned long long)f.flushed_total, ring_used(&tx));
    if (ring_used(&rx) != rx_q_n)
        FAIL("RX ring holds %u bytes, the model %zu", ring_used(&rx), rx_q_n);
    if (f.credit < 0)
        FAIL("FIFO credit negative");
}

/* The interrupt: the handler with interrupts masked, as on the hart. */
static void run_isr(void)
{
    if (!handler)
        return;
    unsigned long saved = host_csr.xstatus;
    host_csr.xstatus &= ~(unsigned long)XSTATUS_XIE;
    bool flushing = f.flushing;      /* an interrupt at the flush's irq_restore */
    f.flushing = false;
    in_isr = true;
    f.isr_iir_reads = 0;
    f.isr_accesses = 0;
    f.isr_first_iir = true;
    f.round_accesses = f.round_rx_data = 0;
    handler(handler_arg);
    check_round();
    /* Per round: IIR, then at most RX (4 x depth LSR+RBR pairs, a last LSR,
     * a dummy RBR), TX (room read, depth stores, IER) or one more read. */
    uint64_t bound = UART_ISR_MAX_ROUNDS * (8ULL * f.cfg.fifo_depth + 4);
    if (f.isr_accesses > bound)
        FAIL("handler made %llu register accesses (bound %llu)",
             (unsigned long long)f.isr_accesses, (unsigned long long)bound);
    in_isr = false;
    f.flushing = flushing;
    host_csr.xstatus = saved;
}

/* ---- operations ------------------------------------------------------------ */

static uint8_t pattern;

static void op_write(void)
{
    size_t n = take8() % 4 == 0 ? take8() % (MAX_WRITE + 1) : take8() % 24;
    uint8_t *buf = malloc(n ? n : 1);
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern++;
    uint32_t room = ring_free(&tx);
    size_t want = n < room ? n : room;
    if (tx_log_n + want > LOG_MAX)
        FAIL("TX log full");
    memcpy(tx_log + tx_log_n, buf, want);      /* before: the kick sends them */
    tx_log_n += want;
    f.accepted_total += want;
    f.writes++;
    f.write_req += n;
    f.write_acc += want;
    op_name = "write";
    ssize_t r = uart_be_write(buf, n, true);
    if (r != (want || n == 0 ? (ssize_t)want : -EAGAIN))
        FAIL("uart_be_write(%zu, nonblock) = %zd with %u free", n, r, room);
    free(buf);
}

static void op_read(void)
{
    size_t n = take8() % (UART_RX_RING_SIZE + 8);
    uint8_t *buf = malloc(n ? n : 1);
    size_t want = n < rx_q_n ? n : rx_q_n;
    op_name = "read";
    ssize_t r = uart_be_read(buf, n, true);
    if (r != (want || n == 0 ? (ssize_t)want : -EAGAIN))
        FAIL("uart_be_read(%zu, nonblock) = %zd, model has %zu", n, r, rx_q_n);
    if (want && memcmp(buf, rx_q, want) != 0)
        FAIL("RX bytes differ from the RBR data values");
    memmove(rx_q, rx_q + want, rx_q_n - want);
    rx_q_n -= want;
    free(buf);
}

static void op_counters(void)
{
    struct uart_counters c;
    op_name = "counters";
    no_irq_at_restore = true;
    int rc = uart_be_counters(&c);
    no_irq_at_restore = false;
    if (rc != 0)
        FAIL("uart_be_counters failed");
    check_counters(&c);
    if (c.staged_bytes != ring_used(&tx) || c.ring_empty != (ring_used(&tx) == 0) ||
        c.copier_active != thre_on)
        FAIL("snapshot fields disagree with the backend state");
}

static void op_counters_reset(void)
{
    op_name = "counters_reset";
    /* The model first: an interrupt at the reset's irq_restore counts.
     * The reset clears the TX counters; the RX ones (RX interrupts, bytes,
     * drops, line errors) count since boot (uart_backend.h). */
    f.iir_thri = f.iir_busy = f.iir_spurious = f.iir_spurious_thre = 0;
    f.thr_refill = 0;
    f.writes = f.write_req = f.write_acc = 0;
    if (uart_be_counters_reset() != 0)
        FAIL("uart_be_counters_reset failed");
}

/* TX pending = ring + what LSR (and DW TFL) say the hardware holds. An
 * interrupt taken at the irq_restore after the LSR read may move bytes;
 * the ring is read last, after the register reads, so the sum is that of
 * the task's own reads and the ring at return. */
static void op_tx_pending(void)
{
    op_name = "tx_pending";
    size_t p = uart_be_tx_pending();
    uint32_t lsr = f.task_lsr;
    size_t hw = 0;
    if (!(lsr & UART_LSR_TEMT))
        hw = f.cfg.dw_apb ? f.task_tfl + 1U : (lsr & UART_LSR_THRE) ? 1U : f.cfg.fifo_depth;
    if (p != ring_used(&tx) + hw)
        FAIL("tx_pending %zu, expected ring %u + hardware %zu (LSR %#x TFL %u)", p,
             ring_used(&tx), hw, lsr, f.task_tfl);
}

static void op_drain(void)
{
    op_name = "drain";
    int rc = uart_be_drain();
    if (rc != 0 && rc != -ETIMEDOUT)
        FAIL("uart_be_drain = %d", rc);
    if (rc == 0 && ring_used(&tx) != 0)
        FAIL("drain returned 0 with %u bytes in the ring", ring_used(&tx));
}

static void op_loopback(void)
{
    bool on = take8() & 1;
    op_name = "loopback";
    f.mcr_wrote = false;
    if (uart_be_set_loopback(on) != 0)
        FAIL("uart_be_set_loopback failed");
    unsigned want = on ? f.mcr_read | UART_MCR_LOOP : f.mcr_read & ~(unsigned)UART_MCR_LOOP;
    if (!f.mcr_wrote || f.mcr_written != want)
        FAIL("loopback %d: MCR read %#x, written %#x", on, f.mcr_read, f.mcr_written);
}

static void op_flush(void)
{
    op_name = "flush_polled";
    f.flushing = true;
    uart_be_flush_polled();
    f.flushing = false;
    if (ring_used(&tx) != 0)
        FAIL("flush left %u bytes in the ring", ring_used(&tx));
}

/* ---- setup ------------------------------------------------------------------ */

static void reset_backend(void)
{
    /* async.c's statics, as at boot (those only blocking calls change,
     * such as the writer's wanted space, are never touched here). */
    cfg = NULL;
    memset(&tx, 0, sizeof tx);
    memset(&rx, 0, sizeof rx);
    tx_space_waiter = drain_waiter = rx_waiter = (struct waker){ 0 };
    thre_on = false;
    fifo_empty_seen = false;
    fifo_empty_ns = 0;
    ier = 0;
    char_ns = 0;
    ctr = (struct uart_counters){ 0 };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint16_t depths[] = { 1, 16, 64, 128, 256, 2, 8, 32 };
    static const uint32_t bauds[] = { 115200, 9600, 1500000, 3000000 };

    if (!tx_log && !(tx_log = malloc(LOG_MAX)))
        abort();
    in_p = data;
    in_n = size;
    op_no = 0;
    op_name = "setup";
    memset(&f, 0, sizeof f);
    f.ier_written = -1;
    tx_log_n = tx_log_sent = 0;
    rx_q_n = 0;
    now_ns = 0;
    handler = NULL;
    woken = in_isr = false;
    memset(&host_csr, 0, sizeof host_csr);
    host_csr.xstatus = XSTATUS_XIE;
    reset_backend();

    uint8_t c0 = take8(), c1 = take8();
    bool dw = c0 & 1;
    f.cfg = (struct uart_cfg){
        .base = dw ? BASE_DW : BASE_16550,
        .reg_shift = dw ? 2 : (c0 & 2 ? 2 : 0),
        .io_width = dw ? 4 : (c0 & 2) && (c0 & 4) ? 4 : 1,
        .dw_apb = dw,
        .clock_hz = dw ? 24000000 : 3686400,
        .baud = bauds[c1 & 3],
        .fifo_depth = depths[(c0 >> 3) & 7],
    };
    f.ier_written = -1;
    if (uart_be_init(&f.cfg, IRQ) != 0 || !handler)
        FAIL("uart_be_init failed");
    check_state();

    while (more()) {
        uint8_t op = take8();
        op_no++;
        f.op_accesses = 0;
        blocks_this_op = 0;
        switch (op % 16) {
        case 0: case 1: case 2: case 3: case 4: case 5:
            op_name = "interrupt";
            run_isr();
            break;
        case 6: case 7: case 8: op_write(); break;
        case 9: op_read(); break;
        case 10: op_counters(); break;
        case 11: op_counters_reset(); break;
        case 12: op_tx_pending(); break;
        case 13: op_drain(); break;
        case 14: op_loopback(); break;
        default: op_flush(); break;
        }
        check_state();
    }
    /* Whatever is left: the counters still add up. */
    op_counters();
    return 0;
}
