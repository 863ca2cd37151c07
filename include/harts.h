/* The boot hart and the parking of the others (src/arch/riscv/harts.c). */
#ifndef HARTS_H
#define HARTS_H

/* Boot, interrupts masked: record the boot hart, park the other harts
 * the firmware holds (S-mode); returns how many were parked. */
unsigned harts_init(unsigned long boot_hartid);
/* Any context: the id of the hart that runs the kernel. */
unsigned long harts_boot_id(void);
/* Any task: the harts the platform started (the boot hart and every
 * parked one). */
unsigned harts_count(void);

#endif
