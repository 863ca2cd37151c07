/* Register-level fake 16550 / DesignWare APB UART: the model's state and
 * the helpers its files share (fake_uart.c: state, time, interrupts,
 * knobs; fake_uart_fifo.c: TX and RX FIFOs; fake_uart_regs.c: register
 * file). Not for tests, which use fake_uart.h. */
#ifndef FAKE_UART_STATE_H
#define FAKE_UART_STATE_H

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

struct fu_model {
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
    bool thr_run;                  /* the last access was a THR store */
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
    bool temt_stuck, tx_stalled;   /* faults */
    uint64_t hold_until;           /* the line held until then (0: not held) */
    unsigned thre_drop;            /* FIFO-empty edges still to raise no THRE */
    void (*access_hook)(void);
    uint64_t stall_since;
    /* observation */
    struct fu_out *out;
    size_t out_n, out_cap;
    struct fu_stats st;
    unsigned errors;
    bool quiet;
};

/* The one fake UART (fake_uart.c). */
extern struct fu_model fu;

/* Record a model error and print it (at most MAX_PRINTED_ERRORS, unless
 * quiet). */
void fu_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* fake_uart_fifo.c */
/* FIFO depth in effect: the configured one, 1 with FIFOs disabled. */
unsigned fu_depth(void);
/* RX trigger level from FCR bits 7:6. */
unsigned fu_rx_trigger(void);
/* The shifter finished its character at sh_done: out, or to RX in loopback. */
void fu_tx_complete(void);
/* The line's hold ended at t: the shifter takes the next byte. */
void fu_tx_unhold(uint64_t t);
/* A store to THR. */
void fu_thr_write(uint8_t b);
/* A byte in the TX FIFO or the shifter. */
bool fu_tx_active(void);
/* A byte (with error flags) reaches the RX FIFO at time t, or overruns it. */
void fu_rx_arrive(uint64_t t, uint8_t b, unsigned flags);
/* When the RX timeout fires; UINT64_MAX if it cannot. */
uint64_t fu_rx_timeout_at(void);

/* fake_uart.c */
/* Highest-priority pending cause (IIR bits 3:0), 0x1 when none. */
uint8_t fu_iir_id(void);

/* fake_uart_regs.c */
/* LSR as a read would return it, without its side effects. */
uint8_t fu_lsr_value(void);

#endif
