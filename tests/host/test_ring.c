/* Host tests for the SPSC byte ring: directed edge cases plus random
 * operation sequences checked against a plain array FIFO model. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ring.h"

#define MAX_CAP 256u
#define GUARD 16u      /* bytes checked on each side of the storage */
#define GUARD_BYTE 0xA5u
#define RANDOM_STEPS 20000
#define NEAR_WRAP ((ring_idx_t)-6)   /* the counters' maximum less 5 */

/* Storage with guard zones to catch writes outside [0, cap). */
static _Alignas(16) uint8_t arena[GUARD + MAX_CAP + GUARD];
static uint8_t *const storage = arena + GUARD;
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* Fixed-seed xorshift64 PRNG. */
static uint32_t rnd(uint32_t bound)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return bound ? (uint32_t)(rng_state % bound) : 0;
}

/* Reference model: bytes in FIFO order, model[0] oldest. */
static uint8_t model[MAX_CAP];
static uint32_t model_n;
static uint8_t next_byte;

/* Appends n bytes to the model. */
static void model_push(const uint8_t *p, uint32_t n)
{
    memcpy(model + model_n, p, n);
    model_n += n;
}

/* Drops the n oldest bytes from the model. */
static void model_pop(uint32_t n)
{
    memmove(model, model + n, model_n - n);
    model_n -= n;
}

/* Fills storage and guard zones with the guard byte. */
static void guards_set(void)
{
    memset(arena, GUARD_BYTE, sizeof(arena));
}

