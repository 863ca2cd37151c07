/* Host test of the async TX engine with the tty core (test_uart_async.c),
 * on the lower half the executable is built with (test_lower.h): what its
 * files share (the copier's tests, test_uart_copier*.c, use the helpers
 * too, with TEST_ENGINE "copier"). test_uart_async_util.c holds the configuration under test,
 * the record of accepted bytes and the helpers; test_uart_async.c the TX
 * tests and main(); test_uart_async_quirks.c the DW quirk, RX and
 * loopback tests; test_uart_async_faults.c the drain under line faults;
 * test_uart_async_lead.c the drain woken early by the boot's lead. */
#ifndef TEST_UART_ASYNC_H
#define TEST_UART_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uart_16550.h"
#include "uart_backend.h"
#include "test_lower.h"

#ifndef TEST_ENGINE
#define TEST_ENGINE "async"               /* uart_be_info's engine (the copier's tests: "copier") */
#endif
#ifndef UART_TX_RING_SIZE
#define UART_TX_RING_SIZE (64U * 1024U)   /* engine_async.c's default */
#endif
#define IRQ 18
#define ACCESS_NS 50U                     /* setup()'s fake time per register access */
#define NS_PER_MS 1000000ULL

extern struct uart_cfg cfg;               /* the UART under test */
extern uint8_t *expect;                   /* every byte accepted, in order */
extern size_t expect_n;
extern uint64_t max_late_ns;              /* drain return - last stop bit */

/* test_uart_async_util.c */
uint32_t rnd(void);
void rnd_seed(uint64_t seed);
uint64_t char_ns(void);
struct uart_counters counters(void);
void setup(unsigned depth);
void expect_add(const uint8_t *p, size_t n);
void fill_random(uint8_t *p, size_t n);
void check_output(const char *what);
void write_all(const uint8_t *p, size_t n);
int drain_checked(const char *what);
void read_n(uint8_t *dst, size_t n);

/* test_uart_async_quirks.c */
void test_spurious_bulk(unsigned depth);
void test_spurious_short_write(unsigned depth, size_t n);
void test_rx_timeout_nodata(void);
void test_busy_detect(void);
void test_rx(unsigned depth);
void test_rx_ring_overflow(void);
void test_counters_keep_rx_errors(void);
void test_loopback(void);

/* test_uart_async_lead.c */
void test_drain_lead(unsigned depth);
int uart_async_lead_failures(void);

/* test_uart_async_faults.c */
void test_drain_temt_stuck(unsigned depth, size_t n);
void test_drain_tx_stall(unsigned depth, size_t n);

/* check.h counts failed checks per file: the other files report theirs,
 * which main() adds to its own before check_exit(). */
int uart_async_util_failures(void);
int uart_async_quirks_failures(void);
int uart_async_faults_failures(void);

#endif
