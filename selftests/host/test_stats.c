// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/stats.c: the integer mean and standard deviation
 * against a long double reference, the 128-bit sum of squares, merging,
 * and the integer square root at its edges.
 */
#include <stdlib.h>

#include "kselftest_harness.h"

#include "prng.h"
#include "core/stats.h"

#define NR_VALUES	100000

/* the reference: mean and sd in long double, the exact sum of squares */
struct ref {
	long double mean, sd;
	__uint128_t sumsq;
};

/* No libm: Newton's method converges in a few dozen steps from x + 1. */
static long double ref_sqrtl(long double x)
{
	long double r = x + 1, prev = 0;

	if (x <= 0)
		return 0;
	while (r != prev) {
		prev = r;
		r = (r + x / r) / 2;
		if (r >= prev)	/* monotone from above: done */
			return prev;
	}
	return r;
}

static long double ref_fabsl(long double x)
{
	return x < 0 ? -x : x;
}

/* Round half up, for non-negative values. */
static uint64_t ref_round(long double x)
{
	return (uint64_t)(x + 0.5L);
}

/* Two passes in long double (64-bit mantissa): the reference. */
static void ref_stats(const uint64_t *v, uint64_t n, struct ref *r)
{
	long double sum = 0, dev = 0;
	uint64_t i;

	r->sumsq = 0;
	for (i = 0; i < n; i++) {
		sum += v[i];
		r->sumsq += (__uint128_t)v[i] * v[i];
	}
	r->mean = sum / n;
	for (i = 0; i < n; i++)
		dev += (v[i] - r->mean) * (v[i] - r->mean);
	r->sd = ref_sqrtl(dev / n);
}

/* |got - want| <= 0.5 (correct rounding) plus the reference's own error. */
static int close_enough(uint64_t got, long double want)
{
	long double slack = 0.5L + want / 1e15L;

	return ref_fabsl((long double)got - want) <= slack;
}

static __uint128_t sumsq_of(const struct tp_stats *s)
{
	return ((__uint128_t)s->sumsq_hi << 64) | s->sumsq_lo;
}

enum dist { SMALL, CYCLES, WIDE, HUGE, NR_DISTS };

static const char *const dist_names[] = { "small", "cycles", "wide", "huge" };

static uint64_t draw(enum dist d, uint64_t *seed)
{
	switch (d) {
	case SMALL:
		return tr_below(seed, 4);
	case CYCLES:	/* a loop period with a tail */
		return tr_below(seed, 100) ? 40 + tr_below(seed, 5) :
					     tr_log(seed, 24);
	case WIDE:
		return tr_below(seed, 1ULL << 32);
	case HUGE:	/* squares far beyond 64 bits; the sum still fits */
	default:
		return (1ULL << 45) + tr_below(seed, 1ULL << 46);
	}
}

TEST(mean_sd_vs_reference)
{
	static const uint64_t sizes[] = { 1, 2, 3, 10, 1000, NR_VALUES };
	uint64_t *v = malloc(NR_VALUES * sizeof(*v));
	unsigned int d, z, i;
	struct tp_stats s;
	struct ref r;

	ASSERT_NE(NULL, v);
	for (d = 0; d < NR_DISTS; d++) {
		for (z = 0; z < ARRAY_SIZE(sizes); z++) {
			uint64_t seed = 10 + d * 100 + z, n = sizes[z];
			uint64_t min = UINT64_MAX, max = 0, sum = 0;

			tp_stats_init(&s);
			for (i = 0; i < n; i++) {
				v[i] = draw(d, &seed);
				tp_stats_add(&s, v[i]);
				min = v[i] < min ? v[i] : min;
				max = v[i] > max ? v[i] : max;
				sum += v[i];
			}
			ref_stats(v, n, &r);
			ASSERT_EQ(n, s.count);
			ASSERT_EQ(min, s.min);
			ASSERT_EQ(max, s.max);
			ASSERT_EQ(sum, s.sum);
			ASSERT_TRUE(sumsq_of(&s) == r.sumsq);
			EXPECT_TRUE(close_enough(tp_stats_mean(&s), r.mean))
				TH_LOG("%s n=%ju: mean %ju, reference %.3Lf",
				       dist_names[d], (uintmax_t)n,
				       (uintmax_t)tp_stats_mean(&s), r.mean);
			EXPECT_TRUE(close_enough(tp_stats_sd(&s), r.sd))
				TH_LOG("%s n=%ju: sd %ju, reference %.3Lf",
				       dist_names[d], (uintmax_t)n,
				       (uintmax_t)tp_stats_sd(&s), r.sd);
		}
	}
	free(v);
}

