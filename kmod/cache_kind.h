/* SPDX-License-Identifier: GPL-2.0 */
/* The cache kind's state, which cache.c measures and cache_report.c reports. */
#ifndef TSCPROBE_KMOD_CACHE_KIND_H
#define TSCPROBE_KMOD_CACHE_KIND_H

#include <linux/types.h>

#include "core/cache.h"

struct tp_report_ops;

/* One CPU's cache state, working copy and snapshot alike. */
struct tp_cache_cpu {
	struct tp_cache loop;
	u64 windows;			/* in every phase */
	u64 first_tsc;			/* of the rounds */
	u64 last_tsc;
	u32 nlevels;
	u32 nnodes;
	struct tp_latency levels[TP_CACHE_MAX_LEVELS];	/* ascending sets */
	struct tp_latency nodes[TP_CACHE_MAX_NODES];	/* uncached, per node */
};

extern const struct tp_report_ops tp_cache_report_ops;

#endif /* TSCPROBE_KMOD_CACHE_KIND_H */
