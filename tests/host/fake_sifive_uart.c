/* The fake SiFive UART (fake_sifive_uart.h): fake_mmio_* for a lower
 * half built against the seam with HOST_TEST. */
#include <string.h>
#include "fake_mmio.h"
#include "fake_sifive_uart.h"

enum { TXDATA, RXDATA, TXCTRL, RXCTRL, IE, IP, DIV, NREGS };
#define FULL_EMPTY 0x80000000U

static struct fs_regs s;
static uint8_t tx_fifo[FS_FIFO], rx_fifo[FS_FIFO];
static unsigned drain_every, reads, errors;

/* Tests. */
void fs_reset(void)
{
    memset(&s, 0, sizeof s);
    drain_every = reads = errors = 0;
}
struct fs_regs *fs_regs(void) { return &s; }
unsigned fs_errors(void) { return errors; }
void fs_tx_drain_every(unsigned k) { drain_every = k; }

/* Tests, and the fake's own polling drain. */
void fs_tx_drain(unsigned n)
{
    while (n-- && s.tx_level) {
        if (s.n_sent < sizeof s.sent)
            s.sent[s.n_sent++] = tx_fifo[0];
        memmove(tx_fifo, tx_fifo + 1, --s.tx_level);
    }
}

/* Tests. */
bool fs_rx_inject(uint8_t b)
{
    if (s.rx_level == FS_FIFO)
        return false;
    rx_fifo[s.rx_level++] = b;
    return true;
}

/* The ip register as the hardware computes it. */
static uint32_t ip(void)
{
    uint32_t v = 0;
    if (s.tx_level < ((s.txctrl >> 16) & 7U))
        v |= 1U;
    if (s.rx_level > ((s.rxctrl >> 16) & 7U))
        v |= 2U;
    return v;
}

/* Tests. */
bool fs_irq_line(void)
{
    return (ip() & s.ie) != 0;
}

/* A register index of addr, or -1 (counted as an error). */
static int reg_of(uintptr_t addr, unsigned width)
{
    uintptr_t off = addr - FS_BASE;
    if (width != 4 || addr < FS_BASE || off % 4 || off / 4 >= NREGS) {
        errors++;
        return -1;
    }
    return (int)(off / 4);
}

/* A poll of txdata or ip: the line may take a byte now. */
static void polled(void)
{
    if (drain_every && ++reads % drain_every == 0)
        fs_tx_drain(1);
}

/* The seam, HOST_TEST. */
uint32_t fake_mmio_read(uintptr_t addr, unsigned width)
{
    uint32_t v;
    switch (reg_of(addr, width)) {
    case TXDATA:
        s.txdata_reads++;
        polled();
        return s.tx_level == FS_FIFO ? FULL_EMPTY : 0;
    case RXDATA:
        if (!s.rx_level)
            return FULL_EMPTY;
        v = rx_fifo[0];
        memmove(rx_fifo, rx_fifo + 1, --s.rx_level);
        return v;
    case TXCTRL: return s.txctrl;
    case RXCTRL: return s.rxctrl;
    case IE: return s.ie;
    case IP:
        s.ip_reads++;
        polled();
        return ip();
    case DIV: return s.div;
    default: return 0;
    }
}

/* The seam, HOST_TEST: a txdata store into a full FIFO is lost. */
void fake_mmio_write(uintptr_t addr, unsigned width, uint32_t v)
{
    switch (reg_of(addr, width)) {
    case TXDATA:
        if (s.tx_level == FS_FIFO)
            s.dropped_tx++;
        else
            tx_fifo[s.tx_level++] = (uint8_t)v;
        break;
    case TXCTRL: s.txctrl = v; break;
    case RXCTRL: s.rxctrl = v; break;
    case IE: s.ie = v; break;
    case DIV: s.div = v; break;
    case RXDATA:
    case IP:
        errors++;                   /* read-only */
        break;
    default: break;
    }
}
