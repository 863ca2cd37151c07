/* Single-producer/single-consumer byte ring, header-only: every call is
 * static inline and compiles into its caller (a FIFO refill, a write, the
 * RX interrupt), no call between them; GCC may keep a large one called
 * from several places in one file as a local function of that file.
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
 *
 * ring_push and ring_pop copy by words of their own (ring_copy below),
 * with no memcpy call: inlined they add no call to their caller, kept out
 * of line they are leaf functions.
 */
#ifndef RING_H
#define RING_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned long ring_idx_t;   /* an index or a count inside the ring */

struct ring {
    uint8_t *buf;    /* storage, capacity bytes */
    ring_idx_t mask; /* capacity - 1 */
    ring_idx_t head; /* free-running write counter, producer-owned */
    ring_idx_t tail; /* free-running read counter, consumer-owned */
};

#define RING_MIN_CAPACITY 2u

/* Either side, the index's owner: publish v as the index *slot (head for
 * the producer, tail for the consumer) with release ordering: every
 * access before it (the bytes copied in or out) is visible before the
 * new index. On RISC-V a fence and a plain store, the psABI's mapping of
 * a release store (GCC 12 makes it an amoswap on an address it computes
 * first). An owner reads its own index plainly: only it writes it. */
static inline void ring_publish(ring_idx_t *slot, ring_idx_t v)
{
#if defined(__riscv) && __riscv_xlen == 64
    __asm__ volatile("fence rw, w\n\tsd %1, %0" : "=m"(*slot) : "r"(v) : "memory");
#else
    __atomic_store_n(slot, v, __ATOMIC_RELEASE);
#endif
}

/* Either side, any context: the smaller of two counts. */
static inline ring_idx_t ring_min(ring_idx_t a, ring_idx_t b)
{
    return a < b ? a : b;
}

/* Init code, before either side starts: binds the storage and empties the
 * ring. Returns 0, or -EINVAL if r or storage is NULL or capacity is not
 * a power of two >= 2. Does not touch the storage bytes. */
static inline int ring_init(struct ring *r, uint8_t *storage, uint32_t capacity)
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

/* Task with both sides stopped (e.g. the UART interrupt disabled): drops
 * all unread bytes. */
static inline void ring_reset(struct ring *r)
{
    __atomic_store_n(&r->head, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&r->tail, 0, __ATOMIC_RELAXED);
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

/* Producer (task or ISR): sets *p to the next free byte and returns the
 * length of the contiguous free run starting there (stops at the end of
 * storage), for zero-copy filling such as draining a UART receive FIFO. */
static inline uint32_t ring_write_slice(const struct ring *r, uint8_t **p)
{
    ring_idx_t head = r->head;
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    ring_idx_t off = head & r->mask;

    *p = r->buf + off;
    return (uint32_t)ring_min(r->mask + 1u - (head - tail), r->mask + 1u - off);
}

/* Producer (task or ISR): publishes n bytes written through
 * ring_write_slice, n clamped to the free bytes. The tail load only
 * bounds n, so relaxed ordering is enough. */
static inline void ring_produce(struct ring *r, uint32_t n)
{
    ring_idx_t head = r->head;
    ring_idx_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);

    ring_publish(&r->head, head + ring_min(n, r->mask + 1u - (head - tail)));
}

/* Consumer (task or ISR): sets *p to the oldest unread byte and returns
 * the length of the contiguous unread run starting there (stops at the
 * end of storage; a second call after ring_consume returns the rest). */
static inline uint32_t ring_read_slice(const struct ring *r, const uint8_t **p)
{
    ring_idx_t tail = r->tail;
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    ring_idx_t off = tail & r->mask;

    *p = r->buf + off;
    return (uint32_t)ring_min(head - tail, r->mask + 1u - off);
}

/* What ring_peek found: the oldest unread bytes, as at most two
 * contiguous runs. */
struct ring_peeked {
    const uint8_t *p;   /* the first run */
    ring_idx_t n;       /* the bytes, at most the peek's max */
    ring_idx_t first;   /* of them in the first run; the rest start at r->buf */
    ring_idx_t used;    /* the unread count at the head's load */
    ring_idx_t tail;    /* the read counter they start at */
};

/* Consumer (task or ISR, a FIFO refill): the oldest unread bytes, up to
 * max, from one load of head. Release them with ring_release. (A small
 * peek seldom reaches the end of storage: that case is the jump.) */
static inline struct ring_peeked ring_peek(const struct ring *r, ring_idx_t max)
{
    ring_idx_t tail = r->tail;
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
    ring_idx_t off = tail & r->mask, n = ring_min(head - tail, max);
    ring_idx_t to_end = r->mask + 1u - off;

    return (struct ring_peeked){ r->buf + off, n,
                                 __builtin_expect(n <= to_end, 1) ? n : to_end,
                                 head - tail, tail };
}

/* Consumer (task or ISR): releases n <= k->n bytes of what ring_peek
 * found (k) and it has read, in one store. */
static inline void ring_release(struct ring *r, const struct ring_peeked *k, ring_idx_t n)
{
    ring_publish(&r->tail, k->tail + n);
}

/* Consumer (task or ISR): releases n bytes read through ring_read_slice,
 * n clamped to the unread bytes. The head load only bounds n, so relaxed
 * ordering is enough. */
static inline void ring_consume(struct ring *r, uint32_t n)
{
    ring_idx_t tail = r->tail;
    ring_idx_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);

    ring_publish(&r->tail, tail + ring_min(n, head - tail));
}

/* ring_push and ring_pop's copy, ring_copy, and its word copies. */

#define RING_WORD sizeof(uint64_t)
#define RING_TURN_WORDS 16U   /* ring_copy_words' unrolled turn: 128 bytes */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "ring_copy shifts little-endian words");

