/* libFuzzer target: the SPSC byte ring (include/ring.h) driven by random
 * operation sequences and checked against a plain byte-queue model after
 * every operation. Single-threaded: the concurrency side is
 * tests/host/test_ring_tsan.c; this checks the arithmetic (wrap of the
 * storage and of the free-running uint32_t counters, clamping, slices).
 *
 * Input: byte 0 picks the capacity (2..512, or an invalid one for
 * ring_init), bytes 1..4 the starting counter value (0, just below the
 * uint32_t wrap, or arbitrary), then one opcode byte and its arguments
 * per operation until the input runs out. Every buffer handed to the ring
 * is malloc'ed with exactly the size the ring may touch, so AddressSanitizer
 * reports any byte outside it. A mismatch prints what differs and aborts. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring.h"

#define MAX_LOG2_CAP 9                 /* capacities up to 512 */
#define MAX_CAP      (1u << MAX_LOG2_CAP)

struct input {
    const uint8_t *p;
    size_t n;
};

static uint8_t take8(struct input *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

static uint32_t take32(struct input *in)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | take8(in);
    return v;
}

#define FAIL(...) do { fprintf(stderr, "fuzz_ring: " __VA_ARGS__); \
                       fputc('\n', stderr); abort(); } while (0)

/* The reference: a plain queue of at most cap bytes. */
static struct {
    uint8_t q[MAX_CAP];
    uint32_t n, cap;
} m;

static void model_push(const uint8_t *p, uint32_t k)
{
    memcpy(m.q + m.n, p, k);
    m.n += k;
}

static void model_pop(uint8_t *out, uint32_t k)
{
    if (out)
        memcpy(out, m.q, k);
    memmove(m.q, m.q + k, m.n - k);
    m.n -= k;
}

static uint32_t min32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* A count argument: mostly small, sometimes at the edges. */
static uint32_t take_count(struct input *in)
{
    uint8_t sel = take8(in);
    switch (sel >> 5) {
    case 0: return 0;
    case 1: return m.cap - 1u + (sel & 3u);   /* cap-1 .. cap+2 */
    case 2: return UINT32_MAX - (sel & 1u);
    case 3: return (uint32_t)take8(in) << 8 | take8(in);
    default: return sel & 0x3Fu;
    }
}

/* Every observable of the ring equals the model. */
static void check(const struct ring *r, const char *after)
{
    uint32_t used = ring_used(r), head = r->head, tail = r->tail;
    if (ring_capacity(r) != m.cap)
        FAIL("after %s: capacity %u, expected %u", after, ring_capacity(r), m.cap);
    if (used != m.n || head - tail != m.n)
        FAIL("after %s: used %u (head %u tail %u), model holds %u", after, used,
             head, tail, m.n);
    if (ring_free(r) != m.cap - m.n)
        FAIL("after %s: free %u, expected %u", after, ring_free(r), m.cap - m.n);
    for (uint32_t i = 0; i < m.n; i++)
        if (r->buf[(tail + i) & r->mask] != m.q[i])
            FAIL("after %s: unread byte %u is %#x, expected %#x", after, i,
                 r->buf[(tail + i) & r->mask], m.q[i]);
}

/* ring_init's argument checks: -EINVAL exactly for NULLs and capacities
 * that are not a power of two >= 2, and then nothing is written. */
static void check_init_args(uint32_t capacity)
{
    struct ring r;
    uint8_t store[1];
    bool ok = capacity >= 2 && (capacity & (capacity - 1u)) == 0;
    memset(&r, 0xA5, sizeof r);
    int rc = ring_init(&r, store, capacity);
    if (rc != (ok ? 0 : -EINVAL))
        FAIL("ring_init(capacity %u) returned %d", capacity, rc);
    if (!ok) {
        struct ring pattern;
        memset(&pattern, 0xA5, sizeof pattern);
        if (memcmp(&r, &pattern, sizeof r) != 0)
            FAIL("ring_init(capacity %u) failed but wrote the ring", capacity);
    }
    if (ring_init(NULL, store, 2) != -EINVAL || ring_init(&r, NULL, 2) != -EINVAL)
        FAIL("ring_init accepted a NULL ring or storage");
}

static uint8_t pattern_next;  /* payload bytes: a running counter */

