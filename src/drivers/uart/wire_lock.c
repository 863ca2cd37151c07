/* The wire model's lock (wire_priv.h), the bottom of the model: its
 * other files take it, and it calls none of them. */
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

/* The seam's hooks (wire_hooks.c), the driver shared: fn(a, b, c) under
 * wire_lock. */
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

#endif
