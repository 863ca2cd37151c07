/* Single-producer/single-consumer byte ring.
 *
 * One producer and one consumer may run concurrently at different
 * priorities (for example a task and an interrupt handler, or two host
 * threads). The capacity is a power of two; head and tail are free-running
 * uint32_t counters masked on access, so every byte of storage is usable
 * and head - tail is the number of unread bytes even after the counters
 * wrap past UINT32_MAX.
 *
 * Ownership: the producer writes head and the bytes at [head, tail + cap);
 * the consumer writes tail and reads the bytes at [tail, head). Each side
 * publishes its index with a release store and reads the other side's
 * index with an acquire load, so the data copied before a publish is
 * visible to the other side once it sees the new index.
 *
 * Producer-side calls: ring_push, ring_write_slice, ring_produce.
 * Consumer-side calls: ring_pop, ring_read_slice, ring_consume.
 * Either side: ring_capacity, ring_used, ring_free.
 * Neither side active: ring_init, ring_reset.
 */
#ifndef RING_H
#define RING_H

#include <stdint.h>

struct ring {
    uint8_t *buf;  /* storage, capacity bytes */
    uint32_t mask; /* capacity - 1 */
    uint32_t head; /* free-running write counter, producer-owned */
    uint32_t tail; /* free-running read counter, consumer-owned */
};

/* Returns 0, or -EINVAL if r or storage is NULL or capacity is not a
 * power of two >= 2. Does not touch the storage bytes. */
int ring_init(struct ring *r, uint8_t *storage, uint32_t capacity);

/* Total number of bytes the ring holds when full. */
uint32_t ring_capacity(const struct ring *r);

/* Unread bytes. Exact for the consumer; for the producer or another
 * observer it is a snapshot that may already be stale. */
uint32_t ring_used(const struct ring *r);

/* Writable bytes: ring_capacity() - ring_used(). */
uint32_t ring_free(const struct ring *r);

/* Producer: copies min(n, free) bytes from src, across the wrap if
 * needed, and returns the count taken. Never overwrites unread data.
 * Returns 0 when n == 0 or src is NULL. */
uint32_t ring_push(struct ring *r, const void *src, uint32_t n);

/* Consumer: copies min(n, used) bytes into dst, across the wrap if
 * needed, and returns the count removed. Returns 0 when n == 0 or dst
 * is NULL. */
uint32_t ring_pop(struct ring *r, void *dst, uint32_t n);

/* Consumer: sets *p to the oldest unread byte and returns the length of
 * the contiguous unread run starting there (stops at the end of storage;
 * a second call after ring_consume returns the rest). */
uint32_t ring_read_slice(const struct ring *r, const uint8_t **p);

/* Consumer: releases n bytes read through ring_read_slice. n is clamped
 * to the number of unread bytes. */
void ring_consume(struct ring *r, uint32_t n);

/* Producer: sets *p to the next free byte and returns the length of the
 * contiguous free run starting there (stops at the end of storage). */
uint32_t ring_write_slice(const struct ring *r, uint8_t **p);

/* Producer: publishes n bytes written through ring_write_slice. n is
 * clamped to the number of free bytes. */
void ring_produce(struct ring *r, uint32_t n);

/* Empties the ring. Only when neither producer nor consumer is active. */
void ring_reset(struct ring *r);

#endif
