/* Host tests of the UART driver: the board config and the fake UART for
 * the lower half under test (test_lower.h). */
#include "fake_kernel.h"
#include "fake_uart.h"
#include "test_lower.h"

/* Any test, before the driver's init (the fake's transmitter starts a
 * character at the store: tx_at_store). */
struct uart_cfg lower_cfg(unsigned depth)
{
    if (LOWER_DW)
        return (struct uart_cfg){ .base = 0x02500000, .reg_shift = 2, .io_width = 4,
                                  .clock_hz = 24000000, .baud = 115200,
                                  .fifo_depth = (uint16_t)depth, .tx_at_store = true };
    return (struct uart_cfg){ .base = 0x10000000, .reg_shift = 0, .io_width = 1,
                              .clock_hz = 3686400, .baud = 115200,
                              .fifo_depth = (uint16_t)depth, .tx_at_store = true };
}

/* Any test, before the driver's init: the fake is the UART c describes. */
void lower_fake_init(const struct uart_cfg *c, unsigned depth, uint64_t access_ns)
{
    struct fu_config f = {
        .base = c->base, .reg_shift = c->reg_shift, .width = c->io_width, .dw = LOWER_DW,
        .fifo_depth = depth, .char_ns = uart_char_ns(c), .access_ns = access_ns,
    };
    fu_init(&f);
    fk_init();
}
