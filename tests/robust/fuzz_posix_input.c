/* libFuzzer target fuzz_posix: the input decoder, i.e. fuzzer bytes and
 * the call arguments made of them (fuzz_posix.h). */
#include <limits.h>

#include "fuzz_posix.h"

/* ---- input ------------------------------------------------------------ */

const uint8_t *in_p;
size_t in_n;

uint8_t take8(void)
{
    if (!in_n)
        return 0;
    in_n--;
    return *in_p++;
}

uint32_t take32(void)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v = v << 8 | take8();
    return v;
}

uint64_t take64(void)
{
    uint64_t hi = take32();
    return hi << 32 | take32();
}

/* ---- argument generators -------------------------------------------------- */

int gen_fd(void)
{
    uint8_t s = take8();
    if (s < 0xC0)
        return s % POSIX_FD_MAX;
    static const int odd[] = { -1, POSIX_FD_MAX, 77, INT_MAX, INT_MIN, -POSIX_FD_MAX };
    return odd[s % (sizeof odd / sizeof odd[0])];
}

int gen_flags(void)
{
    uint8_t s = take8();
    static const int acc[] = { O_RDONLY, O_WRONLY, O_RDWR, O_ACCMODE };
    if (s < 0xA0)
        return acc[s & 3] | (s & 4 ? O_NONBLOCK : 0) | (s & 8 ? O_NOCTTY : 0);
    if (s < 0xE0) {
        static const int bad[] = { O_CREAT, O_APPEND, O_TRUNC, O_EXCL, O_SYNC, O_CLOEXEC };
        return acc[s & 3] | bad[(s >> 2) % 6];
    }
    return (int)take32();
}

/* A length: mostly small, sometimes just over a chunk, sometimes huge
 * (*huge set: only with a NULL buffer, never dereferenced then). */
size_t gen_len(size_t max, bool *huge)
{
    uint8_t s = take8();
    *huge = false;
    if (s < 0x40)
        return s & 0x0F;
    if (s < 0xC0)
        return (size_t)take8() % (max + 1);
    if (s < 0xE0)
        return max;
    *huge = true;
    static const size_t big[] = { SIZE_MAX, (size_t)PTRDIFF_MAX, (size_t)PTRDIFF_MAX + 1 };
    return big[s % 3];
}

/* A buffer of exactly n fuzzer bytes ('\n' frequent), n >= 1 allocated. */
uint8_t *gen_bytes(size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    if (!p)
        abort();
    for (size_t i = 0; i < n; i++) {
        uint8_t b = take8();
        p[i] = b < 0x40 ? '\n' : b < 0x50 ? '\r' : b;
    }
    return p;
}

struct timespec gen_ts(void)
{
    static const long long secs[] = { 0, 1, -1, 3, LLONG_MAX, 18446744073LL, 9223372036LL };
    static const long nsecs[] = { 0, 1, 999999999L, 1000000000L, -1, 500000000L, LONG_MAX };
    struct timespec ts;
    uint8_t s = take8();
    ts.tv_sec = s & 0x80 ? (time_t)take64() : (time_t)secs[s % 7];
    ts.tv_nsec = s & 0x40 ? (long)take64() : nsecs[(s >> 3) % 7];
    return ts;
}

clockid_t gen_clock(void)
{
    uint8_t s = take8();
    static const clockid_t ids[] = { CLOCK_MONOTONIC, CLOCK_REALTIME, CLOCK_PROCESS_CPUTIME_ID,
                                     (clockid_t)-1, (clockid_t)99 };
    return s < 0xF0 ? ids[s % 5] : (clockid_t)take32();
}

