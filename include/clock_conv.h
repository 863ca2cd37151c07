/* Exact conversion between timer ticks and nanoseconds for a timebase of
 * num/den nanoseconds per tick (10 MHz: 100/1, 24 MHz: 125/3). Splitting
 * off the whole multiples of den keeps every intermediate below
 * (den - 1) * num or the result, so nothing overflows and nothing drifts. */
#ifndef CLOCK_CONV_H
#define CLOCK_CONV_H

#include <stdint.h>

/* Any context: floor(ticks * num / den). */
static inline uint64_t conv_ticks_to_ns(uint64_t ticks, uint32_t num, uint32_t den)
{
    return (ticks / den) * num + (ticks % den) * num / den;
}

/* Any context: the first tick at or after ns, ceil(ns * den / num). */
static inline uint64_t conv_ns_to_ticks(uint64_t ns, uint32_t num, uint32_t den)
{
    return (ns / num) * den + ((ns % num) * den + num - 1) / num;
}

#endif
