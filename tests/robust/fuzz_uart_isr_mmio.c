/* libFuzzer target fuzz_uart_isr: the fake UART behind the register
 * seam (fake_mmio.h), a 16550 or, with FUZZ_LOWER_DW, a DW APB UART. Every register read returns the next input byte;
 * what the driver does with the values is recorded and checked
 * (fuzz_uart_isr.h). */
#include "fake_mmio.h"
#include "fuzz_uart_isr.h"

/* ---- the fake UART: input bytes in, accounting out ---------------------- */

#define LSR_ERRS (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)

struct fake_uart f;

/* Every byte accepted by uart_be_write, in order; THR stores must match. */
uint8_t *tx_log;
size_t tx_log_n, tx_log_sent;
/* RX model: bytes the handler took as data and had room for. */
uint8_t rx_q[UART_RX_RING_SIZE];
size_t rx_q_n;

/* Failure messages: register r's name. */
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
    case FZ_USR: return "USR";
    case FZ_TFL: return "TFL";
    case FZ_RFL: return "RFL";
    case FZ_CPR: return "CPR";
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
    bool ok = r <= UART_SCR || (FUZZ_LOWER_DW && (r == FZ_USR || r == FZ_TFL ||
                                                  r == FZ_RFL || r == FZ_CPR));
    if (!ok)
        FAIL("%s of offset %#lx: no such register on this UART",
             write ? "write" : "read", (unsigned long)off);
    return r;
}

/* One round of the handler: its IIR read, then at most an RX drain (4 x
 * depth LSR+RBR pairs and the LSR that ends it, or a dummy RBR), a TX
 * refill (a room read unless IIR said THRI, depth stores, IER) or one
 * more read. */
void check_round(void)
{
    uint64_t d = f.depth;
    if (f.round_accesses > 8 * d + 3 || f.round_rx_data > 4 * d)
        FAIL("one handler round made %llu register accesses and took %llu RX bytes "
             "(depth %llu)", (unsigned long long)f.round_accesses,
             (unsigned long long)f.round_rx_data, (unsigned long long)d);
}

/* Every access: fake time, the per-run, per-round and per-op counts. */
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
 * "no interrupt" unless built with -DFUZZ_RESERVED_IIR=1 (docs/robustness.md). */
static uint32_t iir_value(void)
{
    static const uint8_t ids[] = { UART_IIR_NO_INT, UART_IIR_THRI, UART_IIR_RDI,
                                   UART_IIR_RLSI, FZ_IIR_BUSY, UART_IIR_RX_TIMEOUT, 0x00 };
    if (!more())
        return 0xC0 | UART_IIR_NO_INT;
    uint8_t b = take8();
    uint32_t v = b < 0xE0 ? 0xC0u | ids[b % 7] : take8();
#if !FUZZ_RESERVED_IIR
    unsigned id = v & UART_IIR_ID;
    if (!FUZZ_LOWER_DW && id != 0x0 && id != UART_IIR_NO_INT && id != UART_IIR_THRI &&
        id != UART_IIR_RDI && id != UART_IIR_RLSI && id != UART_IIR_RX_TIMEOUT)
        v = (v & ~(uint32_t)UART_IIR_ID) | UART_IIR_NO_INT;
#endif
    return v;
}

