// SPDX-License-Identifier: GPL-2.0
/*
 * The skew hand-off and its analysis.
 *
 * The original skew program's lessons, kept here: the logs must stay in L1 (a
 * miss costs up to 1400 cycles and swamps a ~200-cycle hand-off), so each
 * side writes only its own page-aligned log and the shared counter; the
 * first TSCPROBE_SKEW_WARMUP entries are skipped while the caches settle;
 * "lfence" before rdtsc keeps the read after the load that saw the counter;
 * "sfence" after the log store halves the variance (4 cycles to 2).
 *
 * What it adds: the spin on the counter checks the abort flag and a TSC
 * deadline every TP_SKEW_SPINS loads.  The loads stay back to back (no
 * pause, which costs up to 140 cycles on recent cores and would add to
 * the latency measured); the deadline check costs one rdtsc per batch,
 * and a hand-off landing during it is seen at most one rdtsc late.
 */
#include "skew.h"
#include "tsc.h"

tp_static_assert(TP_SKEW_MET == (1U << TP_SKEW_MASTER | 1U << TP_SKEW_SLAVE),
		 "a bit per side in struct tp_skew_sync's meet");

/* Loads of the counter between two checks of the abort flag and clock. */
#define TP_SKEW_SPINS	64

/*
 * The shared words are read and written by the other side concurrently:
 * single relaxed accesses (plain movs on x86) that the compiler may neither
 * merge, tear nor hoist out of a spin loop.  Ordering comes from the
 * fences around them.
 */
static tp_always_inline uint32_t tp_load32(const uint32_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static tp_always_inline void tp_store32(uint32_t *p, uint32_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELAXED);
}

/**
 * tp_skew_sync_init() - make the shared words ready for a pair
 * @s: the shared words
 *
 * Only while neither side runs: the controller calls it between pairs.
 */
void tp_skew_sync_init(struct tp_skew_sync *s)
{
	tp_store32(&s->head, 0);
	tp_store32(&s->meet, 0);
	tp_store32(&s->abort, 0);
	tp_barrier();
}

/**
 * tp_skew_abort() - tell both sides to stop waiting
 * @s: the shared words
 *
 * For the side that gives up, and for a controller that cancels a pair
 * whose other side will never come.
 */
void tp_skew_abort(struct tp_skew_sync *s)
{
	tp_store32(&s->abort, 1);
}

/*
 * Spin until *@p == @want.  The inner loop is only loads and compares, so
 * a change of the line is seen one load after it arrives.
 */
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

/**
 * tp_skew_here() - say this side has arrived
 * @s: the shared words
 * @side: TP_SKEW_MASTER or TP_SKEW_SLAVE
 */
void tp_skew_here(struct tp_skew_sync *s, unsigned int side)
{
	__atomic_fetch_or(&s->meet, 1U << side, __ATOMIC_SEQ_CST);
}

/**
 * tp_skew_partner() - one look for the other side
 * @s: the shared words
 *
 * For a caller that has said it is here and waits for its partner in its own way (the module
 * waits preemptibly; see kmod/skew.c) and keeps its own deadline.
 *
 * Return: TP_SKEW_OK when both sides are here, TP_SKEW_ABORTED when the
 * pair was given up, -1 when neither (yet).
 */
int tp_skew_partner(const struct tp_skew_sync *s)
{
	if (tp_load32(&s->abort))
		return TP_SKEW_ABORTED;
	return tp_load32(&s->meet) == TP_SKEW_MET ? TP_SKEW_OK : -1;
}

/**
 * tp_skew_leave() - withdraw this side's arrival, unless the sides met
 * @s: the shared words
 * @side: this side, which has said it is here
 *
 * For a side that must not stay "here" while it can be preempted: a
 * partner that saw it here would start the hand-off with interrupts off
 * and wait for a side that is not running.  The module says it is here
 * only with preemption off, looks for a while, and leaves before it lets
 * the scheduler in.  Leaving and meeting are one compare-and-swap on one
 * word, so exactly one of them happens: once both sides are here, neither
 * can leave, and both go on to the hand-off.
 *
 * Return: true when this side left; false when the sides had met, and
 * this side must go on with the hand-off.
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

/**
 * tp_skew_arrive() - say this side is here and wait for the other
 * @s: the shared words
 * @side: TP_SKEW_MASTER or TP_SKEW_SLAVE
 * @lim: @lim->arrive bounds the wait
 *
 * Called with interrupts still on: the partner may need a wake-up and a
 * context switch to get here, and that wait should not be an
 * interrupts-off one.  Once both have arrived, each disables interrupts
 * (where it can) and calls tp_skew_side() within microseconds.
 *
 * Return: enum tp_skew_end.
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
 * @lim: @lim->wait bounds every wait since the last hand-off, @lim->cap
 *	the whole log
 *
 * The master logs at counts 0, 2, 4, ..., the slave at 1, 3, 5, ...: each
 * waits for its count, reads the TSC, logs it and passes the counter on.
 * A side that gives up (or sees the other give up) stops at once; its log
 * is then incomplete and the pair has no numbers.
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

/**
 * tp_skew_stats_init() - empty statistics of a pair
 * @st: the statistics
 */
