/* Benchmark sections: each prints `=== [Sxx] Title ===` and key=value
 * lines with the StarryOS benchmark's field names (docs/log-format.md),
 * and returns its status. Sections run one at a time, each in its own
 * task, under a deadline derived from its line time. */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* INVALID: the section's result depends on what the UART receives, and
 * foreign bytes arrived in its window (a noisy line, not a fault). */
enum bench_status { BENCH_PASS, BENCH_FAIL, BENCH_TIMEOUT, BENCH_SKIPPED, BENCH_INVALID };

struct bench_section {
    const char *id;                 /* "S10" */
    const char *title;
    enum bench_status (*run)(void);
    uint32_t wire_bytes;            /* bytes sent at full scale (deadline) */
    uint32_t extra_ms;              /* time that is not line time (deadline) */
    bool rx;                        /* result depends on received bytes */
};

/* What every section needs to know about the run (filled by the runner). */
struct bench_env {
    int fd;                   /* /dev/console, O_RDWR, blocking */
    uint64_t baud_milli;      /* line baud in milli-baud (model or real) */
    uint64_t char_ns;         /* one 10-bit character on that line */
    unsigned iters;           /* per-size iterations: 100 (quick: 10) */
    unsigned rounds;          /* S41/S42 rounds: 5 (quick: 2) */
    unsigned groups;          /* S43 groups per phase: 5 (quick: 1) */
    unsigned samples;         /* S43 samples per group: 50 (quick: 10) */
    bool quick;
    bool async;               /* backend has TX counters and a queue */
    bool line_timed;          /* the line keeps time (bench_line_timed) */
    uint32_t selected;        /* bit i: section i of the table runs */
    char reason[32];          /* the running section's FAIL reason ("" none) */
};

extern struct bench_env bench;

/* Boot task (kmain, through KERNEL_APP): the self-test selftest= names,
 * or the benchmark; returns the exit status (bench/selftests.c). */
int bench_main(void);
/* Boot task: run every section in order, print the summary line, return
 * the number of failed sections (the exit status). */
int bench_run_all(void);

/* The far end of RX streams (bench/far_peer.c), over the platform's
 * (wire_model.h). Boot task (bench_env_init): the boot argument
 * far_end=external, or the run stops (EXIT_BOOTARG). */
void bench_peer_init(void);
/* Any task: far_end=external was given. */
bool bench_peer_external(void);
/* Section task: a stream of bytes pattern bytes (seed) from start_ns on
 * (the external far end: from a little after now); 0 or the platform's
 * -errno (wire_peer_start). A blind stream is read with a timeout until
 * bench_peer_stop. */
struct wire_rx_stats;
int bench_peer_start(uint64_t bytes, uint32_t seed, uint64_t start_ns);
void bench_peer_stop(void);
void bench_peer_stats(struct wire_rx_stats *out);

/* Any task: the section table, in run order, and its length. */
const struct bench_section *bench_sections(unsigned *n);
/* Any task: the index in bench_sections' table of the section whose id
 * is the len characters at id; the table's length when none. */
unsigned bench_section_find(const char *id, size_t len);
/* The runner (main task) and the boot argument's check: write_fault=
 * as <Sxx>:<n>[:<errno>]: the section's index, n and errno (EIO without);
 * false when not of that form. */
bool bench_write_fault_parse(const char *value, unsigned *section, int *after, int *err);

/* Section task: line time of n bytes in ns. */
uint64_t bench_line_ns(uint64_t bytes);
/* Section task: the running section fails for reason (a token such as
 * `write-errno-5`, printf format; the first reason given wins). Returns
 * BENCH_FAIL. */
enum bench_status bench_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Section task: the running section is SKIPPED for reason (a token such
 * as `no-wire-model`, printed on its status line; the first reason given,
 * by bench_fail too, wins). Returns BENCH_SKIPPED. */
enum bench_status bench_skip(const char *reason);

/* What a section's writes did: bytes accepted, retried short writes (legal
 * POSIX behaviour, counted, not an error), the first error: 0, the errno
 * of a write that failed, or BENCH_NO_PROGRESS (a write that took nothing). */
#define BENCH_NO_PROGRESS (-1)
struct bench_tx { uint64_t written; uint32_t short_writes; int err; };
/* Section task: write all n bytes, retrying short writes; stops at the
 * first error, which it records in t (if none was recorded before).
 * Returns 0 when all n went, else -1. */
int bench_write_full(const void *buf, size_t n, struct bench_tx *t);
/* Section task: tcdrain, counting calls and errors. */
struct bench_drain { uint32_t calls, errors; int last_errno; };
int bench_drain(struct bench_drain *d);
/* Section task: PASS, or FAIL with the reason of the first write error
 * (write-errno-N, write-no-progress) or drain error (drain-errno-N). */
enum bench_status bench_tx_status(const struct bench_tx *t, const struct bench_drain *d);
/* The platform seam: what the kernel build (bench/kernel_seam.c) and the
 * hosted Linux build (bench/hosted/) each provide to the sections. */
/* Section task: payload witness: begin marker line, drained before the
 * caller's timing starts; end marker with the byte count and CRC-32 of
 * what was written in between. The markers frame the payload on the wire
 * (kernel: the log is the wire; hosted: on the tty, and in the log
 * without the payload). */
void bench_payload_begin(const char *tag);
void bench_payload_end(const char *tag, uint64_t bytes, uint32_t crc);
/* S00 (section task): the manifest lines that describe the platform (the
 * board or the OS, the driver, the line, the CPU clock and counters);
 * s00_manifest prints the suite's own after them. */
