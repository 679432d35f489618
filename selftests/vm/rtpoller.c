// SPDX-License-Identifier: GPL-2.0
/*
 * rtpoller - own one CPU the way a DPDK poll-mode thread does
 *
 * usage: rtpoller CPU SECONDS
 *
 * Pins itself to CPU, becomes SCHED_FIFO 99 and spins in user mode for
 * SECONDS, then exits 0 (1 when it could not set itself up).  With RT
 * throttling off (/proc/sys/kernel/sched_rt_runtime_us = -1, which the
 * caller sets) no SCHED_OTHER thread runs on that CPU meanwhile: the fault
 * tests (selftests/vm/test_faults.c) use it to starve a measurement thread.
 * The clock is read once per million spins, so the CPU stays in user mode
 * nearly all the time, where RCU sees it quiescent at every tick.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double rp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 99 };
	volatile unsigned long spin = 0;
	unsigned long i;
	cpu_set_t set;
	double end;
	int cpu;

	if (argc != 3) {
		fprintf(stderr, "usage: rtpoller CPU SECONDS\n");
		return 1;
	}
	cpu = atoi(argv[1]);
	end = rp_now() + atof(argv[2]);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("rtpoller: sched_setaffinity");
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("rtpoller: sched_setscheduler");
		return 1;
	}
	do {
		for (i = 0; i < 1000000; i++)
			spin += i;
	} while (rp_now() < end);
	return 0;
}
