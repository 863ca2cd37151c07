/* sys_deny: run a program as on a small kernel that lacks some system
 * calls: a seccomp filter (classic BPF, installed after
 * PR_SET_NO_NEW_PRIVS) makes each named one fail with ENOSYS, then the
 * program is executed with the filter in force (it is inherited by every
 * thread and child).
 *
 *   sys_deny perf_event_open,clone,clone3,futex -- PROGRAM [ARGS...]
 *
 * Used by tests/hosted/check_small_kernel.py. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH_NR AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_NR AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH_NR AUDIT_ARCH_RISCV64
#else
#error "sys_deny: no audit arch for this machine"
#endif

#define MAX_DENIED 16

/* The system calls a small kernel may lack, by name. */
static const struct { const char *name; long nr; } calls[] = {
    { "perf_event_open", SYS_perf_event_open }, { "clone", SYS_clone },
    { "clone3", SYS_clone3 }, { "futex", SYS_futex },
    { "clock_nanosleep", SYS_clock_nanosleep }, { "nanosleep", SYS_nanosleep },
};
#define NCALLS (sizeof calls / sizeof calls[0])

/* main: the number of system call name, -1 when not in the table. */
static long call_nr(const char *name, size_t len)
{
    for (size_t i = 0; i < NCALLS; i++)
        if (strlen(calls[i].name) == len && strncmp(calls[i].name, name, len) == 0)
            return calls[i].nr;
    return -1;
}

/* main: a usage or name error on stderr; exit status 2. */
static int usage(const char *why)
{
    fprintf(stderr, "sys_deny: %s\nusage: sys_deny NAME[,NAME...] -- PROGRAM [ARGS...]\n"
            "names:", why);
    for (size_t i = 0; i < NCALLS; i++)
        fprintf(stderr, " %s", calls[i].name);
    fprintf(stderr, "\n");
    return 2;
}

/* The process's entry: parse the list, install the filter, exec. */
int main(int argc, char **argv)
{
    long nr[MAX_DENIED];
    unsigned n = 0;
    char why[128];

    if (argc < 4 || strcmp(argv[2], "--") != 0)
        return usage("missing arguments");
    for (const char *p = argv[1]; *p;) {
        size_t len = strcspn(p, ",");
        long k = call_nr(p, len);
        if (k < 0 || n == MAX_DENIED) {
            snprintf(why, sizeof why, "'%.*s': not a system call it can deny", (int)len, p);
            return usage(why);
        }
        nr[n++] = k;
        p += len + (p[len] == ',');
    }
    /* arch check, load nr, one compare per denied call, allow */
    struct sock_filter f[4 + 2 * MAX_DENIED + 1];
    unsigned i = 0;
    f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                          offsetof(struct seccomp_data, arch));
    f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH_NR, 1, 0);
    f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
                                          offsetof(struct seccomp_data, nr));
    for (unsigned k = 0; k < n; k++) {
        f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr[k], 0, 1);
        f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
    }
    f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog prog = { .len = (unsigned short)i, .filter = f };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
        perror("sys_deny: seccomp");
        return 2;
    }
    execv(argv[3], argv + 3);
    fprintf(stderr, "sys_deny: %s: %s\n", argv[3], strerror(errno));
    return 127;
}
