// SPDX-License-Identifier: GPL-2.0
/* The cache rounds, their recording, and the per-node probe of --nodes. */
#include "cache.h"

/* Each block length is this many of the one before (1e3, 1e5, 1e6). */
static const uint32_t tp_cache_block_ratio[TP_CACHE_WINDOWS] = {
	TP_CACHE_BLOCK, 100, 10,
};

/* Block length of window @k: 1e3, 1e5 or 1e6 rounds; 0 past the last. */
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

/* Clearing the histograms also warms them for the first window. */
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
 * A 1e3 block is complete; every 100th also completes a 1e5 block, every
 * 10th of those a 1e6 block.  Longer blocks sum whole shorter ones.
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

/* The round counter itself is the pace's. */
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

/* Record and count a round measured elsewhere (tests, replay). */
void tp_cache_record(struct tp_cache *c, uint64_t overhead, uint64_t cached,
		     uint64_t uncached)
{
	tp_cache_add_round(c, overhead, cached, uncached);
	c->pace.units++;
}

/* A tp_batch_fn: tp_paced_window() counts the rounds. */
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

/* A tp_batch_fn: the uncached measurement alone, on a line of one node. */
uint64_t tp_cache_node_batch(void *probe, uint64_t rounds)
{
	struct tp_node_probe *np = probe;
	uint64_t end = 0;

	np->lat.loads += rounds;
	while (rounds--)
		np->lat.cycles += tp_cache_time_uncached(np->line, &end);
	return end;
}
