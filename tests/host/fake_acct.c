/* Host unit tests: the CPU accounting objects the drivers charge
 * (cpu_acct.h) and a charged call over fake counters (fake_acct.h). The
 * counters are host_csr's (csr.h), which the tests leave at 0, set
 * themselves or advance with fa_work(); with WIRE_BAUD, the wire model's
 * seam entry points (uart_16550.h's uart_model_*). */
#include "csr.h"
#include "fake_acct.h"
#include "uart_16550.h"

struct cpu_acct cpu_acct_isr, cpu_acct_idle, cpu_acct_sim, cpu_acct_rx;
struct cpu_acct_now cpu_acct_now = { .owner = &cpu_acct_isr };
struct cpu_acct_trap cpu_acct_trap;   /* (no trap entry on the host: never set) */
bool cpu_instret_exact;
unsigned cpu_clock_shift;
void (*fa_call_hook)(void);
static struct fa_stats st;
static unsigned depth;

/* Any test, task context. */
void fa_init(struct cpu_acct *task)
{
    st = (struct fa_stats){ 0 };
    cpu_acct_sim = (struct cpu_acct){ 0 };
    cpu_acct_now.owner = task;
    cpu_acct_now.cycle = rdcycle();
    cpu_acct_now.instret = rdinstret();
}

/* Fakes, any context. */
void fa_work(uint64_t n)
{
    host_csr.instret += n;
    host_csr.cycle += n;
}

/* Any test: what the fake charged calls saw. */
const struct fa_stats *fa_stats(void) { return &st; }

/* The wire model's seam, any context (fake_acct.h). */
uintptr_t fa_sim_call(uintptr_t x, uintptr_t y, uintptr_t z, fa_fn fn)
{
    unsigned long f = irq_save();
    struct cpu_acct *caller = cpu_acct_switch(&cpu_acct_sim);

    st.calls++;
    st.nested += depth != 0;
    depth++;
    fa_work(FA_CALL_INSNS);
    if (fa_call_hook)
        fa_call_hook();
    uintptr_t r = fn(x, y, z);
    depth--;
    cpu_acct_switch(caller);
    irq_restore(f);
    return r;
}

#if WIRE_BAUD
/* wire_model.c: the hooks the seam's entry points run. */
uintptr_t wire_hook_read(uintptr_t c, uintptr_t r, uintptr_t mask);
uintptr_t wire_hook_write(uintptr_t c, uintptr_t r, uintptr_t v);
uintptr_t wire_hook_thr(uintptr_t c, uintptr_t n, uintptr_t unused);

/* The register seam (wire_seam.h under WIRE_BAUD), any context: the
 * entries wire_seam.S has on the target, each one charged call of its
 * hook. */
uint32_t uart_model_read(const struct uart_cfg *c, unsigned r, uint32_t mask)
{
    return (uint32_t)fa_sim_call((uintptr_t)c, r, mask, wire_hook_read);
}
/* The seam (uart_write), any context: the model filters and makes the store. */
void uart_model_write(const struct uart_cfg *c, unsigned r, uint32_t v)
{
    (void)fa_sim_call((uintptr_t)c, r, v, wire_hook_write);
}
/* The seam (uart_write_burst of THR), any context: the model takes n stores. */
size_t uart_model_thr(const struct uart_cfg *c, size_t n)
{
    return fa_sim_call((uintptr_t)c, n, 0, wire_hook_thr);
}
#endif
