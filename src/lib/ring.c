/* Single-producer/single-consumer byte ring; see ring.h for the
 * ownership and memory-ordering rules. */
#include <errno.h>
#include <stddef.h>

#include "ring.h"

#define RING_MIN_CAPACITY 2u

#define WORD sizeof(uint64_t)
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ring_copy shifts little-endian words");

/* ring_copy and its word copies: the bytes [src, end) one by one; returns
 * dst past them. */
static inline __attribute__((always_inline)) uint8_t *copy_bytes(uint8_t *dst, const uint8_t *src,
                                                                 const uint8_t *end)
{
    for (; src != end; src++, dst++)
        *dst = *src;
    return dst;
}

/* ring_copy's words: one aligned 8-byte load or store. */
static inline uint64_t word_load(const uint8_t *p)
{
    uint64_t w;
    __builtin_memcpy(&w, __builtin_assume_aligned(p, WORD), WORD);
    return w;
}

static inline void word_store(uint8_t *p, uint64_t w)
{
    __builtin_memcpy(__builtin_assume_aligned(p, WORD), &w, WORD);
}

#define TURN_WORDS 16U   /* copy_words' unrolled turn: 128 bytes */

/* copy_words: k words (a constant: unrolled) from src to dst. */
static inline __attribute__((always_inline)) void copy_k_words(uint8_t *dst, const uint8_t *src,
                                                               unsigned k)
{
#pragma GCC unroll 16
    for (unsigned i = 0; i < k; i++)
        word_store(dst + i * WORD, word_load(src + i * WORD));
}

/* ring_copy, source and destination alike aligned mod 8: bytes up to the
 * word boundary, words (TURN_WORDS to a turn, up to a bound worked out
 * once; then 8, 4, 2 and 1 by the bits of what is left), then the last
 * bytes. */
static inline __attribute__((always_inline)) void copy_words(uint8_t *dst, const uint8_t *src,
                                                             const uint8_t *end)
{
    for (; (uintptr_t)src & (WORD - 1); src++, dst++)
        *dst = *src;
    size_t left = (size_t)(end - src);
    const uint8_t *turns = src + (left & ~(size_t)(TURN_WORDS * WORD - 1));
    for (; src != turns; src += TURN_WORDS * WORD, dst += TURN_WORDS * WORD)
        copy_k_words(dst, src, TURN_WORDS);
#define COPY_IF_LEFT(k)                                                                    \
    if (left & ((k) * WORD)) {                                                             \
        copy_k_words(dst, src, (k));                                                       \
        src += (k) * WORD;                                                                 \
        dst += (k) * WORD;                                                                 \
    }
    COPY_IF_LEFT(8)
    COPY_IF_LEFT(4)
    COPY_IF_LEFT(2)
    COPY_IF_LEFT(1)
#undef COPY_IF_LEFT
    copy_bytes(dst, src, end);
}

/* ring_copy, when source and destination differ in alignment mod 8:
 * aligned source words are loaded, shifted together and stored as aligned
 * words (picolibc's memcpy copies such buffers byte by byte). Reads only
 * [src, end); at least 2 words. */
static inline __attribute__((always_inline)) void copy_shifted(uint8_t *dst, const uint8_t *src,
                                                               const uint8_t *end)
{
    for (; (uintptr_t)dst & (WORD - 1); src++, dst++)   /* align the destination */
        *dst = *src;
    /* m bytes up to the source's next word boundary start the carry. */
    unsigned m = WORD - ((uintptr_t)src & (WORD - 1)), bits = 8 * m;
    uint64_t carry = 0;
    for (unsigned i = 0; i < m; i++)
        carry |= (uint64_t)src[i] << (8 * i);
    for (src += m; end - src >= (ptrdiff_t)WORD; src += WORD, dst += WORD) {
        uint64_t word = word_load(src);
        word_store(dst, carry | word << bits);
        carry = word >> (64 - bits);
    }
    for (unsigned i = 0; i < m; i++)
        *dst++ = (uint8_t)(carry >> (8 * i));
    copy_bytes(dst, src, end);
}

/* ring_push/ring_pop (the caller's context): n bytes, by words where the
 * copy is long enough for them to pay: alike aligned, or shifted when the
 * ring position and the caller's buffer differ in alignment mod 8 (any
 * byte count shifts it); else byte by byte. No call: push and pop stay
 * leaf functions (no registers to save). */
static inline __attribute__((always_inline)) void ring_copy(uint8_t *dst, const uint8_t *src,
                                                            size_t n)
{
    const uint8_t *end = src + n;
    if (n < 4 * WORD) {
        copy_bytes(dst, src, end);
    } else if ((((uintptr_t)dst ^ (uintptr_t)src) & (WORD - 1)) == 0) {
        copy_words(dst, src, end);
    } else {
        copy_shifted(dst, src, end);
    }
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
