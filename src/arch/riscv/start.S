/* Image entry point. M-mode: entered on every hart the platform starts;
 * hart 0 (mhartid: a boot ROM such as the D1's FEL leaves a0 undefined)
 * boots, any other hart waits in hart_wait (index = mhartid). S-mode: the
 * firmware enters only its boot hart, whatever its number (a0), and the
 * kernel later moves the others from the firmware into hart_wait_s
 * (SBI HSM hart_start: a0 = hart id, a1 = the index the kernel gave it).
 * a1 = device tree (QEMU boards only). */
#include "board.h"
#include "csr.h"
#include "harts.h"

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
    beqz    a0, 1f
    mv      a1, a0              /* index = mhartid (a1: the DTB for hart 0) */
    j       hart_wait
1:
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

    /* A hart that waits for the boot hart's release (harts_release): only
     * its software interrupt enabled (the release's IPI), globally masked,
     * so wfi returns for it (or what the firmware itself handles) and no
     * handler runs. a0 = platform hart id, a1 = hart index. */
#if PRIV_S
    .globl hart_wait_s
hart_wait_s:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
#endif
hart_wait:
    csrw    CSR_XIE, zero
    csrci   CSR_XSTATUS, XSTATUS_XIE
#if PRIV_M
    /* No timer interrupt pending here either (mtimecmp resets to 0): QEMU
     * kicks a hart with any interrupt pending at every update of its
     * interrupt lines, and under -icount those kicks make boot hart's
     * timing vary from run to run. mtimecmp := all ones, high half first. */
    li      t0, BOARD_CLINT_BASE + 0x4000
    slli    t1, a0, 3
    add     t0, t0, t1
    li      t1, -1
    sw      t1, 4(t0)
    sw      t1, 0(t0)
#endif
    /* Count itself in (harts_count): .data, which _start does not zero,
     * so a hart that waits before the boot hart clears .bss still counts. */
    .option push
    .option norelax
    la      t0, harts_parked
    .option pop
    li      t1, 1
    amoadd.w zero, t1, (t0)
    li      t0, HARTS_MAX
    bgeu    a1, t0, hart_park
    la      t0, harts_waiting       /* bit a1: released by harts_release */
    li      t1, 1
    sll     t1, t1, a1
    amoor.w zero, t1, (t0)
    li      t0, 1 << IRQ_XSOFT
    csrw    CSR_XIE, t0
4:  wfi
#if PRIV_M
    li      t0, BOARD_CLINT_BASE    /* msip of this hart := 0 */
    slli    t1, a0, 2
    add     t0, t0, t1
    sw      zero, 0(t0)
#else
    csrci   sip, 1 << IRQ_XSOFT
#endif
    fence   rw, rw
    la      t0, harts_go
    lw      t0, 0(t0)
    beqz    t0, 4b
    csrw    CSR_XIE, zero
    /* Released: this hart's stack and TLS block (harts_release filled
     * the tables before harts_go), then its kernel. */
    slli    t1, a1, 3
    la      t0, harts_sp
    add     t0, t0, t1
    ld      sp, 0(t0)
    la      t0, harts_tp
    add     t0, t0, t1
    ld      tp, 0(t0)
    mv      a0, a1
    call    hart_main           /* never returns */

    /* Any hart the kernel does not use, and any hart at the exit, for
     * good: no interrupt enabled, so wfi returns only for what the
     * firmware itself handles. */
    .globl hart_park
hart_park:
    csrw    CSR_XIE, zero
    csrci   CSR_XSTATUS, XSTATUS_XIE
3:  wfi
    j       3b

    .section .data.harts, "aw"
    .align  2
    .globl  harts_parked, harts_waiting, harts_go
harts_parked:                       /* harts that reached hart_wait */
    .word   0
harts_waiting:                      /* bit per index waiting for release */
    .word   0
harts_go:                           /* 1: released (harts_release) */
    .word   0
