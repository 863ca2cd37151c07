/* The modelled line's operating point (QEMU images with the wire model):
 * baud, FIFO depth and RX trigger level, from the build (WIRE_BAUD,
 * WIRE_FIFO; trigger 1) or the boot argument wire=BAUD/FIFO[/RXTRIG]; and
 * the modelled far end's traffic, from the boot argument
 * peer=off|stream|burst:N:T (default stream). Parsing is pure
 * (src/lib/line_point.c); the kernel applies it at boot
 * (src/kernel/oppoint.c). */
#ifndef LINE_POINT_H
#define LINE_POINT_H

#include <stdint.h>

#define LINE_BAUD_MIN 9600U
#define LINE_BAUD_MAX 12000000U
#define LINE_FORMS "wire=BAUD/FIFO[/RXTRIG], BAUD 9600..12000000, FIFO 1, 16, 32, 64 or 128, " \
                   "RXTRIG 1, 4, 8 or 14 and at most FIFO (e.g. wire=921600/16, " \
                   "wire=3000000/1, wire=115200/16/8)"
#define PEER_BURST_MAX 65536U
#define PEER_FORMS "peer=off, peer=stream or peer=burst:N:T, N 1..65536 bytes, T a period " \
                   "with unit ns, us or ms, at least N character times (e.g. peer=burst:64:10ms)"

struct line_point {
    uint32_t baud;
    uint16_t fifo;
    uint8_t rx_trigger;        /* bytes: 1, 4, 8 or 14 */
};

/* The far end's traffic: off, a continuous stream at line rate, or bursts
 * of burst bytes (at line rate) every period_ns. */
enum peer_mode { PEER_OFF, PEER_STREAM, PEER_BURST };
struct peer_point {
    enum peer_mode mode;
    uint32_t burst;
    uint64_t period_ns;
};

/* Any context: parse "BAUD/FIFO[/RXTRIG]" (decimal, nothing else) into
 * *out (trigger 1 when absent); 0, or -EINVAL (out untouched) for
 * anything outside LINE_FORMS. */
int line_point_parse(const char *s, struct line_point *out);
/* Any context: parse "off", "stream" or "burst:N:T" into *out; 0, or
 * -EINVAL (out untouched) for anything outside PEER_FORMS but the period's
 * lower bound, which needs the baud (peer_point_fits). */
int peer_point_parse(const char *s, struct peer_point *out);
/* Any context: whether a burst of p fits in its period at baud (always
 * true for off and stream). */
int peer_point_fits(const struct peer_point *p, uint32_t baud);

#endif
