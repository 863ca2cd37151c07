/* The wire model's lock and two of its seam entry points (wire_priv.h):
 * the hooks wire_seam.S calls through cpu_acct_call, straight through while
 * the driver is hart 0's alone, under wire_lock while other harts share
 * it (harts_share). */
#include "cpu_acct.h"
#include "wire_priv.h"

#if WIRE_BAUD

struct spinlock wire_lock;
unsigned wire_owner;

/* wire_enter, interrupts masked, the driver shared (out of line: the one-hart
 * path stays a load and a branch): take wire_lock unless this hart holds
 * it; whether it was taken. */
__attribute__((noinline)) bool wire_enter_many(void)
{
    if (__atomic_load_n(&wire_owner, __ATOMIC_RELAXED) == wire_hart() + 1U)
        return false;
    spin_lock(&wire_lock);
    wire_owner = wire_hart() + 1U;
    return true;
}

/* wire_leave, interrupts masked, wire_lock held by wire_enter_many. */
__attribute__((noinline)) void wire_leave_many(void)
{
    wire_owner = 0;
    spin_unlock(&wire_lock);
}

/* Any task (S50). */
void wire_model_lock_stats(struct spinlock_stats *out)
{
    *out = spin_stats(&wire_lock);
}

/* wire_hook_* (here and wire_model.c), the driver shared: the call
 * under wire_lock. */
__attribute__((noinline)) uintptr_t wire_hook_locked(uintptr_t (*fn)(uintptr_t, uintptr_t,
                                                                        uintptr_t),
                                                       uintptr_t a, uintptr_t b, uintptr_t c)
{
    bool took = wire_enter_many();
    uintptr_t v = fn(a, b, c);
    if (took)
        wire_leave_many();
    return v;
}

/* wire_hook_read's call (any hart, interrupts masked). */
static uintptr_t do_read(uintptr_t c, uintptr_t r, uintptr_t mask)
{
    return wire_read((const struct uart_cfg *)c, (unsigned)r, (uint32_t)mask);
}

/* wire_hook_write's call (any hart, interrupts masked). */
static uintptr_t do_write(uintptr_t c, uintptr_t r, uintptr_t pv)
{
    return wire_write((const struct uart_cfg *)c, (unsigned)r, (uint32_t *)pv);
}


/* The seam's entry points (wire_seam.S) through cpu_acct_call, sim
 * account, interrupts masked, on the hart that makes the access:
 * wire_read and wire_write with the seam's arguments (wire_hook_thr is
 * wire_model.c's); under wire_lock while the driver is shared (the
 * lock's cost is the simulation's), straight through otherwise. */
uintptr_t wire_hook_read(uintptr_t c, uintptr_t r, uintptr_t mask)
{
    return harts_many() ? wire_hook_locked(do_read, c, r, mask) : do_read(c, r, mask);
}
uintptr_t wire_hook_write(uintptr_t c, uintptr_t r, uintptr_t pv)
{
    return harts_many() ? wire_hook_locked(do_write, c, r, pv) : do_write(c, r, pv);
}

#endif
