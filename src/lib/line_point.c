/* The modelled line's operating point: the parser of wire=BAUD/FIFO. */
#include <errno.h>
#include <stdbool.h>
#include "line_point.h"

static const uint16_t fifo_depths[] = { 1, 16, 32, 64, 128 };

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

/* Any context. */
int line_point_parse(const char *s, struct line_point *out)
{
    uint32_t baud, fifo;

    if (!s || !number(&s, LINE_BAUD_MAX, &baud) || baud < LINE_BAUD_MIN || *s++ != '/' ||
        !number(&s, 128, &fifo) || *s)
        return -EINVAL;
    for (unsigned i = 0; i < sizeof fifo_depths / sizeof fifo_depths[0]; i++) {
        if (fifo == fifo_depths[i]) {
            *out = (struct line_point){ baud, (uint16_t)fifo };
            return 0;
        }
    }
    return -EINVAL;
}