/* True if nothing was written outside storage[0..cap). */
static int guards_ok(uint32_t cap)
{
    for (uint32_t i = 0; i < GUARD; i++)
        if (arena[i] != GUARD_BYTE || storage[cap + i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* Every unread byte in the ring equals the model, and counts agree. */
static void check_against_model(const struct ring *r, uint32_t cap)
{
    CHECK_EQ(ring_used(r), model_n);
    CHECK_EQ(ring_free(r), cap - model_n);
    CHECK_EQ(r->head - r->tail, model_n);
    for (uint32_t i = 0; i < model_n; i++) {
        if (r->buf[(r->tail + i) & r->mask] != model[i]) {
            CHECK(!"ring content differs from model");
            break;
        }
    }
    CHECK(guards_ok(cap));
}

/* Writes the next n bytes of a running counter pattern. */
static void fill_pattern(uint8_t *p, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        p[i] = next_byte++;
}

/* One random run of RANDOM_STEPS operations on a ring of size cap whose
 * indices start at start. */
static void random_run(uint32_t cap, ring_idx_t start)
{
    struct ring r;
    uint8_t tmp[MAX_CAP * 2];

    guards_set();
    CHECK_EQ(ring_init(&r, storage, cap), 0);
    r.head = r.tail = start;
    model_n = 0;
    for (int step = 0; step < RANDOM_STEPS; step++) {
        uint32_t n = rnd(cap + cap / 2 + 2); /* 0 .. oversize */
        uint32_t got, len;
        const uint8_t *rp;
        uint8_t *wp;

        switch (rnd(5)) {
        case 0: /* push */
            fill_pattern(tmp, n);
            got = ring_push(&r, tmp, n);
            CHECK_EQ(got, n < cap - model_n ? n : cap - model_n);
            model_push(tmp, got);
            break;
        case 1: /* pop */
            memset(tmp, 0, sizeof(tmp));
            got = ring_pop(&r, tmp, n);
            CHECK_EQ(got, n < model_n ? n : model_n);
            CHECK(memcmp(tmp, model, got) == 0);
            model_pop(got);
            break;
        case 2: /* read_slice + consume part of it */
            len = ring_read_slice(&r, &rp);
            CHECK(len <= model_n);
            CHECK(rp == r.buf + (r.tail & r.mask));
            CHECK(rp + len <= r.buf + cap);
            /* contiguous run reaches either all data or the storage end */
            CHECK(len == model_n || rp + len == r.buf + cap);
            CHECK(memcmp(rp, model, len) == 0);
            n = rnd(len + 1);
            ring_consume(&r, n);
            model_pop(n);
            break;
        case 3: /* write_slice + produce part of it */
            len = ring_write_slice(&r, &wp);
            CHECK(len <= cap - model_n);
            CHECK(wp == r.buf + (r.head & r.mask));
            CHECK(wp + len <= r.buf + cap);
            CHECK(len == cap - model_n || wp + len == r.buf + cap);
            n = rnd(len + 1);
            fill_pattern(wp, n);
            ring_produce(&r, n);
            model_push(wp, n);
            break;
        default: /* NULL buffers and zero lengths take nothing */
            CHECK_EQ(ring_push(&r, NULL, n + 1), 0);
            CHECK_EQ(ring_pop(&r, NULL, n + 1), 0);
            CHECK_EQ(ring_push(&r, tmp, 0), 0);
            CHECK_EQ(ring_pop(&r, tmp, 0), 0);
            ring_consume(&r, 0);
            ring_produce(&r, 0);
            break;
        }
        check_against_model(&r, cap);
    }
}

/* ring_init rejects bad arguments and accepts every power of two. */
static void test_init_errors(void)
{
    static const uint32_t bad[] = { 0, 1, 3, 6, 100, 0x80000001u, UINT32_MAX };
    struct ring r;

    CHECK_EQ(ring_init(NULL, storage, 16), -EINVAL);
    CHECK_EQ(ring_init(&r, NULL, 16), -EINVAL);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        CHECK_EQ(ring_init(&r, storage, bad[i]), -EINVAL);
    CHECK_EQ(ring_init(&r, storage, 2), 0);
    CHECK_EQ(ring_capacity(&r), 2);
    /* largest power of two; storage is never touched by init */
    CHECK_EQ(ring_init(&r, storage, 0x80000000u), 0);
    CHECK_EQ(ring_capacity(&r), 0x80000000u);
    CHECK_EQ(ring_used(&r), 0);
    CHECK_EQ(ring_free(&r), 0x80000000u);
}

/* Empty, full, oversize push, clamped consume/produce, reset. */
static void test_full_empty_oversize(void)
{
    const uint32_t cap = 16;
    uint8_t in[64], out[64];
    const uint8_t *rp;
    uint8_t *wp;
    struct ring r;

    for (uint32_t i = 0; i < sizeof(in); i++)
        in[i] = (uint8_t)(i + 1);
    guards_set();
    CHECK_EQ(ring_init(&r, storage, cap), 0);
    CHECK_EQ(ring_used(&r), 0);
    CHECK_EQ(ring_pop(&r, out, 1), 0);
    CHECK_EQ(ring_read_slice(&r, &rp), 0);
    CHECK_EQ(ring_push(&r, in, 3), 3);
    /* oversize push takes exactly the free space ... */
    CHECK_EQ(ring_push(&r, in + 3, 40), cap - 3);
    CHECK_EQ(ring_used(&r), cap);
    CHECK_EQ(ring_free(&r), 0);
    /* ... and a full ring takes nothing, through either interface */
    CHECK_EQ(ring_push(&r, in, 1), 0);
    CHECK_EQ(ring_write_slice(&r, &wp), 0);
    ring_produce(&r, 5); /* clamped to the (zero) free space */
    CHECK_EQ(ring_used(&r), cap);
    CHECK(guards_ok(cap));
    /* nothing unread was overwritten */
    CHECK_EQ(ring_pop(&r, out, sizeof(out)), cap);
    CHECK(memcmp(out, in, cap) == 0);
    CHECK_EQ(ring_pop(&r, out, 1), 0);
    /* consume beyond the unread data is clamped */
    CHECK_EQ(ring_push(&r, in, 3), 3);
    ring_consume(&r, cap + 1);
    CHECK_EQ(ring_used(&r), 0);

    ring_push(&r, in, 5);
    ring_reset(&r);
    CHECK_EQ(ring_used(&r), 0);
    CHECK_EQ(ring_free(&r), cap);
}

/* Copies and slices at the end of storage. */
static void test_wrap_straddle(void)
{
    const uint32_t cap = 8;
    uint8_t in[8] = { 10, 11, 12, 13, 14, 15, 16, 17 }, out[8];
    const uint8_t *rp;
    uint8_t *wp;
    struct ring r;

    guards_set();
    CHECK_EQ(ring_init(&r, storage, cap), 0);
    CHECK_EQ(ring_push(&r, in, 6), 6);
    CHECK_EQ(ring_pop(&r, out, 6), 6);
    /* head = tail = 6: 2 bytes to the end of storage, 8 free in total */
    CHECK_EQ(ring_push(&r, in, 5), 5); /* not cut short at the wrap */
    CHECK_EQ(storage[6], 10);
    CHECK_EQ(storage[7], 11);
    CHECK_EQ(storage[0], 12);
    CHECK_EQ(storage[2], 14);
    CHECK_EQ(ring_write_slice(&r, &wp), 3); /* from 3 up to tail at 6 */
    CHECK(wp == storage + 3);
    CHECK_EQ(ring_read_slice(&r, &rp), 2); /* stops at the storage end */
    CHECK(rp == storage + 6);
    ring_consume(&r, 2);
    CHECK_EQ(ring_read_slice(&r, &rp), 3);
    CHECK(rp == storage);
    CHECK_EQ(rp[0], 12);
    CHECK_EQ(ring_pop(&r, out, 8), 3);
    CHECK_EQ(out[0], 12);
    CHECK_EQ(out[2], 14);
    /* head = tail = 11 (offset 3): push and pop 7 bytes, both straddling */
    CHECK_EQ(ring_push(&r, in, 7), 7);
    CHECK_EQ(storage[7], in[4]);
    CHECK_EQ(storage[0], in[5]);
    CHECK_EQ(storage[1], in[6]);
    memset(out, 0, sizeof(out));
    CHECK_EQ(ring_pop(&r, out, 8), 7);
    CHECK(memcmp(out, in, 7) == 0);
    CHECK_EQ(ring_used(&r), 0);
    CHECK(guards_ok(cap));
}

/* Counters crossing their maximum -> 0 keep used/free and contents right. */
static void test_index_wrap(void)
{
    const uint32_t cap = 16;
    uint8_t in[16], out[16];
    struct ring r;

    for (uint32_t i = 0; i < cap; i++)
        in[i] = (uint8_t)(0x40 + i);
    guards_set();
    CHECK_EQ(ring_init(&r, storage, cap), 0);
    r.head = r.tail = NEAR_WRAP;
    CHECK_EQ(ring_used(&r), 0);
    CHECK_EQ(ring_push(&r, in, cap), cap); /* head passes 0 */
    CHECK(r.head < r.tail);
    CHECK_EQ(ring_used(&r), cap);
    CHECK_EQ(ring_free(&r), 0);
    CHECK_EQ(ring_push(&r, in, 1), 0);
    CHECK_EQ(ring_pop(&r, out, 4), 4);
    CHECK(memcmp(out, in, 4) == 0);
    CHECK_EQ(ring_used(&r), cap - 4);
    CHECK_EQ(ring_pop(&r, out + 4, cap), cap - 4); /* tail passes 0 */
    CHECK(memcmp(out, in, cap) == 0);
    CHECK_EQ(r.tail, r.head);
    CHECK_EQ(r.tail, NEAR_WRAP + cap);
    CHECK(guards_ok(cap));
}

/* Every ring position (mod 16) against every caller-buffer alignment,
 * lengths across the word-copy threshold and across the wrap: bytes come
 * out as they went in. Caller buffers are exact-size heap blocks, so
 * ASan catches a read or write past them. */
static void test_alignments(void)
{
    for (uint32_t pos = 0; pos < 16; pos++) {
        for (uint32_t off = 0; off < 16; off++) {
            for (uint32_t n = 0; n <= 100; n += (n < 40 ? 1 : 7)) {
                struct ring r;
                uint8_t *in = malloc(off + n + 1), *out = malloc(((off * 5) & 15) + n + 1);
                uint8_t *src = in + off, *dst = out + ((off * 5) & 15);
                uint32_t start = pos + (n & 1 ? MAX_CAP - 48 : 0);   /* odd n: wrap */

                for (uint32_t i = 0; i < n; i++)
                    src[i] = (uint8_t)(i * 7 + pos + 1);
                ring_init(&r, storage, MAX_CAP);
                r.head = r.tail = start;
                guards_set();
                CHECK_EQ(ring_push(&r, src, n), n);
                memset(dst, 0, n);
                CHECK_EQ(ring_pop(&r, dst, n), n);
                CHECK(memcmp(src, dst, n) == 0);
                CHECK(guards_ok(MAX_CAP));
                free(in);
                free(out);
            }
        }
    }
}

/* Directed tests, then random runs per capacity and start index. */
int main(void)
{
    static const uint32_t caps[] = { 2, 4, 8, 16, 64, MAX_CAP };

    test_init_errors();
    test_full_empty_oversize();
    test_wrap_straddle();
    test_index_wrap();
    test_alignments();
    for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
        random_run(caps[i], 0);
        random_run(caps[i], NEAR_WRAP);
        random_run(caps[i], (ring_idx_t)-1 - caps[i] / 2);
    }
    return check_exit("ring");
}
