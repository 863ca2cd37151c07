/* Host unit tests of the kernel's time: the counters, the hart, the
 * compare register, the wakers and panic that time.c calls
 * (fake_time_env.h). */
#include <stdint.h>
#include "csr.h"
#include "fake_time_env.h"
#include "harts.h"
#include "kernel.h"
#include "timer.h"

struct host_csr host_csr;        /* declared by csr.h under HOST_TEST */
HART_LOCAL unsigned hart_self_index;
uint64_t fte_hw = UINT64_MAX;
unsigned fte_hw_writes;
const void *fte_woken[FTE_MAX_WOKEN];
int fte_nwoken;
jmp_buf fte_panicked;

/* csr.h's irq_restore, any context: no fake interrupts here. */
void host_irq_enabled(void) {}
/* timer_init: nothing to set up. */
void timer_hw_init(void) {}
/* reprogram, timer_init: the compare register's new value. */
void timer_hw_set(uint64_t ticks)
{
    fte_hw = ticks;
    fte_hw_writes++;
}
/* timer_isr: an expired timer's waker, recorded. */
void waker_wake(const struct waker *w)
{
    if (w->task && fte_nwoken < FTE_MAX_WOKEN)
        fte_woken[fte_nwoken++] = w->task;
}
/* foreign_timer: back to the test that expected it. */
_Noreturn void panic(const char *fmt, ...)
{
    (void)fmt;
    longjmp(fte_panicked, 1);
}
