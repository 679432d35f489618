// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/counter.h, the arithmetic with which the module
 * follows the SMI, NMI and interrupt counts across a run: a counter that
 * wraps adds what it counted, also when it is one of several 32-bit counts
 * summed into one (the kernel's per-vector interrupt counts).
 */
#include "kselftest_harness.h"

#include "core/counter.h"
#include "prng.h"

#define NR_FIELDS	5

/* The module's reading of several 32-bit counts: their sum, modulo 2^32. */
static uint32_t sum32(const uint32_t *v)
{
	uint32_t s = 0;
	int i;

	for (i = 0; i < NR_FIELDS; i++)
		s += v[i];
	return s;
}

TEST(a_32_bit_counter_wraps_without_a_jump)
{
	struct tp_counter k;

	tp_counter_begin(&k, true, 0xfffffff0u);
	tp_counter_step(&k, true, 0x10, 32);
	EXPECT_EQ(0x20, k.delta);
	tp_counter_step(&k, true, 0x15, 32);
	EXPECT_EQ(0x25, k.delta);
	EXPECT_TRUE(k.ok);
}

TEST(a_64_bit_counter_takes_its_whole_width)
{
	struct tp_counter k;

	tp_counter_begin(&k, true, 0xfffffffffffffff0ull);
	tp_counter_step(&k, true, 0x100000010ull, 64);
	EXPECT_EQ(0x100000020ull, k.delta);
}

/*
 * One field of the sum wraps while the others move: the step of the sum,
 * modulo 2^32, is still the sum of the steps.  Taken with a 64-bit mask
 * (what the module did), the same step is an impossible 1.8e19.
 */
TEST(a_sum_of_32_bit_counts_where_one_wraps)
{
	uint32_t f[NR_FIELDS] = { 0xfffffffe, 7, 0xffffff00, 3, 0 };
	uint32_t add[NR_FIELDS] = { 5, 1, 0x200, 0, 9 };
	uint64_t wide_before, wide_after, want = 0;
	struct tp_counter k, wide;
	int i;

	tp_counter_begin(&k, true, sum32(f));
	wide_before = (uint64_t)f[0] + f[1] + f[2] + f[3] + f[4];
	tp_counter_begin(&wide, true, wide_before);
	for (i = 0; i < NR_FIELDS; i++) {
		f[i] += add[i];
		want += add[i];
	}
	wide_after = (uint64_t)f[0] + f[1] + f[2] + f[3] + f[4];
	tp_counter_step(&k, true, sum32(f), 32);
	tp_counter_step(&wide, true, wide_after, 64);
	EXPECT_EQ(want, k.delta);
	EXPECT_GT(wide.delta, 1ull << 63);
}

/* Random fields and steps, many of them wrapping: never off by a count. */
TEST(random_sums_add_up)
{
	uint32_t f[NR_FIELDS];
	uint64_t want = 0;
	uint64_t r = 23;
	struct tp_counter k;
	int i, step;

	for (i = 0; i < NR_FIELDS; i++)
		f[i] = (uint32_t)tr_next(&r);
	tp_counter_begin(&k, true, sum32(f));
	for (step = 0; step < 100000; step++) {
		for (i = 0; i < NR_FIELDS; i++) {
			uint32_t d = (uint32_t)tr_below(&r, 100000);

			f[i] += d;
			want += d;
		}
		tp_counter_step(&k, true, sum32(f), 32);
	}
	EXPECT_EQ(want, k.delta);
}

/* A failed reading makes the change unknown for the rest of the run. */
TEST(an_unreadable_counter_stays_unknown)
{
	struct tp_counter k;

	tp_counter_begin(&k, true, 10);
	tp_counter_step(&k, true, 12, 32);
	tp_counter_step(&k, false, 0, 32);
	tp_counter_step(&k, true, 20, 32);
	EXPECT_FALSE(k.ok);
}

TEST_HARNESS_MAIN
