/* The wire model's entry points at the register seam (wire_seam.h):
 * uart_model_read(c, r, v), uart_model_write(c, r, pv) and
 * uart_model_thr(c, n) run the model's hooks (wire_model.c) through
 * cpu_acct_call, with the sim CPU account owning the CPU and interrupts
 * masked: the model's cost is the simulation's, exact to the instruction
 * from cpu_acct_call's first one; the driver pays for its call, these
 * three instructions and the ret. Built with the model only (WIRE_BAUD). */
    .section .text.wire_seam, "ax"

    .globl  uart_model_read
uart_model_read:
    lui     a3, %tprel_hi(cpu_acct_sim)     /* this hart's (tp) */
    add     a3, a3, tp, %tprel_add(cpu_acct_sim)
    addi    a3, a3, %tprel_lo(cpu_acct_sim)
    lla     a4, wire_hook_read
    tail    cpu_acct_call

    .globl  uart_model_write
uart_model_write:
    lui     a3, %tprel_hi(cpu_acct_sim)     /* this hart's (tp) */
    add     a3, a3, tp, %tprel_add(cpu_acct_sim)
    addi    a3, a3, %tprel_lo(cpu_acct_sim)
    lla     a4, wire_hook_write
    tail    cpu_acct_call

    .globl  uart_model_thr
uart_model_thr:
    lui     a3, %tprel_hi(cpu_acct_sim)     /* this hart's (tp) */
    add     a3, a3, tp, %tprel_add(cpu_acct_sim)
    addi    a3, a3, %tprel_lo(cpu_acct_sim)
    lla     a4, wire_hook_thr
    tail    cpu_acct_call
