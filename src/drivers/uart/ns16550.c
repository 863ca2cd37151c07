/* 16550-family register layer: access width and stride from the config,
 * divisor programming, DesignWare LCR busy handling, polled output. */
#include <errno.h>
#include "uart_16550.h"

#if WIRE_BAUD
#include "wire_model.h"
#endif

/* Bounded wait for DW USR.BUSY to clear before an LCR write. */
#define UART_DW_BUSY_RETRIES 100000U
/* LCR write attempts on a DW UART before giving up. */
#define UART_LCR_WRITE_TRIES 8U

#if WIRE_BAUD
/* uart_read through cpu_acct_call (sim account, interrupts masked). */
uintptr_t uart_hook_read(uintptr_t c, uintptr_t r, uintptr_t v)
{
    return wire_read((const struct uart_cfg *)c, (enum uart_reg)r, (uint32_t)v);
}

/* uart_write through cpu_acct_call (sim account, interrupts masked). */
uintptr_t uart_hook_write(uintptr_t c, uintptr_t r, uintptr_t pv)
{
    return wire_write((const struct uart_cfg *)c, (enum uart_reg)r, (uint32_t *)pv);
}

/* uart_write_thr_burst through cpu_acct_call (sim account, interrupts
 * masked): how many of n THR stores the modelled FIFO takes. */
uintptr_t uart_hook_thr(uintptr_t c, uintptr_t n, uintptr_t unused)
{
    (void)unused;
    return wire_write_thr((const struct uart_cfg *)c, (uint32_t)n);
}
#endif

#define UART_DW_CPR_FIFO_SHIFT 16
#define UART_DW_CPR_FIFO_MASK  0xFFU
#define UART_DW_CPR_FIFO_UNIT  16U

/* Boot: CPR.FIFO_MODE x 16, 0 when the register is absent (reads 0). */
unsigned uart_fifo_depth_probe(const struct uart_cfg *c)
{
    if (!c->dw_apb)
        return 0;
    uint32_t cpr = uart_read(c, UART_DW_CPR);
    return ((cpr >> UART_DW_CPR_FIFO_SHIFT) & UART_DW_CPR_FIFO_MASK) * UART_DW_CPR_FIFO_UNIT;
}

/* Boot: divisor = clock / (16 * baud), rounded to nearest. */
uint32_t uart_divisor(const struct uart_cfg *c)
{
    uint64_t den = 16ULL * c->baud;
    uint64_t d = ((uint64_t)c->clock_hz + den / 2) / den;
    return d ? (uint32_t)d : 1;
}

/* Manifest and line-rate maths: clock / (16 * divisor) in milli-baud. */
uint64_t uart_real_baud_milli(const struct uart_cfg *c)
{
    return (uint64_t)c->clock_hz * 1000ULL / (16ULL * uart_divisor(c));
}

/* Backends at init: 10 * 16 * divisor / clock, in ns. */
uint64_t uart_char_ns(const struct uart_cfg *c)
{
    return 10ULL * 16ULL * uart_divisor(c) * 1000000000ULL / c->clock_hz;
}

/* Boot: write LCR; on DW the write is ignored while USR.BUSY is set (and
 * raises a busy-detect interrupt), so wait for idle and re-check. */
static int uart_lcr_write(const struct uart_cfg *c, uint32_t lcr)
{
    for (unsigned t = 0; t < UART_LCR_WRITE_TRIES; t++) {
        if (c->dw_apb) {
            unsigned n = 0;
            while (uart_read_bits(c, UART_DW_USR, UART_DW_USR_BUSY) &&
                   n < UART_DW_BUSY_RETRIES)
                n++;
        }
        uart_write(c, UART_LCR, lcr);
        if (!c->dw_apb || uart_read(c, UART_LCR) == lcr)
            return 0;
        (void)uart_read(c, UART_DW_USR);  /* clears a busy-detect IIR */
    }
    return -EIO;
}

/* Boot, interrupts masked: 8N1 at the configured baud, FIFOs on. */
int uart_hw_init(const struct uart_cfg *c)
{
    uint32_t div = uart_divisor(c);

    uart_write(c, UART_IER, 0);
    uart_wait_idle_polled(c);
    if (uart_lcr_write(c, UART_LCR_DLAB | UART_LCR_8N1))
        return -EIO;
    uart_write(c, UART_DLL, div & 0xFF);
    uart_write(c, UART_DLM, (div >> 8) & 0xFF);
    if (uart_lcr_write(c, UART_LCR_8N1))
        return -EIO;
    uart_write(c, UART_FCR, UART_FCR_ENABLE | UART_FCR_CLR_RX | UART_FCR_CLR_TX);
    uart_write(c, UART_MCR, UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2);
    return 0;
}

/* Any context (panic included): wait for THRE, store one byte. */
void uart_putc_polled(const struct uart_cfg *c, char ch)
{
    while (!uart_read_bits(c, UART_LSR, UART_LSR_THRE))
        ;
    uart_write(c, UART_THR, (uint8_t)ch);
}

/* Any context: wait until the last stop bit has left (LSR.TEMT). */
void uart_wait_idle_polled(const struct uart_cfg *c)
{
    while (!uart_read_bits(c, UART_LSR, UART_LSR_TEMT))
        ;
}
