/* Deterministic printable payloads: never a line break, never a space,
 * different for every (seed, offset), so a lost or repeated byte shows. */
#ifndef PATTERN_H
#define PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PATTERN_FIRST 0x21   /* '!' */
#define PATTERN_SPAN  94     /* '!' .. '~' */

/* Any context: fill buf with the pattern starting at stream offset off. */
static inline void pattern_fill(uint8_t *buf, size_t n, uint32_t seed, uint64_t off)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t k = off + i;
        buf[i] = (uint8_t)(PATTERN_FIRST + (k * 7 + k / PATTERN_SPAN + seed) % PATTERN_SPAN);
    }
}

/* What pattern_follow found of a stream in the bytes a receiver read. */
struct pattern_trace {
    uint64_t next;              /* the stream offset after the last byte read */
    uint64_t first;             /* the offset of the first byte read */
    uint64_t gaps;              /* runs of stream bytes that never came */
    bool in_order;              /* every byte is the stream's, in order */
};

/* Section task (a far end the guest cannot observe): follow the n bytes
 * read as an in-order subsequence of the stream of total bytes (seed),
 * each matched to the first offset from where the previous one left off
 * that holds it. The pattern's values do not repeat within 94 offsets,
 * so runs of fewer lost bytes are found exactly; a longer run may be
 * matched a multiple of 94 early, which leaves the count of bytes read
 * exact. */
static inline struct pattern_trace pattern_follow(const uint8_t *got, size_t n, uint32_t seed,
                                                  uint64_t total)
{
    struct pattern_trace t = { .in_order = true };
    uint8_t one;

    for (size_t i = 0; i < n && t.in_order; i++) {
        uint64_t k = t.next;
        for (pattern_fill(&one, 1, seed, k); k < total && one != got[i];)
            pattern_fill(&one, 1, seed, ++k);
        if (k == total) {
            t.in_order = false;
            break;
        }
        if (i == 0)
            t.first = k;
        else if (k != t.next)
            t.gaps++;
        t.next = k + 1;
    }
    return t;
}

#endif
