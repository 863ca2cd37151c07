/*
 * init-probe: a stand-in /init for the Linux 8250 peer (static riscv64,
 * glibc). Run by the kernel as PID 1 from the initramfs; writes one line
 * to /dev/ttyS0 that says what the benchmark will find there, then powers
 * the machine off so that QEMU exits:
 *
 *   init-probe: release=R machine=M perf_instructions=S perf_cycles=S
 *     rdinstret=V rdcycle=V instret_unit=U loop_instret=N monotonic_ns=T
 *
 * (one line). S is `ok` when perf_event_open(PERF_TYPE_HARDWARE, pid -1,
 * cpu 0, pinned) opened the counter, else the errno's name and number,
 * e.g. ENOENT(2). V says what the user-mode counter CSR does while that
 * event is open: `counts`, `frozen` (reads the same value twice around a
 * loop) or `sigill` (not readable from user mode). instret_unit is what
 * rdinstret advances per instruction (under QEMU's -icount it counts
 * virtual nanoseconds: 2^shift; 0 when it is not a power of two in the
 * ratio of 1 to 8 instructions, as our kernel measures it); loop_instret is
 * rdinstret's delta over a loop of LOOP_ITERS iterations (0 if it does not
 * count); monotonic_ns is CLOCK_MONOTONIC when the probe started.
 *
 * The kernel passes its unknown command-line arguments key=value to /init
 * as environment variables: fault=segv makes the probe store through a
 * null pointer after its line (init killed: the kernel panics, and with
 * panic=-1 and QEMU's -no-reboot the machine stops instead of hanging).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include "instret_unit.h"

#define LOOP_ITERS 10000

static sigjmp_buf csr_trap;

/* SIGILL handler: a counter CSR read trapped; back to read_csr. */
static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(csr_trap, 1);
}

/* A user-mode counter CSR: 0 = instret, 1 = cycle. */
static uint64_t csr_read(int which)
{
	uint64_t v;

	if (which == 0)
		__asm__ volatile("rdinstret %0" : "=r"(v));
	else
		__asm__ volatile("rdcycle %0" : "=r"(v));
	return v;
}

/* A loop the compiler keeps: LOOP_ITERS dependent adds. */
static void spin(void)
{
	uint64_t x = 0;

	for (int i = 0; i < LOOP_ITERS; i++)
		__asm__ volatile("addi %0, %0, 1" : "+r"(x));
}

/* Read one counter around spin(): "counts", "frozen" or "sigill", the
 * delta in *delta (0 unless it counts). */
static const char *csr_probe(int which, uint64_t *delta)
{
	struct sigaction sa, old;
	const char *verdict;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigaction(SIGILL, &sa, &old);
	*delta = 0;
	if (sigsetjmp(csr_trap, 1) != 0) {
		verdict = "sigill";
	} else {
		uint64_t a = csr_read(which);
		spin();
		uint64_t b = csr_read(which);
		*delta = b - a;
		verdict = *delta ? "counts" : "frozen";
	}
	sigaction(SIGILL, &old, NULL);
	return verdict;
}

/* Open a pinned CPU-wide hardware counter (pid -1, cpu 0); its fd, or
 * -1 with errno set. */
static int perf_open(uint64_t config)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = config;
	attr.pinned = 1;
	return (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
}

/* "ok" or the errno's name and number, e.g. "ENOENT(2)". */
static const char *perf_status(int fd, int err, char *buf, size_t len)
{
	if (fd >= 0)
		return "ok";
	snprintf(buf, len, "%s(%d)", strerrorname_np(err) ? strerrorname_np(err) : "E?",
		 err);
	return buf;
}

/* The probe's line on the serial port; then sync and power off. */
int main(void)
{
	struct timespec now;
	struct utsname u;
	char ibuf[32], cbuf[32], line[512];
	uint64_t d_instret, d_cycle;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (uname(&u) != 0) {
		strcpy(u.release, "?");
		strcpy(u.machine, "?");
	}
	int fd_i = perf_open(PERF_COUNT_HW_INSTRUCTIONS);
	int err_i = errno;
	int fd_c = perf_open(PERF_COUNT_HW_CPU_CYCLES);
	int err_c = errno;
	const char *v_instret = csr_probe(0, &d_instret);
	const char *v_cycle = csr_probe(1, &d_cycle);
	uint64_t unit = strcmp(v_instret, "counts") == 0 ? instret_unit() : 0;
	int n = snprintf(line, sizeof(line),
			 "init-probe: release=%s machine=%s perf_instructions=%s perf_cycles=%s "
			 "rdinstret=%s rdcycle=%s instret_unit=%llu loop_instret=%llu monotonic_ns=%llu\n",
			 u.release, u.machine, perf_status(fd_i, err_i, ibuf, sizeof(ibuf)),
			 perf_status(fd_c, err_c, cbuf, sizeof(cbuf)), v_instret, v_cycle,
			 (unsigned long long)unit, (unsigned long long)d_instret,
			 (unsigned long long)now.tv_sec * 1000000000ull +
				 (unsigned long long)now.tv_nsec);

	int tty = open("/dev/ttyS0", O_WRONLY | O_NOCTTY);
	if (tty < 0)
		dprintf(2, "init-probe: cannot open /dev/ttyS0: %s\n", strerror(errno));
	else if (write(tty, line, (size_t)n) != n)
		dprintf(2, "init-probe: short write to /dev/ttyS0\n");
	else
		tcdrain(tty);
	const char *fault = getenv("fault");
	if (fault != NULL && strcmp(fault, "segv") == 0) {
		volatile int *volatile null = NULL;
		/* cppcheck-suppress nullPointer ; the fault asked for */
		*null = 1;
	}
	sync();
	reboot(RB_POWER_OFF);
	dprintf(2, "init-probe: reboot(RB_POWER_OFF) failed: %s\n", strerror(errno));
	return 1;
}
