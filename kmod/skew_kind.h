/* SPDX-License-Identifier: GPL-2.0 */
/* The skew kind's state, which skew.c measures and skew_report.c reports. */
#ifndef TSCPROBE_KMOD_SKEW_KIND_H
#define TSCPROBE_KMOD_SKEW_KIND_H

#include <linux/types.h>
#include <linux/wait.h>

#include "core/skew.h"

struct tp_report_ops;

/* One ordered pair and its result. */
struct tp_skew_pair {
	u32 i;				/* slots; i is the master */
	u32 j;
	u32 from;			/* CPUs */
	u32 to;
	u32 status;			/* SKIPPED until measured */
	u32 relation;
	u64 elapsed;			/* cycles; 0: not run */
	struct tp_skew_stats st;	/* over every repeat, if OK */
};

/* The run-wide state (run->priv). */
struct tp_skew_run {
	struct tp_skew_sync *sync;	/* the sides' words, own cache lines */
	struct tp_skew_limits lim;	/* cycles */
	u64 look;			/* TP_SKEW_LOOK_NS in cycles */
	u64 side_ns;			/* all limits added up */
	u32 entries;			/* per side */
	wait_queue_head_t ctl_wq;	/* the controller waits here */
	bool finished;			/* workers leave */
	unsigned int nr_pairs;
	unsigned int done;		/* whatever their status */
	unsigned int settled;		/* [0, settled) are final, readable */
	struct tp_skew_pair *pairs;	/* in (i, j) order */
};

extern const struct tp_report_ops tp_skew_report_ops;

#endif /* TSCPROBE_KMOD_SKEW_KIND_H */
