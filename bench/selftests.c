/* The run's entry: the self-test the boot argument selftest=<name> names,
 * instead of the benchmark, or the benchmark. A self-test prints
 * `selftest=<name> ... status=PASS|FAIL` and the run ends with status 0
 * or 1; QEMU tests use them to check the scheduler, the timer, the CPU
 * accounting, the POSIX layer and the UART. */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "bootarg_key.h"
#include "kernel.h"
#include "selftest.h"

int selftest_loopback(void);
int selftest_rx_overrun(void);
int selftest_writers(void);

static const struct {
    const char *name;
    int (*run)(void);
} tests[] = {
    { "sleep-order", selftest_sleep_order }, { "stack-overflow", selftest_stack_overflow },
    { "posix", selftest_posix },             { "loopback", selftest_loopback },
    { "wakers", selftest_wakers },           { "busy-irq", selftest_busy_irq },
    { "acct", selftest_acct },               { "rx-overrun", selftest_rx_overrun },
    { "writers", selftest_writers },         { "smp", selftest_smp },
    { "ring", selftest_ring },               { "lead", selftest_lead },
};

#define NTESTS (sizeof tests / sizeof tests[0])

/* selftest_forms and bench_main: the index of the self-test name, or
 * NTESTS. */
static size_t find(const char *name)
{
    size_t i = 0;
    while (i < NTESTS && strcmp(name, tests[i].name) != 0)
        i++;
    return i;
}

/* bootargs_check (boot): selftest=, one of the self-tests' names. */
static const char *selftest_forms(const char *value)
{
    static char names[16 * NTESTS];
    size_t used = 0;

    if (find(value) < NTESTS)
        return NULL;
    for (size_t i = 0; i < NTESTS && used < sizeof names; i++) {
        int w = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
                         tests[i].name);
        used += w > 0 ? (size_t)w : 0;
    }
    return names;
}
BOOTARG_KEY(selftest, selftest_forms);

/* Main task (kmain, as the image's KERNEL_APP): the self-test (its name
 * checked at boot, bootargs_check), or every selected section; returns
 * the exit status. */
int bench_main(void)
{
    char name[24];

    if (!bootarg("selftest", name, sizeof name))
        return bench_run_all();
    size_t i = find(name);
    int ok = i < NTESTS && tests[i].run();
    printf("selftest=%s status=%s\n", name, ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
KERNEL_APP(bench_main);
