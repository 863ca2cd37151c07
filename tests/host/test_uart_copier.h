/* Host test of the copier engine (src/drivers/uart/engine_copier.c, the
 * StarryOS copier design) with the tty core, on the lower half the
 * executable is built with (host.uart_copier.<lower>; without its slow
 * poll, COPIER_SLOW_POLL=0: host.uart_copier_noslow.<lower>): what its
 * files share. test_uart_copier.c: main(), the setup, the access hook,
 * the byte tests; test_uart_copier_ladder.c: the retry ladder's counters
 * on a held line, the CPU phases; test_uart_copier_irq.c: tcdrain, the
 * interrupt, the RX copier's NAPI rule. The helpers of the async tests
 * (test_uart_async_util.c: setup, the record of accepted bytes, drains)
 * serve these too. */
#ifndef TEST_UART_COPIER_H
#define TEST_UART_COPIER_H

#include <stdbool.h>
#include <stdint.h>

#include "test_uart_async.h"

#ifndef COPIER_SLOW_POLL
#error "COPIER_SLOW_POLL: 1 or 0, as the engine under test is built (uart_tests.cmake)"
#endif

/* engine_copier.c's figures (the original's constants). */
#define CP_RING       (64U * 1024U)   /* TX ring */
#define CP_STAGE      1024U           /* staging buffer: the most one pop takes */
#define CP_FAST       32U             /* zero-progress retries before the THRE wait */
#define CP_SLOW       4096U           /* slow-poll rounds ... */
#define CP_SPINS      256U            /* ... of this many spin hints and a send */
#define CP_YIELDS     4U              /* self-wake yields after a slow poll */
#define CP_TEMT_POLLS 256U            /* TEMT reads after a chunk */
#define CP_NAPI       16U             /* non-empty reads before polling mode */
#define CP_NAPI_BATCH 64U             /* RX batch in polling mode */

/* The access hook's work (copier_hook): instructions charged per call
 * (two calls, one each side, per register access), and the RX flood. */
struct copier_hook_cfg {
    unsigned insns;                   /* fa_work per hook call, 0: none */
    bool flood;                       /* keep a byte in the RX FIFO */
    uint8_t next;                     /* the flood's next byte */
};
extern struct copier_hook_cfg hook_cfg;

/* The RX copier's ring_push calls (the RX ring's), while `on`. */
#define RX_LOG_MAX 64
struct rx_log {
    bool on;
    unsigned n;                       /* calls recorded */
    uint32_t len[RX_LOG_MAX];         /* bytes the read took (its batch or less) */
    uint64_t irqs[RX_LOG_MAX];        /* rx_irqs at the call */
    unsigned stop_at;                 /* the flood ends at this call (0: never) */
};
extern struct rx_log rx_log;

/* test_uart_copier.c */
void copier_setup(unsigned depth, uint64_t spin_ns);
unsigned first_room(void);
uint64_t ring_bytes(void);
void check_invariant(const char *what);

/* test_uart_copier_ladder.c */
void test_hold_long(void);
void test_hold_short(void);
void test_recheck_room(void);
void test_counters_bulk(void);
void test_phases(void);

/* test_uart_copier_irq.c */
void test_drain_rule(void);
void test_drain_never_temt(void);
void test_drain_lost_thre(void);
void test_isr_thre(void);
void test_isr_spurious(void);
void test_isr_rx(void);
void test_napi(void);

/* check.h counts failed checks per file: main() adds the others'. */
int uart_copier_ladder_failures(void);
int uart_copier_irq_failures(void);

#endif
