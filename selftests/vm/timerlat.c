// SPDX-License-Identifier: GPL-2.0
/*
 * timerlat - does a timer keep firing on every CPU?
 *
 * usage: timerlat [-p PERIOD_US] [-d SECONDS] [-r PRIO] [-o FILE]
 *
 * One thread per online CPU, pinned to it, sleeps in a loop with
 * clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME) to the next multiple of
 * the period (default 5000 us) and records how late each wake-up is: the
 * worst lateness, how many wake-ups were later than 10 ms, 100 ms and 1 s,
 * and how many wake-ups there were.  A CPU whose interrupts stay off, or
 * whose timer stops, shows as a large worst lateness (or no wake-ups).
 * It runs for SECONDS (default: until SIGINT or SIGTERM), then writes one
 * JSON document to FILE (default: stdout):
 *
 *   {"period_us": 5000, "seconds": 600.0, "worst_late_us": 123456,
 *    "cpus": [{"cpu": 0, "wakeups": 120000, "worst_late_us": 1234,
 *              "late_10ms": 3, "late_100ms": 0, "late_1s": 0}, ...]}
 *
 * With -r the threads are SCHED_FIFO at PRIO (1..99), like the kernel's
 * interrupt threads (50): test_irqs.sh uses them to check that a real-time
 * thread woken on a measured CPU runs before that CPU's next window.
 *
 * The soak (selftests/vm/soak.c) runs it next to the measurements.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TL_MAX_CPUS	1024

struct tl_cpu {
	pthread_t tid;
	int cpu;
	uint64_t wakeups;
	uint64_t worst_ns;
	uint64_t late_10ms;
	uint64_t late_100ms;
	uint64_t late_1s;
};

static volatile sig_atomic_t tl_stop;
static uint64_t tl_period_ns = 5000000;
static int tl_prio;		/* SCHED_FIFO priority; 0: SCHED_OTHER */

static void tl_on_signal(int sig)
{
	(void)sig;
	tl_stop = 1;
}

static uint64_t tl_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * 1000000000ULL + (uint64_t)ts->tv_nsec;
}

static struct timespec tl_ts(uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ULL),
			       (long)(ns % 1000000000ULL) };

	return ts;
}

static void *tl_thread(void *arg)
{
	struct tl_cpu *c = arg;
	struct timespec now, next;
	uint64_t target, late;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		return NULL;
	if (tl_prio) {
		struct sched_param sp = { .sched_priority = tl_prio };

		if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp))
			return NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	target = (tl_ns(&now) / tl_period_ns + 1) * tl_period_ns;
	while (!tl_stop) {
		next = tl_ts(target);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) &&
		    errno != EINTR)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (tl_ns(&now) < target)
			continue;	/* a signal woke us early */
		late = tl_ns(&now) - target;
		c->wakeups++;
		if (late > c->worst_ns)
			c->worst_ns = late;
		c->late_10ms += late >= 10000000ULL;
		c->late_100ms += late >= 100000000ULL;
		c->late_1s += late >= 1000000000ULL;
		/* The next period boundary after now: missed ones are skipped. */
		target = (tl_ns(&now) / tl_period_ns + 1) * tl_period_ns;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct tl_cpu cpus[TL_MAX_CPUS];
	struct timespec t0, t1;
	const char *out = NULL;
	uint64_t worst = 0;
	double seconds = 0;
	struct sigaction sa;
	cpu_set_t online;
	int n = 0, i, opt;
	FILE *f = stdout;

	while ((opt = getopt(argc, argv, "p:d:r:o:")) != -1) {
		switch (opt) {
		case 'p':
			tl_period_ns = strtoull(optarg, NULL, 10) * 1000ULL;
			break;
		case 'd':
			seconds = strtod(optarg, NULL);
			break;
		case 'r':
			tl_prio = atoi(optarg);
			break;
		case 'o':
			out = optarg;
			break;
		default:
			fprintf(stderr, "usage: timerlat [-p PERIOD_US] [-d SECONDS] [-r PRIO] [-o FILE]\n");
			return 2;
		}
	}
	if (!tl_period_ns) {
		fprintf(stderr, "timerlat: the period must be positive\n");
		return 2;
	}
	if (tl_prio < 0 || tl_prio > 99) {
		fprintf(stderr, "timerlat: -r wants a priority of 1..99\n");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = tl_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (sched_getaffinity(0, sizeof(online), &online))
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < CPU_SETSIZE && n < TL_MAX_CPUS; i++) {
		if (!CPU_ISSET(i, &online))
			continue;
		cpus[n].cpu = i;
		if (pthread_create(&cpus[n].tid, NULL, tl_thread, &cpus[n]))
			return 1;
		n++;
	}
	if (seconds > 0) {
		struct timespec d = tl_ts((uint64_t)(seconds * 1e9));

		while (nanosleep(&d, &d) && errno == EINTR && !tl_stop)
			;
		tl_stop = 1;
	} else {
		while (!tl_stop)
			pause();
	}
	for (i = 0; i < n; i++) {
		pthread_kill(cpus[i].tid, SIGTERM);
		pthread_join(cpus[i].tid, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (out) {
		f = fopen(out, "w");
		if (!f)
			return 1;
	}
	for (i = 0; i < n; i++)
		if (cpus[i].worst_ns > worst)
			worst = cpus[i].worst_ns;
	fprintf(f, "{\"period_us\": %llu, \"seconds\": %.1f, \"worst_late_us\": %llu, \"cpus\": [",
		(unsigned long long)(tl_period_ns / 1000),
		(double)(tl_ns(&t1) - tl_ns(&t0)) / 1e9,
		(unsigned long long)(worst / 1000));
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"cpu\": %d, \"wakeups\": %llu, \"worst_late_us\": %llu, \"late_10ms\": %llu, \"late_100ms\": %llu, \"late_1s\": %llu}",
			i ? ", " : "", cpus[i].cpu,
			(unsigned long long)cpus[i].wakeups,
			(unsigned long long)(cpus[i].worst_ns / 1000),
			(unsigned long long)cpus[i].late_10ms,
			(unsigned long long)cpus[i].late_100ms,
			(unsigned long long)cpus[i].late_1s);
	fprintf(f, "]}\n");
	return fclose(f) ? 1 : 0;
}
