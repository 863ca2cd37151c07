/* Line arithmetic on a UART's config (uart_cfg.h): divisor, real baud,
 * character time. The same for every 16550-style IP (clock / 16 / divisor). */
#include "uart_cfg.h"

/* Any context: clock / (16 * baud), rounded to nearest, at least 1. */
uint32_t uart_divisor(const struct uart_cfg *c)
{
    uint64_t den = 16ULL * c->baud;
    uint64_t d = ((uint64_t)c->clock_hz + den / 2) / den;
    return d ? (uint32_t)d : 1;
}

/* Any context: clock / (16 * divisor) in milli-baud. */
uint64_t uart_real_baud_milli(const struct uart_cfg *c)
{
    return (uint64_t)c->clock_hz * 1000ULL / (16ULL * uart_divisor(c));
}

/* Any context: 10 * 16 * divisor / clock, in ns. */
uint64_t uart_char_ns(const struct uart_cfg *c)
{
    return 10ULL * 16ULL * uart_divisor(c) * 1000000000ULL / c->clock_hz;
}
