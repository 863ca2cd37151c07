/* The clock (src/kernel/time.c) built for one board's timebase
 * (host.clock.<board>: qemu-virt, 10 MHz, and d1, 24 MHz): tick <-> ns
 * conversion exact against 128-bit reference arithmetic, monotonic, and
 * free of overflow for years; clock_now_ns reads the timebase, and a
 * timer sets the compare register at the tick where the clock reaches its
 * deadline. The clock without the wire model's simulation
 * (clock_free.h): the timebase less the simulation, never back. The
 * timebase, the compare register and the rest time.c calls are
 * fake_time_env.c's. */
#include "board.h"
#include "check.h"
#include "clock.h"
#include "clock_free.h"
#include "csr.h"
#include "fake_time_env.h"
#include "timer.h"

static uint64_t ref_ticks_to_ns(uint64_t t, uint64_t hz)
{
    return (uint64_t)((unsigned __int128)t * 1000000000u / hz);
}

static uint64_t ref_ns_to_ticks(uint64_t ns, uint64_t hz)
{
    unsigned __int128 p = (unsigned __int128)ns * hz;
    return (uint64_t)((p + 999999999u) / 1000000000u);
}

int main(void)
{
    const uint64_t year_s = 365ULL * 24 * 3600, hz = BOARD_TIMEBASE_HZ;
    uint64_t prev = 0;
    for (uint64_t t = 0; t < 100000; t++) {
        uint64_t ns = clock_ticks_to_ns(t);
        CHECK_EQ(ns, ref_ticks_to_ns(t, hz));
        CHECK(ns >= prev);
        prev = ns;
    }
    /* Far out: 100 years of uptime, odd tick counts around it. */
    uint64_t far = 100 * year_s * hz;
    for (uint64_t t = far - 1000; t < far + 1000; t++)
        CHECK_EQ(clock_ticks_to_ns(t), ref_ticks_to_ns(t, hz));
    /* One day in ticks is exactly 86400 s. */
    CHECK_EQ(clock_ticks_to_ns(86400ULL * hz), 86400ULL * 1000000000ULL);
    /* ns -> ticks rounds up, and round-trips to at or after ns. */
    for (uint64_t ns = 0; ns < 200000; ns += 7) {
        uint64_t t = clock_ns_to_ticks(ns);
        CHECK_EQ(t, ref_ns_to_ticks(ns, hz));
        CHECK(clock_ticks_to_ns(t) >= ns);
        if (t)
            CHECK(clock_ticks_to_ns(t - 1) < ns);
    }
    uint64_t far_ns = 100 * year_s * 1000000000ULL + 12345;
    CHECK_EQ(clock_ns_to_ticks(far_ns), ref_ns_to_ticks(far_ns, hz));
    /* The clock reads the timebase; a timer's compare value is the tick
     * at which it reaches the deadline (no simulation taken out). */
    host_csr.time = far;
    CHECK_EQ(clock_now_ns(), ref_ticks_to_ns(far, hz));
    struct timer t = { 0 };
    timer_init();
    CHECK_EQ(timer_arm(&t, far_ns, (struct waker){ 0 }), 0);
    CHECK_EQ(fte_hw, ref_ns_to_ticks(far_ns, hz));
    CHECK(timer_cancel(&t));
    /* Without the simulation: raw - sim, frozen while the simulation
     * runs (raw and sim grow together), never back when the timebase's
     * step lags the simulation's ns. */
    uint64_t last = 0;
    CHECK_EQ(clock_free_value(1000, 0, &last), 1000);
    CHECK_EQ(clock_free_value(1500, 300, &last), 1200);
    CHECK_EQ(clock_free_value(1600, 400, &last), 1200);     /* the model ran: frozen */
    CHECK_EQ(clock_free_value(1600, 450, &last), 1200);     /* tick not yet: not back */
    CHECK_EQ(last, 1200);
    CHECK_EQ(clock_free_value(1700, 450, &last), 1250);
    CHECK_EQ(clock_free_value(100, 450, &last), 1250);      /* never below what was read */
    last = 0;
    CHECK_EQ(clock_free_value(100, 450, &last), 0);         /* no underflow */
    /* On the D1 a tick is not a whole number of ns: 3 ticks = 125 ns. */
    if (hz == 24000000) {
        CHECK_EQ(clock_ticks_to_ns(1), 41);
        CHECK_EQ(clock_ticks_to_ns(3), 125);
        CHECK_EQ(clock_ns_to_ticks(42), 2);
    }
    return check_exit("clock");
}
