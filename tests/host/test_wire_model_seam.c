/* The wire model at the register seam: uart_16550.h built with WIRE_BAUD,
 * its entry points uart_model_* as wire_seam.S has them (fake_acct.c:
 * the model's hooks through a fake charged call) and the stubs of
 * test_wire_model.c. Every access to a register the
 * model owns goes through one charged call with the sim account owning
 * the CPU; other registers never reach the model; a read that wants only
 * modelled bits makes no MMIO access; the model's work lands in the sim
 * account, and so do a UART read the model makes itself (for the bits it
 * does not own) and the store of a modelled write, which the model makes;
 * the caller pays for its own MMIO and nothing else, and
 * wire_model_stats reports the sim account in instructions. */
#include "check.h"
#include "fake_acct.h"
#include "test_wire_model.h"
#include "wire_model.h"

/* main(), after the physics tests: a mix of modelled and plain accesses
 * on an idle line, as the backends make them. */
void test_wire_seam(void)
{
    static struct cpu_acct task;
    static const uint8_t burst[5] = { 'b', 'u', 'r', 's', 't' };
    struct wire_stats st0, st1;
    unsigned hooks = 0, mmio = 0, inner = 0;   /* inner: MMIO inside the model */

    now_ns = 100000000000ULL;         /* long after the physics tests: idle */
    wire_model_stats(&st0);
    fa_init(&task);
    stub = (struct stub_counts){ 0 };

    CHECK(uart_read(&ns, UART_LSR) & UART_LSR_TEMT);        hooks++; mmio++; inner++;
    CHECK(uart_read_bits(&ns, UART_LSR, UART_LSR_THRE));    hooks++;   /* model only */
    CHECK_EQ(uart_read(&ns, UART_IER), UART_IER_RDI);       hooks++;   /* model only */
    (void)uart_read(&ns, UART_RBR);                         hooks++; mmio++; inner++;
    (void)uart_read(&ns, UART_IIR);                         hooks++; mmio++; inner++;
    (void)uart_read(&ns, UART_MCR);                         mmio++;
    uart_write(&ns, UART_MCR, UART_MCR_OUT2);               mmio++;
    for (int i = 0; i < 3; i++) {
        uart_write(&ns, UART_THR, 'a');                     hooks++; mmio++; inner++;
    }
    uart_write(&ns, UART_IER, UART_IER_RDI | UART_IER_RLSI); hooks++; mmio++; inner++;
    uart_write(&ns, UART_LCR, UART_LCR_8N1);                hooks++; mmio++; inner++;
    uart_write(&ns, UART_FCR, UART_FCR_ENABLE);             hooks++; mmio++; inner++;
    CHECK_EQ(uart_read(&ns, UART_IER), UART_IER_RDI | UART_IER_RLSI); hooks++;
    uart_write_burst(&ns, UART_THR, burst, sizeof burst);         hooks++; mmio += sizeof burst;
    (void)uart_read(&ns, UART_SCR);                         mmio++;    /* not modelled */
    (void)uart_read_bits(&ns, UART_IER, UART_IER_THRI);     hooks++;   /* model only */

    /* Each modelled access made one call, on the sim account, and the
     * model counted it (through wire_hook_*); the others did not reach it. */
    wire_model_stats(&st1);
    CHECK_EQ(fa_stats()->calls, hooks);
    CHECK_EQ(fa_stats()->nested, 0);
    CHECK_EQ(st1.calls - st0.calls, hooks);
    CHECK_EQ(st1.bytes - st0.bytes, 3 + sizeof burst);
    CHECK_EQ(st1.lost, st0.lost);
    CHECK_EQ(stub.mmio_reads + stub.mmio_writes, mmio);
    CHECK_EQ(stub.mmio_in_model, inner);
    /* Every clock read was the model's, inside a hook: the sim account
     * holds that work, the calls' own, the UART reads the model made (no
     * stream attached: LSR's RX bits, RBR, IIR are QEMU's) and the
     * modelled stores; the caller only its own MMIO. */
    CHECK(stub.clock_reads >= hooks);
    CHECK_EQ(task.instret, (mmio - inner) * MMIO_INSNS);
    CHECK_EQ(cpu_acct_sim.instret, stub.clock_reads * MODEL_STEP_INSNS +
                                   hooks * FA_CALL_INSNS + inner * MMIO_INSNS);
    CHECK_EQ(cpu_acct_sim.cycles, cpu_acct_sim.instret);
    CHECK_EQ(st1.instret, cpu_acct_sim.instret);            /* instructions */
    CHECK_EQ(st1.cycles, cpu_acct_sim.cycles);
}

/* main(): this file's failed checks. */
int wire_seam_failures(void) { return check_failures; }
