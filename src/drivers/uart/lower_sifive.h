/* Lower half: the SiFive UART (sifive,uart0: the FU540's on QEMU's
 * sifive_u, 32-bit registers at a stride of 4). Its register map and
 * rules, all of them here: txdata's FULL bit is the only per-byte TX room
 * check; ip.txwm is pending while the TX FIFO holds fewer than
 * txctrl.txcnt entries, so with txcnt 1 it means "TX FIFO empty" (the
 * TX interrupt, as a 16550's THRE); ip.rxwm is pending while the RX FIFO
 * holds more than rxctrl.rxcnt, so with rxcnt 0 it means "a byte waits"
 * (there is no RX timeout: the trigger is 1 byte, boards/qemu-sifive-u);
 * baud = clock / (div + 1). No shifter-empty bit (the core's rule: the
 * last stop bit leaves a character after the FIFO empties), no line
 * errors, no loopback. Included through uart_lower.h only. */
#ifndef LOWER_SIFIVE_H
#define LOWER_SIFIVE_H

/* Register byte offsets / 4. */
#define SIFIVE_TXDATA 0U
#define SIFIVE_RXDATA 1U
#define SIFIVE_TXCTRL 2U
#define SIFIVE_RXCTRL 3U
#define SIFIVE_IE     4U
#define SIFIVE_IP     5U
#define SIFIVE_DIV    6U
#define SIFIVE_TXDATA_FULL  0x80000000U
#define SIFIVE_RXDATA_EMPTY 0x80000000U
#define SIFIVE_TXCTRL_TXEN  0x1U
#define SIFIVE_RXCTRL_RXEN  0x1U
#define SIFIVE_CNT_SHIFT    16        /* txcnt, rxcnt: bits 18:16 */
#define SIFIVE_IP_TXWM      0x1U
#define SIFIVE_IP_RXWM      0x2U

/* Any: div = clock / baud - 1 rounded to nearest; the baud it gives. */
static inline void sifive_timing(const struct uart_cfg *c, struct uart_timing *t)
{
    uint64_t q = ((uint64_t)c->clock_hz + c->baud / 2) / c->baud;
    uint32_t div = q > 1 ? (uint32_t)(q - 1) : 0;
    *t = (struct uart_timing){
        .divisor = div,
        .baud_milli = (uint64_t)c->clock_hz * 1000ULL / (div + 1ULL),
        .char_ns = 10ULL * (div + 1ULL) * 1000000000ULL / c->clock_hz,
    };
}

/* Any: ip.txwm (txcnt 1): the TX FIFO is empty. */
static inline bool sifive_tx_empty(struct uart_hw *h)
{
    return (uart_read(h->cfg, SIFIVE_IP) & SIFIVE_IP_TXWM) != 0;
}

/* Any: txdata's FULL bit clear (a read of txdata changes nothing). */
static inline bool sifive_tx_ready(struct uart_hw *h)
{
    return !(uart_read(h->cfg, SIFIVE_TXDATA) & SIFIVE_TXDATA_FULL);
}

/* Masked: a FIFO's worth when it is empty, one byte when it is not full. */
static inline unsigned sifive_tx_room(struct uart_hw *h)
{
    return sifive_tx_empty(h) ? h->fifo_depth : sifive_tx_ready(h) ? 1U : 0U;
}

/* Masked: n <= tx_room() bytes into txdata. */
static inline void sifive_tx_load(struct uart_hw *h, const uint8_t *p, size_t n)
{
    uart_write_burst(h->cfg, SIFIVE_TXDATA, p, n);
}

/* Any: nothing in the FIFO (the shifter unseen), else up to a FIFO's
 * worth: all the IP tells. */
static inline unsigned sifive_tx_level(struct uart_hw *h)
{
    return sifive_tx_empty(h) ? 0 : h->fifo_depth;
}

