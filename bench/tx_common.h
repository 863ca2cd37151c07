/* TX loops shared by S10-S21: write (+ drain) iterations with per-
 * iteration latency, payload witness and the original's policy line. */
#ifndef TX_COMMON_H
#define TX_COMMON_H

#include "bench.h"

#define TX_ITERS_MAX 100

struct tx_run {
    unsigned size, iters;
    uint64_t bytes, elapsed_ns;       /* bytes: user bytes written */
    uint32_t crc;
    struct bench_tx tx;
    struct bench_drain drain;
    uint64_t samples[TX_ITERS_MAX];   /* ns per iteration */
    uint64_t insns[TX_ITERS_MAX];     /* instructions per iteration (tx_run_counted) */
};

/* Section task: iters x (write size bytes [+ tcdrain every drain_every
 * writes, 0: never]) with a final drain; samples the ns of each
 * write(+drain) step; payload witness under tag. A failed write ends the
 * loop (r->iters: the iterations begun). */
void tx_run_loop(struct tx_run *r, const char *tag, unsigned size, unsigned drain_every,
                 uint32_t seed);
/* Section task (S20, S21): tx_run_loop draining each write, with the
 * instructions of each write + drain (cpu_busy_counts around the timed
 * step, the clock reads included) in r->insns. */
void tx_run_counted(struct tx_run *r, const char *tag, unsigned size, uint32_t seed);
/* Section task (S20, S21): the instructions of each write + drain,
 * `samples tag=<tag>-insns unit=instructions` and their summary
 * `diag=<tag>-insns n= min_instructions= ...`; nothing where the
 * instruction counter does not count (cpu_counter_missing). */
void tx_print_insns(const char *tag, struct tx_run *r);
/* Section task: `policy=<policy> size= iters= bytes= ... line_rate_pct=
 * bytes_per_s=` (extra: more key=value text after size=, or ""). */
void tx_print_policy(const char *policy, const struct tx_run *r, const char *extra);
/* Section task: `diag=<tag> drain_calls= drain_errors= last_drain_errno=`. */
void tx_print_drain(const char *tag, const struct tx_run *r);
/* Section task: CRC-32 continued over `bytes` bytes of n-byte pattern p
 * repeated (what a loop of writes of p put on the wire). */
uint32_t tx_crc_repeat(uint32_t crc, const uint8_t *p, size_t n, uint64_t bytes);

#endif
