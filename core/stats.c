// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel has no 128-bit division (__udivti3): 128-bit values are only
 * added, multiplied, shifted and compared, except in tp_div128_64().
 */
#include "stats.h"

static inline __uint128_t tp_u128_make(uint64_t hi, uint64_t lo)
{
	return ((__uint128_t)hi << 64) | lo;
}

static inline __uint128_t tp_stats_sumsq(const struct tp_stats *s)
{
	return tp_u128_make(s->sumsq_hi, s->sumsq_lo);
}

static inline void tp_stats_set_sumsq(struct tp_stats *s, __uint128_t v)
{
	s->sumsq_hi = (uint64_t)(v >> 64);
	s->sumsq_lo = (uint64_t)v;
}

void tp_stats_init(struct tp_stats *s)
{
	s->count = 0;
	s->min = TP_U64_MAX;
	s->max = 0;
	s->sum = 0;
	s->sumsq_hi = 0;
	s->sumsq_lo = 0;
}

/* Shared by the unsigned and signed statistics; arguments evaluated once. */
#define TP_STATS_ADD_MOMENTS(stats, value)			\
	do {							\
		__typeof__(stats) s_ = (stats);			\
		__typeof__(value) v_ = (value);			\
								\
		s_->count++;					\
		if (v_ < s_->min)				\
			s_->min = v_;				\
		if (v_ > s_->max)				\
			s_->max = v_;				\
		s_->sum += v_;					\
	} while (0)

#define TP_STATS_MERGE_MOMENTS(dst, src)			\
	do {							\
		__typeof__(dst) d_ = (dst);			\
		__typeof__(src) m_ = (src);			\
								\
		d_->count += m_->count;				\
		if (m_->min < d_->min)				\
			d_->min = m_->min;			\
		if (m_->max > d_->max)				\
			d_->max = m_->max;			\
		d_->sum += m_->sum;				\
	} while (0)

void tp_stats_add(struct tp_stats *s, uint64_t v)
{
	TP_STATS_ADD_MOMENTS(s, v);
	tp_stats_set_sumsq(s, tp_stats_sumsq(s) + (__uint128_t)v * v);
}

void tp_stats_merge(struct tp_stats *dst, const struct tp_stats *src)
{
	TP_STATS_MERGE_MOMENTS(dst, src);
	tp_stats_set_sumsq(dst, tp_stats_sumsq(dst) + tp_stats_sumsq(src));
}

/* a / b rounded half up, without the overflow of (a + b / 2) / b; b > 0. */
static uint64_t tp_div_round(uint64_t a, uint64_t b)
{
	uint64_t q = a / b, r = a % b;

	return r >= b - r ? q + 1 : q;
}

uint64_t tp_stats_mean(const struct tp_stats *s)
{
	return s->count ? tp_div_round(s->sum, s->count) : 0;
}

/* floor(sqrt()), digit by digit: no libgcc helper needed in the kernel. */
uint64_t tp_isqrt128(uint64_t hi, uint64_t lo)
{
	__uint128_t x = tp_u128_make(hi, lo), root = 0;
	__uint128_t bit = (__uint128_t)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= root + bit) {
			x -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)root;
}

static inline uint64_t tp_isqrt(__uint128_t x)
{
	return tp_isqrt128((uint64_t)(x >> 64), (uint64_t)x);
}

