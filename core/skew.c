// SPDX-License-Identifier: GPL-2.0
#include "skew.h"
#include "tsc.h"

tp_static_assert(TP_SKEW_MET == (1U << TP_SKEW_MASTER | 1U << TP_SKEW_SLAVE),
		 "a bit per side in struct tp_skew_sync's meet");

/* Loads of the counter between two checks of abort and clock; no pause. */
#define TP_SKEW_SPINS	64

/*
 * Relaxed accesses (plain movs) the compiler may not merge, tear or hoist
 * out of a spin; ordering comes from the fences around them.
 */
static tp_always_inline uint32_t tp_load32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static tp_always_inline void tp_store32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/* Only while neither side runs. */
void tp_skew_sync_init(struct tp_skew_sync *s)
{
	tp_store32(&s->head, 0);
	tp_store32(&s->meet, 0);
	tp_store32(&s->abort, 0);
	tp_barrier();
}

/* By the side that gives up, or a controller cancelling the pair. */
void tp_skew_abort(struct tp_skew_sync *s)
{
	tp_store32(&s->abort, 1);
}

/* Only loads and compares: a change is seen one load after it arrives. */
static tp_always_inline int tp_skew_wait(struct tp_skew_sync *s,
					 const uint32_t *p, uint32_t want,
					 uint64_t deadline)
{
	unsigned int i;

	for (;;) {
		for (i = 0; i < TP_SKEW_SPINS; i++)
			if (tp_load32(p) == want)
				return TP_SKEW_OK;
		if (tp_load32(&s->abort))
			return TP_SKEW_ABORTED;
		if (tp_rdtsc() >= deadline) {
			tp_skew_abort(s);
			return TP_SKEW_TIMEOUT;
		}
	}
}

void tp_skew_here(struct tp_skew_sync *s, unsigned int side)
{
	__atomic_fetch_or(&s->meet, 1U << side, __ATOMIC_SEQ_CST);
}

/* One look, for a caller that waits its own way; -1: not yet. */
int tp_skew_partner(const struct tp_skew_sync *s)
{
	if (tp_load32(&s->abort))
		return TP_SKEW_ABORTED;
	return tp_load32(&s->meet) == TP_SKEW_MET ? TP_SKEW_OK : -1;
}

/*
 * Withdraw this side's arrival before it can be preempted.  One
 * compare-and-swap, so leaving and meeting exclude each other: false means
 * the sides met and this one must go on with the hand-off.
 */
bool tp_skew_leave(struct tp_skew_sync *s, unsigned int side)
{
	uint32_t old = tp_load32(&s->meet);

	do {
		if (old == TP_SKEW_MET)
			return false;
	} while (!__atomic_compare_exchange_n(&s->meet, &old,
					      old & ~(1U << side), false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_RELAXED));
	return true;
}

/*
 * With interrupts on: the partner may need a wake-up to get here.  Returns
 * enum tp_skew_end.
 */
int tp_skew_arrive(struct tp_skew_sync *s, unsigned int side,
		   const struct tp_skew_limits *lim)
{
	int ret;

	tp_skew_here(s, side);
	ret = tp_skew_wait(s, &s->meet, TP_SKEW_MET, tp_rdtsc() + lim->arrive);
	/* A partner that arrived and already gave up is not coming back. */
	if (ret == TP_SKEW_OK && tp_load32(&s->abort))
		ret = TP_SKEW_ABORTED;
	return ret;
}

/**
 * tp_skew_side() - one side of the hand-off
 * @s: the shared words
 * @side: TP_SKEW_MASTER (CPU i) or TP_SKEW_SLAVE (CPU j)
 * @log: this side's log, @entries long, page-aligned and touched before
 * @entries: TP_SKEW_ENTRIES(samples); the same on both sides
 * @lim: bounds each wait and the whole log
 *
 * A side that gives up, or sees the other give up, stops at once.
 *
 * Return: enum tp_skew_end.
 */
int tp_skew_side(struct tp_skew_sync *s, unsigned int side, uint64_t *log,
		 uint32_t entries, const struct tp_skew_limits *lim)
{
	uint64_t prev = tp_rdtsc(), end = prev + lim->cap, deadline, t;
	uint32_t head = side, k;
	int ret;

	for (k = 0; k < entries; k++, head += 2) {
		deadline = prev + lim->wait < end ? prev + lim->wait : end;
		ret = tp_skew_wait(s, &s->head, head, deadline);
		if (ret)
			return ret;
		t = tp_rdtsc_lfence();
		log[k] = t;
		tp_sfence();
		tp_store32(&s->head, head + 1);
		prev = t;
	}
	return TP_SKEW_OK;
}

