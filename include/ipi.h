/* Inter-processor interrupts (src/arch/riscv/ipi.c): SBI sPI in S-mode,
 * CLINT msip in M-mode. The IPI only makes the target hart take its
 * software interrupt; the scheduler's per-hart inbox says why. */
#ifndef IPI_H
#define IPI_H

#include <stdint.h>

/* Boot of each hart, interrupts masked: clear a pending IPI, enable the
 * software interrupt in xie; handler is what the software interrupt does
 * once cleared (the kernel's sched_ipi: the arch calls nothing above it
 * by name), the same on every hart. */
void ipi_init(void (*handler)(void));
/* Any context: make hart index h take its software interrupt. */
void ipi_send(unsigned h);
/* Trap dispatch, interrupts masked: the software interrupt: clear it,
 * then run ipi_init's handler (the scheduler takes its inbox). */
void ipi_isr(void);
/* Any context: IPIs this hart sent and took since boot. */
uint64_t ipi_sent(unsigned h);
uint64_t ipi_taken(unsigned h);

#endif
