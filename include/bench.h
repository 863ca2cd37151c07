/* Benchmark sections: each prints `=== [Sxx] Title ===` and key=value
 * lines, and returns its status. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>

enum bench_status { BENCH_PASS, BENCH_FAIL, BENCH_TIMEOUT, BENCH_SKIPPED };

struct bench_section {
    const char *id;                 /* "S00" */
    const char *title;
    enum bench_status (*run)(void);
};

/* Boot task: run every section in order, print the summary line, return
 * the number of failed sections (the exit status). */
int bench_run_all(void);

/* Section task: raw samples lines (`samples tag= unit= first= values=`). */
void bench_print_samples(const char *tag, const char *unit, const uint64_t *v, size_t n);
/* Section task: raw samples plus a nearest-rank summary; sorts v. */
void bench_print_dist(const char *tag, const char *unit, uint64_t *v, size_t n);

enum bench_status s00_manifest(void);
enum bench_status s06_kernel(void);

#endif
