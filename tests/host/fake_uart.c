/* Register-level fake 16550 / DesignWare APB UART; see fake_uart.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_mmio.h"
#include "fake_uart.h"

/* Register indices (offset = index << reg_shift). */
enum { R_RBR = 0, R_IER = 1, R_IIR = 2, R_LCR = 3, R_MCR = 4, R_LSR = 5,
       R_MSR = 6, R_SCR = 7, R_USR = 0x7C >> 2, R_TFL = 0x80 >> 2,
       R_RFL = 0x84 >> 2, R_CPR = 0xF4 >> 2 };

#define IER_ERBFI 0x01
#define IER_ETBEI 0x02
#define IER_ELSI  0x04
#define IER_EDSSI 0x08
#define LSR_DR    0x01
#define LSR_OE    0x02
#define LSR_ERR   0x1C    /* PE | FE | BI */
#define LSR_THRE  0x20
#define LSR_TEMT  0x40
#define LSR_FIFOE 0x80
#define LCR_DLAB  0x80
#define MCR_LOOP  0x10
#define MAX_PRINTED_ERRORS 20
#define MAX_RX_SCHED 4096

struct rx_ent { uint8_t b, err; };
struct rx_sched { uint64_t t; uint8_t b, flags; };

static struct {
    struct fu_config c;
    uint64_t now, limit;
    /* registers */
    uint8_t ier, lcr, mcr, scr, dll, dlm, fcr;
    bool fifo_en;
    /* TX */
    uint8_t txf[FU_MAX_DEPTH];
    unsigned tx_head, tx_count;
    bool sh_busy;
    uint8_t sh_byte;
    uint64_t sh_done;
    bool thr_ip;
    /* RX */
    struct rx_ent rxf[FU_MAX_DEPTH];
    unsigned rx_head, rx_count;
    bool oe;
    uint64_t rx_last;              /* last RX arrival or RBR read */
    struct rx_sched sched[MAX_RX_SCHED];
    unsigned sched_n;
    bool rx_to_nodata;
    /* modem status, DW */
    bool msr_ip;
    bool busy_detect;
    unsigned force_lcr_busy;
    unsigned spurious;
    uint64_t spur_period, spur_next;
    /* observation */
    struct fu_out *out;
    size_t out_n, out_cap;
    struct fu_stats st;
    unsigned errors;
    bool quiet;
} u = { .limit = UINT64_MAX };

