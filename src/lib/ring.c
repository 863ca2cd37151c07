/* Single-producer/single-consumer byte ring; see ring.h for the
 * ownership and memory-ordering rules. */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "ring.h"

#define RING_MIN_CAPACITY 2u

#define WORD sizeof(uint64_t)
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ring_copy shifts little-endian words");

/* ring_copy, when source and destination differ in alignment mod 8:
 * aligned source words are loaded, shifted together and stored as aligned
 * words (picolibc's memcpy copies such buffers byte by byte). Reads only
 * [src, src + n); n >= 2 words. */
static __attribute__((noinline)) void copy_shifted(uint8_t *dst, const uint8_t *src, size_t n)
{
    for (; (uintptr_t)dst & (WORD - 1); n--)        /* align the destination */
        *dst++ = *src++;
    /* m bytes up to the source's next word boundary start the carry. */
    const uint8_t *end = src + n;
    unsigned m = WORD - ((uintptr_t)src & (WORD - 1)), bits = 8 * m;
    uint64_t carry = 0, word;
    for (unsigned i = 0; i < m; i++)
        carry |= (uint64_t)src[i] << (8 * i);
    for (src += m; end - src >= (ptrdiff_t)WORD; src += WORD, dst += WORD) {
        __builtin_memcpy(&word, __builtin_assume_aligned(src, WORD), WORD);
        uint64_t out = carry | word << bits;
        __builtin_memcpy(__builtin_assume_aligned(dst, WORD), &out, WORD);
        carry = word >> (64 - bits);
    }
    for (unsigned i = 0; i < m; i++)
        *dst++ = (uint8_t)(carry >> (8 * i));
    memcpy(dst, src, (size_t)(end - src));
}

/* ring_push/ring_pop (the caller's context): memcpy, unless source and
 * destination differ in alignment mod 8 (the ring position against the
 * caller's buffer: any byte count shifts it) and the copy is long enough
 * for words to pay. */
static inline void ring_copy(uint8_t *dst, const uint8_t *src, size_t n)
{
    if (n >= 4 * WORD && (((uintptr_t)dst ^ (uintptr_t)src) & (WORD - 1)))
        copy_shifted(dst, src, n);
    else
        memcpy(dst, src, n);
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

/* Producer (task or ISR, one producer at a time): copies up to n bytes in
 * at most two pieces (up to the end of storage, then from the start). */
uint32_t ring_push(struct ring *r, const void *src, uint32_t n)
{
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    ring_idx_t off = head & r->mask;
    ring_idx_t k, first;

    if (src == NULL)
        return 0;
    k = ring_min(n, r->mask + 1u - (head - tail));
    first = ring_min(k, r->mask + 1u - off);
    ring_copy(r->buf + off, src, first);
    if (k > first)
        ring_copy(r->buf, (const uint8_t *)src + first, k - first);
    __atomic_store_n(&r->head, head + k, __ATOMIC_RELEASE);
    return (uint32_t)k;
}

/* Consumer (task or ISR, one consumer at a time): copies up to n bytes out
 * in at most two pieces (up to the end of storage, then from the start). */
uint32_t ring_pop(struct ring *r, void *dst, uint32_t n)
{
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    ring_idx_t off = tail & r->mask;
    ring_idx_t k, first;

    if (dst == NULL)
        return 0;
    k = ring_min(n, head - tail);
    first = ring_min(k, r->mask + 1u - off);
    ring_copy(dst, r->buf + off, first);
    if (k > first)
        ring_copy((uint8_t *)dst + first, r->buf, k - first);
    __atomic_store_n(&r->tail, tail + k, __ATOMIC_RELEASE);
    return (uint32_t)k;
}

/* Producer (task or ISR): contiguous free run starting at head, for
 * zero-copy filling such as draining a UART receive FIFO. */
uint32_t ring_write_slice(const struct ring *r, uint8_t **p)
{
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    ring_idx_t off = head & r->mask;

    *p = r->buf + off;
    return (uint32_t)ring_min(r->mask + 1u - (head - tail), r->mask + 1u - off);
}

/* Producer (task or ISR): publishes n bytes written through the slice.
 * The tail load only bounds n, so relaxed ordering is enough. */
void ring_produce(struct ring *r, uint32_t n)
{
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);

    __atomic_store_n(&r->head, head + ring_min(n, r->mask + 1u - (head - tail)),
                     __ATOMIC_RELEASE);
}

/* Task with both sides stopped (e.g. the UART interrupt disabled): drops
 * all unread bytes. */
void ring_reset(struct ring *r)
{
    __atomic_store_n(&r->head, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&r->tail, 0, __ATOMIC_RELAXED);
}
