// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/hist.c: the bucket layout, the exact fold into the
 * log2 table, percentiles against a sorted reference, merging.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "core/hist.h"
#include "prng.h"

#define NR_VALUES	200000

static const uint32_t ppms[] = {
	0, 1, 500000, 900000, 990000, 999000, 999900, 1000000,
};

static unsigned int fls64_ref(uint64_t v)
{
	unsigned int k = 0;

	while (v) {
		k++;
		v >>= 1;
	}
	return k;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank, computed the obvious way with 128-bit arithmetic. */
static uint64_t ref_percentile(const uint64_t *sorted, uint64_t n,
			       uint32_t ppm)
{
	unsigned __int128 r = ((unsigned __int128)ppm * n + 999999) / 1000000;

	if (r == 0)
		r = 1;
	return sorted[r - 1];
}

static struct tp_hist *hist_new(void)
{
	struct tp_hist *h = malloc(sizeof(*h));

	if (h)
		tp_hist_reset(h);
	return h;
}

TEST(bounds_contiguous)
{
	unsigned int i;

	ASSERT_EQ(0ULL, tp_hist_bucket_lo(0));
	ASSERT_EQ(UINT64_MAX, tp_hist_bucket_hi(TSCPROBE_HIST_BUCKETS - 1));
	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		ASSERT_LE(tp_hist_bucket_lo(i), tp_hist_bucket_hi(i))
			TH_LOG("bucket %u", i);
		if (i + 1 < TSCPROBE_HIST_BUCKETS)
			ASSERT_EQ(tp_hist_bucket_hi(i) + 1,
				  tp_hist_bucket_lo(i + 1))
				TH_LOG("gap or overlap after bucket %u", i);
	}
}

TEST(index_of_bounds)
{
	unsigned int i;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		ASSERT_EQ(i, tp_hist_index(tp_hist_bucket_lo(i)))
			TH_LOG("lo of bucket %u", i);
		ASSERT_EQ(i, tp_hist_index(tp_hist_bucket_hi(i)))
			TH_LOG("hi of bucket %u", i);
	}
}

TEST(index_examples)
{
	uint64_t v, seed = 1;
	unsigned int i;

	for (v = 0; v < 32; v++)
		ASSERT_EQ(v, tp_hist_index(v));
	ASSERT_EQ(32U, tp_hist_index(32));
	ASSERT_EQ(32U, tp_hist_index(33));
	ASSERT_EQ(33U, tp_hist_index(34));
	ASSERT_EQ(48U, tp_hist_index(64));
	ASSERT_EQ(975U, tp_hist_index(UINT64_MAX));
	/* the uapi header's formula for the bounds */
	for (i = 32; i < TSCPROBE_HIST_BUCKETS; i++) {
		unsigned int s = i / 16 - 1, m = i - 16 * s;

		ASSERT_EQ((uint64_t)m << s, tp_hist_bucket_lo(i));
	}
	for (i = 0; i < 1000000; i++) {
		v = tr_next(&seed) >> tr_below(&seed, 64);
		ASSERT_LE(tp_hist_bucket_lo(tp_hist_index(v)), v);
		ASSERT_GE(tp_hist_bucket_hi(tp_hist_index(v)), v);
	}
}

TEST(bucket_width)
{
	unsigned int i;
	uint64_t lo, width;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		lo = tp_hist_bucket_lo(i);
		width = tp_hist_bucket_hi(i) - lo + 1;
		/* exact below 32, at most 1/16 of the bucket's values above */
		ASSERT_LE(width, i < 32 ? 1 : lo / 16) TH_LOG("bucket %u", i);
	}
}

TEST(log2_bounds)
{
	unsigned int k;

	ASSERT_EQ(0ULL, tp_log2_lo(0));
	ASSERT_EQ(0ULL, tp_log2_hi(0));
	ASSERT_EQ(1ULL, tp_log2_lo(1));
	ASSERT_EQ(1ULL, tp_log2_hi(1));
	ASSERT_EQ(1ULL << 63, tp_log2_lo(64));
	ASSERT_EQ(UINT64_MAX, tp_log2_hi(64));
	for (k = 0; k < 64; k++)
		ASSERT_EQ(tp_log2_hi(k) + 1, tp_log2_lo(k + 1));
	for (k = 1; k <= 64; k++) {
		ASSERT_EQ(k, fls64_ref(tp_log2_lo(k)));
		ASSERT_EQ(k, fls64_ref(tp_log2_hi(k)));
	}
}

