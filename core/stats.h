/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running statistics of a series: count, min, max, sum and the sum of
 * squares, all exact integers, so that results from several CPUs or runs
 * merge exactly and the mean and standard deviation are computed once, at
 * the end, without floating point (the kernel has none).
 */
#ifndef TSCPROBE_CORE_STATS_H
#define TSCPROBE_CORE_STATS_H

#include "compat.h"

/**
 * struct tp_stats - running statistics of unsigned values
 * @count: values added
 * @min: smallest value; UINT64_MAX while @count is 0
 * @max: largest value; 0 while @count is 0
 * @sum: their sum (modulo 2^64)
 * @sumsq_hi: high 64 bits of the sum of their squares
 * @sumsq_lo: low 64 bits of the sum of their squares
 *
 * The 128-bit sum of squares is split in two words because that is how it
 * travels over netlink (TSCPROBE_SERIES_A_SUMSQ_HI/LO).
 */
struct tp_stats {
	uint64_t count;
	uint64_t min;
	uint64_t max;
	uint64_t sum;
	uint64_t sumsq_hi;
	uint64_t sumsq_lo;
};

void tp_stats_init(struct tp_stats *s);
void tp_stats_add(struct tp_stats *s, uint64_t v);
void tp_stats_merge(struct tp_stats *dst, const struct tp_stats *src);
uint64_t tp_stats_mean(const struct tp_stats *s);
uint64_t tp_stats_sd(const struct tp_stats *s);
uint64_t tp_isqrt128(uint64_t hi, uint64_t lo);

#endif /* TSCPROBE_CORE_STATS_H */
