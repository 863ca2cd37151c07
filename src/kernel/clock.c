/* Board timebase: the ratio is a compile-time constant, so the divisions
 * by 1 (QEMU, 10 MHz) or 3 (D1, 24 MHz) become multiplications. */
#include "board.h"
#include "clock.h"
#include "clock_conv.h"
#include "csr.h"

/* Any context. */
uint64_t clock_ticks_to_ns(uint64_t ticks)
{
    return conv_ticks_to_ns(ticks, BOARD_TICK_NS_NUM, BOARD_TICK_NS_DEN);
}

/* Any context. */
uint64_t clock_ns_to_ticks(uint64_t ns)
{
    return conv_ns_to_ticks(ns, BOARD_TICK_NS_NUM, BOARD_TICK_NS_DEN);
}

/* Any context. */
uint64_t clock_now_ns(void)
{
    return clock_ticks_to_ns(rdtime());
}
