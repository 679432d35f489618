/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache measurement: one load timed cached and just flushed, net of what
 * the timing costs.  The method, and why each fence is where it is, are in
 * Documentation/cache.rst; core/chase.h measures load-to-use latency.
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

/* Tumbling blocks of one length (Documentation/cache.rst, "Windows"). */
struct tp_cache_window {
	uint64_t cur;
	uint64_t sum;
	uint64_t blocks;
};

/* One series, gross cycles. */
struct tp_cache_series {
	struct tp_stats stats;
	struct tp_cache_window win[TP_CACHE_WINDOWS];
	struct tp_hist hist;
};

/*
 * One CPU's cache measurement, allocated on its node.  The victim is the
 * first of two lines, so that an adjacent-line prefetch never brings it back.
 */
struct tp_cache {
	uint64_t victim[16] tp_aligned(128);
	struct tp_pace pace;
	uint32_t block_left;
	struct tp_cache_series s[TP_CACHE_SERIES];
};

/*
 * One point of a latency curve: a working set of @size bytes, or @node's
 * memory (@size 0).  @cycles are gross: one bracket per TP_CHASE_UNIT loads
 * for a level, one per load for a node.
 */
struct tp_latency {
	uint64_t size;
	uint32_t node;
	uint64_t loads;
	uint64_t cycles;
};

/* Uncached loads of @line, which lies on the node probed. */
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
