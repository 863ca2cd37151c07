/* Timer compare register: SBI set_timer in S-mode, CLINT mtimecmp of
 * hart 0 in M-mode (as two 32-bit halves where the board requires it). */
#include "board_info.h"
#include "kernel.h"
#include "mmio.h"
#include "sbi.h"
#include "timer.h"

#define CLINT_MTIMECMP0 0x4000UL   /* mtimecmp of hart 0 */

#if PRIV_S
#define CSR_STIMECMP 0x14D   /* Sstc: S-mode timer compare */

static bool sstc;

/* Boot, interrupts masked: use Sstc's stimecmp when the CPU has it (the
 * firmware enables it for S-mode then: OpenSBI >= 1.1 sets menvcfg.STCE),
 * else the SBI TIME extension. */
void timer_hw_init(void)
{
    sstc = isa_has_ext("sstc");
}

/* Interrupts masked: program the compare value. */
void timer_hw_set(uint64_t ticks)
{
    if (sstc)
        __asm__ volatile("csrw %0, %1" :: "i"(CSR_STIMECMP), "r"(ticks));
    else
        sbi_call(SBI_EXT_TIME, 0, (long)ticks, 0, 0);
}

/* Any context: the mechanism in use, for the manifest. */
const char *timer_hw_name(void)
{
    return sstc ? "sstc-stimecmp" : "sbi-set-timer";
}
#else
#define CLINT_MSIP0 0x0000UL   /* software interrupt pending of hart 0 */

/* Boot, interrupts masked: clear a software interrupt the boot ROM may
 * have left pending (mtimecmp is set by timer_init right after). */
void timer_hw_init(void)
{
    mmio_write32(board.clint_base + CLINT_MSIP0, 0);
}

/* Any context: the mechanism in use, for the manifest. */
const char *timer_hw_name(void)
{
    return board.clint_split32 ? "clint-mtimecmp-32bit-halves" : "clint-mtimecmp";
}

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