void tp_skew_stats_init(struct tp_skew_stats *st)
{
	st->nr = 0;
	st->discarded = 0;
	tp_sstats_init(&st->latij);
	tp_sstats_init(&st->latji);
	tp_sstats_init(&st->skew2);
	tp_sstats_init(&st->one_way2);
}

void tp_skew_stats_merge(struct tp_skew_stats *dst,
			 const struct tp_skew_stats *src)
{
	dst->nr += src->nr;
	dst->discarded += src->discarded;
	tp_sstats_merge(&dst->latij, &src->latij);
	tp_sstats_merge(&dst->latji, &src->latji);
	tp_sstats_merge(&dst->skew2, &src->skew2);
	tp_sstats_merge(&dst->one_way2, &src->one_way2);
}

/* Two reads on the master's CPU: no skew. */
static tp_always_inline uint64_t tp_skew_rt(const uint64_t *master,
					    uint32_t r)
{
	return master[r + 1] - master[r];
}

/*
 * By bisection on the value: no scratch memory, no sort, at most 64 passes
 * over a log that is in the cache anyway.
 */
static uint64_t tp_skew_rt_median(const uint64_t *master, uint32_t first,
				  uint32_t last, uint64_t lo, uint64_t hi)
{
	uint32_t need = (last - first + 1) / 2, n, r;
	uint64_t mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		for (n = 0, r = first; r < last; r++)
			n += tp_skew_rt(master, r) <= mid;
		if (n >= need)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/**
 * tp_skew_analyze() - add the samples of two complete logs
 * @st: the pair's statistics, added to
 * @master: the master's log, TP_SKEW_ENTRIES(@samples) entries
 * @slave: the slave's log, as long
 * @samples: samples to take, after the warm-up
 *
 * Outliers by round trip are dropped (Documentation/skew.rst, "Outliers").
 */
void tp_skew_analyze(struct tp_skew_stats *st, const uint64_t *master,
		     const uint64_t *slave, uint32_t samples)
{
	uint32_t r, first = TSCPROBE_SKEW_WARMUP, last = first + samples;
	uint64_t rt, lo = TP_U64_MAX, hi = 0, cutoff, median;
	int64_t latij, latji;

	if (!samples)
		return;
	for (r = first; r < last; r++) {
		rt = tp_skew_rt(master, r);
		lo = rt < lo ? rt : lo;
		hi = rt > hi ? rt : hi;
	}
	median = tp_skew_rt_median(master, first, last, lo, hi);
	cutoff = TP_SKEW_PREEMPT_FACTOR * lo + TP_SKEW_PREEMPT_SLACK;
	if (TP_SKEW_MEDIAN_FACTOR * median < cutoff)
		cutoff = TP_SKEW_MEDIAN_FACTOR * median;
	for (r = first; r < last; r++) {
		if (tp_skew_rt(master, r) > cutoff) {
			st->discarded++;
			continue;
		}
		latij = (int64_t)(slave[r] - master[r]);
		latji = (int64_t)(master[r + 1] - slave[r]);
		tp_sstats_add(&st->latij, latij);
		tp_sstats_add(&st->latji, latji);
		tp_sstats_add(&st->skew2, latij - latji);
		tp_sstats_add(&st->one_way2, latij + latji);
		st->nr++;
	}
}

/* An unsound pair is reported, but neither judged nor a TSC offset. */
bool tp_skew_sound(const struct tp_skew_stats *st)
{
	return st->nr && st->discarded <= st->nr;
}

/*
 * Causality and symmetry, for a sound pair (Documentation/skew.rst, "The
 * sync verdict"); on doubled values: |avg skew2| <= 3 * sd(skew2) + 2.
 */
bool tp_skew_in_sync(const struct tp_skew_stats *st)
{
	int64_t avg = tp_sstats_mean_div(&st->skew2, 1);
	uint64_t sd = tp_sstats_sd_div(&st->skew2, 1);
	uint64_t mag = avg < 0 ? -(uint64_t)avg : (uint64_t)avg;

	if (!st->nr || st->latij.min <= 0 || st->latji.min <= 0)
		return false;
	return mag <= 3 * sd + 2;
}
