/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exact integer running statistics: they merge exactly across CPUs and
 * runs, and the mean and deviation need no floating point.
 */
#ifndef TSCPROBE_CORE_STATS_H
#define TSCPROBE_CORE_STATS_H

#include "host.h"

/* The 128-bit sum of squares is split as netlink carries it (SUMSQ_HI/LO). */
struct tp_stats {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum;
	uint64_t sumsq_hi;
	uint64_t sumsq_lo;
};

/* For skew's TSC differences; layout of TSCPROBE_STAT_A_*. */
struct tp_sstats {
	uint64_t count;
	int64_t min;
	int64_t max;
	int64_t sum;
	uint64_t sumsq_hi;
	uint64_t sumsq_lo;
};

void tp_stats_init(struct tp_stats *s);
void tp_stats_add(struct tp_stats *s, uint64_t v);
void tp_stats_merge(struct tp_stats *dst, const struct tp_stats *src);
uint64_t tp_stats_mean(const struct tp_stats *s);
uint64_t tp_stats_sd(const struct tp_stats *s);
uint64_t tp_stats_sd_div(const struct tp_stats *s, uint64_t k);
uint64_t tp_isqrt128(uint64_t hi, uint64_t lo);

void tp_sstats_init(struct tp_sstats *s);
void tp_sstats_add(struct tp_sstats *s, int64_t v);
void tp_sstats_merge(struct tp_sstats *dst, const struct tp_sstats *src);
int64_t tp_sdiv_round(int64_t a, uint64_t b);
int64_t tp_sstats_mean_div(const struct tp_sstats *s, uint64_t k);
uint64_t tp_sstats_sd_div(const struct tp_sstats *s, uint64_t k);

#endif /* TSCPROBE_CORE_STATS_H */
