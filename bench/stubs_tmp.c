#include "bench.h"
enum bench_status s05_internals(void) { return BENCH_SKIPPED; }
enum bench_status s30_nonblock(void) { return BENCH_SKIPPED; }
enum bench_status s31_rx_fixed(void) { return BENCH_SKIPPED; }
enum bench_status s41_cpu_work(void) { return BENCH_SKIPPED; }
enum bench_status s42_overlap(void) { return BENCH_SKIPPED; }
enum bench_status s43_timer(void) { return BENCH_SKIPPED; }
