/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache measurement: how many cycles does one load take when its line is
 * cached, and when it was just flushed, net of what the measurement itself
 * costs?
 *
 * A round is three timed measurements of one line, the victim:
 *
 *   overhead   lfence; rdtsc; lfence;                lfence; rdtsc; lfence
 *   uncached   clflush; mfence;
 *              lfence; rdtsc; lfence; mov (victim);  lfence; rdtsc; lfence
 *   cached     lfence; rdtsc; lfence; mov (victim);  lfence; rdtsc; lfence
 *
 * Each value is recorded gross (it includes the bracket) into its series:
 * exact statistics (core/stats.h), the HDR histogram (core/hist.h), and
 * the block averages below.  Net figures are derived when reporting: the
 * distributions net of the overhead's median (tp_hist_net(), a figure below
 * it counts 0: one huge overhead outlier cannot make a load negative), and
 * the original program's "Average ... access" lines, mean minus mean.
 *
 * Why each fence is where it is (selftests/host/bench_cache.c removes each
 * in turn and shows the difference):
 *
 *  1. lfence before the first rdtsc: the start is read only once every
 *     earlier instruction has completed, so neither the previous round's
 *     bookkeeping nor the clflush and mfence are counted in the interval.
 *  2. lfence after the first rdtsc: the load cannot begin before the start
 *     was read; without it the load runs in rdtsc's shadow and part (for a
 *     cached load all) of its latency is hidden.
 *  3. lfence before the second rdtsc: the end is read only once the load
 *     has completed.  Without it rdtsc does not wait for the load at all,
 *     and an uncached load measures about the same as a cached one.
 *  4. lfence after the second rdtsc: later instructions (the recording,
 *     the next clflush) cannot start before the end was read and steal
 *     cycles from it.
 *  5. mfence after clflush: clflush is ordered only by mfence; without it
 *     the load waits for the flush inside the interval (or, on some cores,
 *     overtakes it and hits), counting the flush instead of the miss.
 *
 * The original program also put an lfence between mfence and the bracket:
 * fence 1 is that lfence, and a second one changes nothing (its author
 * wondered whether he had too many fences: that one was).
 *
 * The order overhead, uncached, cached makes the cached load follow the
 * uncached load of the same line by a few instructions: its line is in L1
 * whatever happened before the round (a sleep between two windows, the
 * snapshot copy).  The victim sits in the state's own page, whose
 * translation is hot: "uncached" is a cache miss, not a TLB miss.
 *
 * Even the cached net is not the load-to-use latency of a pointer chase:
 * after a fence a load is dispatched, completes and retires before the
 * closing fence lets rdtsc run, and that costs a few cycles more than the
 * empty bracket (about 2x the L1 latency on the machines measured; see
 * Documentation/cache.rst).  core/chase.h measures load-to-use latency.
 */
#ifndef TSCPROBE_CORE_CACHE_H
#define TSCPROBE_CORE_CACHE_H

#include <linux/tscprobe.h>
#include "host.h"
#include "hist.h"
#include "pace.h"
#include "stats.h"
#include "tsc.h"

/* Series per round, indexed by TP_CACHE_IDX(enum tscprobe_series). */
#define TP_CACHE_SERIES		3
#define TP_CACHE_IDX(series)	((series) - TSCPROBE_SERIES_OVERHEAD)
#define TP_CACHE_ID(idx)	((idx) + TSCPROBE_SERIES_OVERHEAD)

/* Block lengths of the windows: 1e3, 1e5 and 1e6 rounds. */
#define TP_CACHE_WINDOWS	3
#define TP_CACHE_BLOCK		1000

/* Memory levels: working sets of 2^12 (4 KiB) to 2^28 (256 MiB) bytes. */
#define TP_CACHE_LEVEL_MIN_SHIFT	12
#define TP_CACHE_LEVEL_MAX_SHIFT	28
#define TP_CACHE_MAX_LEVELS	\
	(TP_CACHE_LEVEL_MAX_SHIFT - TP_CACHE_LEVEL_MIN_SHIFT + 1)
/* NUMA nodes probed by --nodes (the first ones with memory). */
#define TP_CACHE_MAX_NODES	64
/* Uncached loads per node and CPU for --nodes (fewer if rounds are). */
#define TP_CACHE_NODE_ROUNDS	100000

/* The strings the bracket is made of; variants leave one out. */
#define TP_LFENCE	"lfence\n\t"
#define TP_NOFENCE	""
#define TP_FLUSH	"clflush (%[p])\n\tmfence\n\t"
#define TP_LOAD		"mov (%[p]), %[v]\n\t"

