/* Host test of the operating point's parsers (src/lib/line_point.c):
 * wire=BAUD/FIFO[/RXTRIG] and peer=off|stream|burst:N:T. Every valid
 * form is taken with its numbers, everything else is refused and leaves
 * the output alone; a burst fits its period exactly when N characters
 * take no longer than it, to the nanosecond. */
#include <errno.h>
#include <stdio.h>
#include "check.h"
#include "line_point.h"

/* main: s parses to baud/fifo/trig. */
static void valid(const char *s, uint32_t baud, uint16_t fifo, uint8_t trig)
{
    struct line_point p = { 0, 0, 0 };
    CHECK_EQ(line_point_parse(s, &p), 0);
    CHECK_EQ(p.baud, baud);
    CHECK_EQ(p.fifo, fifo);
    CHECK_EQ(p.rx_trigger, trig);
}

/* main: s is refused, p untouched. */
static void invalid(const char *s)
{
    struct line_point p = { 7, 7, 7 };
    if (line_point_parse(s, &p) != -EINVAL)
        printf("accepted: '%s'\n", s ? s : "(null)");
    CHECK_EQ(line_point_parse(s, &p), -EINVAL);
    CHECK_EQ(p.baud, 7U);
    CHECK_EQ(p.fifo, 7U);
    CHECK_EQ(p.rx_trigger, 7U);
}

/* main: s parses to the peer point mode/burst/period_ns. */
static void peer_valid(const char *s, enum peer_mode mode, uint32_t burst, uint64_t period_ns)
{
    struct peer_point p = { PEER_BURST, 3, 3 };
    CHECK_EQ(peer_point_parse(s, &p), 0);
    CHECK_EQ(p.mode, mode);
    CHECK_EQ(p.burst, burst);
    CHECK_EQ(p.period_ns, period_ns);
}

/* main: s is refused as a peer point, p untouched. */
static void peer_invalid(const char *s)
{
    struct peer_point p = { PEER_STREAM, 7, 7 };
    if (peer_point_parse(s, &p) != -EINVAL)
        printf("accepted: peer '%s'\n", s ? s : "(null)");
    CHECK_EQ(peer_point_parse(s, &p), -EINVAL);
    CHECK_EQ(p.mode, PEER_STREAM);
    CHECK_EQ(p.burst, 7U);
    CHECK_EQ(p.period_ns, 7U);
}

/* main: a burst of n bytes every period_ns at baud. */
static int fits(uint32_t n, uint64_t period_ns, uint32_t baud)
{
    struct peer_point p = { PEER_BURST, n, period_ns };
    return peer_point_fits(&p, baud);
}

/* main: the wire= forms. */
static void test_line(void)
{
    valid("115200/16", 115200, 16, 1);
    valid("9600/1", 9600, 1, 1);
    valid("12000000/128", 12000000, 128, 1);
    valid("921600/32", 921600, 32, 1);
    valid("3000000/64", 3000000, 64, 1);
    valid("0009600/016", 9600, 16, 1);
    /* The RX trigger: 1, 4, 8 or 14, at most the FIFO. */
    valid("115200/16/8", 115200, 16, 8);
    valid("9600/1/1", 9600, 1, 1);
    valid("115200/16/14", 115200, 16, 14);
    valid("115200/16/4", 115200, 16, 4);
    valid("115200/16/1", 115200, 16, 1);
    valid("921600/128/14", 921600, 128, 14);
    valid("3000000/32/08", 3000000, 32, 8);
    const char *bad[] = { "", "115200", "115200/", "/16", "9599/16", "12000001/16",
                          "99999999999999999999/16", "115200/0", "115200/2", "115200/15",
                          "115200/17", "115200/256", "115200/16 ", " 115200/16",
                          "115200x16", "-115200/16", "115200/-16", "1e5/16", "115200/16x",
                          "115200//16", "115200/1281",
                          /* RXTRIG */
                          "115200/16/2", "115200/16/15", "115200/1/4", "115200/1/14",
                          "115200/16/0", "115200/16/16", "115200/16/140", "115200/16/",
                          "115200/16/8x", "115200/16/8/", "115200/16/8/8", "115200/16//8",
                          "115200/16/ 8", "115200/16/8 ", "115200/16/-8", "115200/16/99999999999" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        invalid(bad[i]);
    invalid(NULL);
}

/* main: the peer= forms and the burst's fit in its period. */
static void test_peer(void)
{
    peer_valid("off", PEER_OFF, 0, 0);
    peer_valid("stream", PEER_STREAM, 0, 0);
    peer_valid("burst:64:10ms", PEER_BURST, 64, 10000000);
    peer_valid("burst:1:1ns", PEER_BURST, 1, 1);
    peer_valid("burst:8:750us", PEER_BURST, 8, 750000);
    peer_valid("burst:65536:1000000000ns", PEER_BURST, 65536, 1000000000);
    peer_valid("burst:16:1000000000ms", PEER_BURST, 16, 1000000000000000ULL);
    peer_valid("burst:016:02us", PEER_BURST, 16, 2000);
    const char *bad[] = { "burst:0:1ms", "burst:65537:1ms", "burst:8:0us", "burst:8:5",
                          "burst:8:5s", "burst:8:0ns", "burst:8:0ms", "", "Off", "OFF",
                          "stream ", " stream", "streams", "of", "burst", "burst:", "burst:8",
                          "burst:8:", "burst::1ms", "burst:8:ms", "burst:8:1msx", "burst:8:1 ms",
                          "burst:8:1mss", "burst:8:1m", "burst:8:1Ms", "burst:-8:1ms",
                          "burst:8:-1ms", "burst8:1ms", "burst:8;1ms", "burst:8:1ms:1",
                          "burst:99999999999:1ms", "burst:8:1000000001ns", "burst:8:1.5ms",
                          "stream:8:1ms", "bursty:8:1ms" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        peer_invalid(bad[i]);
    peer_invalid(NULL);

    /* Off and stream always fit. */
    struct peer_point off = { PEER_OFF, 0, 0 }, stream = { PEER_STREAM, 0, 0 };
    CHECK(peer_point_fits(&off, 9600));
    CHECK(peer_point_fits(&stream, 12000000));
    /* N characters take ceil(N x 1e10 / baud) ns: that period fits, one
     * ns less does not. 8 at 115200: 694444.4 -> 694445; 1 at 125000:
     * exactly 80000; 65536 at 9600: 68266666666.7 -> 68266666667. */
    CHECK(fits(8, 694445, 115200));
    CHECK(!fits(8, 694444, 115200));
    CHECK(fits(1, 80000, 125000));
    CHECK(!fits(1, 79999, 125000));
    CHECK(fits(65536, 68266666667ULL, 9600));
    CHECK(!fits(65536, 68266666666ULL, 9600));
    CHECK(fits(64, 10000000, 115200));           /* the example form: 5.56 ms in 10 ms */
    CHECK(!fits(2, 1, 12000000));
}

/* CTest: host.line_point. */
int main(void)
{
    test_line();
    test_peer();
    return check_exit("line_point");
}
