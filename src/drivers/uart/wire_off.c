/* The wire model's entry points in an image without it (WIRE_BAUD 0):
 * its hooks are never called, its stats read all zero, and it refuses a
 * line fault. */
#include <errno.h>
#include "csr.h"            /* (first: the hosted build's own, bench/hosted/include) */
#include "spinlock.h"
#include "wire_model.h"

#if !WIRE_BAUD

/* Boot: nothing to model. */
void wire_model_init(const struct uart_cfg *c, const struct peer_point *peer)
{
    (void)c;
    (void)peer;
}

/* Boot task: no modelled line, no line fault. */
int wire_model_fault(enum wire_fault f)
{
    return f == WIRE_FAULT_NONE ? 0 : -ENODEV;
}

/* Any task. */
void wire_model_stats(struct wire_stats *out)
{
    *out = (struct wire_stats){ 0 };
}

/* Any task: no model, no timers. */
bool wire_model_hart_quiesce(void)
{
    return true;
}

/* Any task: no model, no lock. */
void wire_model_lock_stats(struct spinlock_stats *out)
{
    *out = (struct spinlock_stats){ 0 };
}

#endif
