// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/ramp.c, how the module reads a CPU's effective clock
 * before a cache or skew run: after the CPU left idle, once the clock has
 * settled.  The readings are scripted (the module's come from APERF/MPERF,
 * which no TCG guest has): a clock ramping up from idle is never taken
 * mid-ramp, so a run at a steady 3 GHz never reports that its clock moved.
 */
#include "kselftest_harness.h"

#include "core/ramp.h"

#define MS	1000000ULL

/* A scripted CPU: the readings, 1 ms each, then the last one forever. */
struct script {
	const uint32_t *khz;
	unsigned int n;
	unsigned int at;
};

static uint32_t script_read(void *state, uint64_t *ns)
{
	struct script *s = state;
	uint32_t khz = s->khz[s->at < s->n ? s->at : s->n - 1];

	s->at++;
	*ns = MS;
	return khz;
}

static uint32_t settle(const uint32_t *khz, unsigned int n, struct tp_ramp *r)
{
	struct script s = { khz, n, 0 };

	tp_ramp_init(r);
	return tp_ramp_settle(r, script_read, &s);
}

/* The report's rule (user/lib/context_report.c): above 5 % has moved. */
static bool moved(uint32_t before, uint32_t after)
{
	uint64_t d = after > before ? after - before : before - after;

	return d * 100 > 5ULL * before;
}

/*
 * Leaving idle at 800 MHz, the clock reaches 3 GHz in 4 ms: the first
 * reading, which the module kept before, would say the clock moved +275 %
 * during a run that ran at 3 GHz throughout.
 */
TEST(a_clock_ramping_up_from_idle_is_read_once_up)
{
	static const uint32_t ramp[] = { 800000, 1600000, 2400000, 2990000,
					 3000000 };
	struct tp_ramp r;

	EXPECT_EQ(3000000, settle(ramp, TP_ARRAY_SIZE(ramp), &r));
	EXPECT_TRUE(r.settled);
	EXPECT_GE(r.spun_ns, TP_RAMP_MIN_NS);
	EXPECT_FALSE(moved(r.khz, 3000000));
}

/* A steady clock is read after the ramp time and no later. */
TEST(a_steady_clock_takes_the_ramp_time)
{
	static const uint32_t steady[] = { 3000000 };
	struct tp_ramp r;

	EXPECT_EQ(3000000, settle(steady, 1, &r));
	EXPECT_TRUE(r.settled);
	EXPECT_EQ(TP_RAMP_MIN_NS, r.spun_ns);
	EXPECT_EQ(TP_RAMP_MIN_NS / MS, r.reads);
}

/*
 * The clock may hold a low step for a few milliseconds before it climbs:
 * two readings that agree early do not end the wait.
 */
TEST(readings_that_agree_within_the_ramp_are_not_enough)
{
	static const uint32_t step[] = { 1200000, 1200000, 1200000, 3000000 };
	struct tp_ramp r;

	EXPECT_EQ(3000000, settle(step, TP_ARRAY_SIZE(step), &r));
	EXPECT_TRUE(r.settled);
}

/* Jitter within TP_RAMP_STEADY_PCT is a steady clock. */
TEST(jitter_below_one_per_cent_is_steady)
{
	static const uint32_t jitter[] = { 3000000, 2980000, 3010000, 2990000,
					   3005000, 2995000 };
	struct tp_ramp r;

	settle(jitter, TP_ARRAY_SIZE(jitter), &r);
	EXPECT_TRUE(r.settled);
	EXPECT_EQ(TP_RAMP_MIN_NS / MS, r.reads);
}

/*
 * A clock that never settles (two P-states in turn, thermal throttling) is
 * read for TP_RAMP_MAX_NS and taken as it is then: the report's warning is
 * then the truth.
 */
TEST(a_clock_that_never_settles_is_given_up_at_the_bound)
{
	static const uint32_t flip[] = { 2000000, 3000000 };
	uint32_t alternate[64];
	struct tp_ramp r;
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(alternate); i++)
		alternate[i] = flip[i % 2];
	settle(alternate, TP_ARRAY_SIZE(alternate), &r);
	EXPECT_FALSE(r.settled);
	EXPECT_EQ(TP_RAMP_MAX_NS, r.spun_ns);
	EXPECT_EQ(alternate[r.reads - 1], r.khz);
}

/* No APERF/MPERF (a TCG guest): one try, nothing read, no spin. */
TEST(an_unreadable_clock_stops_at_once)
{
	static const uint32_t none[] = { 0 };
	struct tp_ramp r;

	EXPECT_EQ(0, settle(none, 1, &r));
	EXPECT_EQ(1, r.reads);
	EXPECT_FALSE(r.settled);
}

/* Moved off its CPU mid-way, the thread reads nothing: not read at all. */
TEST(a_thread_moved_away_mid_way_reads_nothing)
{
	static const uint32_t moved_away[] = { 3000000, 3000000, 0 };
	struct tp_ramp r;

	EXPECT_EQ(0, settle(moved_away, TP_ARRAY_SIZE(moved_away), &r));
	EXPECT_EQ(3, r.reads);
}

/* A reading that says it spun nothing still counts toward the bound. */
static uint32_t read_no_time(void *state, uint64_t *ns)
{
	unsigned int *n = state;

	*ns = 0;
	return (*n)++ % 2 ? 2000000 : 3000000;
}

TEST(the_number_of_readings_is_bounded_too)
{
	struct tp_ramp r;
	unsigned int n = 0;

	tp_ramp_init(&r);
	tp_ramp_settle(&r, read_no_time, &n);
	EXPECT_EQ(TP_RAMP_MAX_READS, r.reads);
	EXPECT_EQ(TP_RAMP_MAX_READS, n);
}

TEST_HARNESS_MAIN
