/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The skew hand-off between CPUs i and j and its analysis
 * (Documentation/skew.rst).  The caller provides the CPUs, the pinning and
 * the interrupt state.  Every wait ends at a TSC deadline.
 */
#ifndef TSCPROBE_CORE_SKEW_H
#define TSCPROBE_CORE_SKEW_H

#include <linux/tscprobe.h>
#include "host.h"
#include "stats.h"

/* The side that starts (CPU i, logs at even counts) and its partner. */
#define TP_SKEW_MASTER		0
#define TP_SKEW_SLAVE		1
/* struct tp_skew_sync.meet once both sides have arrived: a bit each. */
#define TP_SKEW_MET		0x3U

/* How a side (or a wait) ended. */
enum tp_skew_end {
	TP_SKEW_OK,
	TP_SKEW_TIMEOUT,	/* a deadline passed: nothing came */
	TP_SKEW_ABORTED,	/* the partner (or the controller) gave up */
};

/* The warm-up, the samples, and one entry closing the last latji. */
#define TP_SKEW_ENTRIES(samples)	(TSCPROBE_SKEW_WARMUP + (samples) + 1)
#define TP_SKEW_MAX_ENTRIES		TP_SKEW_ENTRIES(TSCPROBE_MAX_SAMPLES)

/*
 * A round trip over FACTOR x the shortest + SLACK cycles, or MEDIAN_FACTOR
 * x the median, is an outlier (Documentation/skew.rst, "Outliers").
 */
#define TP_SKEW_PREEMPT_FACTOR	4
#define TP_SKEW_PREEMPT_SLACK	4000
#define TP_SKEW_MEDIAN_FACTOR	2

/*
 * @head, alone on its line, is the hand-off measured.  The control words
 * share a second line, only read during the hand-offs, so each check is an
 * L1 hit.  @meet is one word, so that "both here" is a state that
 * tp_skew_leave() can never undo.
 */
struct tp_skew_sync {
	uint32_t head;
	uint8_t pad_head[TP_CACHELINE - sizeof(uint32_t)];
	uint32_t meet;
	uint32_t abort;
	uint8_t pad_ctl[TP_CACHELINE - 2 * sizeof(uint32_t)];
} tp_aligned(TP_CACHELINE);

/*
 * TSC cycles a side may wait: for its partner to arrive, for the next
 * hand-off, for the whole log (with interrupts off, the longest
 * interrupts-off stretch a pair can cause, plus one @wait).
 */
struct tp_skew_limits {
	uint64_t arrive;
	uint64_t wait;
	uint64_t cap;
};

/* One ordered pair; skew and one-way are kept doubled, so halves are exact. */
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
