/* Image entry point. M-mode: entered on every hart the platform starts;
 * hart 0 (mhartid: a boot ROM such as the D1's FEL leaves a0 undefined)
 * boots, any other hart parks with interrupts masked. S-mode: the
 * firmware enters only its boot hart, whatever its number (a0), and the
 * kernel later moves the others from the firmware into hart_park.
 * a1 = device tree (QEMU boards only). */
#include "board.h"
#include "csr.h"

    .section .text.start, "ax"
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    csrw    CSR_XIE, zero
    csrci   CSR_XSTATUS, XSTATUS_XIE
#if PRIV_M
    csrr    a0, mhartid
    bnez    a0, hart_park
#endif
#if BOARD_CPU_C906
    call    c906_early_init     /* caches and T-Head extensions, no stack */
#endif

    la      sp, __stack_top
    la      tp, __tls_base

    /* Zero .tbss and .bss (the image runs where it was loaded: .data and
     * .tdata are already in place). */
    la      t0, __zero_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    sd      zero, 0(t0)
    addi    t0, t0, 8
    j       1b
2:
    call    kmain           /* kmain(hartid, fdt) ends in kernel_exit() */

    /* Any hart that is not the boot hart, for good: no interrupt enabled,
     * so wfi returns only for what the firmware itself handles. */
    .globl hart_park
hart_park:
    csrw    CSR_XIE, zero
    csrci   CSR_XSTATUS, XSTATUS_XIE
#if PRIV_M
    /* No timer interrupt pending here either (mtimecmp resets to 0): QEMU
     * kicks a hart with any interrupt pending at every update of its
     * interrupt lines, and under -icount those kicks make boot hart's
     * timing vary from run to run. mtimecmp := all ones, high half first. */
    li      t0, BOARD_CLINT_BASE + 0x4000
    csrr    t1, mhartid
    slli    t1, t1, 3
    add     t0, t0, t1
    li      t1, -1
    sw      t1, 4(t0)
    sw      t1, 0(t0)
#endif
    /* Count itself in (harts_count): .data, which _start does not zero,
     * so a hart that parks before the boot hart clears .bss still counts. */
    .option push
    .option norelax
    la      t0, harts_parked
    .option pop
    li      t1, 1
    amoadd.w zero, t1, (t0)
3:  wfi
    j       3b

    .section .data.harts, "aw"
    .align  2
    .globl  harts_parked
harts_parked:
    .word   0
