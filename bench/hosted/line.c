/* The line behind a QEMU serial port, as Linux shows the device tree
 * (/sys/firmware/devicetree/base): the project's QEMU puts the line its
 * 16550 keeps in the UART's node (`qemu,line-timing`, `fifo-size`,
 * `qemu,access-latency-ns`: docs/qemu-line.md), where the kernel images
 * read it too. A system's /init mounts sysfs for it first. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "hosted.h"

#define DT_BASE "/sys/firmware/devicetree/base"
#define DT_SOC  DT_BASE "/soc"
#define NS_PER_S 1000000000ULL

/* dt_cell, hosted_line: the sysfs file of node/prop into path (node
 * under /soc, or under the root when it starts with '/'). */
static void dt_path(char *path, size_t n, const char *node, const char *prop)
{
    snprintf(path, n, "%s%s%s/%s", node[0] == '/' ? DT_BASE : DT_SOC, node[0] == '/' ? "" : "/",
             node, prop);
}

/* hosted_line: one 32-bit big-endian cell of node/prop into *v; false
 * when the property is absent or of another size. */
static bool dt_cell(const char *node, const char *prop, uint32_t *v)
{
    char path[512];
    unsigned char b[4];

    dt_path(path, sizeof path, node, prop);
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(b, 1, sizeof b, f);
    int extra = fgetc(f);
    fclose(f);
    if (n != sizeof b || extra != EOF)
        return false;
    *v = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return true;
}

/* main, as /init: sysfs on /sys for the device tree, unless it is there
 * (a system's /init starts with nothing mounted); an error leaves the
 * line unknown (instant). */
void hosted_mount_sysfs(void)
{
    struct stat st;

    if (stat("/sys/firmware", &st) == 0)
        return;
    mkdir("/sys", 0555);
    if (mount("sysfs", "/sys", "sysfs", 0, NULL) != 0)
        fprintf(stderr, "uartbench-hosted: mount sysfs on /sys: %m (the line is taken "
                "for QEMU's instant UART)\n");
}

/* hosted_line_kind: the first serial@ node of /soc whose line keeps time,
 * into *l; false when there is none (QEMU's instant UART, no tree). */
static bool dt_line(struct hosted_line *l)
{
    DIR *d = opendir(DT_SOC);
    struct dirent *e;
    bool found = false;

    if (!d)
        return false;
    while (!found && (e = readdir(d))) {
        char path[512];
        struct stat st;
        dt_path(path, sizeof path, e->d_name, "qemu,line-timing");
        if (strncmp(e->d_name, "serial@", 7) != 0 || stat(path, &st) != 0)
            continue;           /* (an empty property: its presence says it) */
        *l = (struct hosted_line){ 0 };
        dt_cell(e->d_name, "fifo-size", &l->fifo);
        dt_cell(e->d_name, "qemu,access-latency-ns", &l->bus_ns);
        found = true;
    }
    closedir(d);
    return found;
}

/* bench_line_timed (main task), s00_manifest, wire_peer_start (section
 * tasks): the line behind the tty, pty, serial, instant or device; the
 * device tree is read once, and *l (when l is given) is its line for
 * `device`. */
const char *hosted_line_kind(struct hosted_line *l)
{
    static int known;           /* 0 not read yet, 1 a timed line, -1 none */
    static struct hosted_line line;

    if (hosted_tty.pty)
        return "pty";
    if (!hosted_qemu_mode)
        return "serial";
    if (!known)
        known = dt_line(&line) ? 1 : -1;
    if (known < 0)
        return "instant";
    if (l)
        *l = line;
    return "device";
}

/* wire_peer_stats (section task). */
uint64_t hosted_far_clock_ns(void)
{
#if defined(__riscv)
    static uint32_t hz;
    uint64_t t;

    if (!hz && (!hosted_qemu_mode || !dt_cell("/cpus", "timebase-frequency", &hz)))
        return 0;
    __asm__ volatile("rdtime %0" : "=r"(t));
    return t / hz * NS_PER_S + t % hz * NS_PER_S / hz;
#else
    return 0;
#endif
}
