/* The operating point chosen at boot (src/kernel/oppoint.c): the modelled
 * line's baud, FIFO depth and RX trigger from the build or the boot
 * argument wire=; the far end's traffic from peer=. */
#ifndef OPPOINT_H
#define OPPOINT_H

#include <stdbool.h>
#include "line_point.h"
#include "uart_cfg.h"

/* Exit status of a run refused for a bad boot argument. */
#define EXIT_BOOTARG 101

/* Boot, before the UART is up: apply the operating point to *c; NULL, or
 * why the boot argument is refused. */
const char *oppoint_apply(struct uart_cfg *c);
/* Any task: "build" or "bootarg". */
const char *oppoint_source(void);
/* Boot (after oppoint_apply): wire_clock=free, or raw (the default). */
bool oppoint_clock_free(void);
/* Boot (after oppoint_apply) or any task: the far end's traffic. */
const struct peer_point *oppoint_peer(void);

#endif