/* ring_copy and its word copies: the bytes [src, end) one by one; returns
 * dst past them. */
static inline __attribute__((always_inline)) uint8_t *ring_copy_bytes(uint8_t *dst,
                                                                      const uint8_t *src,
                                                                      const uint8_t *end)
{
    for (; src != end; src++, dst++)
        *dst = *src;
    return dst;
}

/* ring_copy's words: one aligned 8-byte load or store. */
static inline uint64_t ring_word_load(const uint8_t *p)
{
    uint64_t w;
    __builtin_memcpy(&w, __builtin_assume_aligned(p, RING_WORD), RING_WORD);
    return w;
}

static inline void ring_word_store(uint8_t *p, uint64_t w)
{
    __builtin_memcpy(__builtin_assume_aligned(p, RING_WORD), &w, RING_WORD);
}

/* ring_copy_words: k words (a constant: unrolled) from src to dst. */
static inline __attribute__((always_inline)) void ring_copy_k_words(uint8_t *dst,
                                                                    const uint8_t *src,
                                                                    unsigned k)
{
#pragma GCC unroll 16
    for (unsigned i = 0; i < k; i++)
        ring_word_store(dst + i * RING_WORD, ring_word_load(src + i * RING_WORD));
}

/* ring_copy, source and destination alike aligned mod 8: bytes up to the
 * word boundary, words (RING_TURN_WORDS to a turn, up to a bound worked
 * out once; then 8, 4, 2 and 1 by the bits of what is left), then the
 * last bytes. */
static inline __attribute__((always_inline)) void ring_copy_words(uint8_t *dst,
                                                                  const uint8_t *src,
                                                                  const uint8_t *end)
{
    for (; (uintptr_t)src & (RING_WORD - 1); src++, dst++)
        *dst = *src;
    size_t left = (size_t)(end - src);
    const uint8_t *turns = src + (left & ~(size_t)(RING_TURN_WORDS * RING_WORD - 1));
    for (; src != turns; src += RING_TURN_WORDS * RING_WORD, dst += RING_TURN_WORDS * RING_WORD)
        ring_copy_k_words(dst, src, RING_TURN_WORDS);
#define RING_COPY_IF_LEFT(k)                                                               \
    if (left & ((k) * RING_WORD)) {                                                        \
        ring_copy_k_words(dst, src, (k));                                                  \
        src += (k) * RING_WORD;                                                            \
        dst += (k) * RING_WORD;                                                            \
    }
    RING_COPY_IF_LEFT(8)
    RING_COPY_IF_LEFT(4)
    RING_COPY_IF_LEFT(2)
    RING_COPY_IF_LEFT(1)
#undef RING_COPY_IF_LEFT
    ring_copy_bytes(dst, src, end);
}

/* ring_copy, when source and destination differ in alignment mod 8:
 * aligned source words are loaded, shifted together and stored as aligned
 * words (picolibc's memcpy copies such buffers byte by byte). Reads only
 * [src, end); at least 2 words. */
static inline __attribute__((always_inline)) void ring_copy_shifted(uint8_t *dst,
                                                                    const uint8_t *src,
                                                                    const uint8_t *end)
{
    for (; (uintptr_t)dst & (RING_WORD - 1); src++, dst++)   /* align the destination */
        *dst = *src;
    /* m bytes up to the source's next word boundary start the carry. */
    unsigned m = RING_WORD - ((uintptr_t)src & (RING_WORD - 1)), bits = 8 * m;
    uint64_t carry = 0;
    for (unsigned i = 0; i < m; i++)
        carry |= (uint64_t)src[i] << (8 * i);
    for (src += m; end - src >= (ptrdiff_t)RING_WORD; src += RING_WORD, dst += RING_WORD) {
        uint64_t word = ring_word_load(src);
        ring_word_store(dst, carry | word << bits);
        carry = word >> (64 - bits);
    }
    for (unsigned i = 0; i < m; i++)
        *dst++ = (uint8_t)(carry >> (8 * i));
    ring_copy_bytes(dst, src, end);
}

/* ring_push/ring_pop (the caller's context): n bytes, by words where the
 * copy is long enough for them to pay: alike aligned, or shifted when the
 * ring position and the caller's buffer differ in alignment mod 8 (any
 * byte count shifts it); else byte by byte. No call. */
static inline __attribute__((always_inline)) void ring_copy(uint8_t *dst, const uint8_t *src,
                                                            size_t n)
{
    const uint8_t *end = src + n;
    if (n < 4 * RING_WORD) {
        ring_copy_bytes(dst, src, end);
    } else if ((((uintptr_t)dst ^ (uintptr_t)src) & (RING_WORD - 1)) == 0) {
        ring_copy_words(dst, src, end);
    } else {
        ring_copy_shifted(dst, src, end);
    }
}

/* Producer (task or ISR, one producer at a time): copies min(n, free)
 * bytes from src in at most two pieces (up to the end of storage, then
 * from the start) and returns the count taken. Never overwrites unread
 * data. Returns 0 when n == 0 or src is NULL. */
static inline uint32_t ring_push(struct ring *r, const void *src, uint32_t n)
{
    ring_idx_t head = r->head;
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
    ring_publish(&r->head, head + k);
    return (uint32_t)k;
}

/* Consumer (task or ISR, one consumer at a time): copies min(n, used)
 * bytes into dst in at most two pieces (up to the end of storage, then
 * from the start) and returns the count removed. Returns 0 when n == 0
 * or dst is NULL. */
static inline uint32_t ring_pop(struct ring *r, void *dst, uint32_t n)
{
    ring_idx_t tail = r->tail;
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
    ring_publish(&r->tail, tail + k);
    return (uint32_t)k;
}

#endif