void bench_manifest_platform(void);
/* Main task, once before the sections: whether the line keeps time (a
 * modelled, emulated or real serial line), so that bytes take their line
 * time to leave; QEMU's instant UART and a pty do not. */
bool bench_line_timed(void);
/* The platform (S41's snapshots): whether a window's clock reads go
 * outside its CPU accounts' reads, which then sit next to the counters:
 * where the accounts cost little and a clock read may cost much (the
 * kernel: rdtime traps to the firmware on sifive_u); else the clock next
 * to the accounts (hosted: the accounts are perf reads, system calls,
 * and the CPU-wide counters in them must span the clock's window). */
bool bench_clock_outside_accounts(void);
/* Section task (S42, S43): why a task the section spawns cannot run
 * beside it (a kernel without threads under the hosted build: the task
 * runs to its end when spawned), or NULL (the kernel: it always can). */
const char *bench_threads_missing(void);
/* S43 (section task): the timer settings its sampler runs under, as
 * ` key=value` tokens at the end of a phase's line (the kernel: none, its
 * timer has no slack; Linux: ` timer_slack_ns=N`, the slack the sampler's
 * thread inherits). */
void bench_s43_print_timer(void);
/* S43 (section task), after its idle and loaded phases: sets up the k-th
 * further idle phase (k = 0, 1, ...) and returns its name, or NULL when
 * there is none more, what it changed restored (the kernel: none; Linux:
 * "idle-slack1", the idle groups again after PR_SET_TIMERSLACK 1). */
const char *bench_s43_extra_idle(unsigned k);
/* Section task: a pattern payload of n bytes (n <= BENCH_PAYLOAD_MAX). */
#define BENCH_PAYLOAD_MAX 4096
const uint8_t *bench_payload(size_t n, uint32_t seed);

/* Section task: raw samples lines (`samples tag= unit= first= values=`). */
void bench_print_samples(const char *tag, const char *unit, const uint64_t *v, size_t n);
/* Section task: raw samples plus a nearest-rank summary; sorts v. */
void bench_print_dist(const char *tag, const char *unit, uint64_t *v, size_t n);
/* Section task: the original's latency line for ns samples of one size
 * (`diag=<tag> n= avg_ms= p50_ms= ... max_p50_ratio=` plus exact ns and
 * character-time fields), after the raw samples. Sorts v. */
void bench_print_latency(const char *tag, uint64_t *v, size_t n, uint64_t line_ns);
/* Section task: the TX counters as ` name=value` tokens and a newline. */
struct uart_counters;
void bench_print_counter_fields(const struct uart_counters *c);
/* Section task (S11, S40, S41): the platform's own TX counters beside the
 * design's, where it has some: on Linux, StarryOS's driver's answer to
 * UART_TXDBG_SNAPSHOT (bench/hosted/txdbg.c), since the last
 * UART_IOC_RESET_COUNTERS, into out's first sixteen fields (user_calls ..
 * transmitter_empty: StarryOS's counters in its order), the others 0; 0,
 * or -1 with errno ENOTTY where there are none (the kernel: its counters
 * are the design's, UART_IOC_GET_COUNTERS). */
int bench_txdbg_snapshot(struct uart_counters *out);
/* Section task: those sixteen as ` name=value` tokens under StarryOS's
 * names, and a newline. */
void bench_print_txdbg_fields(const struct uart_counters *c);
/* Foreign RX traffic in a section's window (bench/rx_window.c): bytes
 * the UART received that the section did not send itself, and, on the
 * async backend, the RX interrupts and the instructions of the RX CPU
 * account (the console has neither: irqs_known is false). */
struct bench_foreign { uint64_t bytes, irqs, insns; bool irqs_known; };
/* Runner: open the window before a section, close it after it (the
 * console's RX is drained and counted here). */
void bench_rx_window_begin(void);
void bench_rx_window_end(struct bench_foreign *f);
/* Section task (RX sections): discard what was received before; returns
 * the bytes discarded (the console counts them as foreign). */
uint64_t bench_rx_flush(void);
/* Section task: n bytes read that were not the section's own. */
void bench_rx_found(uint64_t n);
/* Section task: a phase of the section's own RX traffic (loopback) of
 * own_bytes bytes; its interrupts and instructions are not foreign. */
void bench_rx_own_begin(void);
void bench_rx_own_end(uint64_t own_bytes);
/* Section task: `  diag=<tag> rx_flushed= foreign_rx_bytes= figures=
 * own_rx_bytes= own_rx_irqs= own_rx_instructions=` for the window so far
 * (figures=invalid when foreign bytes came; own_*: the loopback phases). */
void bench_rx_mark(const char *tag);

/* Section task: `x.yyy` of a milli-unit value into buf. */
const char *bench_milli(char *buf, size_t n, uint64_t milli);

enum bench_status s00_manifest(void);
enum bench_status s05_internals(void);
enum bench_status s06_kernel(void);
enum bench_status s10_throughput(void);
enum bench_status s11_enqueue(void);
enum bench_status s12_batch(void);
enum bench_status s13_writev(void);
enum bench_status s14_break_even(void);
enum bench_status s20_latency(void);
enum bench_status s21_fifo_matrix(void);
enum bench_status s30_nonblock(void);
enum bench_status s31_rx_fixed(void);
enum bench_status s32_rx_sustained(void);
enum bench_status s33_full_duplex(void);
enum bench_status s40_counters(void);
enum bench_status s41_cpu_work(void);
enum bench_status s42_overlap(void);
enum bench_status s43_timer(void);
enum bench_status s50_smp(void);

#endif
