/* Tick <-> ns conversion: exact against 128-bit reference arithmetic for
 * both board timebases, monotonic, and free of overflow for years. The
 * clock without the wire model's simulation: the timebase less the
 * simulation, never back. */
#include "check.h"
#include "clock_conv.h"
#include "clock_free.h"

struct ratio { uint32_t num, den; uint64_t hz; };

static const struct ratio ratios[] = {
    { 100, 1, 10000000 },   /* QEMU virt, 10 MHz */
    { 125, 3, 24000000 },   /* D1, 24 MHz */
};

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
    const uint64_t year_s = 365ULL * 24 * 3600;
    for (unsigned r = 0; r < sizeof ratios / sizeof ratios[0]; r++) {
        const struct ratio *q = &ratios[r];
        uint64_t prev = 0;
        for (uint64_t t = 0; t < 100000; t++) {
            uint64_t ns = conv_ticks_to_ns(t, q->num, q->den);
            CHECK_EQ(ns, ref_ticks_to_ns(t, q->hz));
            CHECK(ns >= prev);
            prev = ns;
        }
        /* Far out: 100 years of uptime, odd tick counts around it. */
        uint64_t far = 100 * year_s * q->hz;
        for (uint64_t t = far - 1000; t < far + 1000; t++)
            CHECK_EQ(conv_ticks_to_ns(t, q->num, q->den), ref_ticks_to_ns(t, q->hz));
        /* One day in ticks is exactly 86400 s. */
        CHECK_EQ(conv_ticks_to_ns(86400ULL * q->hz, q->num, q->den),
                 86400ULL * 1000000000ULL);
        /* ns -> ticks rounds up, and round-trips to at or after ns. */
        for (uint64_t ns = 0; ns < 200000; ns += 7) {
            uint64_t t = conv_ns_to_ticks(ns, q->num, q->den);
            CHECK_EQ(t, ref_ns_to_ticks(ns, q->hz));
            CHECK(conv_ticks_to_ns(t, q->num, q->den) >= ns);
            if (t)
                CHECK(conv_ticks_to_ns(t - 1, q->num, q->den) < ns);
        }
        uint64_t far_ns = 100 * year_s * 1000000000ULL + 12345;
        CHECK_EQ(conv_ns_to_ticks(far_ns, q->num, q->den), ref_ns_to_ticks(far_ns, q->hz));
    }
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
    /* The D1 ratio is not a whole number of ns: 3 ticks = 125 ns. */
    CHECK_EQ(conv_ticks_to_ns(1, 125, 3), 41);
    CHECK_EQ(conv_ticks_to_ns(3, 125, 3), 125);
    CHECK_EQ(conv_ns_to_ticks(42, 125, 3), 2);
    return check_exit("clock");
}
