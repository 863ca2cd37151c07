/* The host tests' driver (uart_tests.cmake) calls ring_push and ring_pop
 * out of line, as functions the linker can wrap (--wrap=ring_push,
 * --wrap=ring_pop: interrupts taken on either side of each call, the RX
 * copier's pushes logged). Included before each driver file (-include):
 * ring.h's inline push and pop take the names ring_inline_push and
 * ring_inline_pop, and the driver's calls go to ring_calls.c. */
#ifndef RING_CALLS_H
#define RING_CALLS_H

#define ring_push ring_inline_push
#define ring_pop ring_inline_pop
#include "ring.h"
#undef ring_push
#undef ring_pop

uint32_t ring_push(struct ring *r, const void *src, uint32_t n);
uint32_t ring_pop(struct ring *r, void *dst, uint32_t n);

#endif
