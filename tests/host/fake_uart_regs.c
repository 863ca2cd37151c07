/* Register-level fake UART (fake_uart.h): the register file, i.e. the
 * address decode and the effects of every register read and write
 * (fake_mmio.h). */
#include "fake_mmio.h"
#include "fake_uart_state.h"

/* ---- register file ------------------------------------------------------ */

uint8_t fu_lsr_value(void)
{
    uint8_t v = 0;
    if (fu.rx_count) {
        v |= LSR_DR | fu.rxf[fu.rx_head].err;
        for (unsigned i = 0; i < fu.rx_count && fu.fifo_en; i++)
            if (fu.rxf[(fu.rx_head + i) % FU_MAX_DEPTH].err)
                v |= LSR_FIFOE;
    }
    if (fu.oe)
        v |= LSR_OE;
    if (!fu.tx_count)
        v |= LSR_THRE;
    if (!fu_tx_active() && !fu.temt_stuck)
        v |= LSR_TEMT;
    return v;
}

static uint32_t usr_value(void)
{
    uint32_t v = 0;
    if (fu_tx_active() || fu.temt_stuck)
        v |= 0x01;                        /* BUSY */
    if (fu.tx_count < fu_depth())
        v |= 0x02;                        /* TFNF */
    if (!fu.tx_count)
        v |= 0x04;                        /* TFE */
    if (fu.rx_count)
        v |= 0x08;                        /* RFNE */
    if (fu.rx_count >= fu_depth())
        v |= 0x10;                        /* RFF */
    return v;
}

