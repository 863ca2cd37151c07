/* What the wire model's files share. They layer, each calling only the
 * ones below: the seam's hooks (wire_hooks.c) -> the register layer, the
 * TX side and the interrupt line (wire_model.c) -> the modelled far end
 * and RX FIFO (wire_rx.c) -> the lock (wire_lock.c). Every function here
 * runs with interrupts masked, on the sim account. */
#ifndef WIRE_PRIV_H
#define WIRE_PRIV_H

#include "spinlock.h"
#include "wire_model.h"
#ifdef HOST_TEST
#define wire_hart() 0U             /* the host tests run one "hart" */
#define harts_many() 0
#define WIRE_HARTS 1U
#else
#include "harts.h"
#define wire_hart() hart_self()
#define WIRE_HARTS HARTS_MAX
#endif

#define NS_PER_10BITS_NUM 10000000000ULL   /* 10 bits x 1e9 ns */
#define WIRE_FIFO_MAX 128U
/* The model's state is shared by every hart that makes a register access
 * (a task on any hart may write or drain): wire_lock guards all of it. It
 * is taken by the seam's hooks, the model's timer callbacks and the task
 * entry points (peer start/stop/stats, stats), never twice: it is a leaf
 * (the driver's port lock, when held, is taken before it). While the
 * driver is not shared (harts_share) it is not taken: masking interrupts
 * suffices. A model timer is armed on the queue of the hart that makes
 * the access (timer queues are per hart), one timer per hart; a callback acts only on the event
 * the model still wants, so a timer left armed on another hart is
 * harmless. */
extern struct spinlock wire_lock;
extern unsigned wire_owner;        /* the holder's hart + 1, 0: free */

/* wire_enter and wire_leave, the driver shared; a hook's call fn(a, b,
 * c) under wire_lock (wire_lock.c). */
bool wire_enter_many(void);
void wire_leave_many(void);
uintptr_t wire_hook_locked(uintptr_t (*fn)(uintptr_t, uintptr_t, uintptr_t), uintptr_t a,
                           uintptr_t b, uintptr_t c);

/* Interrupts masked, any hart: take wire_lock, unless this hart holds it
 * already (a panic inside the model prints through the seam); whether it
 * was taken, for wire_leave. */
static inline bool wire_enter(void)
{
    return __builtin_expect(harts_many(), 0) && wire_enter_many();
}

/* The caller of wire_enter: release wire_lock if it was taken. */
static inline void wire_leave(bool took)
{
    if (took)
        wire_leave_many();
}

/* wire_rx.c: the RX side, below the register layer (wire_model.c),
 * which calls it and owns its timer and the interrupt line; it calls
 * nothing of the model but the lock. Init at boot; a stream attached
 * (the model then owns RBR, IIR, LSR's RX bits and the interrupt line)
 * and detached; register reads and writes of an attached stream at now;
 * the time of its next event. */
void wire_rx_init(const struct uart_cfg *c, const struct peer_point *p);
int wire_rx_attach(uint64_t bytes, uint32_t seed, uint64_t start_ns);
bool wire_rx_detach(uint64_t now);
bool wire_rx_attached(void);
uint32_t wire_rx_lsr(uint64_t now, bool read_errors);   /* DR, OE */
uint32_t wire_rx_rbr(uint64_t now);
uint32_t wire_rx_level(uint64_t now);                   /* RFL */
uint32_t wire_rx_iir(uint64_t now);                     /* RX cause or NO_INT */
void wire_rx_ier(uint32_t ier, uint64_t now);
void wire_rx_fcr(uint32_t fcr, uint64_t now);
uint64_t wire_rx_next(uint64_t now, bool again);

#endif
