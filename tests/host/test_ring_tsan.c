/* Two-thread stress test of the SPSC ring under ThreadSanitizer: the
 * producer streams a position-dependent byte pattern in random chunks
 * through ring_push and ring_write_slice/ring_produce; the consumer drains
 * it through ring_pop and ring_read_slice/ring_consume and checks every
 * byte arrives once, in order. */
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "ring.h"

#define STREAM_BYTES (8u * 1024u * 1024u)
#define RING_CAP 1024u
#define MAX_CHUNK 700u /* larger than half the ring: exercises partial ops */
#define PATTERN_MUL 2654435761u
#define PATTERN_SHIFT 24

static uint8_t storage[RING_CAP];
static struct ring ring;
static uint32_t mismatches; /* written by the consumer only */
static uint32_t first_bad = UINT32_MAX;

/* Byte expected at stream position i (not periodic in the ring size). */
static uint8_t pattern(uint32_t i)
{
    return (uint8_t)((i * PATTERN_MUL) >> PATTERN_SHIFT);
}

/* Per-thread xorshift32 PRNG: a value in [1, bound]. */
static uint32_t chunk(uint32_t *state, uint32_t bound)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state % bound + 1;
}

/* Producer thread: alternates between copying and zero-copy writes. */
static void *producer(void *arg)
{
    uint32_t seed = 0x12345678u, pos = 0;
    uint8_t tmp[MAX_CHUNK];

    (void)arg;
    while (pos < STREAM_BYTES) {
        uint32_t n = chunk(&seed, MAX_CHUNK), got;

        if (n > STREAM_BYTES - pos)
            n = STREAM_BYTES - pos;
        if (seed & 1) {
            for (uint32_t i = 0; i < n; i++)
                tmp[i] = pattern(pos + i);
            got = ring_push(&ring, tmp, n);
        } else {
            uint8_t *p;

            got = ring_write_slice(&ring, &p);
            if (got > n)
                got = n;
            for (uint32_t i = 0; i < got; i++)
                p[i] = pattern(pos + i);
            ring_produce(&ring, got);
        }
        pos += got;
        if (got == 0)
            sched_yield();
    }
    return NULL;
}

/* Consumer side: checks n received bytes starting at stream position pos. */
static void verify(const uint8_t *p, uint32_t n, uint32_t pos)
{
    for (uint32_t i = 0; i < n; i++) {
        if (p[i] != pattern(pos + i)) {
            if (mismatches++ == 0)
                first_bad = pos + i;
        }
    }
}

/* Consumer thread: alternates between copying and zero-copy reads. */
static void *consumer(void *arg)
{
    uint32_t seed = 0x9abcdef1u, pos = 0;
    uint8_t tmp[MAX_CHUNK];

    (void)arg;
    while (pos < STREAM_BYTES) {
        uint32_t n = chunk(&seed, MAX_CHUNK), got;

        if (seed & 1) {
            got = ring_pop(&ring, tmp, n);
            verify(tmp, got, pos);
        } else {
            const uint8_t *p;

            got = ring_read_slice(&ring, &p);
            if (got > n)
                got = n;
            verify(p, got, pos);
            ring_consume(&ring, got);
        }
        pos += got;
        if (got == 0)
            sched_yield();
    }
    return NULL;
}

/* Runs both threads to completion and checks the stream and final state. */
int main(void)
{
    pthread_t prod, cons;

    CHECK_EQ(ring_init(&ring, storage, RING_CAP), 0);
    CHECK_EQ(pthread_create(&cons, NULL, consumer, NULL), 0);
    CHECK_EQ(pthread_create(&prod, NULL, producer, NULL), 0);
    CHECK_EQ(pthread_join(prod, NULL), 0);
    CHECK_EQ(pthread_join(cons, NULL), 0);
    if (mismatches)
        fprintf(stderr, "first mismatch at stream byte %u\n", first_bad);
    CHECK_EQ(mismatches, 0);
    CHECK_EQ(ring_used(&ring), 0);
    CHECK_EQ(ring.head, STREAM_BYTES);
    CHECK_EQ(ring.tail, STREAM_BYTES);
    return check_exit("ring_tsan");
}
