/* Secondary harts. M-mode images: every hart enters _start and all but
 * hart 0 park there. S-mode images: OpenSBI keeps the other harts in its
 * HSM wait loop, which on QEMU 7.2 spins with an IPI pending (wfi returns
 * at once), so under icount their instructions would drive the virtual
 * clock; the boot hart moves each of them into hart_park with SBI HSM
 * hart_start, where they sleep in wfi with every interrupt disabled. */
#include <stdint.h>
#include "csr.h"
#include "harts.h"
#include "sbi.h"

#define HARTS_MAX 8   /* hart ids tried; absent ones are refused by SBI */

void hart_park(void);
static unsigned long boot_hart;

/* Boot, interrupts masked: remember the boot hart, park the others.
 * Returns how many harts were moved into hart_park. */
unsigned harts_init(unsigned long boot_hartid)
{
    unsigned parked = 0;

    boot_hart = boot_hartid;
#if PRIV_S
    for (unsigned long h = 0; h < HARTS_MAX; h++)
        if (h != boot_hartid &&
            sbi_call(SBI_EXT_HSM, SBI_HSM_HART_START, (long)h, (long)hart_park, 0).error == 0)
            parked++;
#endif
    return parked;
}

/* Any context: the hart that runs the kernel. */
unsigned long harts_boot_id(void)
{
    return boot_hart;
}

extern volatile uint32_t harts_parked;   /* start.S: each parked hart adds 1 */

/* Any task (the manifest): the harts the platform started, the boot hart
 * and those parked (1 on the D1). Counted by the harts themselves: no
 * walk of the device tree, whose size grows with the hart count (boot
 * work that depends on it shifts the timer phase of a one-hart run). */
unsigned harts_count(void)
{
    return 1U + harts_parked;
}
