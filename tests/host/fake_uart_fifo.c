/* Register-level fake UART (fake_uart.h): the TX FIFO and shifter, the
 * RX FIFO and its scheduled arrivals. */
#include <stdlib.h>

#include "fake_uart_state.h"

unsigned fu_depth(void) { return fu.fifo_en ? fu.c.fifo_depth : 1; }

unsigned fu_rx_trigger(void)
{
    static const unsigned num[4] = { 0, 1, 2, 0 };
    unsigned d = fu_depth(), sel = fu.fcr >> 6, t;
    if (!fu.fifo_en || d < 4)
        return 1;
    if (sel == 0)
        return 1;
    t = sel == 3 ? d - 2 : d * num[sel] / 4;
    return t ? t : 1;
}

/* ---- TX ----------------------------------------------------------------- */

/* Move the next FIFO byte into an idle shifter at time t, unless the
 * line is held. */
static void tx_load(uint64_t t)
{
    if (fu.sh_busy || !fu.tx_count || fu.hold_until > t)
        return;
    fu.sh_byte = fu.txf[fu.tx_head];
    fu.tx_head = (fu.tx_head + 1) % FU_MAX_DEPTH;
    fu.tx_count--;
    fu.sh_busy = true;
    fu.sh_done = t + fu.c.char_ns;
    if (fu.tx_count == 0 && fu.thre_drop) {   /* FIFO-empty transition, lost */
        fu.thre_drop--;
        fu.st.thre_dropped++;
    } else if (fu.tx_count == 0) {   /* FIFO-empty transition */
        fu.thr_ip = true;
        fu.st.thre_raised++;
    }
}

void fu_tx_complete(void)
{
    uint64_t t = fu.sh_done;
    fu.sh_busy = false;
    if (fu.mcr & MCR_LOOP) {
        fu.st.loopback_bytes++;
        fu_rx_arrive(t, fu.sh_byte, 0);
    } else {
        if (fu.out_n == fu.out_cap) {
            fu.out_cap = fu.out_cap ? 2 * fu.out_cap : 4096;
            fu.out = realloc(fu.out, fu.out_cap * sizeof *fu.out);
            if (!fu.out)
                fu_fatal("out of memory");
        }
        fu.out[fu.out_n++] = (struct fu_out){ fu.sh_byte, t };
    }
    tx_load(t);
}

void fu_tx_unhold(uint64_t t)
{
    fu.hold_until = 0;
    tx_load(t);
}

void fu_thr_write(uint8_t b)
{
    fu.st.thr_writes++;
    if (fu.tx_count)
        fu.st.thr_not_thre++;
    fu.thr_ip = false;
    if (fu.tx_count >= fu_depth()) {
        fu.st.lost_stores++;
    } else {
        fu.txf[(fu.tx_head + fu.tx_count) % FU_MAX_DEPTH] = b;
        fu.tx_count++;
        if (fu.tx_count > fu.st.max_tx_level)
            fu.st.max_tx_level = fu.tx_count;
    }
    tx_load(fu.now);
}

bool fu_tx_active(void) { return fu.sh_busy || fu.tx_count; }

/* ---- RX ----------------------------------------------------------------- */

void fu_rx_arrive(uint64_t t, uint8_t b, unsigned flags)
{
    fu.rx_last = t;
    if (fu.rx_count >= fu_depth()) {
        fu.oe = true;
        fu.st.rx_lost++;
        return;
    }
    fu.rxf[(fu.rx_head + fu.rx_count) % FU_MAX_DEPTH] =
        (struct rx_ent){ b, (uint8_t)(flags & LSR_ERR) };
    fu.rx_count++;
}

void fu_rx_inject_at(uint64_t t, uint8_t b, unsigned flags)
{
    unsigned i;
    if (t <= fu.now) {
        fu_rx_arrive(fu.now, b, flags);
        return;
    }
    if (fu.sched_n == MAX_RX_SCHED)
        fu_fatal("too many scheduled RX bytes");
    for (i = fu.sched_n; i > 0 && fu.sched[i - 1].t > t; i--)
        fu.sched[i] = fu.sched[i - 1];
    fu.sched[i] = (struct rx_sched){ t, b, (uint8_t)flags };
    fu.sched_n++;
}

void fu_rx_inject(uint8_t b, unsigned flags) { fu_rx_inject_at(fu.now, b, flags); }

uint64_t fu_rx_timeout_at(void)
{
    if (!fu.fifo_en || !fu.rx_count || fu.rx_count >= fu_rx_trigger())
        return UINT64_MAX;
    return fu.rx_last + 4 * fu.c.char_ns;
}
