/* S00's platform lines on Linux (bench.h): the OS, the tty and the line
 * behind it, the CPU, its counters and where the CPU share comes from,
 * with the keys the report reads from a kernel log (board, backend,
 * privilege, wire_model, qemu_mode, baud_real, fifo_depth, timebase_hz,
 * ...) given their Linux meaning. `line=pty`: a pty keeps no line time,
 * it passes bytes at once whatever the baud, so no line-rate or latency
 * figure of the run is held to the line; `line=instant`: a serial port's
 * driver on QEMU's 16550 (the boot argument qemu_mode= says the run is in
 * QEMU), which sends at once whatever the baud, as a kernel image's
 * without the wire model; `line=device`: the project's QEMU, whose 16550
 * keeps line time (its point from the device tree, line.c); `line=serial`:
 * a serial port's driver on a real line. */
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "bench.h"
#include "cpu_acct.h"
#include "hosted.h"
#include "uart_backend.h"
#include "version.h"

/* s00_manifest: `  counter_<name>=<event> scope= [path= perf=] read_cost=
 * null_delta=` (a text file's count, /proc/instret: its path, why the
 * perf event was refused, then StarryOS's `instret_read_overhead=` line),
 * or `not-available reason= [proc_instret=]` (why the text file could
 * not count either). */
static void print_counter(const char *name, enum cpu_counter c)
{
    struct hosted_counter_info k;

    hosted_counter_info(c, &k);
    if (k.missing) {
        printf("  counter_%s=not-available reason=%s", name, k.missing);
        if (k.path_missing)
            printf(" proc_instret=%s", k.path_missing);
        printf("\n");
        return;
    }
    printf("  counter_%s=%s scope=%s", name, k.event, k.scope);
    if (k.path)
        printf(" path=%s perf=%s", k.path, k.perf_missing);
    printf(" read_cost=%llu null_delta=%llu\n", (unsigned long long)k.read_cost,
           (unsigned long long)k.null_delta);
    if (k.path)
        printf("  instret_read_overhead=%llu\n", (unsigned long long)k.read_cost);
}

/* s00_manifest: `  counter_cpuwide_<name>=<event> scope= cpu= source= csr=
 * read_cost= null_delta=` or `not-available reason=`. */
static void print_cpu_wide(const char *name, enum cpu_counter c)
{
    struct hosted_counter_info k;

    hosted_cpu_wide_info(c, &k);
    if (k.missing)
        printf("  counter_cpuwide_%s=not-available reason=%s\n", name, k.missing);
    else
        printf("  counter_cpuwide_%s=%s scope=%s cpu=%d source=%s csr=%s read_cost=%llu "
               "null_delta=%llu\n", name, k.event, k.scope, k.cpu, k.source, k.csr,
               (unsigned long long)k.read_cost, (unsigned long long)k.null_delta);
}

/* s00_manifest: the CPU clock, as the kernel's manifest has it: under
 * QEMU's -icount the virtual CPU's clock runs at 1e9 >> shift Hz and the
 * cycle counter counts its cycles; without it both count host ticks;
 * elsewhere the clock is not known to user space. */
static void print_cpu_clock(void)
{
    bool icount = hosted_qemu_mode && strcmp(hosted_qemu_mode, "icount") == 0;

    if (icount && cpu_instret_exact)
        printf("  cpu_hz=%llu cpu_hz_source=icount cycles_unit=cpu-cycles",
               1000000000ULL >> cpu_clock_shift);
    else if (hosted_qemu_mode)
        printf("  cpu_hz=0 cpu_hz_source=unknown cycles_unit=host-ticks");
    else
        printf("  cpu_hz=0 cpu_hz_source=unknown cycles_unit=cpu-cycles");
    printf(" instret_exact=%d\n", cpu_instret_exact);
    if (icount && cpu_instret_exact)
        printf("  icount_shift=%u\n", cpu_clock_shift);
    else
        printf("  icount_shift=none\n");
}

/* bench.h (runner, main task): a serial line or the emulator's keeps
 * time; a pty and QEMU's instant UART do not. */
bool bench_line_timed(void)
{
    const char *k = hosted_line_kind(0);
    return strcmp(k, "serial") == 0 || strcmp(k, "device") == 0;
}

