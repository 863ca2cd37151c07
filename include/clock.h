/* Monotonic time of the board's timebase (rdtime), in nanoseconds
 * (src/kernel/time.c, with the timers on it). */
#ifndef CLOCK_H
#define CLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* Any context: ticks <-> ns with the board's exact ratio. */
uint64_t clock_ticks_to_ns(uint64_t ticks);
uint64_t clock_ns_to_ticks(uint64_t ns);
/* Any context: nanoseconds since reset (less the wire model's simulation
 * when clock_sim_free()). */
uint64_t clock_now_ns(void);
/* Boot, interrupts masked, after cpu_acct_init: take the model's
 * simulation out of the clock (needs -icount: the sim account in ns; an
 * image without the model ignores it). */
void clock_sim_free_init(bool on);
/* Any context: whether clock_now_ns() leaves the simulation out. */
bool clock_sim_free(void);

#endif
