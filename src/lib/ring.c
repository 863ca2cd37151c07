/* Single-producer/single-consumer byte ring; see ring.h for the
 * ownership and memory-ordering rules. */
#include <errno.h>
#include <string.h>

#include "ring.h"

#define RING_MIN_CAPACITY 2u

/* Any context: the smaller of two counts. */
static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* Init code, before either side starts: binds the storage, empties the ring. */
int ring_init(struct ring *r, uint8_t *storage, uint32_t capacity)
{
    if (r == NULL || storage == NULL || capacity < RING_MIN_CAPACITY ||
        (capacity & (capacity - 1u)) != 0)
        return -EINVAL;
    r->buf = storage;
    r->mask = capacity - 1u;
    __atomic_store_n(&r->head, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&r->tail, 0, __ATOMIC_RELAXED);
    return 0;
}

/* Either side, any context: the fixed capacity. */
uint32_t ring_capacity(const struct ring *r)
{
    return r->mask + 1u;
}

/* Either side (task or ISR): unread bytes. tail is read before head so the
 * difference cannot go negative; the clamp covers an observer that is
 * neither side and sees both counters move between the two loads. */
uint32_t ring_used(const struct ring *r)
{
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);

    return min_u32(head - tail, r->mask + 1u);
}

/* Either side (task or ISR): writable bytes. */
uint32_t ring_free(const struct ring *r)
{
    return r->mask + 1u - ring_used(r);
}

/* Producer (task or ISR, one producer at a time): copies up to n bytes in
 * at most two pieces (up to the end of storage, then from the start). */
uint32_t ring_push(struct ring *r, const void *src, uint32_t n)
{
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    uint32_t off = head & r->mask;
    uint32_t first;

    if (src == NULL)
        return 0;
    n = min_u32(n, r->mask + 1u - (head - tail));
    first = min_u32(n, r->mask + 1u - off);
    memcpy(r->buf + off, src, first);
    memcpy(r->buf, (const uint8_t *)src + first, n - first);
    __atomic_store_n(&r->head, head + n, __ATOMIC_RELEASE);
    return n;
}

/* Consumer (task or ISR, one consumer at a time): copies up to n bytes out
 * in at most two pieces (up to the end of storage, then from the start). */
uint32_t ring_pop(struct ring *r, void *dst, uint32_t n)
{
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    uint32_t off = tail & r->mask;
    uint32_t first;

    if (dst == NULL)
        return 0;
    n = min_u32(n, head - tail);
    first = min_u32(n, r->mask + 1u - off);
    memcpy(dst, r->buf + off, first);
    memcpy((uint8_t *)dst + first, r->buf, n - first);
    __atomic_store_n(&r->tail, tail + n, __ATOMIC_RELEASE);
    return n;
}

/* Consumer (task or ISR): contiguous unread run starting at tail, for
 * zero-copy draining such as filling a UART FIFO. */
uint32_t ring_read_slice(const struct ring *r, const uint8_t **p)
{
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    uint32_t off = tail & r->mask;

    *p = r->buf + off;
    return min_u32(head - tail, r->mask + 1u - off);
}

/* Consumer (task or ISR): hands n bytes back to the producer. The head
 * load only bounds n, so relaxed ordering is enough. */
void ring_consume(struct ring *r, uint32_t n)
{
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);

    n = min_u32(n, head - tail);
    __atomic_store_n(&r->tail, tail + n, __ATOMIC_RELEASE);
}

/* Producer (task or ISR): contiguous free run starting at head, for
 * zero-copy filling such as draining a UART receive FIFO. */
uint32_t ring_write_slice(const struct ring *r, uint8_t **p)
{
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    uint32_t off = head & r->mask;

    *p = r->buf + off;
    return min_u32(r->mask + 1u - (head - tail), r->mask + 1u - off);
}

/* Producer (task or ISR): publishes n bytes written through the slice.
 * The tail load only bounds n, so relaxed ordering is enough. */
void ring_produce(struct ring *r, uint32_t n)
{
    uint32_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);

    n = min_u32(n, r->mask + 1u - (head - tail));
    __atomic_store_n(&r->head, head + n, __ATOMIC_RELEASE);
}

/* Task with both sides stopped (e.g. the UART interrupt disabled): drops
 * all unread bytes. */
void ring_reset(struct ring *r)
{
    __atomic_store_n(&r->head, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&r->tail, 0, __ATOMIC_RELAXED);
}
