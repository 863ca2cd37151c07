/* Host test of the wire=BAUD/FIFO parser (src/lib/line_point.c): every
 * valid form is taken with its numbers, everything else is refused and
 * leaves the output alone. */
#include <errno.h>
#include <stdio.h>
#include "check.h"
#include "line_point.h"

/* main: s parses to baud/fifo. */
static void valid(const char *s, uint32_t baud, uint16_t fifo)
{
    struct line_point p = { 0, 0 };
    CHECK_EQ(line_point_parse(s, &p), 0);
    CHECK_EQ(p.baud, baud);
    CHECK_EQ(p.fifo, fifo);
}

/* main: s is refused, p untouched. */
static void invalid(const char *s)
{
    struct line_point p = { 7, 7 };
    if (line_point_parse(s, &p) != -EINVAL)
        printf("accepted: '%s'\n", s ? s : "(null)");
    CHECK_EQ(line_point_parse(s, &p), -EINVAL);
    CHECK_EQ(p.baud, 7U);
    CHECK_EQ(p.fifo, 7U);
}

/* CTest: host.line_point. */
int main(void)
{
    valid("115200/16", 115200, 16);
    valid("9600/1", 9600, 1);
    valid("12000000/128", 12000000, 128);
    valid("921600/32", 921600, 32);
    valid("3000000/64", 3000000, 64);
    valid("0009600/016", 9600, 16);
    const char *bad[] = { "", "115200", "115200/", "/16", "9599/16", "12000001/16",
                          "99999999999999999999/16", "115200/0", "115200/2", "115200/15",
                          "115200/17", "115200/256", "115200/16/8", "115200/16 ", " 115200/16",
                          "115200x16", "-115200/16", "115200/-16", "1e5/16", "115200/16x",
                          "115200//16", "115200/1281" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        invalid(bad[i]);
    invalid(NULL);
    return check_exit("line_point");
}
