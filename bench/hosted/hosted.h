/* The Linux platform shim's own interface (bench/hosted/): the tty under
 * test, the CPU and its counters, the command line's section selection;
 * main.c sets them up before the runner starts, the other files read
 * them. */
#ifndef HOSTED_H
#define HOSTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
/* Any thread (init.c's log, far_end.c's requests): n bytes out on fd
 * whole; an error drops the rest (they have nowhere else to go). */
void hosted_write_all(int fd, const void *p, size_t n);
/* main, before any thread: pin the process to the CPU it runs on, open
 * the perf counters (the process's: inherited by every thread started
 * later; the CPU's), and where the PMU has one counter per event for the
 * two, keep the process's (wide_first: the CPU's). */
void hosted_cpu_init(bool wide_first);
/* manifest: the CPU the process is pinned to (-1: not pinned), why
 * pinning failed. */
int hosted_cpu_pinned(void);
const char *hosted_pin_error(void);

/* hosted_cpu_init (cpu_wide.c), first: open the CPU-wide counters of CPU
 * cpu (-1: not pinned, why says why); after the process's counters:
 * measure their read cost and whether the counter CSRs are their cheap
 * source. */
void hosted_cpu_wide_open(int cpu, const char *why);
void hosted_cpu_wide_calibrate(void);
/* hosted_cpu_init: why CPU-wide counter c does not count (NULL: it
 * does); close it, giving why as the reason; its raw value (the CSR or a
 * read, uncorrected: the unit measurement). */
const char *hosted_cpu_wide_missing(enum cpu_counter c);
void hosted_cpu_wide_close(enum cpu_counter c, const char *why);
uint64_t hosted_cpu_wide_raw(enum cpu_counter c);
/* manifest: which counters keep the PMU's when it has one per event
 * ("process", "cpuwide"). */
extern const char *hosted_counter_priority;
/* What the manifest prints of a counter: missing (an errno name, NULL
 * when it counts), scope, the CPU counted (-1: the process's), where the
 * CPU's values come from ("csr", "read-syscall"), what the CSR check
 * found, what one read adds to the counter in its units (rdinstret and
 * rdcycle leave it out of every delta) and what is left of it in a delta
 * of two values back to back; what counts (event: "perf-hw-instructions",
 * "proc-instret"), a text file's path, why the text file could not count
 * (path_missing) and, for a text file's counter, why the perf event was
 * refused (perf_missing). */
struct hosted_counter_info {
    const char *missing, *scope;
    int cpu;
    const char *source, *csr;
    uint64_t read_cost, null_delta;
    const char *event, *path, *path_missing, *perf_missing;
};
/* manifest: the process's counter c (hosted_counter_info), the CPU's. */
void hosted_counter_info(enum cpu_counter c, struct hosted_counter_info *out);
void hosted_cpu_wide_info(enum cpu_counter c, struct hosted_counter_info *out);
/* cpu_acct_read (any thread): the CPU-wide counts so far (0: refused). */
void hosted_cpu_wide_read(uint64_t *instret, uint64_t *cycles);
/* cpu_print_window (section task): the CPU-wide figures of a window of
 * bytes payload bytes, ` key=value` tokens at the end of the line. */
void hosted_cpu_wide_print(const struct cpu_totals *a, const struct cpu_totals *b, uint64_t bytes);

/* main, before any thread: what the kernel gives (kernel_caps.c):
 * hosted_no_threads, why no second thread can run (`clone-ENOSYS`: no
 * pthread_create; NULL: threads run), and hosted_no_nanosleep, why
 * clock_nanosleep cannot sleep (`clock_nanosleep-ENOSYS`; NULL: it can). */
void hosted_caps_probe(void);
extern const char *hosted_no_threads, *hosted_no_nanosleep;

/* hosted_ioctl (UART_IOC_RESET_COUNTERS, any task): StarryOS's TX
 * counters zeroed (UART_TXDBG_RESET, txdbg.c); 0, or -1 with errno
 * (ENOTTY: the kernel has none). */
int hosted_txdbg_reset(int fd);

