/* uartbench-hosted: the benchmark's sections (bench/) as a Linux
 * program, against the platform shim of this directory. The command
 * line (or, as a system's /init, the environment: init.c) gives the tty,
 * its baud, the sections and the scale; the tty is set up and checked,
 * the process pinned to one CPU and its counters opened, then the runner
 * runs the sections as on the kernel and the exit status is the number
 * of failed sections. The log goes to stdout and the payloads to the
 * tty; as /init both go to the tty, in one stream, as a kernel's log. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "hosted.h"

#define SECTIONS_MAX 140        /* the runner's sections= buffer, less its NUL */
#define SHIFT_MAX    10         /* QEMU's -icount shift=0..10 */

static const char usage[] =
    "usage: uartbench-hosted --tty PATH --baud N [--sections S10,S20,...] [--quick]\n"
    "                        [--counters process|cpuwide] [--far-end-stream BYTES@START[:SEED]]\n"
    "                        [--rx-trigger 1|4|8|14] [--far-end external]\n"
    "       uartbench-hosted --init   (options from the environment, as a system's /init)\n"
    "\n"
    "Runs the UART benchmark's sections on a Linux tty: the payloads go out on\n"
    "PATH (raw 8N1 at N baud, which the tty must take), the log goes to stdout\n"
    "(docs/log-format.md; bench/report/report reads it).\n"
    "\n"
    "  --tty PATH       the tty under test (a serial port, e.g. /dev/ttyS0, or a pty)\n"
    "  --baud N         its speed, one of termios' (e.g. 9600, 115200, 921600)\n"
    "  --sections LIST  only these sections (and the manifest S00), e.g. S10,S20\n"
    "  --quick          10 iterations instead of 100, same code paths\n"
    "  --counters WHICH process (default) or cpuwide: which perf counters keep the\n"
    "                   PMU's counter where it has one per event for both kinds\n"
    "  --far-end-stream BYTES@START[:SEED]\n"
    "                   the line's far end sends this stream by itself (QEMU's, given\n"
    "                   scripts/qemu-run's option of the same name): S32 (65536 bytes,\n"
    "                   quick 6553, seed 32) or S33 (4096, seed 33) reads it when it is\n"
    "                   theirs, counting its loss from the pattern\n"
    "  --far-end external\n"
    "                   the line's far end is a program at the tty's other end\n"
    "                   (scripts/far-end): S32 and S33 ask it for their stream on\n"
    "                   the tty and read it, counting its loss from the pattern\n"
    "  --rx-trigger N   set the tty's RX FIFO trigger (its driver's sysfs\n"
    "                   rx_trig_bytes: 1, 4, 8 or 14 bytes) before the run\n"
    "  --init           as PID 1 does: the options from the environment (tty=PATH\n"
    "                   baud=N [sections=LIST] [quick=1] [qemu_mode=icount|realtime]\n"
    "                   [icount_shift=N] [counters=process|cpuwide]\n"
    "                   [far_end_stream=BYTES@START[:SEED]] [far_end=external]\n"
    "                   [rx_trigger=N]: the kernel passes its unknown boot arguments\n"
    "                   so), the log on the tty with the payloads, as a kernel's log;\n"
    "                   PID 1 then powers the machine off\n"
    "  --help           this text\n"
    "\n"
    "Exit status: the number of sections that failed (0: none); 100 on an internal\n"
    "error; 101 for a bad command line (an unknown option or section, a baud the\n"
    "tty does not take); 102 for a tty that cannot be used (it cannot be opened,\n"
    "e.g. no permission, or is not a tty).\n";

/* main: a refusal before any section, on stderr; the run ends. */
static _Noreturn void fail(const struct hosted_opts *o, int status, const char *what)
{
    fprintf(stderr, "uartbench-hosted: %s\n", what);
    if (status == HOSTED_EXIT_USAGE && !o->init)
        fprintf(stderr, "(uartbench-hosted --help for the usage)\n");
    hosted_finish(status);
}

