// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram bounds, merging and the read-out side: counts, percentiles and
 * the fold into the log2 table.  The update itself is inline in
 * hist.h because it sits in the measurement loops.
 */
#include "hist.h"

#define TP_PPM			1000000U

/* The last set bit, 1..64, or 0 for 0: the log2 table's bucket number. */
static inline unsigned int tp_fls64(uint64_t v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/* Indexes past the end are treated as the last bucket. */
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

/**
 * tp_hist_bucket_lo() - the smallest value of a bucket
 * @idx: bucket index, < TSCPROBE_HIST_BUCKETS (larger ones are clamped)
 *
 * Bucket idx >= 32 holds [m << s, ((m + 1) << s) - 1] with s = idx / 16 - 1
 * and m = idx - 16 * s, the inverse of tp_hist_index().
 *
 * Return: the inclusive lower bound.
 */
uint64_t tp_hist_bucket_lo(unsigned int idx)
{
	unsigned int s;

	idx = tp_hist_clamp(idx);
	s = tp_hist_bucket_shift(idx);
	return (uint64_t)(idx - (s << TSCPROBE_HIST_SUB_BITS)) << s;
}

/**
 * tp_hist_bucket_hi() - the largest value of a bucket
 * @idx: bucket index, < TSCPROBE_HIST_BUCKETS (larger ones are clamped)
 *
 * Return: the inclusive upper bound, the lower one plus the width less 1
 * (UINT64_MAX for the last bucket, exactly, with no wrap).
 */
uint64_t tp_hist_bucket_hi(unsigned int idx)
{
	idx = tp_hist_clamp(idx);
	return tp_hist_bucket_lo(idx) +
	       (((uint64_t)1 << tp_hist_bucket_shift(idx)) - 1);
}

/**
 * tp_hist_reset() - empty a histogram
 * @h: the histogram
 *
 * A plain loop rather than memset(): core/ links against neither libc nor
 * the kernel's string functions.
 */
void tp_hist_reset(struct tp_hist *h)
{
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		h->b[i].calls = 0;
		h->b[i].cycles = 0;
	}
}

/**
 * tp_hist_merge() - add one histogram into another
 * @dst: the histogram added to
 * @src: the histogram added (may be the same as @dst: doubles it)
 */
void tp_hist_merge(struct tp_hist *dst, const struct tp_hist *src)
{
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		dst->b[i].calls += src->b[i].calls;
		dst->b[i].cycles += src->b[i].cycles;
	}
}

/* Every bucket's calls, or (@cycles) every bucket's cycles, added up. */
static uint64_t tp_hist_total(const struct tp_hist *h, bool cycles)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++)
		n += cycles ? h->b[i].cycles : h->b[i].calls;
	return n;
}

/**
 * tp_hist_count() - number of values recorded
 * @h: the histogram
 *
 * Return: the sum of every bucket's calls.
 */
uint64_t tp_hist_count(const struct tp_hist *h)
{
	return tp_hist_total(h, false);
}

/**
 * tp_hist_sum() - sum of the values recorded
 * @h: the histogram
 *
 * Return: the sum of every bucket's cycles (modulo 2^64).
 */
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
 * The mean of a non-empty bucket, rounded half up without overflowing
 * (cycles + calls / 2 could), and clamped to the bucket: a mean outside it
 * can only come from a wrapped sum, and the bound is the better guess then.
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
 * tp_hist_percentile() - a percentile of the recorded values
 * @h: the histogram
 * @ppm: which one, in parts per million: 500000 is the median, 999900
 *	p99.99, 1000000 the top (larger values are treated as 1000000)
 *
 * Nearest rank: the value at rank ceil(ppm * n / 1e6) (at least 1) of the
 * n values sorted.  The histogram only knows which bucket holds that rank,
 * so the mean of that bucket stands in for it.  Both lie in the bucket's
 * [lo, hi], hence the error is at most hi - lo: zero below 32, and above
 * less than lo / 16 <= value / 16, i.e. under 6.25 % relative.  The mean
 * is used rather than a bound because it is usually far closer: a bucket's
 * values are rarely spread evenly (a loop period is a spike).
 *
 * Return: the estimate in the values' unit, or 0 if @h is empty.
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
 * @below: set to how many values lie below @base (their net counts as 0)
 *
 * A load never takes negative time: a value under the overhead it is net
 * of says the overhead varied, not that the load was faster than nothing.
 * Such values count 0 and are counted in @below.  The histogram knows a
 * bucket's values only through their mean, so a bucket counts as below
 * when its mean is: exact under 32 cycles, where a bucket is one value.
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

/**
 * tp_hist_fold_log2_net() - fold a histogram, net of a base, into log2 buckets
 * @h: the histogram
 * @base: what each value is net of (0: the values as recorded)
 * @calls: filled with the values per log2 bucket of their net (overwritten)
 * @cycles: filled with the sums of their nets (overwritten)
 *
 * A bucket's values count as its mean minus @base; a mean below @base
 * counts as 0, as in tp_hist_net() (a load never takes negative time).
 * Log2 bucket k = fls64(v) holds [2^(k-1), 2^k - 1] (and 0 holds 0).
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

/**
 * tp_hist_fold_log2() - fold a histogram into the log2 table
 * @h: the histogram
 * @calls: filled with the values per log2 bucket (overwritten)
 * @cycles: filled with their sums (overwritten)
 *
 * No histogram bucket straddles a power of two, so a bucket's mean lies in
 * the log2 bucket of its lower bound and the fold is exact.
 */
void tp_hist_fold_log2(const struct tp_hist *h,
		       uint64_t calls[TP_LOG2_BUCKETS],
		       uint64_t cycles[TP_LOG2_BUCKETS])
{
	tp_hist_fold_log2_net(h, 0, calls, cycles);
}

/**
 * tp_log2_lo() - the smallest value of a log2 bucket
 * @k: the bucket, 0..64 (larger is treated as 64)
 *
 * Return: 0 for k = 0, else 2^(k-1).
 */
uint64_t tp_log2_lo(unsigned int k)
{
	if (k > 64)
		k = 64;
	return k ? (uint64_t)1 << (k - 1) : 0;
}

/**
 * tp_log2_hi() - the largest value of a log2 bucket
 * @k: the bucket, 0..64 (larger is treated as 64)
 *
 * Return: 0 for k = 0, else 2^k - 1 (UINT64_MAX for k = 64).
 */
uint64_t tp_log2_hi(unsigned int k)
{
	uint64_t lo = tp_log2_lo(k);

	return lo ? (lo << 1) - 1 : 0;
}