/**
 * TP_CACHE_TIMER() - define one timed measurement
 * @name: the function's name
 * @pre: what runs before the bracket (TP_FLUSH for the uncached load)
 * @f1: fence before the first rdtsc
 * @f2: fence after the first rdtsc
 * @f3: fence before the second rdtsc
 * @f4: fence after the second rdtsc
 * @body: what is timed: TP_LOAD, or nothing for the overhead
 *
 * Defines "uint64_t name(const void *p, uint64_t *end)": the TSC
 * cycles between the two reads, and the second read in *@end (the caller's
 * deadline check is free).  One asm statement, so the compiler can put
 * nothing inside the bracket; the start is copied out of EAX/EDX before
 * fence 2, as register moves that cost nothing measurable and are in the
 * overhead too.  Every output is early-clobber: the first rdtsc writes
 * EAX/EDX before @p is used, so @p must live in neither.  The measurement
 * exists once, here: the loops below use it with every fence, and the
 * benchmark without one at a time.
 */
#define TP_CACHE_TIMER(name, pre, f1, f2, f3, f4, body)			\
static tp_always_inline uint64_t name(const void *p,		\
				      uint64_t *end)			\
{									\
	uint64_t lo0, hi0, lo1, hi1, v;					\
									\
	__asm__ __volatile__(pre f1 "rdtsc\n\t"				\
			     "mov %%eax, %k[lo0]\n\t"			\
			     "mov %%edx, %k[hi0]\n\t"			\
			     f2 body f3 "rdtsc\n\t" f4			\
			     : [lo0] "=&r" (lo0), [hi0] "=&r" (hi0),	\
			       [v] "=&r" (v), "=&a" (lo1), "=&d" (hi1)	\
			     : [p] "r" (p)				\
			     : "memory");				\
	(void)v;							\
	*end = tp_tsc_join(lo1, hi1);					\
	return *end - tp_tsc_join(lo0, hi0);				\
}

TP_CACHE_TIMER(tp_cache_time_overhead, "", TP_LFENCE, TP_LFENCE, TP_LFENCE,
	       TP_LFENCE, "")
TP_CACHE_TIMER(tp_cache_time_uncached, TP_FLUSH, TP_LFENCE, TP_LFENCE,
	       TP_LFENCE, TP_LFENCE, TP_LOAD)
TP_CACHE_TIMER(tp_cache_time_cached, "", TP_LFENCE, TP_LFENCE, TP_LFENCE,
	       TP_LFENCE, TP_LOAD)

/**
 * struct tp_cache_window - one block length's averages, exact
 * @cur: sum of the current (incomplete) block
 * @sum: sum of the most recent complete block
 * @blocks: complete blocks so far
 *
 * Blocks tumble: rounds 1..N form the first block, N+1..2N the second, and
 * so on.  "The last 1e5 rounds" is the most recent complete block of 1e5
 * consecutive rounds, and exists once 1e5 rounds ran.  Three words per
 * block length instead of a ring of N values, and exact.
 */
struct tp_cache_window {
	uint64_t cur;
	uint64_t sum;
	uint64_t blocks;
};

/**
 * struct tp_cache_series - everything recorded for one kind of measurement
 * @stats: count, min, max, sum, sum of squares (gross cycles)
 * @win: block averages for 1e3, 1e5 and 1e6 rounds
 * @hist: histogram of the gross cycles
 */
struct tp_cache_series {
	struct tp_stats stats;
	struct tp_cache_window win[TP_CACHE_WINDOWS];
	struct tp_hist hist;
};

/**
 * struct tp_cache - the state of one CPU's cache measurement
 * @victim: the line that is loaded and flushed (first of two lines, so
 *	that an adjacent-line prefetch of a neighbour never brings it back)
 * @pace: rounds done (@pace.units) and the cycles they took in windows
 * @block_left: rounds left in the current block of TP_CACHE_BLOCK
 * @s: the series, indexed by TP_CACHE_IDX()
 *
 * The caller allocates it 128-byte aligned (page aligned in practice) on
 * the measuring CPU's NUMA node.
 */
struct tp_cache {
	uint64_t victim[16] tp_aligned(128);
	struct tp_pace pace;
	uint32_t block_left;
	struct tp_cache_series s[TP_CACHE_SERIES];
};

/**
 * struct tp_latency - one point of a latency curve
 * @size: working set in bytes (memory levels), 0 for a node
 * @node: the memory's NUMA node (--nodes)
 * @loads: loads timed
 * @cycles: their total, gross: the chase's bracket once per
 *	TP_CHASE_UNIT loads (levels), every uncached measurement's bracket
 *	(nodes)
 */
struct tp_latency {
	uint64_t size;
	uint32_t node;
	uint64_t loads;
	uint64_t cycles;
};

/**
 * struct tp_node_probe - uncached loads of one line on a given node
 * @line: the line, on the node probed
 * @pace: the pace of the probe's windows
 * @lat: the result (node, loads, gross cycles)
 */
struct tp_node_probe {
	const void *line;
	struct tp_pace pace;
	struct tp_latency lat;
};

uint64_t tp_cache_window_rounds(unsigned int k);
void tp_cache_init(struct tp_cache *c);
void tp_cache_record(struct tp_cache *c, uint64_t overhead, uint64_t cached,
		     uint64_t uncached);
uint64_t tp_cache_batch(void *cache, uint64_t rounds);
uint64_t tp_cache_node_batch(void *probe, uint64_t rounds);

#endif /* TSCPROBE_CORE_CACHE_H */
