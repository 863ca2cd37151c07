/* Panic: a report through the console sink's polled path, usable with
 * interrupts masked and from a trap, then exit with EXIT_PANIC. Never a
 * silent hang. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "board_info.h"
#include "console.h"
#include "csr.h"
#include "kernel.h"

static const char *(*task_name)(void);   /* panic_task_name_from's */

static const char *const reg_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
    "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
    "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const exc_names[16] = {
    "instruction address misaligned", "instruction access fault",
    "illegal instruction", "breakpoint", "load address misaligned",
    "load access fault", "store address misaligned", "store access fault",
    "environment call from U", "environment call from S", "reserved",
    "environment call from M", "instruction page fault", "load page fault",
    "reserved", "store page fault",
};

/* Panic path: print a NUL-terminated string polled, \n as \r\n. */
static void panic_puts(const char *s)
{
    console_write_polled(s, strlen(s));
}

/* Panic path: printf-style formatting into a stack buffer, polled out. */
static void panic_printf(const char *fmt, ...)
{
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    panic_puts(buf);
}

/* Boot (sched_init): the running task's name from now on. */
void panic_task_name_from(const char *(*name)(void))
{
    task_name = name;
}

/* Panic path: the running task's name, as the scheduler says. */
static const char *panic_task(void)
{
    return task_name ? task_name() : "boot";
}

/* Any context: report and exit. */
void panic(const char *fmt, ...)
{
    char buf[160];
    va_list ap;

    irq_save();
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    panic_printf("\nPANIC: %s\n  task=%s\n", buf, panic_task());
    power_off(EXIT_PANIC);
}

/* Trap entry, interrupts masked: unexpected exception or interrupt. */
void panic_trap(const struct trap_frame *f, const char *what)
{
    unsigned long code = f->cause & ~CAUSE_INTERRUPT_BIT;
    const char *name = (f->cause & CAUSE_INTERRUPT_BIT) ? "interrupt"
                       : code < 16 ? exc_names[code] : "unknown";

    panic_printf("\nPANIC: %s: %s (cause=%lu)\n", what, name, code);
    if (f->cause & CAUSE_INTERRUPT_BIT)     /* its frame has no tval */
        panic_printf("  epc=0x%016lx status=0x%016lx priv=%s\n",
                     (unsigned long)f->epc, (unsigned long)f->status, PRIV_NAME);
    else
        panic_printf("  epc=0x%016lx tval=0x%016lx status=0x%016lx priv=%s\n",
                     (unsigned long)f->epc, (unsigned long)f->tval,
                     (unsigned long)f->status, PRIV_NAME);
    panic_printf("  task=%s\n", panic_task());
    for (int i = 1; i < 32; i++)
        panic_printf("  %-4s=0x%016lx%s", reg_names[i], (unsigned long)f->x[i],
                     (i % 4 == 3) ? "\n" : "");
    panic_puts("\n");
    power_off(EXIT_PANIC);
}
