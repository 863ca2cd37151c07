/* Host tests of the UART driver: the lower half an executable is built
 * with (uart_tests.cmake: UART_LOWER_HEADER names it, TEST_LOWER_DW is 1
 * for lower_dw_apb.h) and the board config and fake UART that go with it
 * (test_lower.c). A driver test built for one lower half runs against the
 * fake UART with its `dw` switch set to match. */
#ifndef TEST_LOWER_H
#define TEST_LOWER_H

#include <stdbool.h>
#include <stdint.h>
#include "uart_cfg.h"

#ifndef TEST_LOWER_DW
#error "TEST_LOWER_DW: 1 for lower_dw_apb.h, 0 for lower_ns16550.h (uart_tests.cmake)"
#endif

#define LOWER_DW   (TEST_LOWER_DW != 0)
#define LOWER_NAME (LOWER_DW ? "dw-apb" : "ns16550")   /* uart_lower.name */
/* The CTest name of a suite on this lower half: host.<suite>.<lower>. */
#if TEST_LOWER_DW
#define LOWER_SUITE(suite) suite ".dw_apb"
#else
#define LOWER_SUITE(suite) suite ".ns16550"
#endif

/* The board config for the lower half under test: the D1's UART0 (DW
 * APB, 32-bit registers at stride 4, 24 MHz) or QEMU virt's (NS16550A,
 * byte registers, 3.6864 MHz), 115200 baud, a TX FIFO of depth bytes. */
struct uart_cfg lower_cfg(unsigned depth);
/* Reset the fake UART to c (its dw switch LOWER_DW, a FIFO of depth bytes,
 * access_ns per register access) and the fake kernel. */
void lower_fake_init(const struct uart_cfg *c, unsigned depth, uint64_t access_ns);

#endif
