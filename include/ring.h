/* Single-producer/single-consumer byte ring.
 *
 * One producer and one consumer may run concurrently at different
 * priorities (for example a task and an interrupt handler, or two host
 * threads). The capacity is a power of two; head and tail are
 * free-running counters of the machine's word (ring_idx_t: no sign or
 * zero extension between them and an address) masked on access, so every
 * byte of storage is usable and head - tail is the number of unread bytes
 * even after the counters wrap past their maximum. Counts in and out of
 * the calls are uint32_t.
 *
 * Ownership: the producer writes head and the bytes at [head, tail + cap);
 * the consumer writes tail and reads the bytes at [tail, head). Each side
 * publishes its index with a release store and reads the other side's
 * index with an acquire load, so the data copied before a publish is
 * visible to the other side once it sees the new index.
 *
 * Producer-side calls: ring_push, ring_write_slice, ring_produce.
 * Consumer-side calls: ring_pop, ring_read_slice, ring_consume, ring_peek,
 * ring_release.
 * Either side: ring_capacity, ring_used, ring_free.
 * Neither side active: ring_init, ring_reset.
 */
#ifndef RING_H
#define RING_H

#include <stdint.h>

typedef unsigned long ring_idx_t;   /* an index or a count inside the ring */

struct ring {
    uint8_t *buf;    /* storage, capacity bytes */
    ring_idx_t mask; /* capacity - 1 */
    ring_idx_t head; /* free-running write counter, producer-owned */
    ring_idx_t tail; /* free-running read counter, consumer-owned */
};

/* Returns 0, or -EINVAL if r or storage is NULL or capacity is not a
 * power of two >= 2. Does not touch the storage bytes. */
int ring_init(struct ring *r, uint8_t *storage, uint32_t capacity);

/* Producer: copies min(n, free) bytes from src, across the wrap if
 * needed, and returns the count taken. Never overwrites unread data.
 * Returns 0 when n == 0 or src is NULL. */
uint32_t ring_push(struct ring *r, const void *src, uint32_t n);

/* Consumer: copies min(n, used) bytes into dst, across the wrap if
 * needed, and returns the count removed. Returns 0 when n == 0 or dst
 * is NULL. */
uint32_t ring_pop(struct ring *r, void *dst, uint32_t n);

/* Producer: sets *p to the next free byte and returns the length of the
 * contiguous free run starting there (stops at the end of storage). */
uint32_t ring_write_slice(const struct ring *r, uint8_t **p);

/* Producer: publishes n bytes written through ring_write_slice. n is
 * clamped to the number of free bytes. */
void ring_produce(struct ring *r, uint32_t n);

/* Empties the ring. Only when neither producer nor consumer is active. */
void ring_reset(struct ring *r);

/* The per-interrupt calls are inline: a FIFO refill uses them every time. */

/* Either side, any context: the smaller of two counts. */
static inline ring_idx_t ring_min(ring_idx_t a, ring_idx_t b)
{
    return a < b ? a : b;
}

/* Either side, any context: total bytes the ring holds when full. */
static inline uint32_t ring_capacity(const struct ring *r)
{
    return (uint32_t)(r->mask + 1u);
}

/* Either side (task or ISR): unread bytes. Exact for the consumer; for
 * the producer or another observer a snapshot that may already be stale.
 * tail is read before head so the difference cannot go negative; the
 * clamp covers an observer that is neither side and sees both counters
 * move between the two loads. */
static inline uint32_t ring_used(const struct ring *r)
{
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);

    return (uint32_t)ring_min(head - tail, r->mask + 1u);
}

/* Either side (task or ISR): writable bytes, capacity - used. */
static inline uint32_t ring_free(const struct ring *r)
{
    return ring_capacity(r) - ring_used(r);
}

/* Consumer (task or ISR): sets *p to the oldest unread byte and returns
 * the length of the contiguous unread run starting there (stops at the
 * end of storage; a second call after ring_consume returns the rest). */
static inline uint32_t ring_read_slice(const struct ring *r, const uint8_t **p)
{
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    ring_idx_t off = tail & r->mask;

    *p = r->buf + off;
    return (uint32_t)ring_min(head - tail, r->mask + 1u - off);
}

/* Consumer (task or ISR, a FIFO refill): the oldest unread bytes, up to
 * max, as at most two contiguous runs: the first at *p (returns the
 * total, *first of it in the first run; the rest starts at r->buf), from
 * one load of head; *used is the unread count at that load. Release them
 * with ring_release. */
static inline ring_idx_t ring_peek(const struct ring *r, ring_idx_t max, const uint8_t **p,
                                   ring_idx_t *first, ring_idx_t *used)
{
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    ring_idx_t off = tail & r->mask, n = ring_min(head - tail, max);

    *used = head - tail;
    *p = r->buf + off;
    *first = ring_min(n, r->mask + 1u - off);
    return n;
}

/* Consumer (task or ISR): releases n <= the unread bytes it has read
 * (ring_peek), in one store. */
static inline void ring_release(struct ring *r, ring_idx_t n)
{
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    __atomic_store_n(&r->tail, tail + n, __ATOMIC_RELEASE);
}

/* Consumer (task or ISR): releases n bytes read through ring_read_slice,
 * n clamped to the unread bytes. The head load only bounds n, so relaxed
 * ordering is enough. */
static inline void ring_consume(struct ring *r, uint32_t n)
{
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);

    __atomic_store_n(&r->tail, tail + ring_min(n, head - tail), __ATOMIC_RELEASE);
}

#endif
