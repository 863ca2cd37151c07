/* The host tests' driver's ring_push and ring_pop, out of line: ring.h's
 * own code (ring_calls.h). */
#include "ring_calls.h"

/* The driver (the engines' writes, task; the RX path, ISR), through the
 * linker's --wrap where a test wraps it: ring.h's push. */
uint32_t ring_push(struct ring *r, const void *src, uint32_t n)
{
    return ring_inline_push(r, src, n);
}

/* The driver (reads, the polled flush, the copier; task), through the
 * linker's --wrap where a test wraps it: ring.h's pop. */
uint32_t ring_pop(struct ring *r, void *dst, uint32_t n)
{
    return ring_inline_pop(r, dst, n);
}
