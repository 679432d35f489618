/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running statistics of a series: count, min, max, sum and the sum of
 * squares, all exact integers, so that results from several CPUs or runs
 * merge exactly and the mean and standard deviation are computed once, at
 * the end, without floating point (the kernel has none).
 */
#ifndef TSCPROBE_CORE_STATS_H
#define TSCPROBE_CORE_STATS_H

#include "host.h"

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

/**
 * struct tp_sstats - running statistics of signed values
 * @count: values added
 * @min: smallest value; INT64_MAX while @count is 0
 * @max: largest value; INT64_MIN while @count is 0
 * @sum: their sum; exact while count * max |value| < 2^63
 * @sumsq_hi: high 64 bits of the sum of their squares
 * @sumsq_lo: low 64 bits of the sum of their squares
 *
 * The skew measurement's quantities are differences of two CPUs' TSCs,
 * negative as often as not.  The layout is that of TSCPROBE_STAT_A_*.
 */
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
