/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skew measurement: two sides, pinned on CPUs i and j, hand
 * a counter back and forth; each logs its TSC into its own log every time
 * the counter comes to it.  From the two logs:
 *
 *   latij[r] = slave[r] - master[r]          i's read to j's read
 *   latji[r] = master[r + 1] - slave[r]      j's read to i's next read
 *   skew     = (latij - latji) / 2           TSC_j - TSC_i, if the two
 *                                            directions cost the same
 *   one-way  = (latij + latji) / 2           half a round trip: TSC-free
 *
 * Both sides' code is here (tp_skew_arrive(), tp_skew_side()), and so is
 * the analysis (tp_skew_analyze()), so the kernel module (interrupts off)
 * and the CLI's userspace engine run the same instructions.  The caller
 * provides the CPUs, the pinning and the interrupt state.
 *
 * Every wait on the partner ends at a TSC deadline: a side never spins for
 * a partner that is not coming.  The side that gives up raises the shared
 * abort flag so that its partner stops waiting too.
 */
#ifndef TSCPROBE_CORE_SKEW_H
#define TSCPROBE_CORE_SKEW_H

#include <linux/tscprobe.h>
#include "host.h"
#include "stats.h"

/* The side that starts (CPU i, logs at even counts) and its partner. */
#define TP_SKEW_MASTER		0
#define TP_SKEW_SLAVE		1
/* struct tp_skew_sync's @meet once both sides have arrived: a bit each. */
#define TP_SKEW_MET		0x3U

/* How a side (or a wait) ended. */
enum tp_skew_end {
	TP_SKEW_OK,
	TP_SKEW_TIMEOUT,	/* a deadline passed: nothing came */
	TP_SKEW_ABORTED,	/* the partner (or the controller) gave up */
};

/*
 * Log entries per side for a number of samples: the warm-up, the samples,
 * and one more master entry that closes the last sample's latji.
 */
#define TP_SKEW_ENTRIES(samples)	(TSCPROBE_SKEW_WARMUP + (samples) + 1)
#define TP_SKEW_MAX_ENTRIES		TP_SKEW_ENTRIES(TSCPROBE_MAX_SAMPLES)

/*
 * The outlier filter of both engines (the original's "latij > 1999", made
 * relative): a sample whose round trip exceeds TP_SKEW_PREEMPT_FACTOR
 * times the repeat's shortest plus TP_SKEW_PREEMPT_SLACK cycles, or
 * TP_SKEW_MEDIAN_FACTOR times its median, is dropped.  See
 * tp_skew_analyze().
 */
#define TP_SKEW_PREEMPT_FACTOR	4
#define TP_SKEW_PREEMPT_SLACK	4000
#define TP_SKEW_MEDIAN_FACTOR	2

/**
 * struct tp_skew_sync - what the two sides share
 * @head: the counter handed back and forth: the master logs when it is
 *	even, the slave when it is odd, and each passes it on by adding one.
 *	Alone on its cache line, so that the line moving between the two
 *	CPUs is the hand-off being measured and nothing else.
 * @pad_head: keeps the control words off @head's line
 * @meet: the sides that have arrived, a bit each (TP_SKEW_MET when both).
 *	One word, so that "both here" is one state that a side withdrawing
 *	its arrival (tp_skew_leave()) can never undo.
 * @abort: raised by a side that gave up, or by whoever runs the pair
 * @pad_ctl: fills the second line
 *
 * The control words sit on a second line that is only read during the
 * hand-offs, so it stays shared in both caches and costs an L1 hit per
 * check.  Initialise with tp_skew_sync_init() before each pair, while
 * neither side runs.
 */
struct tp_skew_sync {
	uint32_t head;
	uint8_t pad_head[TP_CACHELINE - sizeof(uint32_t)];
	uint32_t meet;
	uint32_t abort;
	uint8_t pad_ctl[TP_CACHELINE - 2 * sizeof(uint32_t)];
} tp_aligned(TP_CACHELINE);

/**
 * struct tp_skew_limits - how long a side may wait, in TSC cycles
 * @arrive: for the partner to arrive (tp_skew_arrive())
 * @wait: for the partner's next hand-off
 * @cap: for the whole log (tp_skew_side()); with interrupts off this is
 *	the longest interrupts-off stretch a pair can cause, plus one @wait
 */
struct tp_skew_limits {
	uint64_t arrive;
	uint64_t wait;
	uint64_t cap;
};

/**
 * struct tp_skew_stats - the statistics of one ordered pair
 * @nr: samples used
 * @discarded: samples dropped as outliers (tp_skew_analyze())
 * @latij: slave[r] - master[r]
 * @latji: master[r + 1] - slave[r]
 * @skew2: latij - latji, twice the skew (halves stay exact)
 * @one_way2: latij + latji, twice the one-way latency (the round trip)
 */
struct tp_skew_stats {
	uint32_t nr;
	uint32_t discarded;
	struct tp_sstats latij;
	struct tp_sstats latji;
	struct tp_sstats skew2;
	struct tp_sstats one_way2;
};

void tp_skew_sync_init(struct tp_skew_sync *s);
void tp_skew_abort(struct tp_skew_sync *s);
void tp_skew_here(struct tp_skew_sync *s, unsigned int side);
int tp_skew_partner(const struct tp_skew_sync *s);
bool tp_skew_leave(struct tp_skew_sync *s, unsigned int side);
int tp_skew_arrive(struct tp_skew_sync *s, unsigned int side,
		   const struct tp_skew_limits *lim);
int tp_skew_side(struct tp_skew_sync *s, unsigned int side, uint64_t *log,
		 uint32_t entries, const struct tp_skew_limits *lim);
void tp_skew_stats_init(struct tp_skew_stats *st);
void tp_skew_stats_merge(struct tp_skew_stats *dst,
			 const struct tp_skew_stats *src);
void tp_skew_analyze(struct tp_skew_stats *st, const uint64_t *master,
		     const uint64_t *slave, uint32_t samples);
bool tp_skew_sound(const struct tp_skew_stats *st);
bool tp_skew_in_sync(const struct tp_skew_stats *st);

#endif /* TSCPROBE_CORE_SKEW_H */
