/* S06: kernel primitives the UART backends stand on: context switch,
 * wake-to-run, timer overshoot, ring push+pop against memcpy. instret
 * figures are instructions, the same at any QEMU icount shift; cycles
 * are rdcycle counts (the manifest's cycles_unit). */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "clock.h"
#include "cpu_acct.h"
#include "csr.h"
#include "kernel.h"
#include "posix_io.h"
#include "ring.h"
#include "scheduler.h"
#include "waitq.h"

#define S06_YIELDS        1000
#define S06_WAKES         1000
#define S06_SLEEPS        1000
#define S06_SLEEP_STEP_NS 100000ULL      /* one deadline every 100 us */
#define S06_RING_BYTES    (1U << 20)     /* moved per chunk size */
#define S06_RING_CAP      (64U * 1024U)
#define S06_STACK_WORDS   1024

static struct task peer;
static uint64_t peer_stack[S06_STACK_WORDS];
static uint64_t samples[S06_SLEEPS];
static struct waker main_waker;
static volatile uint64_t wake_t0;
static uint8_t ring_store[S06_RING_CAP], bounce[S06_RING_CAP];
static uint8_t chunk_src[16384], chunk_dst[16384];

/* Peer task: yield back and forth with the section task. */
static void yielder(void *arg)
{
    (void)arg;
    for (int i = 0; i < S06_YIELDS; i++)
        sched_yield();
}

/* Section task, before each measurement: the log so far is on the wire,
 * so that no TX interrupt lands in the measured code. */
static void quiet_line(void)
{
    console_flush();
    tcdrain(bench.fd);
}

/* Section task: instructions and cycles per task switch through yield,
 * from the task accounts (an interrupt in the loop is not the switch's). */
static void s06_switch(void)
{
    struct cpu_totals a, b;

    quiet_line();
    task_spawn(&peer, "s06-yield", yielder, 0, peer_stack, S06_STACK_WORDS);
    uint64_t t0 = clock_now_ns();
    cpu_acct_read(&a);
    for (int i = 0; i < S06_YIELDS; i++)
        sched_yield();              /* to the peer, which yields back */
    cpu_acct_read(&b);
    uint64_t t1 = clock_now_ns(), sw = 2ULL * S06_YIELDS;
    while (peer.state != TASK_DONE)
        sched_yield();
    printf("  diag=s06-ctx-switch switches=%llu instret_per_switch=%llu cycles_per_switch=%llu ns_per_switch=%llu\n",
           (unsigned long long)sw, (unsigned long long)((b.tasks.instret - a.tasks.instret) / sw),
           (unsigned long long)((b.tasks.cycles - a.tasks.cycles) / sw),
           (unsigned long long)((t1 - t0) / sw));
}

/* Peer task: record instructions from the wake call to running here. */
static void wake_target(void *arg)
{
    (void)arg;
    for (int i = 0; i < S06_WAKES; i++) {
        sched_block();
        samples[i] = (rdinstret() - wake_t0);
        waker_wake(&main_waker);
    }
}

/* Section task: waker_wake() + block of the waker -> woken task runs. */
static void s06_wake(void)
{
    struct waker w = { &peer };
    main_waker = waker_current();
    quiet_line();
    task_spawn(&peer, "s06-wake", wake_target, 0, peer_stack, S06_STACK_WORDS);
    sched_yield();                      /* let the peer block first */
    for (int i = 0; i < S06_WAKES; i++) {
        wake_t0 = rdinstret();
        waker_wake(&w);
        sched_block();
    }
    bench_print_dist("s06-wake-to-run", "instret", samples, S06_WAKES);
}

/* Section task: absolute sleeps every 100 us; overshoot = resumed - deadline. */
static void s06_timer(void)
{
    quiet_line();
    uint64_t base = clock_now_ns() + S06_SLEEP_STEP_NS;
    for (int i = 0; i < S06_SLEEPS; i++) {
        uint64_t deadline = base + (uint64_t)i * S06_SLEEP_STEP_NS;
        sleep_until(deadline);
        samples[i] = clock_now_ns() - deadline;
    }
    printf("  s06-timer interval_ns=%llu sleeps=%d\n", S06_SLEEP_STEP_NS, S06_SLEEPS);
    bench_print_dist("s06-timer-overshoot", "ns", samples, S06_SLEEPS);
}

/* Section task: push+pop through a 64 KiB ring in chunks, next to the
 * same two copies done with memcpy through a buffer of the same size. */
static void s06_ring(uint32_t chunk)
{
    struct ring r;
    ring_init(&r, ring_store, S06_RING_CAP);
    quiet_line();
    uint64_t i0 = rdinstret(), t0 = clock_now_ns();
    for (uint32_t done = 0; done < S06_RING_BYTES; done += chunk) {
        ring_push(&r, chunk_src, chunk);
        ring_pop(&r, chunk_dst, chunk);
    }
    uint64_t i1 = rdinstret(), t1 = clock_now_ns();
    uint32_t off = 0;
    for (uint32_t done = 0; done < S06_RING_BYTES; done += chunk) {
        uint32_t first = chunk < S06_RING_CAP - off ? chunk : S06_RING_CAP - off;
        memcpy(bounce + off, chunk_src, first);
        memcpy(bounce, chunk_src + first, chunk - first);
        memcpy(chunk_dst, bounce + off, first);
        memcpy(chunk_dst + first, bounce, chunk - first);
        off = (off + chunk) % S06_RING_CAP;
    }
    uint64_t i2 = rdinstret(), t2 = clock_now_ns();
    uint64_t ring_ns = (t1 - t0) ? (t1 - t0) : 1, copy_ns = (t2 - t1) ? (t2 - t1) : 1;
    printf("  diag=s06-ring chunk=%lu bytes=%lu ring_ns=%llu ring_instret=%llu ring_mb_s=%llu "
           "memcpy_ns=%llu memcpy_instret=%llu memcpy_mb_s=%llu ring_over_memcpy=%llu.%03llu\n",
           (unsigned long)chunk, (unsigned long)S06_RING_BYTES, (unsigned long long)ring_ns,
           (unsigned long long)(i1 - i0), (unsigned long long)(S06_RING_BYTES * 1000ULL / ring_ns),
           (unsigned long long)copy_ns, (unsigned long long)(i2 - i1),
           (unsigned long long)(S06_RING_BYTES * 1000ULL / copy_ns),
           (unsigned long long)(copy_ns / ring_ns),
           (unsigned long long)(copy_ns * 1000 / ring_ns % 1000));
}

/* Section task. */
enum bench_status s06_kernel(void)
{
    s06_switch();
    s06_wake();
    s06_timer();
    printf("  s06-ring capacity=%u memcpy_baseline=same-two-copies\n", S06_RING_CAP);
    s06_ring(64);
    s06_ring(1024);
    s06_ring(16384);
    return BENCH_PASS;
}
