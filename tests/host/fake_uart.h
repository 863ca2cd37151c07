/* Host unit tests: register-level fake of a 16550-family UART (NS16550A
 * or DesignWare APB UART) driven by a fake time in nanoseconds.
 *
 * Model: a TX FIFO of configurable depth feeding a shift register; each
 * character occupies the shifter for char_ns and is recorded in the output
 * buffer with its completion time. LSR THRE = TX FIFO empty, TEMT = FIFO
 * and shifter empty. IIR follows 16550 priorities (RLS > RDA/timeout >
 * THRE > MSR, then DW busy detect). The THRE interrupt is pending after
 * the FIFO empties or when ETBEI is enabled while THRE is set, and is
 * cleared by an IIR read that reports it or by a THR write. A store into
 * a full FIFO is lost and counted. RX: injected bytes (with PE/FE/BI)
 * arrive at given times; a byte arriving at a full RX FIFO is lost and
 * sets OE. MCR.LOOP sends TX bytes to RX instead of the output.
 * DW extras (dw = true): USR (BUSY while TX active), TFL, RFL, CPR; an LCR
 * write while BUSY is ignored and raises IIR=0x7 until USR is read;
 * optional spurious interrupt entries that read IIR=0xC1; optional
 * RX timeout without data (IIR=0xC until RBR is read). Faults: TEMT that
 * never rises, a transmitter that stalls (no byte completes until it is
 * released), a line held between characters until a given time (the
 * FIFO keeps its bytes, as a peer's CTS holds an auto-flow-control UART),
 * THRE edges that raise no interrupt.
 *
 * Every register access advances fake time by access_ns. Accesses of the
 * wrong width or to an address that is not a register are errors
 * (fu_errors()). Exceeding the time limit is fatal (a hang). */
#ifndef FAKE_UART_H
#define FAKE_UART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FU_MAX_DEPTH 64

struct fu_config {
    uintptr_t base;
    unsigned reg_shift;     /* 0 or 2 */
    unsigned width;         /* 1 or 4 bytes per access */
    bool dw;                /* DesignWare APB extras and quirks */
    unsigned fifo_depth;    /* 1, 16 or 64 (TX and RX) */
    uint64_t char_ns;       /* one 8N1 character on the wire */
    uint64_t access_ns;     /* fake time each register access takes */
};

/* RX error flags for fu_rx_inject*(). */
#define FU_RX_PE 0x04
#define FU_RX_FE 0x08
#define FU_RX_BI 0x10

struct fu_out {
    uint8_t b;
    uint64_t t_ns;          /* when its stop bit left the shifter */
};

struct fu_stats {
    uint64_t accesses, reads, writes;
    unsigned widths_seen;   /* bit w set: an access of width w happened */
    uintptr_t offsets_or;   /* OR of every accessed offset (alignment) */
    uint64_t thr_writes;
    uint64_t thr_runs;      /* runs of THR stores with no other access between */
    uint64_t lost_stores;   /* THR stores into a full TX FIFO */
    uint64_t thr_not_thre;  /* THR stores while LSR.THRE was clear */
    uint64_t max_tx_level;  /* highest TX FIFO level seen */
    uint64_t iir_reads;
    uint64_t iir_thri;      /* IIR reads that reported THRE */
    uint64_t thre_raised;   /* THRE interrupt became pending */
    uint64_t thre_dropped;  /* ... or would have, but was dropped (fu_thre_drop) */
    uint64_t lcr_writes, lcr_ignored;
    uint64_t busy_raised;   /* DW busy detect raised */
    uint64_t c1_reads;      /* spurious IIR=0xC1 reads */
    uint64_t c1_partial;    /* ... of which with 0 < TFL < depth */
    uint64_t rx_lost;       /* RX bytes lost to a full RX FIFO (OE) */
    uint64_t rbr_empty_reads; /* RBR read with the RX FIFO empty */
    uint64_t timeout_cleared; /* RX-timeout-without-data cleared */
    uint64_t loopback_bytes;
};

/* Reset the model to power-on state with configuration c. Fake time and
 * the error count are kept (time only moves forward; errors accumulate
 * until fu_errors_clear()); output and stats are cleared. */
void fu_init(const struct fu_config *c);
const struct fu_config *fu_cfg(void);

/* Fake time. */
uint64_t fu_now(void);
/* Process every model event up to t and set the time to t (t < now: no-op).
 * Fatal (exit) if t exceeds the time limit. */
void fu_advance_to(uint64_t t);
/* Earliest future time at which the model changes state by itself
 * (character completion, RX arrival, RX timeout, spurious entry);
 * UINT64_MAX if none. */
uint64_t fu_next_event(void);
/* Absolute fake time beyond which the test is considered hung. */
void fu_set_time_limit(uint64_t abs_ns);

/* The interrupt output (level). */
bool fu_irq_line(void);

/* Test knobs. */
void fu_rx_inject(uint8_t b, unsigned flags);            /* arrives now */
void fu_rx_inject_at(uint64_t t, uint8_t b, unsigned flags);
void fu_force_lcr_busy(unsigned k);     /* next k LCR writes find BUSY */
void fu_spurious(unsigned n);           /* next n entries read IIR=0xC1 */
void fu_spurious_period(uint64_t ns);   /* one spurious entry every ns, 0 off */
void fu_rx_timeout_nodata(void);        /* DW: IIR=0xC with no data */
void fu_msr_change(void);               /* a modem-status delta */
void fu_temt_stuck(bool on);            /* LSR.TEMT never rises (DW: USR.BUSY stays) */
void fu_tx_stall(bool on);              /* the shifter stops: no byte completes */
/* From now until fake time t (UINT64_MAX: until called again with a t
 * not in the future) the shifter takes no byte from the TX FIFO; the one
 * it sends finishes. At t it takes the next at once (a model event). */
void fu_tx_hold_until(uint64_t t);
/* The next n times the TX FIFO empties raise no THRE interrupt (a lost
 * THRE edge, as StarryOS saw on the D1). */
void fu_thre_drop(unsigned n);

/* Called just before and just after every register access (fake_mmio_read
 * and _write): the fake kernel takes interrupts there (fk_irq_schedule).
 * NULL: none. */
void fu_set_access_hook(void (*hook)(void));

/* Observation without side effects. */
uint8_t fu_lsr_peek(void);
unsigned fu_tx_level(void);
unsigned fu_rx_level(void);
bool fu_shifter_busy(void);
bool fu_busy_detect_pending(void);
bool fu_rx_timeout_pending(void);
uint8_t fu_reg_ier(void), fu_reg_lcr(void), fu_reg_mcr(void),
        fu_reg_dll(void), fu_reg_dlm(void);
bool fu_fifo_enabled(void);
size_t fu_out_count(void);
const struct fu_out *fu_out_buf(void);
void fu_out_clear(void);
const struct fu_stats *fu_stats(void);
void fu_stats_clear(void);

/* Errors recorded by the model (bad accesses, writes to read-only
 * registers). Each is printed on stderr when it happens. */
unsigned fu_errors(void);
void fu_errors_clear(void);
/* Stop printing errors (negative controls that provoke them on purpose). */
void fu_errors_quiet(bool quiet);

/* Print msg and exit(1): a hang or an inconsistency the test cannot
 * survive. */
_Noreturn void fu_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
