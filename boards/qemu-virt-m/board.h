/* QEMU virt (QEMU 7.2), M-mode without firmware (-bios none): the same
 * machine as boards/qemu-virt, seen from the M-mode interrupt context. */
#ifndef BOARD_H
#define BOARD_H

#include "../qemu-virt/board.h"

#undef BOARD_NAME
#define BOARD_NAME            "qemu-virt-m"
/* /soc/plic@c000000: context 0 = hart 0 M-mode. */
#undef BOARD_PLIC_CONTEXT
#define BOARD_PLIC_CONTEXT    0U

#endif