/* The proof that the fold is exact: no bucket straddles a power of two. */
TEST(fold_buckets_nest)
{
	unsigned int i, k;

	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		k = fls64_ref(tp_hist_bucket_lo(i));
		ASSERT_EQ(k, fls64_ref(tp_hist_bucket_hi(i)))
			TH_LOG("bucket %u straddles a power of two", i);
		ASSERT_LE(tp_log2_lo(k), tp_hist_bucket_lo(i));
		ASSERT_GE(tp_log2_hi(k), tp_hist_bucket_hi(i));
	}
}

TEST(fold_matches_log2_table)
{
	uint64_t calls[TP_LOG2_BUCKETS], cycles[TP_LOG2_BUCKETS];
	uint64_t ref_calls[TP_LOG2_BUCKETS] = { 0 };
	uint64_t ref_cycles[TP_LOG2_BUCKETS] = { 0 };
	struct tp_hist *h = hist_new();
	uint64_t v, seed = 2;
	unsigned int i, k;

	ASSERT_NE(NULL, h);
	for (i = 0; i < NR_VALUES + 3 * 64; i++) {
		/* every power of two and its neighbours, then random */
		if (i < 64) {
			v = (uint64_t)1 << i;
		} else if (i < 128) {
			v = ((uint64_t)1 << (i - 64)) - 1;
		} else if (i < 192) {
			v = ((uint64_t)1 << (i - 128)) + 1;
		} else {
			switch (i % 4) {
			case 0:
				v = tr_below(&seed, 2);		/* 0 and 1 */
				break;
			case 1:
				v = UINT64_MAX - tr_below(&seed, 4);
				break;
			default:
				v = tr_next(&seed) >> tr_below(&seed, 64);
			}
		}
		tp_hist_add(h, v);
		k = fls64_ref(v);
		ref_calls[k]++;
		ref_cycles[k] += v;
	}
	tp_hist_fold_log2(h, calls, cycles);
	for (k = 0; k < TP_LOG2_BUCKETS; k++) {
		EXPECT_EQ(ref_calls[k], calls[k]) TH_LOG("log2 bucket %u", k);
		EXPECT_EQ(ref_cycles[k], cycles[k]) TH_LOG("log2 bucket %u", k);
	}
	free(h);
}

/*
 * The net fold: each value minus the base in the log2 bucket of its net,
 * at or below the base in bucket 0; the nets' sum is tp_hist_net()'s.
 * Values where a bucket holds one value, so its mean is the value.
 */
TEST(fold_net_of_a_base)
{
	uint64_t calls[TP_LOG2_BUCKETS], cycles[TP_LOG2_BUCKETS];
	uint64_t ref_calls[TP_LOG2_BUCKETS] = { 0 };
	uint64_t ref_cycles[TP_LOG2_BUCKETS] = { 0 };
	uint64_t v, below, base = 30, n = 0, sum = 0;
	struct tp_hist *h = hist_new();
	unsigned int k;

	ASSERT_NE(NULL, h);
	for (v = 0; v < 2048; v += v < 32 ? 1 : v < 64 ? 2 : 64) {
		tp_hist_add(h, v);
		tp_hist_add(h, v);
		k = v > base ? fls64_ref(v - base) : 0;
		ref_calls[k] += 2;
		ref_cycles[k] += v > base ? 2 * (v - base) : 0;
	}
	tp_hist_fold_log2_net(h, base, calls, cycles);
	for (k = 0; k < TP_LOG2_BUCKETS; k++) {
		EXPECT_EQ(ref_calls[k], calls[k]) TH_LOG("log2 bucket %u", k);
		EXPECT_EQ(ref_cycles[k], cycles[k]) TH_LOG("log2 bucket %u", k);
		n += calls[k];
		sum += cycles[k];
	}
	EXPECT_EQ(tp_hist_count(h), n);
	EXPECT_EQ(tp_hist_net(h, base, &below), sum);
	/* 0..29 below the base, 30 itself nets 0 */
	EXPECT_EQ(2 * 30, below);
	EXPECT_EQ(below + 2, calls[0]);
	free(h);
}

enum dist { UNIFORM, NOISE, LOG_UNIFORM, SMALL, NR_DISTS };

static const char *const dist_names[] = {
	"uniform", "noise", "log-uniform", "small",
};

static uint64_t draw(enum dist d, uint64_t *seed)
{
	switch (d) {
	case UNIFORM:
		return tr_below(seed, 1000000);
	case NOISE:
		/*
		 * Like a real noise run: the loop period with some jitter,
		 * a few cache misses, and a heavy tail of interruptions.
		 */
		if (tr_below(seed, 1000) < 990)
			return 36 + tr_below(seed, 8);
		if (tr_below(seed, 10) < 9)
			return 100 + tr_below(seed, 400);
		return tr_log(seed, 34);
	case LOG_UNIFORM:
		return tr_log(seed, 64);
	case SMALL:
	default:
		return tr_below(seed, 32);
	}
}

