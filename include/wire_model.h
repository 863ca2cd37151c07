/* Wire model (QEMU boards, build option WIRE_BAUD > 0): a modelled device
 * behind the register seam (uart_regs.h) that makes QEMU's instant 16550
 * behave like a real line. Every byte stored to THR takes 10 bit times
 * after the previous one; LSR.THRE and LSR.TEMT follow modelled time; a
 * store into a full modelled FIFO is lost and counted. When the modelled
 * FIFO empties, a timer interrupt (a sim timer: timer.h) switches THRI on
 * in QEMU's IER, and QEMU's own THRE interrupt reaches the driver's
 * handler through the PLIC. Bytes still reach QEMU's UART. No driver code
 * knows the model exists; its time is charged to the sim CPU account
 * (cpu_acct.h) by its entry points (wire_seam.S). The receive side
 * (wire_rx.c): a modelled far end sends a pattern stream into a modelled
 * RX FIFO at the same baud while a section has it attached; the model
 * then owns RBR, IIR, LSR's RX bits and the interrupt line (docs/
 * wire-model.md). It models the NS16550A QEMU has (and
 * the DW UART's RFL), not the whole DesignWare UART (no QEMU board has
 * one). */
#ifndef WIRE_MODEL_H
#define WIRE_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "line_point.h"
#include "uart_16550.h"

struct wire_stats {
    uint64_t baud, fifo;        /* 0, 0 when the model is off */
    uint64_t bytes;             /* bytes accepted onto the modelled line */
    uint64_t lost;              /* stores into a full modelled FIFO */
    uint64_t thre_irqs;         /* modelled THRE interrupts delivered */
    uint64_t calls;             /* register accesses filtered */
    uint64_t instret, cycles;   /* spent in the model (the sim account):
                                   instructions, rdcycle counts */
};

/* Line faults the model injects on request (boot argument fault=, see
 * src/kernel/fault.c), so tests reach paths a healthy line never takes. */
enum wire_fault {
    WIRE_FAULT_NONE,
    WIRE_FAULT_TEMT_STUCK,      /* LSR.TEMT never rises */
};

/* The ground truth of a modelled RX stream (wire_peer_stats). */
struct wire_rx_stats {
    uint64_t stream;            /* streams started since boot */
    uint64_t total;             /* bytes the stream sends */
    uint64_t sent;              /* of them, arrived so far */
    uint64_t delivered;         /* into the modelled RX FIFO */
    uint64_t lost;              /* arrived at a full FIFO (overrun) */
    uint64_t overruns;          /* LSR reads that reported (and cleared) OE */
    uint64_t flushed;           /* thrown away by an FCR RX clear */
    uint64_t left;              /* still in the FIFO when the stream stopped */
    uint64_t fifo_level;        /* in the FIFO now */
    uint32_t crc;               /* CRC-32 of the delivered bytes, in order */
    uint64_t first_ns, last_ns; /* arrival of the first byte, of the last one so far */
    bool attached;
    bool blind;                 /* the far end streams on its own, unobserved (a
                                   hosted run's far_end_stream=, or a far end
                                   outside): only total and first_ns (the start it
                                   was given) are known */
    uint64_t quiet_ns;          /* blind: the line is quiet this long before
                                   first_ns at least (0: the section's own lead) */
};

/* Boot, interrupts masked, after uart_hw_init(): start the model for the
 * UART c (its baud, FIFO depth, RX trigger), the far end's traffic shape
 * peer. No-op when the model is off. */
void wire_model_init(const struct uart_cfg *c, const struct peer_point *peer);
/* Section task: the far end sends `bytes` pattern bytes (pattern.h, seed)
 * from start_ns on, in the boot's traffic shape; the stream is attached
 * until wire_peer_stop. 0; -ENODEV without the model; -ENOTCONN with
 * peer=off; -EBUSY while a stream is attached; -EXDEV when the far end
 * streams on its own (blind) and its stream is not bytes and seed. */
int wire_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns);
/* Section task: detach the stream (what it has not sent yet never comes). */
void wire_peer_stop(void);
/* Any task: the current (or last) stream's ground truth up to now. */
void wire_peer_stats(struct wire_rx_stats *out);
/* Boot task: inject fault f from now on; -ENODEV when the model is off
 * (there is no modelled line to break). */
int wire_model_fault(enum wire_fault f);
/* Any task: the model's counters (all zero when off); instret and cycles
 * are the sim account's. */
void wire_model_stats(struct wire_stats *out);

/* Task on a hart other than 0, before harts_share(false): cancel this
 * hart's model timers if nothing is wanted of them (no THRE event due, no
 * stream attached); whether it did (false: call again later). True
 * without the model. */
bool wire_model_hart_quiesce(void);

struct spinlock_stats;
/* Any task: the model's lock's statistics (wire_priv.h; zero when the
 * model is off or until the driver is shared). */
void wire_model_lock_stats(struct spinlock_stats *out);
/* The seam's entry points call these (any context, interrupts masked,
 * the sim account owning the CPU); host tests call them directly: a read
 * of register r whose bits `mask` the caller looks at (the model reads
 * the UART for the bits it does not own, when the caller wants any);
 * filter a write (false: the store is swallowed); n THR stores in a row
 * (a FIFO refill): how many of them, from the first, go on to the UART. */
uint32_t wire_read(const struct uart_cfg *c, unsigned r, uint32_t mask);
bool wire_write(const struct uart_cfg *c, unsigned r, uint32_t *v);
uint32_t wire_write_thr(const struct uart_cfg *c, uint32_t n);

#endif
