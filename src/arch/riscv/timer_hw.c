/* Timer compare register of this hart: Sstc stimecmp or SBI set_timer
 * in S-mode, this hart's CLINT mtimecmp in M-mode (as two 32-bit halves
 * where the board requires it). */
#include "board_info.h"
#include "harts.h"
#include "kernel.h"
#include "mmio.h"
#include "sbi.h"
#include "timer.h"

#define CLINT_MTIMECMP0 0x4000UL   /* mtimecmp of hart 0 */

#if PRIV_S
#define CSR_STIMECMP 0x14D   /* Sstc: S-mode timer compare */

static bool sstc;

/* Boot of each hart, interrupts masked: use Sstc's stimecmp when the CPU has it (the
 * firmware enables it for S-mode then: OpenSBI >= 1.1 sets menvcfg.STCE),
 * else the SBI TIME extension. */
void timer_hw_init(void)
{
    if (hart_self() == 0)
        sstc = isa_has_ext("sstc");   /* one CPU type: hart 0 asks for all */
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

static HART_LOCAL uintptr_t mtimecmp;   /* this hart's */

/* Boot of each hart, interrupts masked: clear a software interrupt the
 * boot ROM may have left pending (mtimecmp is set by timer_init right
 * after). */
void timer_hw_init(void)
{
    unsigned long id = hart_platform_id(hart_self());
    mtimecmp = board.clint_base + CLINT_MTIMECMP0 + 8 * id;
    mmio_write32(board.clint_base + CLINT_MSIP0 + 4 * id, 0);
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
    uintptr_t cmp = mtimecmp;
    if (board.clint_split32) {
        mmio_write32(cmp + 4, 0xFFFFFFFFU);
        mmio_write32(cmp, (uint32_t)ticks);
        mmio_write32(cmp + 4, (uint32_t)(ticks >> 32));
    } else {
        mmio_write64(cmp, ticks);
    }
}
#endif
