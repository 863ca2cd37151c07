/* What posix.c exports to posix_ctl.c (termios, ioctl) only: the fds,
 * the drain, the device's c_oflag and errno's setting. */
#ifndef POSIX_PRIV_H
#define POSIX_PRIV_H

#include <stdbool.h>
#include "posix_io.h"

/* Any task: set errno to err, return -1. */
int posix_fail(int err);

/* Any task: is fd open? */
bool posix_fd_valid(int fd);

/* Any task (ioctl FIONBIO): set or clear O_NONBLOCK of an open fd. */
void posix_fd_set_nonblock(int fd, bool on);

/* Any task: wait until the wire is idle; 0 or -EIO (counted). */
int posix_tty_drain(void);

/* Any task: the device's c_oflag (tcgetattr); set it (tcsetattr). */
tcflag_t posix_oflag(void);
void posix_oflag_set(tcflag_t f);

#endif
