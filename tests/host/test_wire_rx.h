/* Host test of the wire model's receive side (src/drivers/uart/wire_rx.c
 * behind wire_model.c's register filter, host.wire_rx): what its files
 * share. test_wire_rx_env.c holds the stubs of the model's kernel
 * services (a fake clock, timer_arm/timer_cancel recording the RX timer's
 * deadline), the fake MMIO of QEMU's UART (raw IER writes and RBR reads
 * recorded) and the register helpers; test_wire_rx.c main() and the
 * timing tests (arrival, trigger, timeout); test_wire_rx_fifo.c the
 * FIFO's tests (overrun, ground truth, depths, clear, start and stop);
 * test_wire_rx_line.c the interrupt line and the RX timer. */
#ifndef TEST_WIRE_RX_H
#define TEST_WIRE_RX_H

#include <stdbool.h>
#include <stdint.h>
#include "line_point.h"
#include "uart_16550.h"
#include "wire_model.h"

#define NS_10BITS 10000000000ULL    /* 10 bits x 1e9 ns */
#define FIFO_ON   0xC0U             /* IIR bits 7:6: FIFOs enabled */
#define IIR_NONE  (FIFO_ON | UART_IIR_NO_INT)
#define IIR_RDI   (FIFO_ON | UART_IIR_RDI)
#define IIR_CTI   (FIFO_ON | UART_IIR_RX_TIMEOUT)
#define IIR_RLSI  (FIFO_ON | UART_IIR_RLSI)
#define IIR_THRI  (FIFO_ON | UART_IIR_THRI)
#define RX_IER    (UART_IER_RDI | UART_IER_RLSI)
#define RAW_RBR   0x5AU             /* what QEMU's own (empty) RBR reads */

/* What the stubs saw since the last setup(). */
struct rx_stub {
    uint64_t ier_writes;            /* raw IER stores (QEMU's IER) */
    uint32_t ier;                   /* the last one's value */
    uint64_t rbr_reads;             /* raw RBR loads (the refresh reads) */
    uint64_t other_reads;           /* raw loads of any other register */
    bool armed;                     /* the RX timer is armed ... */
    uint64_t armed_at;              /* ... for this deadline */
    uint64_t arms;                  /* timer_arm calls for the RX timer */
    uint64_t stale_arms;            /* of them, at or before now */
};
extern struct rx_stub rs;
extern uint64_t now_ns;             /* the stubbed clock */
extern struct uart_cfg cfg;         /* the modelled line (setup) */
extern struct peer_point peer;      /* the far end's shape (setup) */

/* test_wire_rx_env.c: the model fresh (any stream stopped) for a line of
 * baud and FIFO depth, the far end's shape p, the driver's IER and RX
 * trigger written through the filter, the stub records cleared. */
void setup(uint32_t baud, uint16_t depth, struct peer_point p, uint32_t ier, unsigned trig);
void find_rx_timer(void);
uint64_t arrival(uint64_t start, uint64_t k);
uint64_t chars_ns(uint64_t n);
uint8_t pattern_at(uint32_t seed, uint64_t off);
uint32_t lsr(uint32_t mask);
uint32_t rbr(void);
uint32_t iir(void);
uint32_t rfl(void);
void reg_write(unsigned r, uint32_t v);
struct wire_rx_stats peer_stats(void);
void fire_rx(void);
void run_timer_until(uint64_t t);

/* The tests (main in test_wire_rx.c). */
void test_arrival_stream(void);
void test_arrival_burst(void);
void test_trigger(unsigned trig);
void test_timeout(void);
void test_overrun(void);
void test_ground_truth(void);
void test_depths(void);
void test_flush(void);
void test_start_stop(void);
void test_line(void);
void test_thre_shared(void);
void test_no_storm(void);
void test_restart_arms(void);
int wire_rx_fifo_failures(void);
int wire_rx_line_failures(void);
int wire_rx_env_failures(void);

#endif
