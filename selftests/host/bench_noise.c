// SPDX-License-Identifier: GPL-2.0
/*
 * bench_noise - how much slower is tscprobe's noise loop than the bare
 * minimum?  Not a test: a side-by-side measurement on one pinned CPU of
 *
 *   bare      lfence; rdtsc; store the delta in a ring; compare the deadline
 *   count     lfence; rdtsc; count; compare the deadline (nothing kept)
 *   log2      the original noise program's loop: a log2 histogram updated
 *             right after the read
 *   tscprobe  tp_noise_window(TSCPROBE_CLOCK_LFENCE)
 *
 * The loops take turns in short rounds so that whatever else the machine
 * does hits them alike.  Per loop it prints the median gap (p50), the mean
 * of the "quiet" gaps (below QUIET cycles: the loop itself, not noise; the
 * better figure where the TSC ticks coarsely), the mean period of the best
 * and of the median round, and the read rate.
 *
 * Usage: bench_noise [CPU [SECONDS [ROUND_MS]]]   (defaults: 1, 2 s, 50 ms)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/hist.h"
#include "core/noise.h"
#include "core/tsc.h"

#define RING_SIZE	(1U << 16)
#define QUIET		256
#define MAX_ROUNDS	10000
#define NR_LOOPS	4

struct loop {
	const char *name;
	uint64_t iters, cycles;		/* over all rounds */
	uint64_t quiet_n, quiet_sum;	/* gaps < QUIET (sampled for bare) */
	double p50;
	double round_mean[MAX_ROUNDS];
	unsigned int rounds;
};

