// SPDX-License-Identifier: GPL-2.0
/*
 * bench_cache - what each fence of the cache measurement does, and what
 * the measurement costs.  Not a test: side-by-side figures on one pinned
 * CPU.
 *
 * The fence table times the three measurements of a round with the bracket of
 * core/arch/x86.h (TP_CACHE_TIMER, the one definition) as tscprobe uses it, as
 * the original cache-timing program wrote it (one more lfence after mfence),
 * and with one fence at a time left out.  The variants take turns in short
 * passes, so that whatever else the machine does hits them alike, and each
 * figure is a quiet mean: values of QUIET cycles or more (an interrupt, a
 * preemption) are left out of it and counted.  The TSC may tick in coarse
 * steps (21 cycles on some AMD machines), so single values are quantised, but
 * means over many rounds resolve a fraction of a cycle.
 *
 * Then core's own loop (tp_cache_batch() in paced windows, as both
 * engines run it): rounds per second; and a pointer chase through 4 KiB
 * and through a large working set (core/chase.c): the L1 and DRAM
 * load-to-use latencies the cached and uncached figures compare with.
 *
 * Usage: bench_cache [CPU [ROUNDS [DRAM_MIB]]]   (defaults: 1, 400000, 256)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/cache.h"
#include "core/chase.h"
#include "user/lib/clock.h"
#include "user/engines.h"
#include "core/tsc.h"

#define QUIET		4000
#define PASSES		20

struct acc {
	uint64_t n, sum, loud;
};

struct variant {
	const char *name;
	const char *what;
	void (*round)(const void *v, struct acc a[3]);
	struct acc a[3];	/* overhead, cached, uncached */
};

static void acc_add(struct acc *a, uint64_t v)
{
	if (v >= QUIET) {
		a->loud++;
		return;
	}
	a->n++;
	a->sum += v;
}

static double acc_mean(const struct acc *a)
{
	return a->n ? (double)a->sum / a->n : 0;
}

