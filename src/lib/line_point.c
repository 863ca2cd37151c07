/* The modelled line's operating point: the parsers of
 * wire=BAUD/FIFO[/RXTRIG] and peer=off|stream|burst:N:T. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "line_point.h"

static const uint16_t fifo_depths[] = { 1, 16, 32, 64, 128 };
static const uint8_t rx_triggers[] = { 1, 4, 8, 14 };

/* line_point_parse: a decimal number up to max at *s, advancing *s;
 * false when there is none or it exceeds max. */
static bool number(const char **s, uint32_t max, uint32_t *out)
{
    uint64_t v = 0;
    const char *p = *s;

    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (uint64_t)(*p - '0');
        if (v > max)
            return false;
    }
    *s = p;
    *out = (uint32_t)v;
    return true;
}

/* line_point_parse: whether v is one of the n values of set. */
static bool one_of(uint32_t v, const uint8_t *set8, const uint16_t *set16, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (v == (set8 ? set8[i] : set16[i]))
            return true;
    return false;
}

/* Any context. */
int line_point_parse(const char *s, struct line_point *out)
{
    uint32_t baud, fifo, trig = 1;

    if (!s || !number(&s, LINE_BAUD_MAX, &baud) || baud < LINE_BAUD_MIN || *s++ != '/' ||
        !number(&s, 128, &fifo))
        return -EINVAL;
    if (*s == '/' && (++s, !number(&s, 14, &trig)))
        return -EINVAL;
    if (*s || !one_of(fifo, 0, fifo_depths, sizeof fifo_depths / sizeof fifo_depths[0]) ||
        !one_of(trig, rx_triggers, 0, sizeof rx_triggers) || trig > fifo)
        return -EINVAL;
    *out = (struct line_point){ baud, (uint16_t)fifo, (uint8_t)trig };
    return 0;
}

/* peer_point_parse: a period "<n>ns|us|ms" at *s, the whole rest of it,
 * into *ns; false when it is not one or is 0. */
static bool period(const char *s, uint64_t *ns)
{
    static const struct { const char *unit; uint32_t ns; } units[] = {
        { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 } };
    uint32_t v;

    if (!number(&s, 1000000000U, &v) || !v)
        return false;
    for (unsigned i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (s[0] == units[i].unit[0] && s[1] == units[i].unit[1] && !s[2]) {
            *ns = (uint64_t)v * units[i].ns;
            return true;
        }
    }
    return false;
}

/* Any context. */
int peer_point_parse(const char *s, struct peer_point *out)
{
    static const char burst[] = "burst:";
    uint32_t n;
    uint64_t t;

    if (!s)
        return -EINVAL;
    if (!strcmp(s, "off") || !strcmp(s, "stream")) {
        *out = (struct peer_point){ s[0] == 'o' ? PEER_OFF : PEER_STREAM, 0, 0 };
        return 0;
    }
    if (strncmp(s, burst, sizeof burst - 1) != 0)
        return -EINVAL;
    s += sizeof burst - 1;
    if (!number(&s, PEER_BURST_MAX, &n) || !n || *s++ != ':' || !period(s, &t))
        return -EINVAL;
    *out = (struct peer_point){ PEER_BURST, n, t };
    return 0;
}

/* Any context: N characters of 10 bits take ceil(N x 1e10 / baud) ns. */
int peer_point_fits(const struct peer_point *p, uint32_t baud)
{
    return p->mode != PEER_BURST ||
           ((uint64_t)p->burst * 10000000000ULL + baud - 1) / baud <= p->period_ns;
}
