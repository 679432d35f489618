// SPDX-License-Identifier: GPL-2.0
#include "hist.h"

#define TP_PPM			1000000U

/* The log2 table's bucket of @v. */
static inline unsigned int tp_fls64(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

static inline unsigned int tp_hist_clamp(unsigned int idx)
{
	return idx < TSCPROBE_HIST_BUCKETS ? idx : TSCPROBE_HIST_BUCKETS - 1;
}

/* log2 of the width of a (clamped) bucket: 0 in the exact range. */
static unsigned int tp_hist_bucket_shift(unsigned int idx)
{
	if (idx < 2 << TSCPROBE_HIST_SUB_BITS)
		return 0;
	return (idx >> TSCPROBE_HIST_SUB_BITS) - 1;
}

/* Inclusive bounds of a bucket; an index past the end means the last. */
uint64_t tp_hist_bucket_lo(unsigned int idx)
{
	unsigned int s;

	idx = tp_hist_clamp(idx);
	s = tp_hist_bucket_shift(idx);
	return (uint64_t)(idx - (s << TSCPROBE_HIST_SUB_BITS)) << s;
}

uint64_t tp_hist_bucket_hi(unsigned int idx)
{
	idx = tp_hist_clamp(idx);
	return tp_hist_bucket_lo(idx) +
	       (((uint64_t)1 << tp_hist_bucket_shift(idx)) - 1);
}

/* Not memset(): core/ links against neither libc nor the kernel's. */
void tp_hist_reset(struct tp_hist *h)
{
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		h->b[i].calls = 0;
		h->b[i].cycles = 0;
	}
}

void tp_hist_merge(struct tp_hist *dst, const struct tp_hist *src)
{
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		dst->b[i].calls += src->b[i].calls;
		dst->b[i].cycles += src->b[i].cycles;
	}
}

static uint64_t tp_hist_total(const struct tp_hist *h, bool cycles)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++)
		n += cycles ? h->b[i].cycles : h->b[i].calls;
	return n;
}

uint64_t tp_hist_count(const struct tp_hist *h)
{
	return tp_hist_total(h, false);
}

/* Modulo 2^64. */
uint64_t tp_hist_sum(const struct tp_hist *h)
{
	return tp_hist_total(h, true);
}

/*
 * ceil(ppm * n / 1e6), at least 1, without a 128-bit product: with
 * n = q * 1e6 + r, ppm * q <= n and ppm * r < 1e12 both fit in 64 bits.
 */
static uint64_t tp_hist_rank(uint64_t n, uint32_t ppm)
{
	uint64_t q = n / TP_PPM, r = n % TP_PPM;
	uint64_t rank;

	if (ppm > TP_PPM)
		ppm = TP_PPM;
	rank = ppm * q + ((uint64_t)ppm * r + TP_PPM - 1) / TP_PPM;
	return rank ? rank : 1;
}

/*
 * Rounded half up without overflow, and clamped to the bucket: a mean
 * outside it comes from a wrapped sum, where the bound is the better guess.
 */
static uint64_t tp_hist_bucket_mean(const struct tp_hist *h, unsigned int idx)
{
	uint64_t calls = h->b[idx].calls, cycles = h->b[idx].cycles;
	uint64_t mean = cycles / calls, rem = cycles % calls;
	uint64_t lo = tp_hist_bucket_lo(idx), hi = tp_hist_bucket_hi(idx);

	if (rem >= calls - rem)
		mean++;
	if (mean < lo)
		return lo;
	return mean > hi ? hi : mean;
}

/**
 * tp_hist_percentile() - a percentile of the recorded values, nearest rank
 * @h: the histogram
 * @ppm: which one, in parts per million (capped at 1000000, the top)
 *
 * The mean of the bucket holding the rank stands in for the value: both lie
 * in the bucket, so the error is under 6.25 %, and the mean is usually far
 * closer than a bound (a loop period is a spike).
 *
 * Return: the estimate, or 0 if @h is empty.
 */
uint64_t tp_hist_percentile(const struct tp_hist *h, uint32_t ppm)
{
	uint64_t n = tp_hist_count(h), rank, seen = 0;
	unsigned int i;

	if (!n)
		return 0;
	rank = tp_hist_rank(n, ppm);
	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		seen += h->b[i].calls;
		if (seen >= rank)
			return tp_hist_bucket_mean(h, i);
	}
	return 0;	/* not reached: rank <= n */
}

/**
 * tp_hist_net() - the values net of a base, none below zero
 * @h: the histogram
 * @base: what each value is net of (the cache overhead's median)
 * @below: set to how many values lie below @base
 *
 * A bucket counts as below when its mean is (Documentation/cache.rst, "Net
 * figures").
 *
 * Return: the sum of max(value - @base, 0) over the values.
 */
uint64_t tp_hist_net(const struct tp_hist *h, uint64_t base, uint64_t *below)
{
	uint64_t sum = 0, calls, cycles;
	unsigned int i;

	*below = 0;
	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		calls = h->b[i].calls;
		if (!calls)
			continue;
		if (tp_hist_bucket_mean(h, i) < base) {
			*below += calls;
			continue;
		}
		cycles = h->b[i].cycles;
		/* The mean was rounded: never let the sum go below 0. */
		if (cycles > calls * base)
			sum += cycles - calls * base;
	}
	return sum;
}

/*
 * A bucket's values count as its mean minus @base, at least 0, as in
 * tp_hist_net().  Log2 bucket k = fls64(v) holds [2^(k-1), 2^k - 1].
 */
void tp_hist_fold_log2_net(const struct tp_hist *h, uint64_t base,
			   uint64_t calls[TP_LOG2_BUCKETS],
			   uint64_t cycles[TP_LOG2_BUCKETS])
{
	uint64_t mean, n;
	unsigned int i, k;

	for (k = 0; k < TP_LOG2_BUCKETS; k++) {
		calls[k] = 0;
		cycles[k] = 0;
	}
	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		n = h->b[i].calls;
		if (!n)
			continue;
		mean = tp_hist_bucket_mean(h, i);
		k = mean > base ? tp_fls64(mean - base) : 0;
		calls[k] += n;
		if (k && h->b[i].cycles > n * base)
			cycles[k] += h->b[i].cycles - n * base;
	}
}

/* Exact: no histogram bucket straddles a power of two. */
void tp_hist_fold_log2(const struct tp_hist *h,
		       uint64_t calls[TP_LOG2_BUCKETS],
		       uint64_t cycles[TP_LOG2_BUCKETS])
{
	tp_hist_fold_log2_net(h, 0, calls, cycles);
}

/* Inclusive bounds of log2 bucket @k (past 64 means 64). */
uint64_t tp_log2_lo(unsigned int k)
{
	if (k > 64)
		k = 64;
	return k ? (uint64_t)1 << (k - 1) : 0;
}

uint64_t tp_log2_hi(unsigned int k)
{
	uint64_t lo = tp_log2_lo(k);

	return lo ? (lo << 1) - 1 : 0;
}
