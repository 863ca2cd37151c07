/* The wire model's entries at the register seam (wire_seam.h's
 * uart_model_read, uart_model_write and uart_model_thr reach them with
 * cpu_acct_sim_call): each runs its hook (wire_hooks.c) through
 * cpu_acct_call, with the sim CPU account owning the CPU and interrupts
 * masked from the entry's first instruction to the caller's csrs after
 * its jal: the model's cost is the simulation's, exact to the
 * instruction; the driver pays the jal and its arguments, as a board's
 * register access costs a load or a store and its address. Built with
 * the model only (WIRE_BAUD). */
#include "acct_call.h"

    .section .text.wire_seam, "ax"
    ACCT_CALL_ENTRY uart_model_read_entry, wire_hook_read
    ACCT_CALL_ENTRY uart_model_write_entry, wire_hook_write
    ACCT_CALL_ENTRY uart_model_thr_entry, wire_hook_thr