void tp_skew_stats_init(struct tp_skew_stats *st)
{
	st->nr = 0;
	st->discarded = 0;
	tp_sstats_init(&st->latij);
	tp_sstats_init(&st->latji);
	tp_sstats_init(&st->skew2);
	tp_sstats_init(&st->one_way2);
}

/**
 * tp_skew_stats_merge() - add one repeat's statistics to a pair's
 * @dst: the pair's statistics
 * @src: the repeat's
 */
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

/* The round trip of sample @r: two reads on the master's CPU, no skew. */
static tp_always_inline uint64_t tp_skew_rt(const uint64_t *master,
					    uint32_t r)
{
	return master[r + 1] - master[r];
}

/*
 * The median round trip of samples [@first, @last): the smallest x that at
 * least half of them do not exceed, by bisection on the value between the
 * shortest @lo and the longest @hi.  No scratch memory and no sort: at
 * most 64 passes over a log that is in the cache anyway.
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
 * @st: the pair's statistics (from tp_skew_stats_init()); added to
 * @master: the master's log, TP_SKEW_ENTRIES(@samples) entries
 * @slave: the slave's log, as long
 * @samples: samples to take: r = WARMUP .. WARMUP + @samples - 1
 *
 * Interrupts off (the module) stop neither SMIs, NMIs nor a hypervisor
 * that deschedules a vCPU, and interrupts on (the userspace engine) stop
 * nothing: a sample that any of these hit carries microseconds to
 * milliseconds in one direction, and one of them in 256 moves the mean
 * skew by thousands of cycles and inflates its deviation enough to pass
 * the in-sync test.  Such samples are dropped, in both engines alike.
 *
 * The filter looks at the round trip master[r + 1] - master[r] = latij +
 * latji, read on one CPU and so free of skew: whatever delays either side
 * at any point of the sample lengthens it.  A sample is dropped when its
 * round trip exceeds TP_SKEW_PREEMPT_FACTOR times the repeat's shortest
 * plus TP_SKEW_PREEMPT_SLACK (the original's fixed 1999 cycles per direction,
 * made relative, so that slow pairs -- other packages, virtual machines
 * -- keep their samples), or TP_SKEW_MEDIAN_FACTOR times the median round
 * trip (a disturbance shorter than that slack, an NMI of a microsecond or
 * two, still outweighs the hand-off).  The median keeps at least half of
 * the samples by itself; fewer than half kept means most of the repeat was
 * disturbed (tp_skew_sound()).
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

/**
 * tp_skew_sound() - whether a pair's estimate may be trusted
 * @st: the pair's statistics
 *
 * Sound when it has samples and at most as many were dropped as kept: a
 * pair whose every repeat was mostly disturbed (a loaded host, a noisy SMT
 * sibling) is reported, but is neither judged in sync or not, nor a TSC
 * offset for later runs.
 *
 * Return: true when sound.
 */
bool tp_skew_sound(const struct tp_skew_stats *st)
{
	return st->nr && st->discarded <= st->nr;
}

/**
 * tp_skew_in_sync() - whether a pair's TSCs agree within the noise
 * @st: the pair's statistics, sound (tp_skew_sound()): an unsound pair
 *	is not judged
 *
 * Two tests, both on the measurement's own figures:
 *
 * Causality: a TSC read on i that certainly came before a read on j must
 * be smaller, so min latij > 0 and min latji > 0; otherwise the offset
 * between the two TSCs is provably larger than a hand-off.  (This bound,
 * |offset| < min one-way, holds whatever the latencies; it is what the
 * kernel's own TSC sync check tests.)
 *
 * Symmetry: assuming the hand-off costs the same both ways, the skew is
 * the offset; it is "within the noise" when |avg skew| <= 3 * sd(skew) +
 * 1 cycle (the 1 for the halving and for the TSC's own granularity).
 * Computed on the doubled values: |avg skew2| <= 3 * sd(skew2) + 2.
 *
 * Return: true when both hold.
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
