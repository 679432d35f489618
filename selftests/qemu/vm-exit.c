// SPDX-License-Identifier: GPL-2.0
/*
 * vm-exit - end the QEMU guest and hand an exit status to the host.
 *
 * Usage: vm-exit STATUS [TTY...]
 *
 * STATUS (0..127) is written to QEMU's isa-debug-exit device at I/O port
 * 0xf4; QEMU then exits with (STATUS << 1) | 1, so the host can tell a
 * guest that chose its status (odd) from one that powered off or panicked
 * with panic=-1 and -no-reboot (QEMU exits 0).
 *
 * Before that, every TTY named (and our own stdout and stderr, when they
 * are terminals) is drained with tcdrain(), and the file systems are
 * synced: the test's output travels over serial ports that are files on
 * the host, and bytes still queued in the guest's tty layer when QEMU
 * exits would be lost.
 *
 * An arm64 guest has no I/O ports: there the same code goes out through
 * QEMU's semihosting (SYS_EXIT_EXTENDED), which the harness enables for
 * user space (-semihosting-config userspace=on).
 *
 * If the exit cannot be reached (no ioperm, device missing), the guest
 * powers off instead; the host then sees "no exit code" rather than a
 * false status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4
#define MAX_STATUS 127

/* Wait until everything written to @fd has left the UART. */
static void drain_fd(int fd)
{
	if (isatty(fd))
		tcdrain(fd);
}

static void drain_path(const char *path)
{
	/* O_NONBLOCK: never wait for carrier on a serial line. */
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "vm-exit: %s: %s\n", path, strerror(errno));
		return;
	}
	drain_fd(fd);
	close(fd);
}

/* Parse 0..MAX_STATUS; anything else is reported and becomes MAX_STATUS. */
static int parse_status(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < 0 || v > MAX_STATUS) {
		fprintf(stderr, "vm-exit: bad status '%s' (want 0..%d), using %d\n",
			arg, MAX_STATUS, MAX_STATUS);
		return MAX_STATUS;
	}
	return (int)v;
}

#if defined(__x86_64__)
#include <sys/io.h>

/* QEMU exits with (@status << 1) | 1; returns only where it could not. */
static void debug_exit(int status)
{
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0) {
		outb((unsigned char)status, DEBUG_EXIT_PORT);
		fprintf(stderr, "vm-exit: no isa-debug-exit device at 0x%x\n",
			DEBUG_EXIT_PORT);
	} else {
		fprintf(stderr, "vm-exit: ioperm(0x%x): %s\n", DEBUG_EXIT_PORT,
			strerror(errno));
	}
}
#elif defined(__aarch64__)
#define SYS_EXIT_EXTENDED		0x20
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/*
 * The same code as isa-debug-exit gives, so that the host reads both
 * alike.  Without semihosting the hlt traps and vm-exit dies of SIGTRAP:
 * as PID 1, a panic, which the host sees as no exit code.
 */
static void debug_exit(int status)
{
	uint64_t block[2] = { ADP_STOPPED_APPLICATION_EXIT,
			      ((uint64_t)status << 1) | 1 };
	register uint64_t op __asm__("x0") = SYS_EXIT_EXTENDED;
	register uint64_t arg __asm__("x1") = (uint64_t)block;

	__asm__ __volatile__("hlt #0xf000" : "+r" (op) : "r" (arg) : "memory");
	fprintf(stderr, "vm-exit: semihosting did not end the guest\n");
}
#else
#error "vm-exit knows the QEMU exits of x86-64 and arm64 only"
#endif

int main(int argc, char **argv)
{
	int status = MAX_STATUS;

	if (argc < 2)
		fprintf(stderr, "usage: vm-exit STATUS [TTY...] (using %d)\n", MAX_STATUS);
	else
		status = parse_status(argv[1]);

	for (int i = 2; i < argc; i++)
		drain_path(argv[i]);
	fflush(NULL);
	drain_fd(STDOUT_FILENO);
	drain_fd(STDERR_FILENO);
	sync();

	debug_exit(status);
	fprintf(stderr, "vm-exit: powering off instead (host sees no exit code)\n");
	drain_fd(STDERR_FILENO);
	reboot(RB_POWER_OFF);
	fprintf(stderr, "vm-exit: reboot(RB_POWER_OFF): %s\n", strerror(errno));
	return 1;
}