static uint64_t ring[RING_SIZE];
static uint64_t log2_calls[65], log2_cycles[65];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tsc_hz(void)
{
	struct timespec d = { 0, 200 * 1000 * 1000 };
	double t0 = now_s(), t1;
	uint64_t c0 = tp_rdtsc_lfence(), c1;

	nanosleep(&d, NULL);
	c1 = tp_rdtsc_lfence();
	t1 = now_s();
	return (c1 - c0) / (t1 - t0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void account(struct loop *l, uint64_t iters, uint64_t cycles)
{
	l->iters += iters;
	l->cycles += cycles;
	l->round_mean[l->rounds++] = (double)cycles / iters;
}

/* The ring's p50 is kept per round; their median is reported. */
static double bare_p50[MAX_ROUNDS];

static void run_bare(struct loop *l, uint64_t cycles)
{
	uint64_t first = tp_rdtsc_lfence(), prev = first, now = first;
	uint64_t deadline = first + cycles, i = 0, n, k;

	while (now < deadline) {
		now = tp_rdtsc_lfence();
		ring[i++ & (RING_SIZE - 1)] = now - prev;
		prev = now;
	}
	n = i < RING_SIZE ? i : RING_SIZE;
	for (k = 0; k < n; k++) {
		if (ring[k] < QUIET) {
			l->quiet_n++;
			l->quiet_sum += ring[k];
		}
	}
	qsort(ring, n, sizeof(*ring), cmp_u64);
	bare_p50[l->rounds] = ring[(n - 1) / 2];
	account(l, i, now - first);
}

static void run_count(struct loop *l, uint64_t cycles)
{
	uint64_t first = tp_rdtsc_lfence(), now = first;
	uint64_t deadline = first + cycles, i = 0;

	while (now < deadline) {
		now = tp_rdtsc_lfence();
		i++;
	}
	account(l, i, now - first);
}

static void run_log2(struct loop *l, uint64_t cycles)
{
	uint64_t first = tp_rdtsc_lfence(), prev = first, now = first;
	uint64_t deadline = first + cycles, i = 0, diff;
	int k;

	while (now < deadline) {
		now = tp_rdtsc_lfence();
		diff = now - prev;
		prev = now;
		k = diff ? 64 - __builtin_clzll(diff) : 0;
		log2_calls[k]++;
		log2_cycles[k] += diff;
		i++;
	}
	account(l, i, now - first);
}

static void run_tscprobe(struct loop *l, uint64_t cycles, struct tp_noise *n)
{
	uint64_t samples = n->samples, measured = n->measured;

	tp_noise_window(n, TSCPROBE_CLOCK_LFENCE, tp_rdtsc_lfence() + cycles);
	account(l, n->samples - samples, n->measured - measured);
}

static void finish_log2(struct loop *l)
{
	uint64_t seen = 0;
	int k;

	/* the median's log2 bucket, reported by its mean as the original */
	for (k = 0; k < 65; k++) {
		seen += log2_calls[k];
		if (seen * 2 >= l->iters) {
			l->p50 = (double)log2_cycles[k] / log2_calls[k];
			break;
		}
	}
	for (k = 0; k < 65 && tp_log2_hi(k) < QUIET; k++) {
		l->quiet_n += log2_calls[k];
		l->quiet_sum += log2_cycles[k];
	}
}

static void finish_tscprobe(struct loop *l, const struct tp_noise *n)
{
	unsigned int i;

	l->p50 = tp_hist_percentile(&n->hist, 500000);
	for (i = 0; tp_hist_bucket_hi(i) < QUIET; i++) {
		l->quiet_n += n->hist.b[i].calls;
		l->quiet_sum += n->hist.b[i].cycles;
	}
}

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[(n - 1) / 2];
}

static double quiet_mean(const struct loop *l)
{
	return l->quiet_n ? (double)l->quiet_sum / l->quiet_n : 0;
}

static void print(struct loop *l, const struct loop *ref, double hz)
{
	double med = median(l->round_mean, l->rounds);
	double best = l->round_mean[0];		/* sorted by median() */

	printf("%-9s %6.1f %8.2f %8.2f %8.2f %12.0f", l->name, l->p50,
	       quiet_mean(l), best, med, l->iters / (l->cycles / hz));
	if (l != ref && l->p50 && quiet_mean(l))
		printf("   x%.3f x%.3f x%.3f x%.3f", l->p50 / ref->p50,
		       quiet_mean(l) / quiet_mean(ref),
		       best / ref->round_mean[0],
		       med / median((double *)ref->round_mean, ref->rounds));
	else if (l != ref)
		printf("   %6s x%.3f x%.3f", "", best / ref->round_mean[0],
		       med / median((double *)ref->round_mean, ref->rounds));
	printf("\n");
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 ? atoi(argv[1]) : 1;
	double secs = argc > 2 ? atof(argv[2]) : 2.0;
	double round_ms = argc > 3 ? atof(argv[3]) : 50.0;
	static struct loop loops[NR_LOOPS] = {
		{ .name = "bare" }, { .name = "count" },
		{ .name = "log2" }, { .name = "tscprobe" },
	};
	unsigned int r, rounds;
	struct tp_noise *n;
	uint64_t cycles;
	cpu_set_t set;
	double hz;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	n = aligned_alloc(64, (sizeof(*n) + 63) & ~(size_t)63);
	if (!n)
		return 1;
	tp_noise_init(n, TP_U64_MAX);
	hz = tsc_hz();
	rounds = secs * 1000 / round_ms;
	if (rounds < 1)
		rounds = 1;
	if (rounds > MAX_ROUNDS)
		rounds = MAX_ROUNDS;
	cycles = round_ms / 1e3 * hz;
	printf("cpu %d, TSC %.3f GHz, %u rounds of %.0f ms per loop\n",
	       cpu, hz / 1e9, rounds, round_ms);

	for (r = 0; r < rounds; r++) {
		run_bare(&loops[0], cycles);
		run_count(&loops[1], cycles);
		run_log2(&loops[2], cycles);
		run_tscprobe(&loops[3], cycles, n);
	}
	loops[0].p50 = median(bare_p50, loops[0].rounds);
	finish_log2(&loops[2]);
	finish_tscprobe(&loops[3], n);

	printf("%-9s %6s %8s %8s %8s %12s   %s\n", "loop", "p50", "quiet",
	       "best", "median", "reads/s", "ratios to bare");
	printf("%-9s %6s %8s %8s %8s\n", "", "gap", "mean", "round", "round");
	for (r = 0; r < NR_LOOPS; r++)
		print(&loops[r], &loops[0], hz);
	printf("tscprobe/bare: p50 %.3f, quiet mean %.3f\n",
	       loops[3].p50 / loops[0].p50,
	       quiet_mean(&loops[3]) / quiet_mean(&loops[0]));
	free(n);
	return 0;
}
