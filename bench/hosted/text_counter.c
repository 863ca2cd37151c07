/* A counter a kernel keeps as a text file (perf_counter.h): StarryOS's
 * /proc/instret, the hart's retired-instruction count as decimal digits
 * and a newline. Each value is the file opened, read once and closed, as
 * StarryOS's own benchmark reads it (its procfs regenerates the text at
 * each open); the read's own instructions are measured and taken out
 * like a perf read syscall's (counter_calibrate, counter_value). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "perf_counter.h"

#define TEXT_MAX 32             /* 20 digits of a uint64_t, a line end, room */

/* text_counter_read, counter_open_text (and the host unit test): the
 * count in buf[0..n): decimal digits, then at most white space (a line
 * end); 0, or -1 for anything else (empty, a sign, other characters,
 * more than 64 bits). */
int text_count_parse(const char *buf, size_t n, uint64_t *out)
{
    size_t i = 0;
    uint64_t v = 0;

    while (i < n && buf[i] >= '0' && buf[i] <= '9') {
        unsigned d = (unsigned)(buf[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
        i++;
    }
    if (i == 0)
        return -1;
    for (size_t k = i; k < n; k++)
        if (buf[k] != '\n' && buf[k] != '\r' && buf[k] != ' ')
            return -1;
    *out = v;
    return 0;
}

/* counter_read, counter_open_text: one value of the file at path; 0 and
 * the count, or the errno of a failed open or read, EOVERFLOW for a text
 * longer than a count, EBADMSG for one that is not a count. */
static int read_text(const char *path, uint64_t *out)
{
    char buf[TEXT_MAX];
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return errno;
    ssize_t n = read(fd, buf, sizeof buf);
    int err = n < 0 ? errno : 0;
    close(fd);
    if (err)
        return err;
    if ((size_t)n == sizeof buf)
        return EOVERFLOW;
    return text_count_parse(buf, (size_t)n, out) ? EBADMSG : 0;
}

/* Any thread (counter_read): c's count now, 0 when the file fails. */
uint64_t text_counter_read(const struct counter *c)
{
    uint64_t v = 0;
    if (read_text(c->path, &v))
        v = 0;
    return v;
}

/* hosted_cpu_init, before any thread: c counts from the file at path
 * when one read of it gives a count; else c->path_missing names why (an
 * errno name) and c is left as it was. */
void counter_open_text(struct counter *c, const char *path, const char *source, const char *scope)
{
    uint64_t v;
    int err = read_text(path, &v);

    if (err) {
        const char *name = strerrorname_np(err);
        c->path_missing = name ? name : "unknown-errno";
        return;
    }
    *c = (struct counter){ .fd = -1, .scope = scope, .source = source, .path = path,
                           .perf_missing = c->missing };
}
