/* The 16550 register map: what the 16550 family's lower halves
 * (src/drivers/uart/lower_16550.h and those that include it), the wire
 * model that models one, and their register-level fakes know of it. The
 * access itself is the IP-neutral seam's (uart_regs.h). */
#ifndef UART_16550_H
#define UART_16550_H

#include <stdint.h>

/* Register indices (offset = index << reg_shift). */
enum uart_reg {
    UART_RBR = 0, UART_THR = 0, UART_DLL = 0,
    UART_IER = 1, UART_DLM = 1,
    UART_IIR = 2, UART_FCR = 2,
    UART_LCR = 3, UART_MCR = 4, UART_LSR = 5, UART_MSR = 6, UART_SCR = 7,
    UART_DW_RFL = 0x84 >> 2,   /* DesignWare: Receive FIFO Level */
};

#define UART_IER_RDI    0x01   /* received data available */
#define UART_IER_THRI   0x02   /* transmitter holding register empty */
#define UART_IER_RLSI   0x04   /* receiver line status */
#define UART_IIR_NO_INT 0x01
#define UART_IIR_ID     0x0F
#define UART_IIR_MSI    0x00   /* modem status */
#define UART_IIR_THRI   0x02
#define UART_IIR_RDI    0x04
#define UART_IIR_RLSI   0x06
#define UART_IIR_RX_TIMEOUT 0x0C
#define UART_FCR_ENABLE 0x01
#define UART_FCR_CLR_RX 0x02
#define UART_FCR_CLR_TX 0x04
#define UART_FCR_TRIG_SHIFT 6  /* RX trigger, bits 7:6: 1, 4, 8 or 14 bytes */
#define UART_LCR_8N1    0x03
#define UART_LCR_DLAB   0x80
#define UART_MCR_DTR    0x01
#define UART_MCR_RTS    0x02
#define UART_MCR_OUT2   0x08
#define UART_MCR_LOOP   0x10
#define UART_LSR_DR     0x01
#define UART_LSR_OE     0x02
#define UART_LSR_PE     0x04
#define UART_LSR_FE     0x08
#define UART_LSR_BI     0x10
#define UART_LSR_THRE   0x20
#define UART_LSR_TEMT   0x40
#define UART_LSR_ERRORS (UART_LSR_OE | UART_LSR_PE | UART_LSR_FE | UART_LSR_BI)

/* Any context: FCR's RX trigger bits for a level of `bytes` (1, 4, 8,
 * 14; anything else: 1), and the level FCR bits v select. */
static inline uint32_t uart_fcr_trigger(unsigned bytes)
{
    unsigned code = bytes >= 14 ? 3 : bytes >= 8 ? 2 : bytes >= 4 ? 1 : 0;
    return (uint32_t)code << UART_FCR_TRIG_SHIFT;
}
static inline unsigned uart_fcr_level(uint32_t v)
{
    static const unsigned char levels[4] = { 1, 4, 8, 14 };
    return levels[(v >> UART_FCR_TRIG_SHIFT) & 3];
}

#include "uart_regs.h"

#endif
