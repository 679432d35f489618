/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HDR histogram of every series (Documentation/tscprobe.rst, "noise"):
 * 0..31 exact, then 16 sub-buckets per octave, so no bucket straddles a
 * power of two.  The layout is uapi (TSCPROBE_HIST_BUCKETS, _SUB_BITS).
 */
#ifndef TSCPROBE_CORE_HIST_H
#define TSCPROBE_CORE_HIST_H

#include <linux/tscprobe.h>
#include "host.h"

/* The log2 table: one bucket per fls64() value, 0..64. */
#define TP_LOG2_BUCKETS		65

/* @cycles, the values' sum, makes the bucket's mean exact. */
struct tp_bucket {
	uint64_t calls;
	uint64_t cycles;
};

/* 15.6 KiB: it stays in L1 next to the loop that updates it. */
struct tp_hist {
	struct tp_bucket b[TSCPROBE_HIST_BUCKETS];
};

/*
 * With s = fls64(v | 16) - 5 the index is 16 * s + (v >> s): no branch, no
 * division.  64-bit, so it needs no extension before addressing a bucket.
 */
static tp_always_inline uint64_t tp_hist_index64(uint64_t v)
{
	uint64_t s = 59 - (uint64_t)(unsigned int)__builtin_clzll(v | 16);

	return (s << TSCPROBE_HIST_SUB_BITS) + (v >> s);
}

static tp_always_inline unsigned int tp_hist_index(uint64_t v)
{
	return (unsigned int)tp_hist_index64(v);
}

/*
 * The empty asm keeps userspace builds from pairing the two adds into one
 * SSE add: slower in the noise loop, and not the code the module runs.
 */
static tp_always_inline void tp_hist_add(struct tp_hist *h, uint64_t v)
{
	struct tp_bucket *b = &h->b[tp_hist_index64(v)];
	uint64_t *cycles = &b->cycles;

	__asm__("" : "+r" (cycles));
	b->calls++;
	*cycles += v;
}

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
