/* Minimal assertion helpers for host unit tests: each CHECK prints the
 * failing expression with file and line, and check_exit() turns the
 * failure count into the process exit status that CTest reads. */
#ifndef CHECK_H
#define CHECK_H

#include <stdio.h>
#include <inttypes.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
            check_failures++;                                              \
        }                                                                  \
    } while (0)

#define CHECK_EQ(a, b)                                                     \
    do {                                                                   \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);    \
        if (check_a_ != check_b_) {                                        \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (%lld vs %lld)\n", \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);       \
            check_failures++;                                              \
        }                                                                  \
    } while (0)

#define CHECK_STR_EQ(a, b)                                                 \
    do {                                                                   \
        const char *check_s_ = (a), *check_t_ = (b);                       \
        if (strcmp(check_s_, check_t_) != 0) {                             \
            fprintf(stderr, "%s:%d: CHECK_STR_EQ failed: %s\n  got  \"%s\"\n  want \"%s\"\n", \
                    __FILE__, __LINE__, #a, check_s_, check_t_);           \
            check_failures++;                                              \
        }                                                                  \
    } while (0)

/* Called at the end of main(): prints a summary and returns the status. */
static inline int check_exit(const char *suite)
{
    if (check_failures)
        fprintf(stderr, "%s: %d check(s) failed\n", suite, check_failures);
    else
        printf("%s: all checks passed\n", suite);
    return check_failures ? 1 : 0;
}

#endif
