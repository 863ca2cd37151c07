/* libFuzzer target fuzz_uart_isr (fuzz_uart_isr.c), built once per lower
 * half (FUZZ_LOWER_DW, UART_LOWER_HEADER): what its files share.
 * fuzz_uart_isr_kernel.c holds the input decoder and the fake kernel
 * (time, interrupt registration and delivery, blocking);
 * fuzz_uart_isr_mmio.c the fake UART behind the register seam and the
 * counter checks; fuzz_uart_isr.c the driver (it includes the tty core's
 * and the async engine's files), the state checks and the target;
 * fuzz_uart_isr_ops.c the operations. */
#ifndef FUZZ_UART_ISR_H
#define FUZZ_UART_ISR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "plic.h"
#include "uart_16550.h"
#include "uart_backend.h"

/* Small rings: full and wrapping rings within a short input. */
#define UART_TX_RING_SIZE 256U
#define UART_RX_RING_SIZE 64U

/* The DW registers beyond the 16550's, as the fake UART decodes them
 * (byte offset / 4), and the bits it reports. */
#define FZ_USR (0x7C >> 2)
#define FZ_TFL (0x80 >> 2)
#define FZ_RFL (0x84 >> 2)
#define FZ_CPR (0xF4 >> 2)
#define FZ_USR_TFNF 0x02
#define FZ_USR_TFE  0x04
#define FZ_IIR_BUSY 0x07

#define BASE_16550 0x10000000UL
#define BASE_DW    0x02500000UL
#define IRQ        10
#define ACCESS_NS  100               /* fake time per register access */
#define MAX_BLOCKS_PER_OP 1000       /* drain: blocks before it counts as a hang */
#define MAX_ACCESSES_PER_OP 200000
#define MAX_WRITE  400
#define LOG_MAX    (1U << 20)

#define FAIL(...) do { fprintf(stderr, "fuzz_uart_isr: op %u (%s): ", op_no, op_name); \
                       fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); abort(); } while (0)

extern unsigned op_no;
extern const char *op_name;

/* ---- input (fuzz_uart_isr_kernel.c) -------------------------------------- */

extern const uint8_t *in_p;
extern size_t in_n;

bool more(void);
uint8_t take8_or(uint8_t dflt);
uint8_t take8(void);

/* ---- the fake kernel (fuzz_uart_isr_kernel.c) ----------------------------- */

extern irq_handler_t handler;
extern bool woken, in_isr;
extern bool no_irq_at_restore;
extern uint64_t now_ns;
extern unsigned blocks_this_op;
extern struct timer *armed_timer;    /* the backend's armed timer, or NULL */
extern struct timer *deadline_timer; /* the task's armed deadline, or NULL */

/* Run the registered handler as the interrupt. */
void run_isr(void);

/* ---- the fake UART (fuzz_uart_isr_mmio.c) --------------------------------- */

struct fake_uart {
    struct uart_cfg cfg;
    unsigned depth;              /* the FIFO depth the driver uses (DW: CPR's) */
    uint32_t lcr;                /* the last LCR store (read back) */
    long credit;                 /* THR stores allowed until the next room read
                                    (or IIR read reporting THRI) */
    bool last_lsr_dr;            /* the previous access was an LSR read with DR */
    bool flushing;               /* inside uart_be_flush_polled */
    bool isr_first_iir;          /* the next IIR read is a handler's first */
    uint32_t last_lsr, last_tfl; /* values of the latest reads */
    uint32_t task_lsr, task_tfl; /* ... in task context */
    int ier_written;             /* last IER write, -1: none */
    unsigned mcr_read, mcr_written;
    bool mcr_wrote;
    unsigned isr_iir_reads;
    bool timeout_probe;          /* DW: an RX-timeout IIR, its LSR read next */
    uint64_t isr_accesses, op_accesses;
    uint64_t round_accesses, round_rx_data;   /* since the handler's last IIR read */
    /* since the last counter reset */
    uint64_t iir_thri, iir_rx, iir_busy, iir_spurious, iir_spurious_thre;
    uint64_t lsr_oe, lsr_pe, lsr_fe, lsr_bi;
    uint64_t rx_data, rx_drop, thr_refill;
    uint64_t writes, write_req, write_acc;
    /* whole input */
    uint64_t thr_total, flushed_total, accepted_total;
};
extern struct fake_uart f;

extern uint8_t *tx_log;                  /* accepted bytes, in order */
extern size_t tx_log_n, tx_log_sent;
extern uint8_t rx_q[UART_RX_RING_SIZE];  /* RX bytes the backend must return */
extern size_t rx_q_n;

/* Fail if the handler's current round went over its bounds. */
void check_round(void);
/* Fail unless the backend's counters equal what the fake saw. */
void check_counters(const struct uart_counters *c);

/* ---- what the other files see of the driver (fuzz_uart_isr.c) ------------ */

extern const unsigned isr_max_rounds;   /* tty.c's ISR_MAX_ROUNDS */
/* engine_async.c's TX state is TX_ON: the TX interrupt is enabled. */
bool fuzz_tx_on(void);
/* After every operation: the driver's state agrees with the fake's. */
void check_state(void);

/* ---- operations (fuzz_uart_isr_ops.c) ------------------------------------ */

/* Each one task call with fuzzer-chosen arguments, checked. */
void op_write(void);
void op_read(void);
void op_counters(void);
void op_counters_reset(void);
void op_tx_pending(void);
void op_drain(void);
void op_loopback(void);
void op_flush(void);

#endif