/* main: every name of list is a section; else the message, in err. */
static int check_sections(const struct hosted_opts *o, const char *list, char *err, size_t n)
{
    unsigned count;
    const struct bench_section *s = bench_sections(&count);
    char valid[8 * 32] = "";

    for (unsigned k = 0; k < count; k++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", k ? "," : "",
                 s[k].id);
    if (strlen(list) > SECTIONS_MAX) {
        snprintf(err, n, "%s: longer than %d characters", o->n_sections, SECTIONS_MAX);
        return -1;
    }
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        unsigned k = 0;
        while (k < count && (strlen(s[k].id) != len || strncmp(p, s[k].id, len) != 0))
            k++;
        if (k == count) {
            snprintf(err, n, "%s: '%.*s' is not a section; valid values: %s", o->n_sections,
                     (int)len, p, valid);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* main: the command line into o (--init: the environment's); 0, or
 * HOSTED_EXIT_USAGE with the message in err (or 1 after --help). */
static int parse_args(int argc, char **argv, struct hosted_opts *o, char *err, size_t n)
{
    static const struct option opts[] = {
        { "tty", required_argument, 0, 't' }, { "baud", required_argument, 0, 'b' },
        { "sections", required_argument, 0, 's' }, { "quick", no_argument, 0, 'q' },
        { "counters", required_argument, 0, 'c' }, { "far-end-stream", required_argument, 0, 'f' },
        { "rx-trigger", required_argument, 0, 'r' }, { "far-end", required_argument, 0, 'e' },
        { "init", no_argument, 0, 'i' }, { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    int c;
    bool others = false;

    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, 0)) != -1) {
        others |= c != 'i';
        switch (c) {
        case 't': o->tty = optarg; break;
        case 'b': o->baud = optarg; break;
        case 's': o->sections = optarg; break;
        case 'q': o->quick = "1"; break;
        case 'c': o->counters = optarg; break;
        case 'f': o->stream = optarg; break;
        case 'r': o->rx_trigger = optarg; break;
        case 'e': o->far_end = optarg; break;
        case 'i': o->init = true; break;
        case 'h': fputs(usage, stdout); return 1;
        default:
            snprintf(err, n, "%s: unknown option or missing value", argv[optind - 1]);
            return HOSTED_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        snprintf(err, n, "%s: not an option", argv[optind]);
        return HOSTED_EXIT_USAGE;
    }
    if (o->init && others) {
        snprintf(err, n, "--init takes the options from the environment, not the command line");
        return HOSTED_EXIT_USAGE;
    }
    return 0;
}

/* main: the options checked (the tty's own checks come after); 0, or
 * HOSTED_EXIT_USAGE with the message in err. */
static int check_opts(const struct hosted_opts *o, unsigned *baud, char *err, size_t n)
{
    char *end;

    if (!o->tty) {
        snprintf(err, n, "%s is missing: which tty to measure", o->n_tty);
        return HOSTED_EXIT_USAGE;
    }
    if (!o->baud) {
        snprintf(err, n, "%s is missing: the tty's speed", o->n_baud);
        return HOSTED_EXIT_USAGE;
    }
    unsigned long b = strtoul(o->baud, &end, 10);
    if (*end || !*o->baud || o->baud[0] == '-' || b == 0 || b > 100000000UL) {
        snprintf(err, n, "%s%s: not a baud (a whole number, e.g. 115200)", o->n_baud_is, o->baud);
        return HOSTED_EXIT_USAGE;
    }
    *baud = (unsigned)b;
    if (o->quick && strcmp(o->quick, "0") != 0 && strcmp(o->quick, "1") != 0) {
        snprintf(err, n, "quick=%s: valid values: 0, 1", o->quick);
        return HOSTED_EXIT_USAGE;
    }
    if (o->shift && (strspn(o->shift, "0123456789") != strlen(o->shift) || !*o->shift ||
                     strtoul(o->shift, 0, 10) > SHIFT_MAX)) {
        snprintf(err, n, "icount_shift=%s: valid values: 0..%d", o->shift, SHIFT_MAX);
        return HOSTED_EXIT_USAGE;
    }
    if (o->qemu_mode && strcmp(o->qemu_mode, "icount") != 0 &&
        strcmp(o->qemu_mode, "realtime") != 0) {
        snprintf(err, n, "qemu_mode=%s: valid values: icount, realtime", o->qemu_mode);
        return HOSTED_EXIT_USAGE;
    }
    if (o->counters && strcmp(o->counters, "process") != 0 &&
        strcmp(o->counters, "cpuwide") != 0) {
        snprintf(err, n, "%s%s: valid values: process, cpuwide", o->n_counters_is, o->counters);
        return HOSTED_EXIT_USAGE;
    }
    if (o->stream && hosted_stream_parse(o->stream, &hosted_stream)) {
        snprintf(err, n, "%s%s: not BYTES@START[:SEED] (BYTES 1..16777216, START a time with "
                 "unit ns, us, ms or s, SEED 0..4294967295; e.g. 65536@1s:32)", o->n_stream_is,
                 o->stream);
        return HOSTED_EXIT_USAGE;
    }
    if (o->far_end && strcmp(o->far_end, "external") != 0) {
        snprintf(err, n, "%s%s: valid value: external", o->n_far_end_is, o->far_end);
        return HOSTED_EXIT_USAGE;
    }
    if (o->far_end && o->stream) {
        snprintf(err, n, "%sexternal and %s%s: one far end or the other", o->n_far_end_is,
                 o->n_stream_is, o->stream);
        return HOSTED_EXIT_USAGE;
    }
    hosted_far_external = o->far_end != NULL;
    if (o->sections && check_sections(o, o->sections, err, n))
        return HOSTED_EXIT_USAGE;
    return 0;
}

/* The process's entry. */
int main(int argc, char **argv)
{
    struct hosted_opts o = { .init = getpid() == 1, .n_tty = "--tty PATH", .n_baud = "--baud N",
                             .n_baud_is = "--baud ", .n_sections = "--sections",
                             .n_counters_is = "--counters ",
                             .n_stream_is = "--far-end-stream ",
                             .n_trigger_is = "--rx-trigger ",
                             .n_far_end_is = "--far-end " };
    char err[512];
    unsigned baud;

    int rc = o.init ? 0 : parse_args(argc, argv, &o, err, sizeof err);
    if (rc == 1)
        return 0;
    hosted_init_mode = o.init;
    if (!rc && o.init)
        hosted_init_options(&o);
    if (!rc)
        rc = check_opts(&o, &baud, err, sizeof err);
    if (rc)
        fail(&o, rc, err);
    hosted_sections = o.sections;
    hosted_qemu_mode = o.qemu_mode;
    bench.quick = o.quick && strcmp(o.quick, "1") == 0;
    rc = hosted_tty_open(o.tty, baud, err, sizeof err);
    if (rc)
        fail(&o, rc, err);
    hosted_caps_probe();
    hosted_counter_priority = o.counters ? o.counters : "process";
    hosted_cpu_init(strcmp(hosted_counter_priority, "cpuwide") == 0);
    if (hosted_cpu_shift(o.shift, err, sizeof err))
        fail(&o, HOSTED_EXIT_USAGE, err);
    if (o.init)
        hosted_mount_sysfs();
    rc = hosted_rx_trigger_init(o.rx_trigger, o.n_trigger_is, err, sizeof err);
    if (rc)
        fail(&o, rc, err);
    if (o.init)
        hosted_log_on_tty();
    setvbuf(stdout, 0, _IOLBF, 0);
    rc = bench_run_all();
    hosted_finish(rc);
}
