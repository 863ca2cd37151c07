/* Register-level fake 16550 / DesignWare APB UART; see fake_uart.h. The
 * model's state, errors, configuration, interrupts and time; the FIFOs
 * are in fake_uart_fifo.c, the register file in fake_uart_regs.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_uart_state.h"

struct fu_model fu = { .limit = UINT64_MAX };

_Noreturn void fu_fatal(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "fake_uart: FATAL at t=%llu ns: ", (unsigned long long)fu.now);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

void fu_error(const char *fmt, ...)
{
    va_list ap;
    if (fu.errors++ < MAX_PRINTED_ERRORS && !fu.quiet) {
        fprintf(stderr, "fake_uart: ERROR at t=%llu ns: ", (unsigned long long)fu.now);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
}

/* ---- configuration and state ---------------------------------------- */

void fu_init(const struct fu_config *c)
{
    uint64_t now = fu.now, limit = fu.limit;
    bool quiet = fu.quiet;
    unsigned errors = fu.errors;
    void (*hook)(void) = fu.access_hook;
    free(fu.out);
    memset(&fu, 0, sizeof fu);
    fu.now = now;
    fu.limit = limit;
    fu.quiet = quiet;
    fu.errors = errors;
    fu.access_hook = hook;
    fu.c = *c;
    if (c->fifo_depth < 1 || c->fifo_depth > FU_MAX_DEPTH)
        fu_fatal("fifo_depth %u not in 1..%u", c->fifo_depth, FU_MAX_DEPTH);
    if ((c->width != 1 && c->width != 4) || c->reg_shift > 2 ||
        c->width > (1u << c->reg_shift) || c->char_ns == 0)
        fu_fatal("bad fake config: width %u shift %u char_ns %llu", c->width,
                 c->reg_shift, (unsigned long long)c->char_ns);
    fu.thr_ip = false;
}

const struct fu_config *fu_cfg(void) { return &fu.c; }
uint64_t fu_now(void) { return fu.now; }
void fu_set_time_limit(uint64_t abs_ns) { fu.limit = abs_ns; }

/* ---- interrupts ----------------------------------------------------------- */

static bool rls_pending(void)
{
    return (fu.ier & IER_ELSI) &&
           (fu.oe || (fu.rx_count && fu.rxf[fu.rx_head].err));
}

static bool timeout_pending(void)
{
    return (fu.ier & IER_ERBFI) && (fu.rx_to_nodata || fu.now >= fu_rx_timeout_at());
}

/* Highest-priority pending cause (IIR bits 3:0), 0x1 when none. */
uint8_t fu_iir_id(void)
{
    if (rls_pending())
        return 0x6;
    if ((fu.ier & IER_ERBFI) && fu.rx_count >= fu_rx_trigger())
        return 0x4;
    if (timeout_pending())
        return 0xC;
    if ((fu.ier & IER_ETBEI) && fu.thr_ip)
        return 0x2;
    if ((fu.ier & IER_EDSSI) && fu.msr_ip)
        return 0x0;
    if (fu.c.dw && fu.busy_detect)
        return 0x7;
    return 0x1;
}

bool fu_irq_line(void) { return fu.spurious || fu_iir_id() != 0x1; }

/* ---- time --------------------------------------------------------------- */

static uint64_t next_internal(void)
{
    uint64_t t = UINT64_MAX, to;
    if (fu.sh_busy && !fu.tx_stalled && fu.sh_done < t)
        t = fu.sh_done;
    if (fu.sched_n && fu.sched[0].t < t)
        t = fu.sched[0].t;
    if (fu.spur_period && fu.spur_next < t)
        t = fu.spur_next;
    if (fu.hold_until && fu.hold_until < t)
        t = fu.hold_until;
    to = fu_rx_timeout_at();
    if (to > fu.now && to < t && (fu.ier & IER_ERBFI))
        t = to;
    return t;
}

