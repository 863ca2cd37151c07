/* The RX FIFO trigger of the tty under test, as Linux's 8250 driver shows
 * it in sysfs (/sys/class/tty/<name>/rx_trig_bytes: the bytes the FIFO
 * holds before it interrupts; 8 for a 16550A unless set). The run may set
 * it (--rx-trigger, rx_trigger=), as the kernel images take theirs from
 * the line's point; the manifest prints what the port has. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hosted.h"

unsigned hosted_rx_trigger;

/* hosted_rx_trigger_init: the sysfs file of the tty's trigger into path. */
static void trig_path(char *path, size_t n)
{
    const char *name = strrchr(hosted_tty.path, '/');
    snprintf(path, n, "/sys/class/tty/%s/rx_trig_bytes", name ? name + 1 : hosted_tty.path);
}

/* hosted_rx_trigger_init: the trigger the port has (0: no such file). */
static unsigned trig_read(const char *path)
{
    FILE *f = fopen(path, "r");
    unsigned v = 0;

    if (f) {
        if (fscanf(f, "%u", &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

/* hosted_rx_trigger_init: value into path; 0 or the errno. */
static int trig_write(const char *path, const char *value)
{
    FILE *f = fopen(path, "w");

    if (!f)
        return errno;
    int e = fprintf(f, "%s\n", value) < 0 ? EIO : 0;
    if (fclose(f) && !e)
        e = errno;
    return e;
}

/* main, after hosted_tty_open (and sysfs mounted, as /init). */
int hosted_rx_trigger_init(const char *want, const char *name_is, char *err, size_t n)
{
    char path[256];

    trig_path(path, sizeof path);
    if (want) {
        static const char *const valid[] = { "1", "4", "8", "14" };
        unsigned k = 0;
        while (k < 4 && strcmp(want, valid[k]) != 0)
            k++;
        if (k == 4) {
            snprintf(err, n, "%s%s: valid values: 1, 4, 8, 14 (bytes in the RX FIFO)", name_is,
                     want);
            return HOSTED_EXIT_USAGE;
        }
        int e = trig_write(path, want);
        if (e) {
            snprintf(err, n, "%s%s: cannot set it in %s: %s (%s)", name_is, want, path,
                     strerror(e), e == ENOENT ? "the tty's driver shows no RX trigger" :
                     "the driver refused it");
            return HOSTED_EXIT_TTY;
        }
    }
    hosted_rx_trigger = trig_read(path);
    if (want && hosted_rx_trigger != (unsigned)atoi(want)) {
        snprintf(err, n, "%s%s: %s reads %u after it was set", name_is, want, path,
                 hosted_rx_trigger);
        return HOSTED_EXIT_TTY;
    }
    return 0;
}