_Noreturn void fu_fatal(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fake_uart: FATAL at t=%llu ns: ", (unsigned long long)u.now);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void fu_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fu_error(const char *fmt, ...)
{
    va_list ap;
    if (u.errors++ < MAX_PRINTED_ERRORS && !u.quiet) {
        fprintf(stderr, "fake_uart: ERROR at t=%llu ns: ", (unsigned long long)u.now);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
}

/* ---- configuration and state ---------------------------------------- */

void fu_init(const struct fu_config *c)
{
    uint64_t now = u.now, limit = u.limit;
    bool quiet = u.quiet;
    unsigned errors = u.errors;
    free(u.out);
    memset(&u, 0, sizeof u);
    u.now = now;
    u.limit = limit;
    u.quiet = quiet;
    u.errors = errors;
    u.c = *c;
    if (c->fifo_depth < 1 || c->fifo_depth > FU_MAX_DEPTH)
        fu_fatal("fifo_depth %u not in 1..%u", c->fifo_depth, FU_MAX_DEPTH);
    if ((c->width != 1 && c->width != 4) || c->reg_shift > 2 ||
        c->width > (1u << c->reg_shift) || c->char_ns == 0)
        fu_fatal("bad fake config: width %u shift %u char_ns %llu", c->width,
                 c->reg_shift, (unsigned long long)c->char_ns);
    u.thr_ip = false;
}

const struct fu_config *fu_cfg(void) { return &u.c; }
uint64_t fu_now(void) { return u.now; }
void fu_set_time_limit(uint64_t abs_ns) { u.limit = abs_ns; }

static unsigned depth(void) { return u.fifo_en ? u.c.fifo_depth : 1; }

static unsigned rx_trigger(void)
{
    static const unsigned num[4] = { 0, 1, 2, 0 };
    unsigned d = depth(), sel = u.fcr >> 6, t;
    if (!u.fifo_en || d < 4)
        return 1;
    if (sel == 0)
        return 1;
    t = sel == 3 ? d - 2 : d * num[sel] / 4;
    return t ? t : 1;
}

/* ---- TX ----------------------------------------------------------------- */

/* Move the next FIFO byte into an idle shifter at time t. */
static void tx_load(uint64_t t)
{
    if (u.sh_busy || !u.tx_count)
        return;
    u.sh_byte = u.txf[u.tx_head];
    u.tx_head = (u.tx_head + 1) % FU_MAX_DEPTH;
    u.tx_count--;
    u.sh_busy = true;
    u.sh_done = t + u.c.char_ns;
    if (u.tx_count == 0) {          /* FIFO-empty transition */
        u.thr_ip = true;
        u.st.thre_raised++;
    }
}

static void rx_arrive(uint64_t t, uint8_t b, unsigned flags);

static void tx_complete(void)
{
    uint64_t t = u.sh_done;
    u.sh_busy = false;
    if (u.mcr & MCR_LOOP) {
        u.st.loopback_bytes++;
        rx_arrive(t, u.sh_byte, 0);
    } else {
        if (u.out_n == u.out_cap) {
            u.out_cap = u.out_cap ? 2 * u.out_cap : 4096;
            u.out = realloc(u.out, u.out_cap * sizeof *u.out);
            if (!u.out)
                fu_fatal("out of memory");
        }
        u.out[u.out_n++] = (struct fu_out){ u.sh_byte, t };
    }
    tx_load(t);
}

static void thr_write(uint8_t b)
{
    u.st.thr_writes++;
    if (u.tx_count)
        u.st.thr_not_thre++;
    u.thr_ip = false;
    if (u.tx_count >= depth()) {
        u.st.lost_stores++;
    } else {
        u.txf[(u.tx_head + u.tx_count) % FU_MAX_DEPTH] = b;
        u.tx_count++;
        if (u.tx_count > u.st.max_tx_level)
            u.st.max_tx_level = u.tx_count;
    }
    tx_load(u.now);
}

static bool tx_active(void) { return u.sh_busy || u.tx_count; }

/* ---- RX ----------------------------------------------------------------- */

static void rx_arrive(uint64_t t, uint8_t b, unsigned flags)
{
    u.rx_last = t;
    if (u.rx_count >= depth()) {
        u.oe = true;
        u.st.rx_lost++;
        return;
    }
    u.rxf[(u.rx_head + u.rx_count) % FU_MAX_DEPTH] =
        (struct rx_ent){ b, (uint8_t)(flags & LSR_ERR) };
    u.rx_count++;
}

void fu_rx_inject_at(uint64_t t, uint8_t b, unsigned flags)
{
    unsigned i;
    if (t <= u.now) {
        rx_arrive(u.now, b, flags);
        return;
    }
    if (u.sched_n == MAX_RX_SCHED)
        fu_fatal("too many scheduled RX bytes");
    for (i = u.sched_n; i > 0 && u.sched[i - 1].t > t; i--)
        u.sched[i] = u.sched[i - 1];
    u.sched[i] = (struct rx_sched){ t, b, (uint8_t)flags };
    u.sched_n++;
}

void fu_rx_inject(uint8_t b, unsigned flags) { fu_rx_inject_at(u.now, b, flags); }

static uint64_t rx_timeout_at(void)
{
    if (!u.fifo_en || !u.rx_count || u.rx_count >= rx_trigger())
        return UINT64_MAX;
    return u.rx_last + 4 * u.c.char_ns;
}

/* ---- interrupts ----------------------------------------------------------- */

static bool rls_pending(void)
{
    return (u.ier & IER_ELSI) &&
           (u.oe || (u.rx_count && u.rxf[u.rx_head].err));
}

static bool timeout_pending(void)
{
    return (u.ier & IER_ERBFI) && (u.rx_to_nodata || u.now >= rx_timeout_at());
}

/* Highest-priority pending cause (IIR bits 3:0), 0x1 when none. */
static uint8_t iir_id(void)
{
    if (rls_pending())
        return 0x6;
    if ((u.ier & IER_ERBFI) && u.rx_count >= rx_trigger())
        return 0x4;
    if (timeout_pending())
        return 0xC;
    if ((u.ier & IER_ETBEI) && u.thr_ip)
        return 0x2;
    if ((u.ier & IER_EDSSI) && u.msr_ip)
        return 0x0;
    if (u.c.dw && u.busy_detect)
        return 0x7;
    return 0x1;
}

bool fu_irq_line(void) { return u.spurious || iir_id() != 0x1; }

/* ---- time --------------------------------------------------------------- */

static uint64_t next_internal(void)
{
    uint64_t t = UINT64_MAX, to;
    if (u.sh_busy && u.sh_done < t)
        t = u.sh_done;
    if (u.sched_n && u.sched[0].t < t)
        t = u.sched[0].t;
    if (u.spur_period && u.spur_next < t)
        t = u.spur_next;
    to = rx_timeout_at();
    if (to > u.now && to < t && (u.ier & IER_ERBFI))
        t = to;
    return t;
}

uint64_t fu_next_event(void)
{
    uint64_t t = next_internal();
    return t < u.now ? u.now : t;
}

void fu_advance_to(uint64_t t)
{
    if (t <= u.now)
        return;
    if (t > u.limit)
        fu_fatal("time limit exceeded (asked for t=%llu, limit %llu): hang?",
                 (unsigned long long)t, (unsigned long long)u.limit);
    for (;;) {
        uint64_t e = next_internal();
        if (e > t)
            break;
        if (e > u.now)
            u.now = e;
        if (u.sh_busy && u.sh_done <= e)
            tx_complete();
        while (u.sched_n && u.sched[0].t <= e) {
            rx_arrive(u.sched[0].t, u.sched[0].b, u.sched[0].flags);
            memmove(&u.sched[0], &u.sched[1], --u.sched_n * sizeof u.sched[0]);
        }
        if (u.spur_period && u.spur_next <= e) {
            u.spurious++;
            u.spur_next += u.spur_period;
        }
    }
    u.now = t;
}

/* ---- register file ------------------------------------------------------ */

static uint8_t lsr_value(void)
{
    uint8_t v = 0;
    if (u.rx_count) {
        v |= LSR_DR | u.rxf[u.rx_head].err;
        for (unsigned i = 0; i < u.rx_count && u.fifo_en; i++)
            if (u.rxf[(u.rx_head + i) % FU_MAX_DEPTH].err)
                v |= LSR_FIFOE;
    }
    if (u.oe)
        v |= LSR_OE;
    if (!u.tx_count)
        v |= LSR_THRE;
    if (!tx_active())
        v |= LSR_TEMT;
    return v;
}

static uint32_t usr_value(void)
{
    uint32_t v = 0;
    if (tx_active())
        v |= 0x01;                        /* BUSY */
    if (u.tx_count < depth())
        v |= 0x02;                        /* TFNF */
    if (!u.tx_count)
        v |= 0x04;                        /* TFE */
    if (u.rx_count)
        v |= 0x08;                        /* RFNE */
    if (u.rx_count >= depth())
        v |= 0x10;                        /* RFF */
    return v;
}

/* Register index of addr, or -1 (error recorded). */
static int decode(uintptr_t addr, unsigned width, bool write)
{
    uintptr_t off, stride = (uintptr_t)1 << u.c.reg_shift;
    int r;

    u.st.accesses++;
    if (width == 1 || width == 2 || width == 4)
        u.st.widths_seen |= 1u << width;
    if (addr < u.c.base || addr - u.c.base >= 0x100) {
        fu_error("%s of %#lx: outside the UART", write ? "write" : "read",
                 (unsigned long)addr);
        return -1;
    }
    off = addr - u.c.base;
    u.st.offsets_or |= off;
    if (width != u.c.width) {
        fu_error("%s of offset %#lx with width %u (UART takes %u-byte accesses)",
                 write ? "write" : "read", (unsigned long)off, width, u.c.width);
        return -1;
    }
    if (off % stride || off % width) {
        fu_error("%s of offset %#lx: not on the %lu-byte register stride",
                 write ? "write" : "read", (unsigned long)off, (unsigned long)stride);
        return -1;
    }
    r = (int)(off / stride);
    if (r <= R_SCR)
        return r;
    if (u.c.dw && (r == R_USR || r == R_TFL || r == R_RFL || r == R_CPR))
        return r;
    fu_error("%s of offset %#lx: no register there%s", write ? "write" : "read",
             (unsigned long)off, u.c.dw ? "" : " (not a DW UART)");
    return -1;
}

uint32_t fake_mmio_read(uintptr_t addr, unsigned width)
{
    int r;
    uint32_t v = 0;

    fu_advance_to(u.now + u.c.access_ns);
    r = decode(addr, width, false);
    if (r < 0)
        return 0;
    u.st.reads++;
    switch (r) {
    case R_RBR:
        if (u.lcr & LCR_DLAB)
            return u.dll;
        if (u.rx_to_nodata) {
            u.rx_to_nodata = false;
            u.st.timeout_cleared++;
        }
        u.rx_last = u.now;
        if (!u.rx_count) {
            u.st.rbr_empty_reads++;
            return 0;
        }
        v = u.rxf[u.rx_head].b;
        u.rx_head = (u.rx_head + 1) % FU_MAX_DEPTH;
        u.rx_count--;
        return v;
    case R_IER:
        return (u.lcr & LCR_DLAB) ? u.dlm : u.ier;
    case R_IIR: {
        uint8_t fifo = u.fifo_en ? 0xC0 : 0;
        u.st.iir_reads++;
        if (u.spurious) {
            u.spurious--;
            u.st.c1_reads++;
            if (u.tx_count > 0 && u.tx_count < depth())
                u.st.c1_partial++;
            return fifo | 0x1;
        }
        uint8_t id = iir_id();
        if (id == 0x2) {
            u.thr_ip = false;
            u.st.iir_thri++;
        }
        return fifo | id;
    }
    case R_LCR:
        return u.lcr;
    case R_MCR:
        return u.mcr;
    case R_LSR:
        v = lsr_value();
        u.oe = false;
        if (u.rx_count)
            u.rxf[u.rx_head].err = 0;
        return v;
    case R_MSR:
        v = 0xB0 | (u.msr_ip ? 0x01 : 0);   /* DCD, DSR, CTS; DCTS delta */
        u.msr_ip = false;
        return v;
    case R_SCR:
        return u.scr;
    case R_USR:
        u.busy_detect = false;
        return usr_value();
    case R_TFL:
        return u.tx_count;
    case R_RFL:
        return u.rx_count;
    case R_CPR:
        return (uint32_t)(u.c.fifo_depth / 16) << 16 | 0x10 | 0x2; /* FIFO_MODE, FIFO_STAT, 32-bit APB */
    }
    return 0;
}

void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value)
{
    int r;
    uint8_t v = (uint8_t)value;

    fu_advance_to(u.now + u.c.access_ns);
    r = decode(addr, width, true);
    if (r < 0)
        return;
    u.st.writes++;
    if (value > 0xFF)
        fu_error("write of %#x to register %d: more than 8 bits", value, r);
    switch (r) {
    case R_RBR:
        if (u.lcr & LCR_DLAB)
            u.dll = v;
        else
            thr_write(v);
        return;
    case R_IER:
        if (u.lcr & LCR_DLAB) {
            u.dlm = v;
        } else {
            bool was = u.ier & IER_ETBEI;
            u.ier = v & 0x0F;
            if (!was && (u.ier & IER_ETBEI) && !u.tx_count) {
                u.thr_ip = true;
                u.st.thre_raised++;
            }
        }
        return;
    case R_IIR: {   /* FCR */
        bool en = v & 0x01;
        if (en != u.fifo_en) {           /* changing the mode resets both */
            u.tx_count = u.rx_count = 0;
            u.fifo_en = en;
        }
        if (v & 0x02)
            u.rx_count = 0;
        if ((v & 0x04) && u.tx_count) {
            u.tx_count = 0;
            u.thr_ip = true;
            u.st.thre_raised++;
        }
        u.fcr = v & 0xC9;
        return;
    }
    case R_LCR:
        u.st.lcr_writes++;
        if (u.c.dw && (tx_active() || u.force_lcr_busy)) {
            if (u.force_lcr_busy)
                u.force_lcr_busy--;
            u.st.lcr_ignored++;
            u.st.busy_raised++;
            u.busy_detect = true;
            return;
        }
        u.lcr = v;
        return;
    case R_MCR:
        u.mcr = v & 0x1F;
        return;
    case R_SCR:
        u.scr = v;
        return;
    default:
        fu_error("write of %#x to read-only register at index %d", value, r);
        return;
    }
}

/* ---- knobs and observation ---------------------------------------------- */

void fu_force_lcr_busy(unsigned k) { u.force_lcr_busy = k; }
void fu_spurious(unsigned n) { u.spurious += n; }
void fu_spurious_period(uint64_t ns)
{
    u.spur_period = ns;
    u.spur_next = u.now + ns;
}
void fu_rx_timeout_nodata(void) { u.rx_to_nodata = true; }
void fu_msr_change(void) { u.msr_ip = true; }

uint8_t fu_lsr_peek(void) { return lsr_value(); }
unsigned fu_tx_level(void) { return u.tx_count; }
bool fu_shifter_busy(void) { return u.sh_busy; }
bool fu_busy_detect_pending(void) { return u.busy_detect; }
bool fu_rx_timeout_pending(void) { return u.rx_to_nodata; }
uint8_t fu_reg_ier(void) { return u.ier; }
uint8_t fu_reg_lcr(void) { return u.lcr; }
uint8_t fu_reg_mcr(void) { return u.mcr; }
uint8_t fu_reg_dll(void) { return u.dll; }
uint8_t fu_reg_dlm(void) { return u.dlm; }
bool fu_fifo_enabled(void) { return u.fifo_en; }
size_t fu_out_count(void) { return u.out_n; }
const struct fu_out *fu_out_buf(void) { return u.out; }
void fu_out_clear(void) { u.out_n = 0; }
const struct fu_stats *fu_stats(void) { return &u.st; }
void fu_stats_clear(void) { memset(&u.st, 0, sizeof u.st); }
unsigned fu_errors(void) { return u.errors; }
void fu_errors_clear(void) { u.errors = 0; }
void fu_errors_quiet(bool quiet) { u.quiet = quiet; }
