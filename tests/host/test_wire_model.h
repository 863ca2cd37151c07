/* Host test of the wire model (test_wire_model.c): what its files share.
 * test_wire_model.c holds the stubs of the model's kernel services and of
 * the MMIO, the model's physics tests and main(); test_wire_model_seam.c
 * the model behind the register seam (uart_16550.h) and its account. */
#ifndef TEST_WIRE_MODEL_H
#define TEST_WIRE_MODEL_H

#include <stdint.h>
#include "uart_16550.h"

#define MODEL_STEP_INSNS 3     /* fake work of one model clock read */
#define MMIO_INSNS       100   /* fake work of one UART access */

/* What the stubs saw (test_wire_model.c). */
struct stub_counts {
    uint64_t clock_reads;      /* clock_now_ns calls: the model's steps */
    uint64_t mmio_reads, mmio_writes;
    uint64_t mmio_in_model;    /* of them, made with the sim account owning the CPU */
};
extern struct stub_counts stub;
extern uint64_t now_ns;        /* the stubbed clock */
extern const struct uart_cfg ns;

/* test_wire_model_seam.c */
void test_wire_seam(void);
int wire_seam_failures(void);

#endif
