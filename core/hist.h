/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The histogram every tscprobe series is recorded into (HDR style).
 *
 * Values 0..31 have a bucket each; above, every power-of-two octave
 * [2^k, 2^(k+1) - 1] (k >= 5) is split into 16 equal sub-buckets.  A bucket
 * is therefore at most 1/16 of its lower bound wide, which bounds the
 * relative error of any percentile read from it, and it never straddles a
 * power of two, so the log2 table is an exact fold of it.
 * 976 buckets cover 0..UINT64_MAX; the layout is part of the uapi
 * (TSCPROBE_HIST_BUCKETS, TSCPROBE_HIST_SUB_BITS).
 *
 * Each bucket keeps the number of values and their sum, like the log2 table,
 * so a bucket's mean is exact and percentiles can use it instead of a bound.
 */
#ifndef TSCPROBE_CORE_HIST_H
#define TSCPROBE_CORE_HIST_H

#include <linux/tscprobe.h>
#include "host.h"

/* The log2 table: one bucket per fls64() value, 0..64. */
#define TP_LOG2_BUCKETS		65

/**
 * struct tp_bucket - one histogram bucket
 * @calls: values that fell into the bucket
 * @cycles: their sum (wraps only past 2^64 cycles, about 180 years at
 *	3 GHz)
 */
struct tp_bucket {
	uint64_t calls;
	uint64_t cycles;
};

/**
 * struct tp_hist - a histogram; 15.6 KiB, so it stays in L1 next to the
 *	loop that updates it
 * @b: the buckets, indexed by tp_hist_index()
 */
struct tp_hist {
	struct tp_bucket b[TSCPROBE_HIST_BUCKETS];
};

/*
 * The index in 64-bit arithmetic, so that it needs no zero- or
 * sign-extension before it addresses a bucket: s = fls64(v | 16) - 5.
 */
static tp_always_inline uint64_t tp_hist_index64(uint64_t v)
{
	uint64_t s = 59 - (uint64_t)(unsigned int)__builtin_clzll(v | 16);

	return (s << TSCPROBE_HIST_SUB_BITS) + (v >> s);
}

/**
 * tp_hist_index() - the bucket a value belongs to
 * @v: the value
 *
 * With s = fls64(v | 16) - 5 the octave's shift (0 for v < 32, where the
 * formula degenerates to v itself) and m = v >> s its top five bits
 * (16..31 above 31), the index is 16 * s + m.  One bit scan, two shifts and
 * an add: no branch, no division, so the update costs the same for every
 * value and can be overlapped with the next TSC read.
 *
 * Return: 0..TSCPROBE_HIST_BUCKETS - 1 (v < 32 maps to v, UINT64_MAX to 975).
 */
static tp_always_inline unsigned int tp_hist_index(uint64_t v)
{
	return (unsigned int)tp_hist_index64(v);
}

/**
 * tp_hist_add() - record one value
 * @h: the histogram
 * @v: the value
 *
 * Two scalar read-modify-writes.  The empty asm hides from the compiler that
 * the second one is next to the first: otherwise userspace builds pair them
 * into one SSE add (the kernel has no SSE), which in the noise loop costs
 * more than it saves (measured: +1.5 % loop period) and would make the
 * userspace engine run different code from the module.
 */
static tp_always_inline void tp_hist_add(struct tp_hist *h, uint64_t v)
{
	struct tp_bucket *b = &h->b[tp_hist_index64(v)];
	uint64_t *cycles = &b->cycles;

	__asm__("" : "+r" (cycles));
	b->calls++;
	*cycles += v;
}

/**
 * tp_hist_sub() - take back a value tp_hist_add() recorded
 * @h: the histogram
 * @v: the value
 */
static tp_always_inline void tp_hist_sub(struct tp_hist *h, uint64_t v)
{
	struct tp_bucket *b = &h->b[tp_hist_index64(v)];

	b->calls--;
	b->cycles -= v;
}

uint64_t tp_hist_bucket_lo(unsigned int idx);
uint64_t tp_hist_bucket_hi(unsigned int idx);
void tp_hist_reset(struct tp_hist *h);
void tp_hist_merge(struct tp_hist *dst, const struct tp_hist *src);
uint64_t tp_hist_count(const struct tp_hist *h);
uint64_t tp_hist_sum(const struct tp_hist *h);
uint64_t tp_hist_percentile(const struct tp_hist *h, uint32_t ppm);
uint64_t tp_hist_net(const struct tp_hist *h, uint64_t base, uint64_t *below);
void tp_hist_fold_log2_net(const struct tp_hist *h, uint64_t base,
			   uint64_t calls[TP_LOG2_BUCKETS],
			   uint64_t cycles[TP_LOG2_BUCKETS]);
void tp_hist_fold_log2(const struct tp_hist *h,
		       uint64_t calls[TP_LOG2_BUCKETS],
		       uint64_t cycles[TP_LOG2_BUCKETS]);
uint64_t tp_log2_lo(unsigned int k);
uint64_t tp_log2_hi(unsigned int k);

#endif /* TSCPROBE_CORE_HIST_H */
