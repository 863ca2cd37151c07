/* Deterministic printable payloads: never a line break, never a space,
 * different for every (seed, offset), so a lost or repeated byte shows. */
#ifndef PATTERN_H
#define PATTERN_H

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

#endif
