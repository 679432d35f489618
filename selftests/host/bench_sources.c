// SPDX-License-Identifier: GPL-2.0
/*
 * bench_sources - what the module's source probes cost per interrupt, on
 * this machine's CPU.  Not a test: side by side on one pinned CPU, in
 * rounds that take turns, the work of one interrupt's entry and exit
 * probes (kmod/src_probes.c) in its three cases:
 *
 *   tsc pair    two TSC reads: what any timestamping probe pays at least
 *   no run      the probes between runs, or on a CPU no run measures: a
 *               per-CPU pointer read (here a thread-local one, the same
 *               segment-relative load) that is NULL, called through a
 *               pointer as a tracepoint calls its probes
 *   run         the probes on a measured CPU: the TSC stamp and core's
 *               bookkeeping (tp_src_enter() and tp_src_exit()) of an
 *               interrupt inside a thread's span, ring and totals included
 *   spill       the same inside a window that the ring overflows (noise
 *               --irqs on on a busy CPU): each span pushed out goes into
 *               the window's table, which holds as many sources as it
 *               can (TP_SRC_TABLE), the search's worst case
 *   event       per noise event, the measuring thread's read of what ran
 *               inside the gap (tp_src_event()) with the rings full
 *
 * What the kernel adds is not here: the tracepoint's static call into the
 * probe (a direct call once one probe is on, an iterator beyond) and the
 * entry code of the interrupt itself, which costs the same with or without
 * the probes.  Prints ns per interrupt (per event for the last) and each
 * case's ratio to the TSC pair.
 *
 * Usage: bench_sources [CPU [ROUNDS]]   (defaults: 1, 21)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/sources.h"
#include "core/tsc.h"

#define CALLS		200000U	/* interrupts per round */
#define EVENTS		20000U	/* events per round */
#define MAX_ROUNDS	101

/* The measured CPU's record, as kmod/src_probes.c keeps one per CPU. */
struct here {
	struct tp_src_cpu src;
	struct tp_src_gap_scratch gap;
	struct tp_src_threads threads;	/* the noise CPU's, in the module */
};

static __thread struct here *here_of_cpu;
static uint64_t sink;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static __attribute__((noinline)) void probe_tsc_pair(void)
{
	sink += tp_rdtsc();
	sink += tp_rdtsc();
}

/* irq_handler_entry and _exit with no run: one pointer read each. */
static __attribute__((noinline)) void probe_entry(int irq)
{
	struct here *h = here_of_cpu;
	struct tp_src_key key = { .kind = TP_SRC_IRQ, .id = (uint32_t)irq };

	if (h)
		tp_src_enter(&h->src, &key, "bench",
			     tp_src_now(&h->src, tp_rdtsc));
}

static __attribute__((noinline)) void probe_exit(int irq)
{
	struct here *h = here_of_cpu;

	(void)irq;
	if (h)
		tp_src_exit(&h->src, TP_SRC_IRQ, tp_src_now(&h->src, tp_rdtsc));
}

static void one_interrupt(int irq)
{
	static void (*volatile entry)(int) = probe_entry;
	static void (*volatile exit_fn)(int) = probe_exit;

	entry(irq);
	exit_fn(irq);
}

/* ns per call of @fn over CALLS calls. */
static double round_of(void (*fn)(void), unsigned int calls)
{
	double t0 = now_ns();
	unsigned int i;

	for (i = 0; i < calls; i++)
		fn();
	return (now_ns() - t0) / calls;
}

static struct here *measured, *spilling;

static void interrupt_no_run(void)
{
	here_of_cpu = NULL;
	one_interrupt(24);
}

static void interrupt_in_run(void)
{
	here_of_cpu = measured;
	one_interrupt(24);
}

/* An interrupt of each of a full table's sources in turn. */
static void interrupt_in_full_window(void)
{
	static unsigned int next;

	here_of_cpu = spilling;
	next = (next + 1) % TP_SRC_TABLE;
	one_interrupt(24 + (int)next);
}

/* Each event reads the rings, full of the interrupts above. */
static void event_read(void)
{
	struct tp_event_sources out;
	uint64_t now = tp_rdtsc();

	tp_src_event(&measured->src, now - 100000000ULL, now,
		     &measured->threads, &measured->gap, &out);
	sink += out.unexplained;
}

/* The thread whose span the interrupts nest in, as in a run. */
static void start_run(struct here *h)
{
	tp_src_init(&h->src);
	tp_src_enter(&h->src,
		     &(struct tp_src_key){ .kind = TP_SRC_THREAD, .id = 1 },
		     "bench", tp_src_now(&h->src, tp_rdtsc));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"tsc pair", "no run", "run", "event", "spill",
	};
	void (*const fns[])(void) = {
		probe_tsc_pair, interrupt_no_run, interrupt_in_run, event_read,
		interrupt_in_full_window,
	};
	enum { CASES = sizeof(names) / sizeof(names[0]) };
	static double ns[CASES][MAX_ROUNDS];
	static struct tp_src_windows window;
	int cpu = argc > 1 ? atoi(argv[1]) : 1;
	unsigned int rounds = argc > 2 ? (unsigned int)atoi(argv[2]) : 21;
	unsigned int r, k;
	cpu_set_t set;

	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "bench_sources: ROUNDS must be 1-%u\n",
			MAX_ROUNDS);
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		perror("bench_sources: sched_setaffinity (running unpinned)");
	measured = calloc(1, sizeof(*measured));
	spilling = calloc(1, sizeof(*spilling));
	if (!measured || !spilling)
		return 1;
	start_run(measured);
	start_run(spilling);
	tp_src_windows_init(&window);
	tp_src_window_begin(&window, &spilling->src);
	for (r = 0; r < rounds; r++)
		for (k = 0; k < CASES; k++)
			ns[k][r] = round_of(fns[k], k == 3 ? EVENTS : CALLS);
	printf("CPU %d, %u rounds of %u interrupts (%u events); medians:\n",
	       cpu, rounds, CALLS, EVENTS);
	printf("%-10s %12s %10s\n", "case", "ns", "x tsc pair");
	for (k = 0; k < CASES; k++)
		ns[k][0] = median(ns[k], rounds);
	for (k = 0; k < CASES; k++)
		printf("%-10s %12.1f %10.2f\n", names[k], ns[k][0],
		       ns[k][0] / ns[0][0]);
	printf("probes with a run, less without: %.1f ns per interrupt\n",
	       ns[2][0] - ns[1][0]);
	printf("a span into the window's table: %.1f ns more\n",
	       ns[4][0] - ns[2][0]);
	tp_src_window_end(&window, &spilling->src);
	sink += window.lost;
	free(spilling);
	free(measured);
	return sink == 42;
}