/* The seam (uart_read_raw), any context: the next input byte as the
 * register's value, what the driver may do with it recorded. */
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
        if (++f.isr_iir_reads > isr_max_rounds)
            FAIL("handler read IIR %u times in one run", f.isr_iir_reads);
        f.round_accesses--;             /* this read starts the new round */
        check_round();
        f.round_accesses = 1;
        f.round_rx_data = 0;
        if (f.isr_first_iir && id == UART_IIR_NO_INT) {
            f.iir_spurious++;
            f.iir_spurious_thre += fuzz_tx_on();
        }
        f.isr_first_iir = false;
        f.iir_thri += id == UART_IIR_THRI;
        f.iir_rx += id == UART_IIR_RDI || id == UART_IIR_RLSI || id == UART_IIR_RX_TIMEOUT;
        /* DW: busy detect is a cause of its own; an RX timeout is RX only
         * if the LSR read after it shows data (else the lower half ends it
         * with a dummy RBR read). A 16550 serves 0x7 as modem status. */
        f.iir_busy += FUZZ_LOWER_DW && id == FZ_IIR_BUSY;
        f.timeout_probe = FUZZ_LOWER_DW && id == UART_IIR_RX_TIMEOUT;
        if (id == UART_IIR_THRI)
            f.credit = f.depth;         /* THRE's interrupt: the FIFO is empty */
        break;
    }
    case UART_LSR:
        v = take8_or(UART_LSR_THRE | UART_LSR_TEMT);
        if (in_isr && f.timeout_probe && !(v & UART_LSR_DR))
            f.iir_rx--;                             /* a timeout without data */
        f.timeout_probe = false;
        f.last_lsr = v;
        if (!in_isr)
            f.task_lsr = v;
        f.last_lsr_dr = v & UART_LSR_DR;
        if (v & UART_LSR_THRE)
            f.credit = f.depth;                     /* FIFO empty */
        else if (!FUZZ_LOWER_DW)
            f.credit = 0;                           /* 16550: room unknown */
        f.lsr_oe += !!(v & UART_LSR_OE);            /* every LSR read counts these, */
        f.lsr_pe += !!(v & UART_LSR_PE);            /* the polled flush's THRE polls */
        f.lsr_fe += !!(v & UART_LSR_FE);            /* too (a read clears them) */
        f.lsr_bi += !!(v & UART_LSR_BI);
        break;
    case FZ_TFL: {
        uint8_t b = take8();
        v = b < 0xC0 ? b % (f.depth + 1u) : b;      /* sometimes > depth */
        f.last_tfl = v;
        if (!in_isr)
            f.task_tfl = v;
        f.credit = v < f.depth ? (long)(f.depth - v) : 0;
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
    case FZ_USR:
        v = take8_or(FZ_USR_TFNF | FZ_USR_TFE);
        break;
    case UART_LCR:                      /* the store, or now and then garbage */
        v = take8();
        v = v < 0xF0 ? f.lcr : v;
        break;
    case FZ_CPR:                        /* bring-up: FIFO_MODE (x 16 bytes) */
        v = (uint32_t)take8() << 16;
        break;
    default:
        v = take8();
        break;
    }
    return v;
}

/* The seam (uart_write_raw), any context: checked and recorded. */
void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value)
{
    int r = decode(addr, width, true);
    count_access();
    f.last_lsr_dr = false;
    if (value > 0xFF)
        FAIL("write of %#x to %s: more than 8 bits", value, reg_name(r));
    if ((f.lcr & UART_LCR_DLAB) && (r == UART_THR || r == UART_IER))
        return;                         /* DLL, DLM: the divisor */
    switch (r) {
    case UART_THR:
        if (f.credit <= 0)
            FAIL("THR store with no FIFO room reported (LSR %#x, TFL %u, depth %u)",
                 f.last_lsr, f.last_tfl, f.depth);
        f.credit--;
        if (tx_log_sent >= tx_log_n)
            FAIL("THR store of %#x: no accepted byte left to send", value);
        if (tx_log[tx_log_sent] != value)
            FAIL("THR store %zu is %#x, the accepted byte is %#x", tx_log_sent, value,
                 tx_log[tx_log_sent]);
        tx_log_sent++;
        f.thr_total++;
        f.thr_refill++;                 /* the polled flush's bytes count as sent */
        if (f.flushing)
            f.flushed_total++;
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
    case UART_LCR:
        f.lcr = value;
        break;
    case UART_IIR:      /* FCR */
    case UART_SCR:
        break;
    default:
        FAIL("write of %#x to read-only register %s", value, reg_name(r));
    }
}

/* op_counters, task: every counter against what the fake saw. */
void check_counters(const struct uart_counters *c)
{
#define EQ(field, want) do { if ((uint64_t)(c->field) != (uint64_t)(want)) \
    FAIL("counter " #field " = %llu, the fake saw %llu", \
         (unsigned long long)(c->field), (unsigned long long)(want)); } while (0)
    EQ(user_calls, f.writes);
    EQ(user_req, f.write_req);
    EQ(user_acc, f.write_acc);
    EQ(hw_send_bytes, f.thr_refill);
    EQ(ring_pop_bytes, f.thr_refill);
    /* accepted since the reset + queued at it = taken from the ring + in it */
    EQ(user_acc + c->queued_at_reset, c->ring_pop_bytes + c->staged_bytes);
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
    if (c->hw_send_max_chunk > f.depth)
        FAIL("hw_send_max_chunk %llu > FIFO depth %u",
             (unsigned long long)c->hw_send_max_chunk, f.depth);
    if (c->hw_send_zero > c->hw_send_calls)
        FAIL("hw_send_zero %llu > hw_send_calls %llu",
             (unsigned long long)c->hw_send_zero, (unsigned long long)c->hw_send_calls);
}

