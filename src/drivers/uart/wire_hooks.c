/* The wire model's entry points at the register seam: the hooks
 * wire_seam.S's entries run through cpu_acct_call (sim account, interrupts
 * masked, on the hart that makes the access), with the seam's arguments,
 * into the model's register layer (wire_model.c): straight through while
 * the driver is hart 0's alone, under wire_lock while other harts share
 * it (harts_share; the lock's cost is the simulation's). */
#include "wire_priv.h"

#if WIRE_BAUD

/* wire_hook_read's call (any hart, interrupts masked). */
static uintptr_t do_read(uintptr_t c, uintptr_t r, uintptr_t mask)
{
    return wire_read((const struct uart_cfg *)c, (unsigned)r, (uint32_t)mask);
}

/* wire_hook_write's call (any hart, interrupts masked): the store the
 * model passes, as it leaves it. */
static uintptr_t do_write(uintptr_t c, uintptr_t r, uintptr_t v)
{
    uint32_t w = (uint32_t)v;

    if (wire_write((const struct uart_cfg *)c, (unsigned)r, &w))
        uart_write_raw((const struct uart_cfg *)c, (unsigned)r, w);
    return 0;
}

/* wire_hook_thr's call (any hart, interrupts masked). */
static uintptr_t do_thr(uintptr_t c, uintptr_t n, uintptr_t unused)
{
    (void)unused;
    return wire_write_thr((const struct uart_cfg *)c, (uint32_t)n);
}

/* wire_seam.S, interrupts masked, sim account: a register read. */
uintptr_t wire_hook_read(uintptr_t c, uintptr_t r, uintptr_t mask)
{
    return harts_many() ? wire_hook_locked(do_read, c, r, mask) : do_read(c, r, mask);
}

/* wire_seam.S, interrupts masked, sim account: a register write. */
uintptr_t wire_hook_write(uintptr_t c, uintptr_t r, uintptr_t v)
{
    return harts_many() ? wire_hook_locked(do_write, c, r, v) : do_write(c, r, v);
}

/* wire_seam.S, interrupts masked, sim account: n stores to THR. */
uintptr_t wire_hook_thr(uintptr_t c, uintptr_t n, uintptr_t unused)
{
    return harts_many() ? wire_hook_locked(do_thr, c, n, unused) : do_thr(c, n, unused);
}

#endif