static void check_percentiles(struct __test_metadata *_metadata,
			      enum dist d, uint64_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct tp_hist *h = hist_new();
	uint64_t seed = 3 + d, got, want, diff;
	unsigned int i;

	ASSERT_NE(NULL, v);
	ASSERT_NE(NULL, h);
	for (i = 0; i < n; i++) {
		v[i] = draw(d, &seed);
		tp_hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < ARRAY_SIZE(ppms); i++) {
		got = tp_hist_percentile(h, ppms[i]);
		want = ref_percentile(v, n, ppms[i]);
		diff = got > want ? got - want : want - got;
		if (want < 32) {
			EXPECT_EQ(want, got)
				TH_LOG("%s n=%ju ppm %u", dist_names[d],
				       (uintmax_t)n, ppms[i]);
		} else {
			EXPECT_LE(diff, want / 16)	/* 6.25 % */
				TH_LOG("%s n=%ju ppm %u: %ju vs %ju",
				       dist_names[d], (uintmax_t)n, ppms[i],
				       (uintmax_t)got, (uintmax_t)want);
		}
	}
	free(v);
	free(h);
}

TEST(percentiles_vs_sorted)
{
	static const uint64_t sizes[] = { 1, 2, 3, 7, 1000, 999999, NR_VALUES };
	unsigned int d, s;

	for (d = 0; d < NR_DISTS; d++)
		for (s = 0; s < ARRAY_SIZE(sizes); s++)
			check_percentiles(_metadata, d, sizes[s]);
}

TEST(percentile_edge_cases)
{
	struct tp_hist *h = hist_new();

	ASSERT_NE(NULL, h);
	ASSERT_EQ(0ULL, tp_hist_percentile(h, 500000));
	tp_hist_add(h, 1000);
	ASSERT_EQ(1000ULL, tp_hist_percentile(h, 0));
	ASSERT_EQ(1000ULL, tp_hist_percentile(h, 1000000));
	ASSERT_EQ(1000ULL, tp_hist_percentile(h, UINT32_MAX));
	tp_hist_add(h, UINT64_MAX);
	ASSERT_EQ(1000ULL, tp_hist_percentile(h, 500000));
	ASSERT_EQ(UINT64_MAX, tp_hist_percentile(h, 500001));
	/* the last bucket's sum wraps: its mean is clamped into the bucket */
	tp_hist_add(h, UINT64_MAX);
	ASSERT_EQ(31ULL << 59, tp_hist_bucket_lo(975));
	ASSERT_EQ(31ULL << 59, tp_hist_percentile(h, 500000));
	free(h);
}

/* The rank must not overflow for counts near 2^63: ppm * n would. */
TEST(percentile_huge_counts)
{
	struct tp_hist *h = hist_new();
	uint64_t p;

	ASSERT_NE(NULL, h);
	h->b[5].calls = 3ULL << 61;		/* 75 % of 2^63 */
	h->b[5].cycles = 5 * (3ULL << 61);	/* wraps; clamped */
	h->b[40].calls = 1ULL << 61;
	h->b[40].cycles = 48 * (1ULL << 61);	/* wraps too */
	ASSERT_EQ(1ULL << 63, tp_hist_count(h));
	ASSERT_EQ(5ULL, tp_hist_percentile(h, 500000));
	ASSERT_EQ(5ULL, tp_hist_percentile(h, 750000));
	p = tp_hist_percentile(h, 750001);
	ASSERT_GE(p, tp_hist_bucket_lo(40));
	ASSERT_LE(p, tp_hist_bucket_hi(40));
	free(h);
}

TEST(merge_count_sum)
{
	struct tp_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	uint64_t seed = 4, v, sum = 0;
	unsigned int i;

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_NE(NULL, all);
	for (i = 0; i < NR_VALUES; i++) {
		v = draw(NOISE, &seed);
		tp_hist_add(i % 3 ? a : b, v);
		tp_hist_add(all, v);
		sum += v;
	}
	ASSERT_EQ((uint64_t)NR_VALUES, tp_hist_count(all));
	ASSERT_EQ(sum, tp_hist_sum(all));
	ASSERT_EQ((uint64_t)NR_VALUES, tp_hist_count(a) + tp_hist_count(b));
	tp_hist_merge(a, b);
	ASSERT_EQ(0, memcmp(a, all, sizeof(*a)));
	tp_hist_reset(a);
	ASSERT_EQ(0ULL, tp_hist_count(a));
	ASSERT_EQ(0ULL, tp_hist_sum(a));
	free(a);
	free(b);
	free(all);
}

TEST_HARNESS_MAIN
