/* A small kernel's count as a text file (bench/hosted/text_counter.c,
 * StarryOS's /proc/instret): what counts as a count, what a counter
 * opened on a file reads, and why a file that cannot count is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "perf_counter.h"

/* main: the parse of s (its whole length); -1, or 0 and *v. */
static int parse(const char *s, uint64_t *v)
{
    return text_count_parse(s, strlen(s), v);
}

/* main: digits, then at most a line end; nothing else, nothing over 64 bits. */
static void test_parse(void)
{
    uint64_t v = 7;

    CHECK_EQ(parse("123456789\n", &v), 0);
    CHECK_EQ(v, 123456789);
    CHECK_EQ(parse("42", &v), 0);
    CHECK_EQ(v, 42);
    CHECK_EQ(parse("18446744073709551615\r\n", &v), 0);
    CHECK(v == UINT64_MAX);
    v = 7;
    CHECK_EQ(parse("18446744073709551616\n", &v), -1);     /* 2^64 */
    CHECK_EQ(parse("", &v), -1);
    CHECK_EQ(parse("\n", &v), -1);
    CHECK_EQ(parse("-5\n", &v), -1);
    CHECK_EQ(parse("12 34\n", &v), -1);
    CHECK_EQ(parse("0x10\n", &v), -1);
    CHECK_EQ(parse("instret=5\n", &v), -1);
    CHECK_EQ(v, 7);                                          /* refusals leave *v */
}

/* main: a file holding text at a fresh path; the path (static buffer). */
static const char *file_with(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_text_counter.XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK_EQ(write(fd, text, strlen(text)), (long long)strlen(text));
    close(fd);
    return path;
}

/* main: a counter refused by perf (ENOSYS) opened on a file. */
static struct counter open_on(const char *path)
{
    struct counter c = { .fd = -1, .missing = "ENOSYS", .scope = "none" };
    counter_open_text(&c, path, "proc-instret", "hart");
    return c;
}

/* main: a readable count counts, and each read reads the file anew; a
 * file that gives no count leaves the counter refused, with why. */
static void test_open(void)
{
    const char *path = file_with("1000\n");
    struct counter c = open_on(path);

    CHECK(c.missing == NULL);
    CHECK(c.path == path && strcmp(c.source, "proc-instret") == 0);
    CHECK(strcmp(c.scope, "hart") == 0 && strcmp(c.perf_missing, "ENOSYS") == 0);
    CHECK_EQ(counter_read(&c), 1000);
    FILE *f = fopen(path, "w");
    fputs("1234\n", f);
    fclose(f);
    CHECK_EQ(counter_read(&c), 1234);
    unlink(path);
    CHECK_EQ(counter_read(&c), 0);                           /* gone: no count */

    const struct { const char *text, *why; } bad[] = {
        { "abc\n", "EBADMSG" }, { "", "EBADMSG" },
        { "123456789012345678901234567890123\n", "EOVERFLOW" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = file_with(bad[i].text);
        c = open_on(path);
        CHECK(c.missing && strcmp(c.missing, "ENOSYS") == 0);
        CHECK(c.path_missing && strcmp(c.path_missing, bad[i].why) == 0);
        unlink(path);
    }
    c = open_on("/nonexistent/instret");
    CHECK(c.path_missing && strcmp(c.path_missing, "ENOENT") == 0);
}

/* The test's entry. */
int main(void)
{
    test_parse();
    test_open();
    return check_exit("text_counter");
}