/* bench.h (S41, section task): the accounts are system calls; the clock
 * is the vDSO's. */
bool bench_clock_outside_accounts(void)
{
    return false;
}

/* s00_manifest (section task). */
void bench_manifest_platform(void)
{
    struct utsname u;
    struct uart_info info;

    if (uname(&u) != 0)
        snprintf(u.machine, sizeof u.machine, "unknown");
    uart_be_info(&info);
    printf("  version=%s\n", UARTBENCH_VERSION);
    printf("  board=hosted-%s\n", u.machine);
    printf("  backend=%s\n", uart_be_name);
    printf("  os=linux kernel_release=%s machine=%s\n", u.release, u.machine);
    printf("  privilege=user\n");
    printf("  isa=%s\n", u.machine);
    printf("  timebase_hz=1000000000 timer=%s timer_slack_ns=%d\n",
           hosted_no_nanosleep ? "ppoll" : "clock_nanosleep", prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0));
    if (hosted_no_threads)      /* a small kernel: each task runs to its end when spawned */
        printf("  tasks=inline reason=%s timer_nanosleep=%s\n", hosted_no_threads,
               hosted_no_nanosleep ? hosted_no_nanosleep : "ok");
    else
        printf("  tasks=threads timer_nanosleep=%s\n",
               hosted_no_nanosleep ? hosted_no_nanosleep : "ok");
    struct hosted_line l;
    const char *line = hosted_line_kind(&l);
    bool device = strcmp(line, "device") == 0;
    printf("  tty=%s line=%s line_timing=%s uart_ip=%s engine=%s serial_type=", hosted_tty.path,
           line, device ? "device" : strcmp(line, "serial") == 0 ? "driver" : "none", info.ip,
           info.engine);
    if (hosted_tty.serial_type >= 0)
        printf("%d\n", hosted_tty.serial_type);
    else
        printf("none\n");
    if (device)
        printf("  line_point=%u/%u line_bus_ns=%u line_source=device-tree\n",
               hosted_tty.baud, l.fifo, l.bus_ns);
    if (hosted_rx_trigger)
        printf("  wire_rx_trigger=%u rx_trigger_source=sysfs\n", hosted_rx_trigger);
    if (hosted_far_external)
        printf("  peer=external\n");
    else if (hosted_stream.bytes)
        printf("  peer=autonomous far_end_stream=%llu@%lluns:%lu\n",
               (unsigned long long)hosted_stream.bytes, (unsigned long long)hosted_stream.start_ns,
               (unsigned long)hosted_stream.seed);
    else if (device)
        printf("  peer=off\n");
    printf("  fifo_depth=%u fifo_depth_source=%s\n", info.fifo_depth, info.fifo_source);
    printf("  baud=%u baud_real=%u.000 baud_source=termios\n", hosted_tty.baud, hosted_tty.baud);
    printf("  wire_model=off\n");
    printf("  qemu_mode=%s\n", hosted_qemu_mode ? hosted_qemu_mode : "unknown");
    print_cpu_clock();
    print_counter("instructions", CPU_COUNTER_INSTRET);
    print_counter("cycles", CPU_COUNTER_CYCLES);
    printf("  counter_priority=%s\n", hosted_counter_priority);
    print_cpu_wide("instructions", CPU_COUNTER_INSTRET);
    print_cpu_wide("cycles", CPU_COUNTER_CYCLES);
    printf("  cpu_util_source=%s system_cpu_source=%s", CPU_UTIL_METHOD,
           access("/proc/stat", R_OK) == 0 ? "/proc/stat" : "none");
    if (hosted_cpu_pinned() >= 0)
        printf(" cpu_pinned=%d\n", hosted_cpu_pinned());
    else
        printf(" cpu_pinned=none reason=%s\n", hosted_pin_error());
    struct hosted_counter_info k;
    hosted_counter_info(CPU_COUNTER_INSTRET, &k);
    printf("  device=%s timer_source=CLOCK_MONOTONIC instret_source=%s%s errno=linux\n",
           hosted_tty.path, k.missing ? "none" : k.path ? k.path : "perf_event",
           hosted_init_mode ? "" : " witness_bytes=far-end");
}
