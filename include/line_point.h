/* The modelled line's operating point (QEMU images with the wire model):
 * baud and TX FIFO depth, from the build (WIRE_BAUD, WIRE_FIFO) or the
 * boot argument wire=BAUD/FIFO. Parsing is pure (src/lib/line_point.c);
 * the kernel applies it at boot (src/kernel/oppoint.c). */
#ifndef LINE_POINT_H
#define LINE_POINT_H

#include <stdint.h>

#define LINE_BAUD_MIN 9600U
#define LINE_BAUD_MAX 12000000U
#define LINE_FORMS "wire=BAUD/FIFO, BAUD 9600..12000000, FIFO 1, 16, 32, 64 or 128 " \
                   "(e.g. wire=921600/16, wire=3000000/1)"

struct line_point {
    uint32_t baud;
    uint16_t fifo;
};

/* Any context: parse "BAUD/FIFO" (decimal, nothing else) into *out;
 * 0, or -EINVAL (out untouched) for anything outside LINE_FORMS. */
int line_point_parse(const char *s, struct line_point *out);

#endif
