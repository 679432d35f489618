// SPDX-License-Identifier: GPL-2.0
/*
 * vm-pace - copy standard input to standard output, as cat does, but with
 * at most VM_PACE_CHUNK bytes queued on a serial port at a time.
 *
 * Usage: vm-pace [CHUNK]      (CHUNK: 1..4096 bytes, default 256)
 *
 * When standard output is a terminal, every chunk is written and then
 * drained (tcdrain()) before the next one is read; anything else gets
 * plain copies.
 *
 * Why: QEMU's 16550 sends a byte the moment the guest writes it and raises
 * its interrupt again, so a guest's serial output costs one interrupt per
 * byte.  On PREEMPT_RT the 8250 handler is a thread, and it writes out the
 * whole transmit buffer (up to 4 KiB) in one call with interrupts on: the
 * kernel's spurious-interrupt detector (note_interrupt(), for a threaded
 * handler) counts only one of those interrupts as handled, the one after
 * the thread's call returned.  A writer that keeps the buffer filled makes
 * more than 99,900 of 100,000 interrupts "unhandled", and the kernel
 * disables the line ("irq 3: nobody cared ... Disabling IRQ #3"): the
 * test's output stops for good.  With at most CHUNK bytes queued, no call
 * of the handler sees more than CHUNK interrupts, which keeps the line far
 * from that ratio (CHUNK below 1000).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define VM_PACE_CHUNK	256
#define VM_PACE_MAX	4096

static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char buf[VM_PACE_MAX];
	long chunk = VM_PACE_CHUNK;
	int tty = isatty(STDOUT_FILENO);

	if (argc > 2 ||
	    (argc == 2 && ((chunk = strtol(argv[1], NULL, 10)) < 1 ||
			   chunk > VM_PACE_MAX))) {
		fprintf(stderr, "usage: vm-pace [CHUNK] (1..%d bytes)\n",
			VM_PACE_MAX);
		return 2;
	}
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, (size_t)chunk);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			fprintf(stderr, "vm-pace: read: %s\n", strerror(errno));
			return 1;
		}
		if (n == 0)
			return 0;
		if (write_all(STDOUT_FILENO, buf, (size_t)n) ||
		    (tty && tcdrain(STDOUT_FILENO))) {
			fprintf(stderr, "vm-pace: write: %s\n", strerror(errno));
			return 1;
		}
	}
}