/* main: the --sections value the runner reads as its boot argument
 * sections= (NULL: every section). */
extern const char *hosted_sections;

/* The run's options as given (NULL: not given), and the names the
 * refusals call them by: `--baud N` on the command line, `baud=` in the
 * environment of a system's /init. */
struct hosted_opts {
    const char *tty, *baud, *sections, *quick;
    const char *shift, *qemu_mode;  /* icount_shift=, qemu_mode=: /init only */
    const char *counters;           /* --counters, counters=: process or cpuwide */
    const char *stream;             /* --far-end-stream, far_end_stream= */
    const char *far_end;            /* --far-end, far_end=: external */
    const char *rx_trigger;         /* --rx-trigger, rx_trigger= */
    bool init;                      /* PID 1 or --init: init.c */
    const char *n_tty, *n_baud, *n_baud_is, *n_sections, *n_counters_is, *n_stream_is,
          *n_trigger_is, *n_far_end_is;
};

/* main: true when the run is a system's /init (PID 1, or --init): the
 * log and the payloads share the tty (witness.c, manifest.c). */
extern bool hosted_init_mode;
/* main: the boot argument qemu_mode= (an /init in QEMU: `icount` or
 * `realtime`), NULL when not given. */
extern const char *hosted_qemu_mode;
/* The line a QEMU serial port keeps (line.c): its FIFO depth and the bus
 * time of a register access, from the device tree. */
struct hosted_line {
    uint32_t fifo, bus_ns;
};
/* s00_manifest, wire_peer_start: the line behind the tty (pty, serial,
 * instant: QEMU's instant UART, device: the line QEMU's device tree names,
 * into *l when l is not NULL). */
const char *hosted_line_kind(struct hosted_line *l);
/* wire_peer_stats (far_end.c): the far end's clock now, QEMU's virtual
 * time from the machine's start (riscv64: the time CSR at the device
 * tree's timebase-frequency), 0 where it is unknown. */
uint64_t hosted_far_clock_ns(void);
/* The stream the line's far end starts by itself (--far-end-stream,
 * far_end_stream=: far_end.c); bytes 0: none. */
struct hosted_stream {
    uint64_t bytes, start_ns;
    uint32_t seed;
};
extern struct hosted_stream hosted_stream;
/* main (--far-end external, far_end=external): the line's far end is a
 * program at the tty's other end (scripts/far-end), which S32 and S33
 * ask for their stream on the tty (far_end.c). */
extern bool hosted_far_external;
/* main: BYTES@START[:SEED] into *out; 0, or -1 when text is not one. */
int hosted_stream_parse(const char *text, struct hosted_stream *out);
/* main, after hosted_tty_open and sysfs: the tty's RX FIFO trigger from
 * its driver's sysfs file, set to want first (NULL: as it is; 1, 4, 8 or
 * 14); 0, or HOSTED_EXIT_USAGE / HOSTED_EXIT_TTY with the reason in err
 * (name_is: the option's name as given). hosted_rx_trigger: what the
 * port has, 0 unknown (rx_trigger.c). */
int hosted_rx_trigger_init(const char *want, const char *name_is, char *err, size_t n);
extern unsigned hosted_rx_trigger;
/* main, as /init before the manifest: sysfs on /sys (the device tree). */
void hosted_mount_sysfs(void);
/* main, as /init: the options from the environment into o (init.c). */
void hosted_init_options(struct hosted_opts *o);
/* main, as /init, before the first line of the log: stdout goes out on
 * the tty under test, "\n" as CR LF as on a kernel's console. */
void hosted_log_on_tty(void);
/* main, kernel_exit: the log flushed; PID 1 syncs and powers the machine
 * off, any other process exits with status. */
_Noreturn void hosted_finish(int status);
/* main, after hosted_cpu_init: the instruction counter's unit (2^shift
 * counts per instruction under QEMU's -icount, measured on riscv64)
 * against the boot argument icount_shift= (NULL: none); 0, or -1 with
 * the reason in err when they disagree. */
int hosted_cpu_shift(const char *arg, char *err, size_t n);

#endif
