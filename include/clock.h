/* Monotonic time of the board's timebase (rdtime), in nanoseconds. */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdint.h>

/* Any context: ticks <-> ns with the board's exact ratio. */
uint64_t clock_ticks_to_ns(uint64_t ticks);
uint64_t clock_ns_to_ticks(uint64_t ns);
/* Any context: nanoseconds since reset. */
uint64_t clock_now_ns(void);

#endif
