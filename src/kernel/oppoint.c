/* The operating point chosen at boot. With the wire model built in, the
 * modelled line's baud, FIFO depth and RX trigger level are the build's
 * (WIRE_BAUD, WIRE_FIFO, trigger 1) unless the boot argument
 * wire=BAUD/FIFO[/RXTRIG] names others; they become the UART's config
 * before the driver starts, so the driver (its character time, its FIFO
 * depth, the trigger it programs) and the model see one line. The far
 * end's traffic is peer= (default stream). QEMU's
 * 16550 ignores the divisor (its serial port is a file), so the modelled
 * UART clock is 16 x baud: divisor 1, the baud exact. An image without
 * the model (the D1, WIRE_BAUD=0) keeps its compiled line and refuses
 * wire=. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "board_info.h"
#include "bootarg_key.h"
#include "kernel.h"
#include "line_point.h"
#include "oppoint.h"

static char why[256];
static const char *source = "build";
static struct peer_point peer = { PEER_STREAM, 0, 0 };
static bool clock_free;                /* wire_clock=free, or raw (the default) */

#define WIRE_CLOCK_FORMS "raw (the model's simulation runs on the guest's clock, the default), " \
                         "free (it takes no time on it)"
#define RX_TRIGGER_FORMS "1, 4, 8 or 14 (bytes in the RX FIFO that raise its interrupt)"

/* bootargs_check (boot): the forms of wire=, peer=, wire_clock= and
 * rx_trigger=; whether they apply to the run is the *_apply functions'. */
static const char *wire_forms(const char *value)
{
    struct line_point pt;
    return line_point_parse(value, &pt) ? LINE_FORMS : NULL;
}
BOOTARG_KEY(wire, wire_forms);

static const char *peer_forms(const char *value)
{
    struct peer_point p;
    return peer_point_parse(value, &p) ? PEER_FORMS : NULL;
}
BOOTARG_KEY(peer, peer_forms);

static const char *wire_clock_forms(const char *value)
{
    return strcmp(value, "free") == 0 || strcmp(value, "raw") == 0 ? NULL : WIRE_CLOCK_FORMS;
}
BOOTARG_KEY(wire_clock, wire_clock_forms);

static const char *rx_trigger_forms(const char *value)
{
    return strcmp(value, "1") == 0 || strcmp(value, "4") == 0 || strcmp(value, "8") == 0 ||
           strcmp(value, "14") == 0 ? NULL : RX_TRIGGER_FORMS;
}
BOOTARG_KEY(rx_trigger, rx_trigger_forms);

/* The *_apply functions: why boot argument key=arg is refused by an
 * image without the model. */
static const char *no_model(const char *key, const char *arg)
{
    snprintf(why, sizeof why, "bad boot argument %s=%s: this image has no wire model "
             "(WIRE_BAUD=0; build with WIRE_BAUD=115200)", key, arg);
    return why;
}

/* oppoint_apply: the boot argument peer=, checked against baud; NULL,
 * or why it is refused. */
static const char *peer_apply(uint32_t baud)
{
    char arg[40];

    if (!bootarg("peer", arg, sizeof arg))
        return NULL;
    if (!WIRE_BAUD)
        return no_model("peer", arg);
    if (peer_point_parse(arg, &peer))
        snprintf(why, sizeof why, "bad boot argument peer=%s; valid forms: %s", arg, PEER_FORMS);
    else if (!peer_point_fits(&peer, baud))
        snprintf(why, sizeof why, "bad boot argument peer=%s: a burst of %lu bytes takes longer "
                 "than its period at %lu baud; valid forms: %s", arg, (unsigned long)peer.burst,
                 (unsigned long)baud, PEER_FORMS);
    else
        return NULL;
    return why;
}

/* oppoint_apply: the boot argument wire_clock=; NULL, or why it is
 * refused. */