uint64_t fu_next_event(void)
{
    uint64_t t = next_internal();
    return t < fu.now ? fu.now : t;
}

void fu_advance_to(uint64_t t)
{
    if (t <= fu.now)
        return;
    if (t > fu.limit)
        fu_fatal("time limit exceeded (asked for t=%llu, limit %llu): hang?",
                 (unsigned long long)t, (unsigned long long)fu.limit);
    for (;;) {
        uint64_t e = next_internal();
        if (e > t)
            break;
        if (e > fu.now)
            fu.now = e;
        if (fu.sh_busy && !fu.tx_stalled && fu.sh_done <= e)
            fu_tx_complete();
        while (fu.sched_n && fu.sched[0].t <= e) {
            fu_rx_arrive(fu.sched[0].t, fu.sched[0].b, fu.sched[0].flags);
            memmove(&fu.sched[0], &fu.sched[1], --fu.sched_n * sizeof fu.sched[0]);
        }
        if (fu.spur_period && fu.spur_next <= e) {
            fu.spurious++;
            fu.spur_next += fu.spur_period;
        }
        if (fu.hold_until && fu.hold_until <= e)
            fu_tx_unhold(e);
    }
    fu.now = t;
}

/* ---- knobs and observation ---------------------------------------------- */

void fu_force_lcr_busy(unsigned k) { fu.force_lcr_busy = k; }
void fu_spurious(unsigned n) { fu.spurious += n; }
void fu_spurious_period(uint64_t ns)
{
    fu.spur_period = ns;
    fu.spur_next = fu.now + ns;
}
void fu_rx_timeout_nodata(void) { fu.rx_to_nodata = true; }
void fu_msr_change(void) { fu.msr_ip = true; }
void fu_temt_stuck(bool on) { fu.temt_stuck = on; }
void fu_set_access_hook(void (*hook)(void)) { fu.access_hook = hook; }

/* Any test: hold the line until t (see fake_uart.h). */
void fu_tx_hold_until(uint64_t t)
{
    if (t > fu.now)
        fu.hold_until = t;
    else
        fu_tx_unhold(fu.now);
}

/* Any test: lose the next n THRE edges (see fake_uart.h). */
void fu_thre_drop(unsigned n) { fu.thre_drop = n; }

/* Released, the character in the shifter resumes where it stopped. */
void fu_tx_stall(bool on)
{
    if (on && !fu.tx_stalled)
        fu.stall_since = fu.now;
    else if (!on && fu.tx_stalled)
        fu.sh_done += fu.now - fu.stall_since;
    fu.tx_stalled = on;
}

uint8_t fu_lsr_peek(void) { return fu_lsr_value(); }
unsigned fu_tx_level(void) { return fu.tx_count; }
unsigned fu_rx_level(void) { return fu.rx_count; }
bool fu_shifter_busy(void) { return fu.sh_busy; }
bool fu_busy_detect_pending(void) { return fu.busy_detect; }
bool fu_rx_timeout_pending(void) { return fu.rx_to_nodata; }
uint8_t fu_reg_ier(void) { return fu.ier; }
uint8_t fu_reg_lcr(void) { return fu.lcr; }
uint8_t fu_reg_mcr(void) { return fu.mcr; }
uint8_t fu_reg_dll(void) { return fu.dll; }
uint8_t fu_reg_dlm(void) { return fu.dlm; }
bool fu_fifo_enabled(void) { return fu.fifo_en; }
size_t fu_out_count(void) { return fu.out_n; }
const struct fu_out *fu_out_buf(void) { return fu.out; }
void fu_out_clear(void) { fu.out_n = 0; }
const struct fu_stats *fu_stats(void) { return &fu.st; }
void fu_stats_clear(void) { memset(&fu.st, 0, sizeof fu.st); }
unsigned fu_errors(void) { return fu.errors; }
void fu_errors_clear(void) { fu.errors = 0; }
void fu_errors_quiet(bool quiet) { fu.quiet = quiet; }