/* Masked: ie from the UART_IRQ_* set. */
static inline void sifive_irq_update(struct uart_hw *h, unsigned set, unsigned clear)
{
    h->irqs = (h->irqs | set) & ~clear;
    h->ier = ((h->irqs & UART_IRQ_TX) ? SIFIVE_IP_TXWM : 0) |
             ((h->irqs & UART_IRQ_RX) ? SIFIVE_IP_RXWM : 0);
    uart_write(h->cfg, SIFIVE_IE, h->ier);
}

/* Masked: ie as the UART reads it back. */
static inline uint32_t sifive_irq_read(struct uart_hw *h)
{
    return uart_read(h->cfg, SIFIVE_IE) & (SIFIVE_IP_TXWM | SIFIVE_IP_RXWM);
}

/* ISR: the enabled pending cause, RX first (a 16550's order); an entry
 * with none is none (the IP raises no interrupt for room alone). */
static inline enum uart_cause sifive_cause(struct uart_hw *h, bool entry)
{
    (void)entry;
    uint32_t ip = uart_read(h->cfg, SIFIVE_IP) & h->ier;
    return (ip & SIFIVE_IP_RXWM) ? UART_CAUSE_RX
         : (ip & SIFIVE_IP_TXWM) ? UART_CAUSE_TX : UART_CAUSE_NONE;
}

/* Masked: rxdata until EMPTY or max; *more from ip.rxwm (rxcnt 0: a byte
 * waits), since a read of rxdata takes the byte it shows. */
static inline unsigned sifive_rx_take(struct uart_hw *h, uint8_t *buf, unsigned max, bool *more)
{
    unsigned n = 0;
    while (n < max) {
        uint32_t v = uart_read(h->cfg, SIFIVE_RXDATA);
        if (v & SIFIVE_RXDATA_EMPTY) {
            *more = false;
            return n;
        }
        buf[n++] = (uint8_t)v;
    }
    *more = (uart_read(h->cfg, SIFIVE_IP) & SIFIVE_IP_RXWM) != 0;
    return n;
}

/* Any, panic included: wait for room, store one byte. */
static inline void sifive_putc_polled(struct uart_hw *h, char ch)
{
    while (!sifive_tx_ready(h))
        ;
    uart_write(h->cfg, SIFIVE_TXDATA, (uint8_t)ch);
}

/* Boot, masked: interrupts off, the watermarks (txcnt 1, rxcnt 0) with
 * both directions on, the FIFO drained of what the firmware sent, then
 * the divisor; what waits in the RX FIFO thrown away. */
static inline int sifive_init(struct uart_hw *h)
{
    const struct uart_cfg *c = h->cfg;
    struct uart_timing t;

    h->fifo_depth = c->fifo_depth;
    h->fifo_source = "board";
    h->irqs = h->ier = 0;
    uart_write(c, SIFIVE_IE, 0);
    uart_write(c, SIFIVE_TXCTRL, SIFIVE_TXCTRL_TXEN | 1U << SIFIVE_CNT_SHIFT);
    uart_write(c, SIFIVE_RXCTRL, SIFIVE_RXCTRL_RXEN);
    while (!sifive_tx_empty(h))
        ;
    sifive_timing(c, &t);
    uart_write(c, SIFIVE_DIV, t.divisor);
    for (unsigned i = 0; i < 2U * c->fifo_depth; i++)
        if (uart_read(c, SIFIVE_RXDATA) & SIFIVE_RXDATA_EMPTY)
            break;
    return 0;
}

static const struct uart_lower uart_lower = {
    .name = "sifive",
    .caps = 0,
    .timing = sifive_timing,
    .init = sifive_init,
    .tx_room = sifive_tx_room,
    .tx_ready = sifive_tx_ready,
    .tx_load = sifive_tx_load,
    .tx_empty = sifive_tx_empty,
    .tx_level = sifive_tx_level,
    .irq_update = sifive_irq_update,
    .irq_read = sifive_irq_read,
    .cause = sifive_cause,
    .rx_take = sifive_rx_take,
    .loopback = NULL,
    .putc_polled = sifive_putc_polled,
};

#endif
