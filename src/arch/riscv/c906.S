/* XuanTie C906 (Allwinner D1) start-up in M-mode, before any memory
 * access: nothing is assumed about what the boot ROM (FEL) left. Called
 * from _start with only ra and t0 in use (no stack yet). CSR numbers and
 * bits from the T-Head C906 user manual. */
#define CSR_MXSTATUS      0x7C0
#define CSR_MHCR          0x7C1
#define CSR_MCOR          0x7C2
#define MXSTATUS_THEADISAEE (1 << 22)    /* T-Head extended instructions */
#define MCOR_INV_ALL      0x30013        /* I+D cache select, INV, BHT+BTB invalidate */
#define MHCR_ENABLE       0x11FF         /* IE DE WA WB RS BPE BTB WBR L0BTB */

    .section .text.start, "ax"
    .globl  c906_early_init
c906_early_init:
    li      t0, MXSTATUS_THEADISAEE
    csrs    CSR_MXSTATUS, t0
    csrw    CSR_MHCR, zero               /* caches off while invalidating; the
                                          * FEL ROM runs with the D-cache off, so
                                          * no dirty line of the image is lost */
    li      t0, MCOR_INV_ALL
    csrs    CSR_MCOR, t0
    fence.i
    li      t0, MHCR_ENABLE
    csrw    CSR_MHCR, t0
    fence.i
    csrw    mip, zero                    /* drop pending software interrupts */
    ret