static const char *clock_apply(void)
{
    char arg[16];

    if (!bootarg("wire_clock", arg, sizeof arg))
        return NULL;
    if (!WIRE_BAUD)
        return no_model("wire_clock", arg);
    clock_free = arg[0] == 'f';        /* raw or free: wire_clock_forms */
    return NULL;
}

/* oppoint_apply, an image without the model on the emulator's line (the
 * device tree's): the UART's clock, baud and FIFO depth are the
 * device's, the RX trigger the boot argument rx_trigger=; the far end's
 * traffic the device's. NULL, or why a boot argument is refused. */
static const char *device_apply(struct uart_cfg *c, const struct fdt_line *l)
{
    char arg[16];

    source = "device-tree";
    if (l->clock_hz)
        c->clock_hz = l->clock_hz;
    if (l->baud)
        c->baud = l->baud;
    if (l->fifo)
        c->fifo_depth = (uint16_t)l->fifo;
    peer = (struct peer_point){ !l->far_base ? PEER_OFF : l->far_burst ? PEER_BURST : PEER_STREAM,
                                l->far_burst, l->far_period_ns };
    if (!bootarg("rx_trigger", arg, sizeof arg))
        return NULL;
    unsigned t = (unsigned)strtoul(arg, NULL, 10);   /* 1, 4, 8 or 14: rx_trigger_forms */
    if (board.uart_rx_trigger_fixed && t != 1) {
        snprintf(why, sizeof why, "bad boot argument rx_trigger=%s: %s's UART has no RX "
                 "trigger levels (valid value: 1)", arg, board.name);
        return why;
    }
    if (t <= c->fifo_depth) {
        c->rx_trigger = (uint8_t)t;
        return NULL;
    }
    snprintf(why, sizeof why, "bad boot argument rx_trigger=%s; valid values: 1, 4, 8 or 14, "
             "at most the FIFO depth (%u)", arg, (unsigned)c->fifo_depth);
    return why;
}

/* Boot, before the UART is up (nothing printed): *c from board, with the
 * operating point applied; NULL, or what is wrong with the boot argument
 * (the run must stop with EXIT_BOOTARG once it can print). */
const char *oppoint_apply(struct uart_cfg *c)
{
    char arg[32];
    struct line_point pt = { WIRE_BAUD, WIRE_FIFO, 1 };

    if (!WIRE_BAUD && fdt_line_info()->timed) {
        const char *keys[] = { "wire", "peer", "wire_clock" };
        for (unsigned k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (bootarg(keys[k], arg, sizeof arg)) {
                snprintf(why, sizeof why, "bad boot argument %s=%s: this run's line is the "
                         "emulator's (its baud, FIFO depth and far end are QEMU's: "
                         "scripts/qemu-run --line, --far-end)", keys[k], arg);
                return why;
            }
        return device_apply(c, fdt_line_info());
    }
    if (bootarg("wire", arg, sizeof arg)) {
        if (!WIRE_BAUD)
            return no_model("wire", arg);
        if (line_point_parse(arg, &pt)) {
            snprintf(why, sizeof why, "bad boot argument wire=%s; valid forms: %s", arg,
                     LINE_FORMS);
            return why;
        }
        source = "bootarg";
    }
    if (WIRE_BAUD) {
        c->baud = pt.baud;
        c->clock_hz = 16U * pt.baud;
        c->fifo_depth = pt.fifo;
        c->rx_trigger = pt.rx_trigger;
    }
    const char *bad = peer_apply(pt.baud);
    return bad ? bad : clock_apply();
}

/* Boot, after cpu_acct_init: whether wire_clock=free asks for the
 * model's time to be taken out of the clock. */
bool oppoint_clock_free(void)
{
    return clock_free;
}

/* Any task (and boot, after oppoint_apply): the far end's traffic. */
const struct peer_point *oppoint_peer(void)
{
    return &peer;
}

/* Any task: where the line's operating point came from ("build",
 * "bootarg", "device-tree"). */
const char *oppoint_source(void)
{
    return source;
}
