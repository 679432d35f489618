// SPDX-License-Identifier: GPL-2.0
/*
 * The cache rounds, their recording into statistics, histograms and block
 * averages, and the per-node probe of --nodes.  The timed measurements are
 * in cache.h; the loops that run them in windows are in pace.c.
 */
#include "cache.h"

/* Each block length is this many of the one before (1e3, 1e5, 1e6). */
static const uint32_t tp_cache_block_ratio[TP_CACHE_WINDOWS] = {
	TP_CACHE_BLOCK, 100, 10,
};

/**
 * tp_cache_window_rounds() - the block length of a window
 * @k: 0..TP_CACHE_WINDOWS - 1
 *
 * Return: 1000, 100000 or 1000000 rounds; 0 for any other @k.
 */
uint64_t tp_cache_window_rounds(unsigned int k)
{
	uint64_t rounds = 1;
	unsigned int i;

	if (k >= TP_CACHE_WINDOWS)
		return 0;
	for (i = 0; i <= k; i++)
		rounds *= tp_cache_block_ratio[i];
	return rounds;
}

/**
 * tp_cache_init() - start a cache measurement
 * @c: the state
 *
 * Clearing the histograms also warms them, so that the first window does
 * not pay for their cache misses.
 */
void tp_cache_init(struct tp_cache *c)
{
	unsigned int i, k;

	for (i = 0; i < TP_ARRAY_SIZE(c->victim); i++)
		c->victim[i] = 0;
	c->pace.units = 0;
	c->pace.cycles = 0;
	c->block_left = TP_CACHE_BLOCK;
	for (i = 0; i < TP_CACHE_SERIES; i++) {
		tp_stats_init(&c->s[i].stats);
		for (k = 0; k < TP_CACHE_WINDOWS; k++) {
			c->s[i].win[k].cur = 0;
			c->s[i].win[k].sum = 0;
			c->s[i].win[k].blocks = 0;
		}
		tp_hist_reset(&c->s[i].hist);
	}
}

/*
 * A block of TP_CACHE_BLOCK rounds is complete: it becomes the last 1e3
 * block and is added to the current 1e5 block; every 100th also completes
 * that one, which is added to the current 1e6 block, and every 10th of
 * those completes it.  Longer blocks are sums of whole shorter ones, so
 * each round is added once, to one running sum per series.
 */
static void tp_cache_close_blocks(struct tp_cache *c)
{
	struct tp_cache_window *w;
	unsigned int i, k;

	for (k = 0; k < TP_CACHE_WINDOWS; k++) {
		for (i = 0; i < TP_CACHE_SERIES; i++) {
			w = &c->s[i].win[k];
			w->sum = w->cur;
			w->cur = 0;
			w->blocks++;
			if (k + 1 < TP_CACHE_WINDOWS)
				c->s[i].win[k + 1].cur += w->sum;
		}
		if (k + 1 == TP_CACHE_WINDOWS ||
		    c->s[0].win[k].blocks % tp_cache_block_ratio[k + 1])
			break;
	}
}

static tp_always_inline void tp_cache_add(struct tp_cache_series *s,
					  uint64_t v)
{
	tp_stats_add(&s->stats, v);
	tp_hist_add(&s->hist, v);
	s->win[0].cur += v;
}

/* One round's values, gross; the round counter itself is the pace's. */
static tp_always_inline void tp_cache_add_round(struct tp_cache *c,
						uint64_t overhead,
						uint64_t cached,
						uint64_t uncached)
{
	tp_cache_add(&c->s[TP_CACHE_IDX(TSCPROBE_SERIES_OVERHEAD)], overhead);
	tp_cache_add(&c->s[TP_CACHE_IDX(TSCPROBE_SERIES_CACHED)], cached);
	tp_cache_add(&c->s[TP_CACHE_IDX(TSCPROBE_SERIES_UNCACHED)], uncached);
	if (tp_unlikely(!--c->block_left)) {
		tp_cache_close_blocks(c);
		c->block_left = TP_CACHE_BLOCK;
	}
}

/**
 * tp_cache_record() - record one round measured elsewhere
 * @c: the state
 * @overhead: gross cycles of the empty measurement
 * @cached: gross cycles of the cached load
 * @uncached: gross cycles of the uncached load
 *
 * What tp_cache_batch() does with a round it measured, including counting
 * it: for tests and for replaying recorded rounds.
 */
void tp_cache_record(struct tp_cache *c, uint64_t overhead, uint64_t cached,
		     uint64_t uncached)
{
	tp_cache_add_round(c, overhead, cached, uncached);
	c->pace.units++;
}

/**
 * tp_cache_batch() - measure and record rounds back to back
 * @cache: the struct tp_cache
 * @rounds: how many, at least 1
 *
 * A tp_batch_fn for tp_paced_window(), which counts the rounds.
 *
 * Return: the TSC read at the end of the last round.
 */
uint64_t tp_cache_batch(void *cache, uint64_t rounds)
{
	struct tp_cache *c = cache;
	const void *v = c->victim;
	uint64_t ov, un, ca, end = 0;

	while (rounds--) {
		ov = tp_cache_time_overhead(v, &end);
		un = tp_cache_time_uncached(v, &end);
		ca = tp_cache_time_cached(v, &end);
		tp_cache_add_round(c, ov, ca, un);
	}
	return end;
}

/**
 * tp_cache_node_batch() - uncached loads of a line on a chosen node
 * @probe: the struct tp_node_probe
 * @rounds: how many, at least 1
 *
 * The uncached measurement of a round, alone, on another line: the miss
 * then goes to the memory of the node that holds the line.
 *
 * Return: the TSC read at the end of the last load.
 */
uint64_t tp_cache_node_batch(void *probe, uint64_t rounds)
{
	struct tp_node_probe *np = probe;
	uint64_t end = 0;

	np->lat.loads += rounds;
	while (rounds--)
		np->lat.cycles += tp_cache_time_uncached(np->line, &end);
	return end;
}
