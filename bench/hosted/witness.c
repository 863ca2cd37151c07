/* The payload witness on Linux (bench.h). As a system's /init the log
 * is the tty (init.c): the markers frame the payload in the log, as on
 * the kernel (bench/kernel_seam.c). Otherwise the payload goes to the
 * tty and the log is stdout: the markers frame the payload on the tty,
 * with the line ends the kernel's wire has (CR LF; "\n" while the tty's own
 * OPOST|ONLCR makes it CR LF, S13), so the far end's capture is checked
 * like a kernel log's (tests/qemu/witness.py); the log gets the same
 * markers without the payload between them (the manifest's
 * witness_bytes=far-end). */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "hosted.h"
#include "posix_io.h"

/* Witness: the line end the tty's output mode turns into CR LF. */
static const char *tty_eol(void)
{
    struct termios t;
    if (tcgetattr(bench.fd, &t) == 0 && (t.c_oflag & OPOST) && (t.c_oflag & ONLCR))
        return "\n";
    return "\r\n";
}

/* Witness: text out on the tty whole (an error shows in the payload's
 * own writes, which follow). */
static void tty_put(const char *text)
{
    size_t n = strlen(text);
    while (n) {
        ssize_t k = write(bench.fd, text, n);
        if (k <= 0)
            return;
        text += k;
        n -= (size_t)k;
    }
}

/* Section task: the marker goes out, on the log and on the tty, and
 * drains before timing starts. */
void bench_payload_begin(const char *tag)
{
    char line[96];
    const char *eol = tty_eol();

    printf("  payload-begin=%s\n", tag);
    fflush(stdout);
    if (hosted_init_mode) {
        tcdrain(bench.fd);
        return;
    }
    snprintf(line, sizeof line, "  payload-begin=%s%s", tag, eol);
    tty_put(line);
    tcdrain(bench.fd);
}

/* Section task: ends the payload line on the tty, then the witness, on
 * both. */
void bench_payload_end(const char *tag, uint64_t bytes, uint32_t crc)
{
    char line[160];
    const char *eol = tty_eol();

    if (hosted_init_mode) {
        printf("\n  payload-end=%s bytes=%llu crc32=0x%08lx\n", tag, (unsigned long long)bytes,
               (unsigned long)crc);
        return;
    }
    snprintf(line, sizeof line, "  payload-end=%s bytes=%llu crc32=0x%08lx", tag,
             (unsigned long long)bytes, (unsigned long)crc);
    printf("%s\n", line);
    tty_put(eol);
    tty_put(line);
    tty_put(eol);
}