/* Register index of addr, or -1 (error recorded). */
static int decode(uintptr_t addr, unsigned width, bool write)
{
    uintptr_t off, stride = (uintptr_t)1 << fu.c.reg_shift;
    int r;

    fu.st.accesses++;
    if (width == 1 || width == 2 || width == 4)
        fu.st.widths_seen |= 1u << width;
    if (addr < fu.c.base || addr - fu.c.base >= 0x100) {
        fu_error("%s of %#lx: outside the UART", write ? "write" : "read",
                 (unsigned long)addr);
        return -1;
    }
    off = addr - fu.c.base;
    fu.st.offsets_or |= off;
    if (width != fu.c.width) {
        fu_error("%s of offset %#lx with width %u (UART takes %u-byte accesses)",
                 write ? "write" : "read", (unsigned long)off, width, fu.c.width);
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
    if (fu.c.dw && (r == R_USR || r == R_TFL || r == R_RFL || r == R_CPR))
        return r;
    fu_error("%s of offset %#lx: no register there%s", write ? "write" : "read",
             (unsigned long)off, fu.c.dw ? "" : " (not a DW UART)");
    return -1;
}

/* fake_mmio_read: the read itself. */
static uint32_t reg_read(uintptr_t addr, unsigned width)
{
    int r;
    uint32_t v = 0;

    fu_advance_to(fu.now + fu.c.access_ns);
    fu.thr_run = false;
    r = decode(addr, width, false);
    if (r < 0)
        return 0;
    fu.st.reads++;
    switch (r) {
    case R_RBR:
        if (fu.lcr & LCR_DLAB)
            return fu.dll;
        if (fu.rx_to_nodata) {
            fu.rx_to_nodata = false;
            fu.st.timeout_cleared++;
        }
        fu.rx_last = fu.now;
        if (!fu.rx_count) {
            fu.st.rbr_empty_reads++;
            return 0;
        }
        v = fu.rxf[fu.rx_head].b;
        fu.rx_head = (fu.rx_head + 1) % FU_MAX_DEPTH;
        fu.rx_count--;
        return v;
    case R_IER:
        return (fu.lcr & LCR_DLAB) ? fu.dlm : fu.ier;
    case R_IIR: {
        uint8_t fifo = fu.fifo_en ? 0xC0 : 0;
        fu.st.iir_reads++;
        if (fu.spurious) {
            fu.spurious--;
            fu.st.c1_reads++;
            if (fu.tx_count > 0 && fu.tx_count < fu_depth())
                fu.st.c1_partial++;
            return fifo | 0x1;
        }
        uint8_t id = fu_iir_id();
        if (id == 0x2) {
            fu.thr_ip = false;
            fu.st.iir_thri++;
        }
        return fifo | id;
    }
    case R_LCR:
        return fu.lcr;
    case R_MCR:
        return fu.mcr;
    case R_LSR:
        v = fu_lsr_value();
        fu.oe = false;
        if (fu.rx_count)
            fu.rxf[fu.rx_head].err = 0;
        return v;
    case R_MSR:
        v = 0xB0 | (fu.msr_ip ? 0x01 : 0);   /* DCD, DSR, CTS; DCTS delta */
        fu.msr_ip = false;
        return v;
    case R_SCR:
        return fu.scr;
    case R_USR:
        fu.busy_detect = false;
        return usr_value();
    case R_TFL:
        return fu.tx_count;
    case R_RFL:
        return fu.rx_count;
    case R_CPR:
        return (uint32_t)(fu.c.fifo_depth / 16) << 16 | 0x10 | 0x2; /* FIFO_MODE, FIFO_STAT, 32-bit APB */
    }
    return 0;
}

/* fake_mmio_write: the write itself. */
static void reg_write(uintptr_t addr, unsigned width, uint32_t value)
{
    int r;
    uint8_t v = (uint8_t)value;

    fu_advance_to(fu.now + fu.c.access_ns);
    bool run = fu.thr_run;
    fu.thr_run = false;
    r = decode(addr, width, true);
    if (r < 0)
        return;
    fu.st.writes++;
    if (value > 0xFF)
        fu_error("write of %#x to register %d: more than 8 bits", value, r);
    switch (r) {
    case R_RBR:
        if (fu.lcr & LCR_DLAB) {
            fu.dll = v;
        } else {
            fu.st.thr_runs += !run;
            fu.thr_run = true;
            fu_thr_write(v);
        }
        return;
    case R_IER:
        if (fu.lcr & LCR_DLAB) {
            fu.dlm = v;
        } else {
            bool was = fu.ier & IER_ETBEI;
            fu.ier = v & 0x0F;
            if (!was && (fu.ier & IER_ETBEI) && !fu.tx_count) {
                fu.thr_ip = true;
                fu.st.thre_raised++;
            }
        }
        return;
    case R_IIR: {   /* FCR */
        bool en = v & 0x01;
        if (en != fu.fifo_en) {           /* changing the mode resets both */
            fu.tx_count = fu.rx_count = 0;
            fu.fifo_en = en;
        }
        if (v & 0x02)
            fu.rx_count = 0;
        if ((v & 0x04) && fu.tx_count) {
            fu.tx_count = 0;
            fu.thr_ip = true;
            fu.st.thre_raised++;
        }
        fu.fcr = v & 0xC9;
        return;
    }
    case R_LCR:
        fu.st.lcr_writes++;
        if (fu.c.dw && (fu_tx_active() || fu.force_lcr_busy)) {
            if (fu.force_lcr_busy)
                fu.force_lcr_busy--;
            fu.st.lcr_ignored++;
            fu.st.busy_raised++;
            fu.busy_detect = true;
            return;
        }
        fu.lcr = v;
        return;
    case R_MCR:
        fu.mcr = v & 0x1F;
        return;
    case R_SCR:
        fu.scr = v;
        return;
    default:
        fu_error("write of %#x to read-only register at index %d", value, r);
        return;
    }
}

/* The register layer (HOST_TEST), any context: one access, with the
 * access hook on either side of it: an interrupt may come just before the
 * instruction or just after it (e.g. the IER store that enables one whose
 * condition holds). */
uint32_t fake_mmio_read(uintptr_t addr, unsigned width)
{
    if (fu.access_hook)
        fu.access_hook();
    uint32_t v = reg_read(addr, width);
    if (fu.access_hook)
        fu.access_hook();
    return v;
}

void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t value)
{
    if (fu.access_hook)
        fu.access_hook();
    reg_write(addr, width, value);
    if (fu.access_hook)
        fu.access_hook();
}