/* floor(a / d) by restoring long division; d > 0.  Not for hot paths. */
static __uint128_t tp_div128_64(__uint128_t a, uint64_t d)
{
	__uint128_t q = 0, r = 0;
	int i;

	for (i = 127; i >= 0; i--) {
		r = (r << 1) | ((a >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= (__uint128_t)1 << i;
		}
	}
	return q;
}

/* *p = a * b if that fits in 128 bits; false (and *p untouched) if not. */
static bool tp_mul128_64(__uint128_t a, uint64_t b, __uint128_t *p)
{
	__uint128_t hi = (__uint128_t)(uint64_t)(a >> 64) * b;
	__uint128_t lo = (__uint128_t)(uint64_t)a * b;

	if (hi >> 64)
		return false;
	hi += lo >> 64;
	if (hi >> 64)
		return false;
	*p = (hi << 64) | (uint64_t)lo;
	return true;
}

/*
 * round(sqrt(x) / n) exactly, from q = floor(sqrt(x)): with q = d * n + rem
 * the answer is d or d + 1.  2 * rem >= n settles it upwards; only when
 * n = 2 * rem + 1 does the fraction of sqrt(x) matter, and then
 * sqrt(x) >= q + 1/2  <=>  x - q^2 > q.
 */
static uint64_t tp_sqrt_div_round(__uint128_t x, uint64_t n)
{
	uint64_t q = tp_isqrt(x);
	uint64_t d = q / n, rem = q % n;

	if (rem >= n - rem)
		return d + 1;
	if (n - rem == rem + 1 && x - (__uint128_t)q * q > q)
		return d + 1;
	return d;
}

/* round(sqrt(x)): sqrt(x) >= q + 1/2  <=>  x - q^2 > q, as above. */
static uint64_t tp_sqrt_round(__uint128_t x)
{
	uint64_t q = tp_isqrt(x);

	return x - (__uint128_t)q * q > q ? q + 1 : q;
}

uint64_t tp_stats_sd(const struct tp_stats *s)
{
	return tp_stats_sd_div(s, 1);
}

/**
 * tp_stats_sd_div() - the population standard deviation, divided by @k
 * @s: the statistics
 * @k: the divisor (> 0): 2 gives the deviation of halved values exactly
 *
 * sumsq and sum^2 are both near 2^128, so the difference is taken around
 * the truncated mean m = sum / n (remainder r), where it is small:
 * D = sumsq - m * (sum + r) and n * sumsq - sum^2 = n * D - r^2.  Exact
 * unless n * D overflows 128 bits; then off by at most one.
 *
 * Return: the rounded result; 0 for fewer than two values or a wrapped sumsq.
 */
uint64_t tp_stats_sd_div(const struct tp_stats *s, uint64_t k)
{
	uint64_t n = s->count, m, r;
	__uint128_t sumsq = tp_stats_sumsq(s), dev, nd;

	if (n < 2)
		return 0;
	m = s->sum / n;
	r = s->sum % n;
	/* m * (sum + r) = (sum^2 - r^2) / n <= sumsq: no overflow. */
	dev = (__uint128_t)m * s->sum + (__uint128_t)m * r;
	if (dev > sumsq)
		return 0;
	dev = sumsq - dev;
	if (tp_mul128_64(dev, n, &nd))
		return nd >= (__uint128_t)r * r ?
		       tp_sqrt_div_round(nd - (__uint128_t)r * r, n * k) : 0;
	if (k == 1)
		return tp_sqrt_round(tp_div128_64(dev, n));
	return tp_sqrt_div_round(tp_div128_64(dev, n), k);
}

void tp_sstats_init(struct tp_sstats *s)
{
	s->count = 0;
	s->min = (int64_t)(TP_U64_MAX >> 1);
	s->max = -s->min - 1;
	s->sum = 0;
	s->sumsq_hi = 0;
	s->sumsq_lo = 0;
}

static inline __uint128_t tp_sstats_sumsq(const struct tp_sstats *s)
{
	return tp_u128_make(s->sumsq_hi, s->sumsq_lo);
}

static inline void tp_sstats_set_sumsq(struct tp_sstats *s, __uint128_t v)
{
	s->sumsq_hi = (uint64_t)(v >> 64);
	s->sumsq_lo = (uint64_t)v;
}

void tp_sstats_add(struct tp_sstats *s, int64_t v)
{
	TP_STATS_ADD_MOMENTS(s, v);
	tp_sstats_set_sumsq(s, tp_sstats_sumsq(s) +
			    (__uint128_t)((__int128_t)v * v));
}

void tp_sstats_merge(struct tp_sstats *dst, const struct tp_sstats *src)
{
	TP_STATS_MERGE_MOMENTS(dst, src);
	tp_sstats_set_sumsq(dst, tp_sstats_sumsq(dst) + tp_sstats_sumsq(src));
}

/* a / b, b > 0, rounded to nearest, halves away from zero. */
int64_t tp_sdiv_round(int64_t a, uint64_t b)
{
	uint64_t m = a < 0 ? -(uint64_t)a : (uint64_t)a;
	uint64_t q = tp_div_round(m, b);

	return a < 0 ? -(int64_t)q : (int64_t)q;
}

/* @k = 2 for the doubled skew quantities. */
int64_t tp_sstats_mean_div(const struct tp_sstats *s, uint64_t k)
{
	return s->count ? tp_sdiv_round(s->sum, s->count * k) : 0;
}

/*
 * Shifted by @s->min, the values are unsigned and the deviation unchanged.
 * The shifted sums are taken modulo 2^64 and 2^128: their true values fit,
 * so the wrapping arithmetic lands on them exactly.
 */
uint64_t tp_sstats_sd_div(const struct tp_sstats *s, uint64_t k)
{
	uint64_t n = s->count, m = (uint64_t)s->min, sum = (uint64_t)s->sum;
	__uint128_t sumsq = tp_sstats_sumsq(s);
	struct tp_stats u;

	if (n < 2)
		return 0;
	/* sum (v - m)^2 = sumsq - 2 m sum + n m^2, everything modulo 2^128 */
	sumsq -= 2 * (__uint128_t)(__int128_t)s->min * (__uint128_t)(__int128_t)s->sum;
	sumsq += (__uint128_t)n * (__uint128_t)((__int128_t)s->min * s->min);
	u.count = n;
	u.sum = sum - n * m;
	u.min = 0;
	u.max = (uint64_t)s->max - m;
	u.sumsq_hi = (uint64_t)(sumsq >> 64);
	u.sumsq_lo = (uint64_t)sumsq;
	return tp_stats_sd_div(&u, k);
}