TEST(sumsq_beyond_64_bits)
{
	struct tp_stats s;
	unsigned int i;

	tp_stats_init(&s);
	for (i = 0; i < 1000; i++)
		tp_stats_add(&s, 1ULL << 40);
	ASSERT_EQ(1000ULL << 16, s.sumsq_hi);	/* 1000 * 2^80 */
	ASSERT_EQ(0ULL, s.sumsq_lo);
	ASSERT_EQ(1ULL << 40, tp_stats_mean(&s));
	ASSERT_EQ(0ULL, tp_stats_sd(&s));

	tp_stats_init(&s);
	tp_stats_add(&s, UINT64_MAX);
	tp_stats_add(&s, UINT64_MAX);
	/* 2 * (2^64 - 1)^2 = 2^129 - 2^66 + 2: wraps 128 bits; stored mod */
	ASSERT_EQ(UINT64_MAX - 3, s.sumsq_hi);
	ASSERT_EQ(2ULL, s.sumsq_lo);
}

TEST(exact_small_cases)
{
	static const uint64_t wiki[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct tp_stats s;
	unsigned int i;

	tp_stats_init(&s);
	ASSERT_EQ(0ULL, s.count);
	ASSERT_EQ(UINT64_MAX, s.min);
	ASSERT_EQ(0ULL, s.max);
	ASSERT_EQ(0ULL, tp_stats_mean(&s));
	ASSERT_EQ(0ULL, tp_stats_sd(&s));

	tp_stats_add(&s, 7);
	ASSERT_EQ(7ULL, tp_stats_mean(&s));
	ASSERT_EQ(0ULL, tp_stats_sd(&s));

	tp_stats_init(&s);
	for (i = 0; i < 8; i++)
		tp_stats_add(&s, wiki[i]);
	ASSERT_EQ(5ULL, tp_stats_mean(&s));
	ASSERT_EQ(2ULL, tp_stats_sd(&s));

	/* halves round up: mean 0.5 and sd 0.5 */
	tp_stats_init(&s);
	tp_stats_add(&s, 0);
	tp_stats_add(&s, 1);
	ASSERT_EQ(1ULL, tp_stats_mean(&s));
	ASSERT_EQ(1ULL, tp_stats_sd(&s));

	/* {0, 0, 1}: sd = sqrt(2) / 3 = 0.471 rounds down */
	tp_stats_add(&s, 0);
	ASSERT_EQ(0ULL, tp_stats_mean(&s));
	ASSERT_EQ(0ULL, tp_stats_sd(&s));

	/* {0, 3}: sd = 1.5 exactly, rounds up */
	tp_stats_init(&s);
	tp_stats_add(&s, 0);
	tp_stats_add(&s, 3);
	ASSERT_EQ(2ULL, tp_stats_sd(&s));

	/* rounding the mean must not overflow: (2^64 - 1) / 2 -> 2^63 */
	tp_stats_init(&s);
	s.count = 2;
	s.sum = UINT64_MAX;
	ASSERT_EQ(1ULL << 63, tp_stats_mean(&s));
}

/*
 * Small sets have small, fractional sds, where correct rounding of
 * sqrt(x) / n depends on the fraction of sqrt(x) (the n = 2 * rem + 1 case
 * of tp_sqrt_div_round()): compare many of them with the reference.
 */
TEST(sd_rounding_small_sets)
{
	uint64_t v[9], seed = 77;
	unsigned int t, i, n;
	struct tp_stats s;
	struct ref r;

	for (t = 0; t < 200000; t++) {
		n = 2 + tr_below(&seed, 8);
		tp_stats_init(&s);
		for (i = 0; i < n; i++) {
			v[i] = tr_below(&seed, 6);
			tp_stats_add(&s, v[i]);
		}
		ref_stats(v, n, &r);
		ASSERT_EQ(ref_round(r.sd), tp_stats_sd(&s))
			TH_LOG("n=%u sd %.6Lf", n, r.sd);
		ASSERT_EQ(ref_round(r.mean), tp_stats_mean(&s));
	}
}

/* n * sum((x - mean)^2) >= 2^128: the fallback through D / n. */
TEST(sd_huge_count)
{
	struct tp_stats s = {
		.count = 1ULL << 30,
		.min = 0,
		.max = 1ULL << 40,
		.sum = 1ULL << 63,		/* 2^23 values of 2^40 */
		.sumsq_hi = 1ULL << 39,		/* 2^23 * 2^80 = 2^103 */
		.sumsq_lo = 0,
	};
	long double p = 1.0L / 128, want = ref_sqrtl(p * (1 - p)) * 0x1p40L;

	ASSERT_EQ(1ULL << 33, tp_stats_mean(&s));
	EXPECT_LE(ref_fabsl((long double)tp_stats_sd(&s) - want), 1.0L)
		TH_LOG("sd %ju, reference %.3Lf",
		       (uintmax_t)tp_stats_sd(&s), want);
}

TEST(merge_equals_adding)
{
	struct tp_stats a, b, all, empty;
	uint64_t seed = 5, v;
	unsigned int i;

	tp_stats_init(&a);
	tp_stats_init(&b);
	tp_stats_init(&all);
	tp_stats_init(&empty);
	for (i = 0; i < NR_VALUES; i++) {
		v = draw(i % 2 ? HUGE : CYCLES, &seed);
		tp_stats_add(i % 3 ? &a : &b, v);
		tp_stats_add(&all, v);
	}
	tp_stats_merge(&a, &b);
	tp_stats_merge(&a, &empty);
	ASSERT_EQ(all.count, a.count);
	ASSERT_EQ(all.min, a.min);
	ASSERT_EQ(all.max, a.max);
	ASSERT_EQ(all.sum, a.sum);
	ASSERT_EQ(all.sumsq_hi, a.sumsq_hi);
	ASSERT_EQ(all.sumsq_lo, a.sumsq_lo);
	tp_stats_merge(&empty, &all);
	ASSERT_EQ(all.min, empty.min);
	ASSERT_EQ(all.max, empty.max);
}

/* floor(sqrt(x)) is r iff r^2 <= x < (r + 1)^2. */
static int is_isqrt(__uint128_t x, uint64_t r)
{
	__uint128_t next = (__uint128_t)r + 1;

	if ((__uint128_t)r * r > x)
		return 0;
	/* (r + 1)^2 = 2^128 for r = 2^64 - 1: above every x */
	return r == UINT64_MAX || next * next > x;
}

TEST(isqrt128_edges)
{
	static const struct { uint64_t hi, lo, root; } cases[] = {
		{ 0, 0, 0 }, { 0, 1, 1 }, { 0, 2, 1 }, { 0, 3, 1 },
		{ 0, 4, 2 }, { 0, 8, 2 }, { 0, 9, 3 }, { 0, 15, 3 },
		{ 0, UINT64_MAX, 0xffffffffULL },
		{ 1, 0, 1ULL << 32 },
		{ UINT64_MAX - 1, 1, UINT64_MAX },	/* (2^64 - 1)^2 */
		{ UINT64_MAX - 1, 0, UINT64_MAX - 1 },	/* one below it */
		{ UINT64_MAX, UINT64_MAX, UINT64_MAX },
		{ 1ULL << 62, 0, 1ULL << 63 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_EQ(cases[i].root, tp_isqrt128(cases[i].hi, cases[i].lo))
			TH_LOG("case %u", i);
}

TEST(isqrt128_random)
{
	uint64_t seed = 6, r, k;
	unsigned int i;
	__uint128_t x;

	for (i = 0; i < 200000; i++) {
		/* random widths, and squares and their neighbours */
		x = ((__uint128_t)tr_next(&seed) << 64 | tr_next(&seed)) >>
		    tr_below(&seed, 128);
		r = tp_isqrt128(x >> 64, (uint64_t)x);
		ASSERT_TRUE(is_isqrt(x, r))
			TH_LOG("x %#jx:%016jx -> %ju", (uintmax_t)(x >> 64),
			       (uintmax_t)x, (uintmax_t)r);
		k = tr_next(&seed) >> tr_below(&seed, 64);
		x = (__uint128_t)k * k;
		ASSERT_EQ(k, tp_isqrt128(x >> 64, (uint64_t)x));
		if (k) {
			x--;
			ASSERT_EQ(k - 1, tp_isqrt128(x >> 64, (uint64_t)x));
		}
	}
}

TEST_HARNESS_MAIN
