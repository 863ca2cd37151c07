/* uartbench-hosted: the benchmark's sections (bench/) as a Linux
 * program, against the platform shim of this directory. The command
 * line gives the tty, its baud, the sections and the scale; the tty is
 * set up and checked, the process pinned to one CPU and its counters
 * opened, then the runner runs the sections as on the kernel and the
 * exit status is the number of failed sections. The log goes to stdout,
 * the payloads to the tty. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "hosted.h"

#define SECTIONS_MAX 140        /* the runner's sections= buffer, less its NUL */

static const char usage[] =
    "usage: uartbench-hosted --tty PATH --baud N [--sections S10,S20,...] [--quick]\n"
    "\n"
    "Runs the UART benchmark's sections on a Linux tty: the payloads go out on\n"
    "PATH (raw 8N1 at N baud, which the tty must take), the log goes to stdout\n"
    "(docs/log-format.md; bench/report/report reads it).\n"
    "\n"
    "  --tty PATH       the tty under test (a serial port, e.g. /dev/ttyS0, or a pty)\n"
    "  --baud N         its speed, one of termios' (e.g. 9600, 115200, 921600)\n"
    "  --sections LIST  only these sections (and the manifest S00), e.g. S10,S20\n"
    "  --quick          10 iterations instead of 100, same code paths\n"
    "  --help           this text\n"
    "\n"
    "Exit status: the number of sections that failed (0: none); 100 on an internal\n"
    "error; 101 for a bad command line (an unknown option or section, a baud the\n"
    "tty does not take); 102 for a tty that cannot be used (it cannot be opened,\n"
    "e.g. no permission, or is not a tty).\n";

/* main: a refusal before any section, on stderr. */
static int fail(int status, const char *what)
{
    fprintf(stderr, "uartbench-hosted: %s\n", what);
    if (status == HOSTED_EXIT_USAGE)
        fprintf(stderr, "(uartbench-hosted --help for the usage)\n");
    return status;
}

/* main: every name of list is a section; else the message, in err. */
static int check_sections(const char *list, char *err, size_t n)
{
    unsigned count;
    const struct bench_section *s = bench_sections(&count);
    char valid[8 * 32] = "";

    for (unsigned k = 0; k < count; k++)
        snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s", k ? "," : "",
                 s[k].id);
    if (strlen(list) > SECTIONS_MAX) {
        snprintf(err, n, "--sections: longer than %d characters", SECTIONS_MAX);
        return -1;
    }
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        unsigned k = 0;
        while (k < count && (strlen(s[k].id) != len || strncmp(p, s[k].id, len) != 0))
            k++;
        if (k == count) {
            snprintf(err, n, "--sections: '%.*s' is not a section; valid values: %s", (int)len,
                     p, valid);
            return -1;
        }
        p += len + (p[len] == ',');
    }
    return 0;
}

/* The process's entry. */
int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "tty", required_argument, 0, 't' }, { "baud", required_argument, 0, 'b' },
        { "sections", required_argument, 0, 's' }, { "quick", no_argument, 0, 'q' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    const char *tty = 0, *baud_arg = 0;
    char err[512], *end;
    int c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, 0)) != -1) {
        switch (c) {
        case 't': tty = optarg; break;
        case 'b': baud_arg = optarg; break;
        case 's': hosted_sections = optarg; break;
        case 'q': bench.quick = true; break;
        case 'h': fputs(usage, stdout); return 0;
        default:
            snprintf(err, sizeof err, "%s: unknown option or missing value",
                     argv[optind - 1]);
            return fail(HOSTED_EXIT_USAGE, err);
        }
    }
    if (optind < argc) {
        snprintf(err, sizeof err, "%s: not an option", argv[optind]);
        return fail(HOSTED_EXIT_USAGE, err);
    }
    if (!tty)
        return fail(HOSTED_EXIT_USAGE, "--tty PATH is missing: which tty to measure");
    if (!baud_arg)
        return fail(HOSTED_EXIT_USAGE, "--baud N is missing: the tty's speed");
    unsigned long baud = strtoul(baud_arg, &end, 10);
    if (*end || !*baud_arg || baud_arg[0] == '-' || baud == 0 || baud > 100000000UL) {
        snprintf(err, sizeof err, "--baud %s: not a baud (a whole number, e.g. 115200)",
                 baud_arg);
        return fail(HOSTED_EXIT_USAGE, err);
    }
    if (hosted_sections && check_sections(hosted_sections, err, sizeof err))
        return fail(HOSTED_EXIT_USAGE, err);
    int rc = hosted_tty_open(tty, (unsigned)baud, err, sizeof err);
    if (rc)
        return fail(rc, err);
    hosted_cpu_init();
    setvbuf(stdout, 0, _IOLBF, 0);
    rc = bench_run_all();
    fflush(stdout);
    return rc;
}
