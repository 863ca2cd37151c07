/* The harts: the boot hart, the start of the others, per-hart data
 * (src/arch/riscv/harts.c, start.S).
 *
 * Harts are numbered by index: 0 is the boot hart (the one that runs
 * kmain and every single-hart section), 1.. the others in the order they
 * started; the platform's hart ids (mhartid, the SBI's) can differ.
 * Per-hart data are thread-local variables (HART_LOCAL): every hart's tp
 * points at its own TLS block (picolibc's errno is one of them), so a
 * hart reaches its own copy in one tp-relative instruction, and another
 * hart's copy through hart_local_of(). */
#ifndef HARTS_H
#define HARTS_H

#define HARTS_MAX 8   /* hart indices (and, in M-mode, ids) the kernel serves */

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

/* A variable with one instance per hart, reached through tp. */
#define HART_LOCAL __thread __attribute__((tls_model("local-exec")))

/* Boot, interrupts masked: record the boot hart and move the other harts
 * the firmware holds (S-mode) to the start-up wait (start.S); returns
 * how many were moved. */
unsigned harts_init(unsigned long boot_hartid);
/* Boot hart, main task, after the kernel is up (src/kernel/hart_main.c):
 * let the waiting harts run hart_main (interrupts, timer, scheduler of
 * their own) and wait until each is in its scheduler; returns the number
 * of harts online. */
unsigned harts_release(void);
/* harts_release's steps, the arch's: how long to idle before counting;
 * the harts started at boot and the harts in the start-up wait now; hand
 * every waiting hart its stack and let it go (the harts that will be
 * online, this one included). */
uint64_t harts_settle_ns(void);
unsigned harts_started(void);
unsigned harts_waiting_count(void);
unsigned harts_go_all(void);
/* Any context: the id of the hart that runs the kernel. */
unsigned long harts_boot_id(void);
/* Any task: the harts the platform started (the boot hart and every
 * waiting one). */
unsigned harts_count(void);
/* Any context: the harts running the kernel (1 until harts_release). */
unsigned harts_online(void);

extern HART_LOCAL unsigned hart_self_index;   /* this hart's index */

/* Any context: this hart's index. */
static inline unsigned hart_self(void)
{
    return hart_self_index;
}

extern unsigned long hart_ids[HARTS_MAX];     /* platform ids by index (harts_init) */

/* Any context: the platform's id of hart index h (PLIC context, SBI). */
static inline unsigned long hart_platform_id(unsigned h)
{
    return hart_ids[h];
}

#if defined(__riscv) && !defined(HOST_TEST)
extern volatile uint8_t harts_many_flag;   /* harts_many's answer */
/* Any context: tasks run on more than one hart now (task_spawn_on placed
 * one on another hart; harts_share), so code the harts share, the
 * drivers included, takes its locks (one load and a branch: a run
 * without such tasks, one hart or several, takes no lock and costs what
 * a one-hart kernel does). */
static inline int harts_many(void)
{
    return harts_many_flag;
}
extern uintptr_t harts_tp[HARTS_MAX];   /* each online hart's TLS block */

/* Any context: hart h's instance of the HART_LOCAL variable whose own
 * instance is at mine. */
static inline void *hart_local_of(unsigned h, void *mine)
{
    uintptr_t tp;
    __asm__("mv %0, tp" : "=r"(tp));
    return (void *)((uintptr_t)mine - tp + harts_tp[h]);
}
#elif defined(HOST_SMP)
/* Host tests with a thread per hart (HOST_SMP: tests/host/
 * fake_kernel_threads.c defines host_harts_many, 0 until the test has
 * its harts up). */
extern int host_harts_many;
static inline int harts_many(void)
{
    return __atomic_load_n(&host_harts_many, __ATOMIC_RELAXED);
}
#else
/* Host builds: one hart. */
static inline int harts_many(void) { return 0; }
/* Any context (time.c), host builds: one hart, whose instance is mine. */
static inline void *hart_local_of(unsigned h, void *mine)
{
    (void)h;
    return mine;
}
#endif

/* On: any task (task_spawn_on, before it places a task on another
 * hart): harts_many true from here, on every hart. Off: hart 0's task,
 * once the tasks it placed elsewhere have all ended and each of those
 * harts has cancelled the timers it armed for the drivers
 * (wire_model_hart_quiesce), so only hart 0 touches them again. */
void harts_share(bool on);

/* Secondary hart start-up (src/kernel/hart_main.c), interrupts masked,
 * on its own stack and TLS block: bring up this hart's kernel, then idle. */
_Noreturn void hart_main(unsigned index);
/* hart_main, interrupts masked: hart index's boot stack's bottom. */
void *harts_stack_bottom(unsigned index);
/* hart_main, interrupts masked, its kernel up: count it online. */
void harts_arrived(void);

#endif /* !__ASSEMBLER__ */
#endif
