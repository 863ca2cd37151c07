/* The Linux platform shim's own interface (bench/hosted/): the tty under
 * test, the CPU and its counters, the command line's section selection;
 * main.c sets them up before the runner starts, the other files read
 * them. */
#ifndef HOSTED_H
#define HOSTED_H

#include <stdbool.h>
#include <stddef.h>
#include "cpu_acct.h"

/* Exit statuses of a run refused before any section: a bad command line
 * or operating point (unknown option, bad baud, unknown section: the
 * kernel's bad boot argument, EXIT_BOOTARG), a tty that cannot be used
 * (open fails, not a tty). */
#define HOSTED_EXIT_USAGE 101
#define HOSTED_EXIT_TTY   102

struct hosted_tty {
    const char *path;
    int fd;                     /* open for the whole run: the settings stay */
    unsigned baud;              /* the speed the tty reports back */
    bool pty;                   /* a pseudo-terminal: no line timing */
    int serial_type;            /* TIOCGSERIAL's port type, -1 without */
    unsigned fifo_depth;        /* TIOCGSERIAL's xmit_fifo_size, 0 unknown */
};
extern struct hosted_tty hosted_tty;

/* main: open path (O_RDWR | O_NOCTTY) as raw 8N1 at baud and check that
 * the tty took it; 0, or HOSTED_EXIT_USAGE / HOSTED_EXIT_TTY with the
 * reason written to err. */
int hosted_tty_open(const char *path, unsigned baud, char *err, size_t n);
/* main, before any thread: pin the process to the CPU it runs on, open
 * the perf counters (inherited by every thread started later). */
void hosted_cpu_init(void);
/* manifest: the CPU the process is pinned to (-1: not pinned), why
 * pinning failed, and what a counter counts ("user+kernel", "user";
 * "none": cpu_counter_missing says why). */
int hosted_cpu_pinned(void);
const char *hosted_pin_error(void);
const char *hosted_counter_scope(enum cpu_counter c);

/* main: the --sections value the runner reads as its boot argument
 * sections= (NULL: every section). */
extern const char *hosted_sections;

#endif