static void fill(uint8_t *p, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++)
        p[i] = pattern_next++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct input in = { data, size };
    uint8_t capsel = take8(&in);
    uint32_t start;
    struct ring r;

    if (capsel >= 0xF0) {                   /* an invalid (or any) capacity */
        check_init_args(take32(&in));
        return 0;
    }
    m.cap = 1u << (1 + capsel % MAX_LOG2_CAP);
    m.n = 0;
    switch (take8(&in) & 3) {
    case 0: start = 0; break;
    case 1: start = UINT32_MAX - m.cap - (take8(&in) & 0x1F); break;   /* wraps soon */
    default: start = take32(&in); break;
    }

    uint8_t *store = malloc(m.cap);
    if (!store)
        abort();
    memset(store, 0xEE, m.cap);
    if (ring_init(&r, store, m.cap) != 0)
        FAIL("ring_init(capacity %u) failed", m.cap);
    /* A ring that has already moved start bytes: empty, counters at start. */
    r.head = r.tail = start;
    check(&r, "init");

    while (in.n) {
        uint8_t op = take8(&in);
        switch (op % 9) {
        case 0: {                           /* push */
            uint32_t n = take_count(&in), k = min32(n, m.cap - m.n);
            uint8_t *src = malloc(k ? k : 1);  /* exactly what may be read */
            fill(src, k);
            uint32_t got = ring_push(&r, src, n);
            if (got != k)
                FAIL("push(%u) took %u, expected %u", n, got, k);
            model_push(src, k);
            free(src);
            check(&r, "push");
            break;
        }
        case 1: {                           /* pop */
            uint32_t n = take_count(&in), k = min32(n, m.n);
            uint8_t *dst = malloc(k ? k : 1), *want = malloc(k ? k : 1);
            uint32_t got = ring_pop(&r, dst, n);
            if (got != k)
                FAIL("pop(%u) gave %u, expected %u", n, got, k);
            model_pop(want, k);
            if (memcmp(dst, want, k) != 0)
                FAIL("pop(%u): bytes differ from the model", n);
            free(dst);
            free(want);
            check(&r, "pop");
            break;
        }
        case 2: {                           /* read slice, then consume */
            const uint8_t *p = NULL;
            uint32_t off = r.tail & r.mask;
            uint32_t len = ring_read_slice(&r, &p);
            uint32_t want = min32(m.n, m.cap - off);
            if (p != r.buf + off || len != want)
                FAIL("read_slice: %u bytes at offset %td, expected %u at %u", len,
                     p - r.buf, want, off);
            if (memcmp(p, m.q, len) != 0)
                FAIL("read_slice: bytes differ from the model");
            uint32_t k = take8(&in) & 1 ? len : min32(take_count(&in), len);
            ring_consume(&r, k);
            model_pop(NULL, k);
            check(&r, "read_slice+consume");
            break;
        }
        case 3: {                           /* consume, any count (clamped) */
            uint32_t n = take_count(&in);
            ring_consume(&r, n);
            model_pop(NULL, min32(n, m.n));
            check(&r, "consume");
            break;
        }
        case 4: {                           /* write slice, then produce */
            uint8_t *p = NULL;
            uint32_t off = r.head & r.mask;
            uint32_t len = ring_write_slice(&r, &p);
            uint32_t want = min32(m.cap - m.n, m.cap - off);
            if (p != r.buf + off || len != want)
                FAIL("write_slice: %u bytes at offset %td, expected %u at %u", len,
                     p - r.buf, want, off);
            uint32_t k = take8(&in) & 1 ? len : min32(take_count(&in), len);
            fill(p, k);
            ring_produce(&r, k);
            model_push(p, k);
            check(&r, "write_slice+produce");
            break;
        }
        case 5: {                           /* produce, any count (clamped) */
            uint32_t n = take_count(&in), k = min32(n, m.cap - m.n);
            uint8_t tmp[MAX_CAP];
            /* Publishes whatever the storage holds there. */
            for (uint32_t i = 0; i < k; i++)
                tmp[i] = r.buf[(r.head + i) & r.mask];
            ring_produce(&r, n);
            model_push(tmp, k);
            check(&r, "produce");
            break;
        }
        case 6: {                           /* NULL buffers and zero counts */
            uint8_t b = 0;
            if (ring_push(&r, NULL, take_count(&in)) != 0 ||
                ring_pop(&r, NULL, take_count(&in)) != 0 ||
                ring_push(&r, &b, 0) != 0 || ring_pop(&r, &b, 0) != 0)
                FAIL("NULL buffer or zero count moved bytes");
            check(&r, "NULL/zero");
            break;
        }
        case 7:                             /* reset */
            ring_reset(&r);
            m.n = 0;
            check(&r, "reset");
            break;
        default: {                          /* fill to the brim, then overfill */
            uint32_t k = m.cap - m.n;
            uint8_t *src = malloc(k + 1);
            fill(src, k + 1);
            if (ring_push(&r, src, k + 1) != k)
                FAIL("push of free+1 did not take exactly free (%u)", k);
            model_push(src, k);
            free(src);
            check(&r, "fill");
            break;
        }
        }
    }
    free(store);
    return 0;
}
