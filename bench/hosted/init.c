/* uartbench-hosted as a Linux system's /init (the Linux 8250 peer,
 * docs/linux-peer.md): PID 1, or any process given --init. The options
 * come from the environment, where the kernel puts the boot arguments it
 * does not know itself (tty=, baud=, sections=, quick=, counters=,
 * far_end_stream=, far_end=, rx_trigger=, and qemu-run's qemu_mode= and
 * icount_shift=). The log and the tty under test are one
 * UART there (the kernel's console is the port under test), so the log
 * goes out on the tty under test with the payloads between its payload
 * markers, as a kernel's log does (witness.c), its line ends CR LF as on
 * a kernel's console. At the end PID 1 syncs and powers the machine off
 * (QEMU exits; a PID 1 that returned would panic the kernel); any other
 * process exits with the status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>
#include "hosted.h"

#define LOG_CHUNK 256           /* log bytes converted per write */

bool hosted_init_mode;
const char *hosted_qemu_mode;

/* main, as /init. */
void hosted_init_options(struct hosted_opts *o)
{
    o->tty = getenv("tty");
    o->baud = getenv("baud");
    o->sections = getenv("sections");
    o->quick = getenv("quick");
    o->shift = getenv("icount_shift");
    o->qemu_mode = getenv("qemu_mode");
    o->counters = getenv("counters");
    o->stream = getenv("far_end_stream");
    o->n_stream_is = "far_end_stream=";
    o->far_end = getenv("far_end");
    o->n_far_end_is = "far_end=";
    o->rx_trigger = getenv("rx_trigger");
    o->n_trigger_is = "rx_trigger=";
    o->n_counters_is = "counters=";
    o->n_tty = "tty=";
    o->n_baud = "baud=";
    o->n_baud_is = "baud=";
    o->n_sections = "sections=";
}

/* stdout's write function (fopencookie), any thread holding stdout's
 * lock: the log on the tty, each "\n" as "\r\n", unless the tty's own
 * OPOST|ONLCR does that (S13 turns it on): the bytes a kernel's console
 * puts on its wire. */
static ssize_t log_write(void *cookie, const char *buf, size_t n)
{
    int fd = *(const int *)cookie;
    struct termios t;
    bool onlcr = tcgetattr(fd, &t) == 0 && (t.c_oflag & OPOST) && (t.c_oflag & ONLCR);
    char out[2 * LOG_CHUNK];

    for (size_t i = 0; i < n;) {
        size_t k = 0;
        for (size_t end = i + LOG_CHUNK < n ? i + LOG_CHUNK : n; i < end; i++) {
            if (buf[i] == '\n' && !onlcr)
                out[k++] = '\r';
            out[k++] = buf[i];
        }
        hosted_write_all(fd, out, k);
    }
    return (ssize_t)n;
}

/* main, as /init. */
void hosted_log_on_tty(void)
{
    static const cookie_io_functions_t io = { .write = log_write };
    FILE *f = fopencookie(&hosted_tty.fd, "w", io);

    if (f)
        stdout = f;
}

/* main, kernel_exit. */
void hosted_finish(int status)
{
    fflush(stdout);
    fflush(stderr);
    if (hosted_init_mode && getpid() == 1) {
        if (hosted_tty.fd >= 0)
            tcdrain(hosted_tty.fd);
        sync();
        reboot(RB_POWER_OFF);
        fprintf(stderr, "uartbench-hosted: reboot(RB_POWER_OFF): %s\n", strerror(errno));
    }
    exit(status);
}
