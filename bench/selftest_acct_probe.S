/* selftest=acct's probes of a charged call (selftest_acct.c): functions
 * of known length behind ACCT_CALL_ENTRY entries, and a caller in
 * assembly that checks which registers the call keeps. */
#include "acct_call.h"

    .section .text.acct_probe, "ax"
    .option push
    .option norvc
/* Straight-line probes: 4 and 12 nops, then ret; they return x (a0). */
acct_probe_4:
    .rept 4
    nop
    .endr
    ret
acct_probe_12:
    .rept 12
    nop
    .endr
    ret
/* A probe that keeps the status it runs with (acct_probe_status) and
 * clobbers every caller-saved register a C function may (but ra, its
 * return, and a0, its result x). */
acct_probe_clobber:
    csrr    t0, CSR_XSTATUS
    lla     t1, acct_probe_status
    sd      t0, 0(t1)
    li      t0, -1
    li      t1, -1
    li      t2, -1
    li      t3, -1
    li      t4, -1
    li      t5, -1
    li      t6, -1
    li      a1, -1
    li      a2, -1
    li      a3, -1
    li      a4, -1
    li      a5, -1
    li      a6, -1
    li      a7, -1
    ret
    .option pop

    .section .bss.acct_probe, "aw", @nobits
    .balign 8
    .globl  acct_probe_status
acct_probe_status:
    .zero   8

    .section .text.acct_probe, "ax"
    ACCT_CALL_ENTRY acct_probe_4_entry, acct_probe_4
    ACCT_CALL_ENTRY acct_probe_12_entry, acct_probe_12
    ACCT_CALL_ENTRY acct_probe_clobber_entry, acct_probe_clobber

/* Set register r to its pattern i. */
.macro PATTERN r, i
    li      \r, 0x100 + \i
.endm
/* Set bit i of t0 if register r lost its pattern i (t1 scratch). */
.macro CHECK r, i
    addi    t1, \r, -(0x100 + \i)
    snez    t1, t1
    slli    t1, t1, \i
    or      t0, t0, t1
.endm

/* unsigned long acct_call_lost(void), selftest_acct (task): one charged
 * call of the clobbering probe with every register a charged call must
 * keep (ra, t2-t6, a1-a7) set to a pattern and x (a0) its own; returns a
 * mask of those that came back changed: bit 0 ra, 1-5 t2-t6, 6-12
 * a1-a7, 13 the result. */
    .globl  acct_call_lost
    .type   acct_call_lost, @function
acct_call_lost:
    addi    sp, sp, -16
    sd      ra, 0(sp)
    PATTERN ra, 0
    PATTERN t2, 1
    PATTERN t3, 2
    PATTERN t4, 3
    PATTERN t5, 4
    PATTERN t6, 5
    PATTERN a1, 6
    PATTERN a2, 7
    PATTERN a3, 8
    PATTERN a4, 9
    PATTERN a5, 10
    PATTERN a6, 11
    PATTERN a7, 12
    PATTERN a0, 13
    jal     t0, acct_probe_clobber_entry
    csrs    CSR_XSTATUS, t1
    li      t0, 0
    CHECK   ra, 0
    CHECK   t2, 1
    CHECK   t3, 2
    CHECK   t4, 3
    CHECK   t5, 4
    CHECK   t6, 5
    CHECK   a1, 6
    CHECK   a2, 7
    CHECK   a3, 8
    CHECK   a4, 9
    CHECK   a5, 10
    CHECK   a6, 11
    CHECK   a7, 12
    CHECK   a0, 13
    mv      a0, t0
    ld      ra, 0(sp)
    addi    sp, sp, 16
    ret
    .size   acct_call_lost, . - acct_call_lost