/* A variant: its three timers and a round that runs them in core's order. */
#define VARIANT(tag, pre, f1, f2, f3, f4)				\
TP_CACHE_TIMER(ov_##tag, "", f1, f2, f3, f4, "")			\
TP_CACHE_TIMER(un_##tag, pre, f1, f2, f3, f4, TP_LOAD)			\
TP_CACHE_TIMER(ca_##tag, "", f1, f2, f3, f4, TP_LOAD)			\
static void round_##tag(const void *v, struct acc a[3])	\
{									\
	uint64_t end;							\
									\
	acc_add(&a[0], ov_##tag(v, &end));				\
	acc_add(&a[2], un_##tag(v, &end));				\
	acc_add(&a[1], ca_##tag(v, &end));				\
}

#define LF	TP_LFENCE
#define NF	TP_NOFENCE
VARIANT(extra, TP_FLUSH TP_LFENCE, LF, LF, LF, LF)
VARIANT(no1, TP_FLUSH, NF, LF, LF, LF)
VARIANT(no2, TP_FLUSH, LF, NF, LF, LF)
VARIANT(no3, TP_FLUSH, LF, LF, NF, LF)
VARIANT(no4, TP_FLUSH, LF, LF, LF, NF)
VARIANT(nomfence, "clflush (%[p])\n\t", LF, LF, LF, LF)
VARIANT(bare, TP_FLUSH, NF, NF, NF, NF)

/* tscprobe's own timers, from core/arch/x86.h. */
static void round_tscprobe(const void *v, struct acc a[3])
{
	uint64_t end;

	acc_add(&a[0], tp_cache_time_overhead(v, &end));
	acc_add(&a[2], tp_cache_time_uncached(v, &end));
	acc_add(&a[1], tp_cache_time_cached(v, &end));
}

static struct variant variants[] = {
	{ .name = "tscprobe", .what = "every fence (core/arch/x86.h)", .round = round_tscprobe },
	{ .name = "+lfence", .what = "+ lfence after mfence, as the original", .round = round_extra },
	{ .name = "-fence1", .what = "no lfence before the 1st rdtsc", .round = round_no1 },
	{ .name = "-fence2", .what = "no lfence after the 1st rdtsc", .round = round_no2 },
	{ .name = "-fence3", .what = "no lfence before the 2nd rdtsc", .round = round_no3 },
	{ .name = "-fence4", .what = "no lfence after the 2nd rdtsc", .round = round_no4 },
	{ .name = "-mfence", .what = "clflush without mfence", .round = round_nomfence },
	{ .name = "bare", .what = "rdtsc only, no lfence at all", .round = round_bare },
};
#define NR_VARIANTS	(sizeof(variants) / sizeof(variants[0]))

static uint64_t victim[16] __attribute__((aligned(128)));

static void fence_table(unsigned long rounds)
{
	unsigned long per_pass = rounds / PASSES, i;
	const struct acc *o;
	unsigned int p, k;

	for (p = 0; p < PASSES; p++)
		for (k = 0; k < NR_VARIANTS; k++)
			for (i = 0; i < per_pass; i++)
				variants[k].round(victim, variants[k].a);
	printf("%-9s %8s %8s %8s %8s %8s %6s  %s\n", "variant", "overhead",
	       "cached", "net", "uncached", "net", "loud", "");
	for (k = 0; k < NR_VARIANTS; k++) {
		o = variants[k].a;
		printf("%-9s %8.2f %8.2f %8.2f %8.2f %8.2f %6llu  %s\n",
		       variants[k].name, acc_mean(&o[0]), acc_mean(&o[1]),
		       acc_mean(&o[1]) - acc_mean(&o[0]), acc_mean(&o[2]),
		       acc_mean(&o[2]) - acc_mean(&o[0]),
		       (unsigned long long)(o[0].loud + o[1].loud + o[2].loud),
		       variants[k].what);
	}
}

/* core's loop as the engines run it: paced windows of 100 ms. */
static void core_loop(unsigned long rounds, double hz)
{
	struct tp_cache *c = aligned_alloc(4096, (sizeof(*c) + 4095) & ~4095UL);
	uint64_t done = 0, width = hz / 10;
	const struct tp_stats *s;
	double secs;
	unsigned int i;

	if (!c)
		return;
	tp_cache_init(c);
	while (done < rounds)
		done += tp_paced_window(&c->pace, tp_cache_batch, c,
					rounds - done, TSCPROBE_DEFAULT_BATCH,
					tp_rdtsc() + width);
	secs = c->pace.cycles / hz;
	printf("core loop: %llu rounds in %.3f s: %.0f rounds/s (%.0f cycles per round)\n",
	       (unsigned long long)done, secs, done / secs,
	       (double)c->pace.cycles / done);
	for (i = 0; i < TP_CACHE_SERIES; i++) {
		s = &c->s[i].stats;
		printf("  %-8s mean %8.2f  p50 %6llu  min %4llu\n",
		       i == 0 ? "overhead" : i == 1 ? "cached" : "uncached",
		       (double)s->sum / s->count,
		       (unsigned long long)tp_hist_percentile(&c->s[i].hist, 500000),
		       (unsigned long long)s->min);
	}
	free(c);
}

/* The chase's cycles per load through the first @bytes of @mem. */
static double chase(void *mem, size_t bytes, unsigned int shift)
{
	void *chunks[1] = { mem };
	struct tp_chase ch;

	tp_chase_init(&ch, chunks, shift, bytes / 64, 0x9e3779b97f4a7c15ULL);
	while (!tp_chase_build(&ch, TP_CHASE_BUILD_STEPS))
		;
	tp_paced_window(&ch.pace, tp_chase_batch, &ch,
			tp_chase_warmup_units(&ch), 64, TP_U64_MAX);
	tp_chase_reset_counts(&ch);
	tp_paced_window(&ch.pace, tp_chase_batch, &ch,
			TP_CHASE_LOADS / TP_CHASE_UNIT, 64, TP_U64_MAX);
	return (double)ch.cycles / ch.loads;
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 ? atoi(argv[1]) : 1;
	unsigned long rounds = argc > 2 ? strtoul(argv[2], NULL, 0) : 400000;
	size_t dram = (argc > 3 ? strtoul(argv[3], NULL, 0) : 256) << 20;
	unsigned int shift = 0;
	cpu_set_t set;
	void *mem;
	double hz;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	hz = tp_user_tsc_khz() * 1e3;
	printf("cpu %d, TSC %.3f GHz; cycles are TSC cycles, means of values < %d\n",
	       cpu, hz / 1e9, QUIET);
	fence_table(rounds < PASSES ? PASSES : rounds);
	printf("\n");
	core_loop(rounds, hz);

	while (((size_t)64 << shift) < dram)
		shift++;
	dram = (size_t)64 << shift;
	mem = mmap(NULL, dram, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	madvise(mem, dram, MADV_HUGEPAGE);
	printf("pointer chase: L1 (4 KiB) %.2f cycles/load, DRAM (%zu MiB) %.2f cycles/load\n",
	       chase(mem, 4096, shift), dram >> 20, chase(mem, dram, shift));
	munmap(mem, dram);
	return 0;
}
