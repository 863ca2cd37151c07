/* Timer compare register: SBI set_timer in S-mode, CLINT mtimecmp of
 * hart 0 in M-mode (as two 32-bit halves where the board requires it). */
#include "board_info.h"
#include "mmio.h"
#include "sbi.h"
#include "timer.h"

#define CLINT_MTIMECMP0 0x4000UL   /* mtimecmp of hart 0 */

/* Boot, interrupts masked. */
void timer_hw_init(void)
{
}

#if PRIV_S
/* Interrupts masked: SBI TIME extension, set_timer(ticks). */
void timer_hw_set(uint64_t ticks)
{
    sbi_call(SBI_EXT_TIME, 0, (long)ticks, 0);
}
#else
/* Interrupts masked: write mtimecmp. Split writes first raise the high
 * half to all ones so no intermediate value lies in the past. */
void timer_hw_set(uint64_t ticks)
{
    uintptr_t cmp = board.clint_base + CLINT_MTIMECMP0;
    if (board.clint_split32) {
        mmio_write32(cmp + 4, 0xFFFFFFFFU);
        mmio_write32(cmp, (uint32_t)ticks);
        mmio_write32(cmp + 4, (uint32_t)(ticks >> 32));
    } else {
        mmio_write64(cmp, ticks);
    }
}
#endif
