/* Kernel-wide entry points: exit, panic, the boot arguments. */
#ifndef KERNEL_H
#define KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "trap.h"

/* Exit status of a run that panicked (a section count never gets here). */
#define EXIT_PANIC 100

/* Any context: flush the UART, end the run with status code (exit.c:
 * from a task with interrupts on, the at-exit hook and a bounded drain
 * first; then power_off). */
_Noreturn void kernel_exit(int code);
/* Any context, interrupts masked on return (panic, kernel_exit): the
 * console's queue flushed polled and its last stop bit out (bounded),
 * then the status to QEMU's finisher or SBI system reset, else park
 * (power.c). Calls nothing that sleeps. */
_Noreturn void power_off(int code);
/* Boot, hart 0, first in kmain: the clock power_off bounds its wait with
 * (clock_now_ns: the kernel's time calls panic, so power_off, under it,
 * calls the clock only through this). */
void power_clock_from(uint64_t (*now)(void));

/* Any context (interrupts masked on return): print msg through the polled
 * path, then exit with EXIT_PANIC. */
_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Trap entry: report an unexpected trap with its frame and exit. */
_Noreturn void panic_trap(const struct trap_frame *f, const char *what);
/* Boot, before kmain injects the boot argument's fault (the UART driver's
 * BOOT_MODEL hook): what injects a line fault (fault=temt-stuck) where the
 * line is modelled: 0 when it did, else -1 (src/kernel/fault.c). */
void fault_line_injector(int (*inject)(const char *kind));
/* Boot, hart 0 (the scheduler's init): what names the running task in a
 * panic report (sched_current_name; until then "boot"). */
void panic_task_name_from(const char *(*name)(void));

/* The line the emulator's 16550 keeps (QEMU virt with the project's
 * patches: the device tree's /soc/serial@ and /soc/serial-far-end@); zero
 * where absent. */
struct fdt_line {
    bool timed;              /* qemu,line-timing: characters take line time */
    uint32_t clock_hz;       /* clock-frequency */
    uint32_t baud;           /* current-speed (0: not stated) */
    uint32_t fifo;           /* fifo-size */
    uint32_t bus_ns;         /* qemu,access-latency-ns: bus time per access */
    uintptr_t far_base;      /* the far end's control page (0: none) */
    uint32_t far_burst;      /* its traffic: bytes per burst (0: a stream) */
    uint64_t far_period_ns;  /* and the burst period */
};

/* Boot: remember the device tree passed by QEMU (NULL elsewhere). */
void bootargs_init(const void *fdt);
/* Boot, after bootargs_init: NULL, or why the device tree's timebase is
 * not the one the image's clock is built for. */
const char *fdt_timebase_check(void);
/* Any context, after bootargs_init: the emulator's line. */
const struct fdt_line *fdt_line_info(void);
/* Any context: cpu@0's ISA string names extension ext (QEMU boards). */
bool isa_has_ext(const char *ext);
/* Any task: the value of key=value in the boot arguments, or NULL. The
 * value is copied into buf (at most n - 1 characters). A loader's
 * arguments in the image (bootargs.c) come before the device tree's. */
const char *bootarg(const char *key, char *buf, size_t n);
/* Any task, after bootargs_init: the device tree's boot arguments, the
 * image's ("" for none). */
const char *fdt_bootargs(void);
const char *image_bootargs(void);

/* Any context, interrupts masked: queued console output out, polled. */
void console_flush_polled(void);
/* Task context: push out a partial line of stdio output. */
void console_flush(void);

/* The application: what kmain runs in its task once the kernel, the
 * driver and the console are up; its return is the run's exit status.
 * An image names exactly one with KERNEL_APP(fn) (the linker checks);
 * the kernel knows no application by name. */
typedef int (*kernel_app_fn)(void);
#define KERNEL_APP(fn)                                                   \
    static const kernel_app_fn kernel_app_##fn                           \
        __attribute__((used, section(".kernel_app"))) = fn

/* Boot: the C entry point, called by _start. */
_Noreturn void kmain(unsigned long hartid, const void *fdt);

#endif
