// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/noise.c on a synthetic clock: the loop itself,
 * compiled here with every TSC read taken from a script, so that the TSC
 * can step back where a test wants it to (firmware writing IA32_TSC_ADJUST,
 * a VM restored on another host).  A step back must end its window, be
 * counted on its own, and never be a gap: not in the histogram, not an
 * event, not in min, max, samples or the measured time.
 */
#include "kselftest_harness.h"

#include "core/tsc.h"

/* The script: every read advances by @tick, one read steps back. */
static struct {
	uint64_t t;		/* the last value returned */
	uint64_t tick;		/* cycles between two reads */
	uint64_t reads;		/* reads so far */
	uint64_t back_at;	/* the read that steps back (0: none) */
	uint64_t back;		/* by how much */
	uint64_t back_at2;	/* a second one */
	uint64_t jump_at;	/* a read that jumps forward: an event */
	uint64_t jump;		/* by how much */
	uint64_t jump_at2;	/* a second one */
	bool back_in_path;	/* the explain hook arms a step back */
} clk;

static uint64_t synth_read(enum tscprobe_clock clock)
{
	(void)clock;
	clk.reads++;
	clk.t += clk.tick;
	if (clk.reads == clk.back_at || clk.reads == clk.back_at2)
		clk.t -= clk.back;
	if (clk.reads == clk.jump_at || clk.reads == clk.jump_at2)
		clk.t += clk.jump;
	return clk.t;
}

#define tp_read_tsc(clock)	synth_read(clock)
#include "core/noise.c"

#define START		1000000000ULL
#define TICK		10ULL
#define STEP		10000000ULL	/* a million reads' worth */
#define WINDOW		100000ULL	/* ten thousand reads */
#define THRESHOLD	1000ULL

static void clk_reset(void)
{
	memset(&clk, 0, sizeof(clk));
	clk.t = START;
	clk.tick = TICK;
}

/* The invariants of every window, steps back or not. */
static void check_books(struct __test_metadata *_metadata,
			const struct tp_noise *n)
{
	EXPECT_EQ(n->samples, tp_hist_count(&n->hist));
	EXPECT_EQ(n->measured, tp_hist_sum(&n->hist));
	EXPECT_LE(n->max, n->measured);
	EXPECT_LT(n->max, 1ULL << 62);
	EXPECT_EQ(0ULL, n->hist.b[TSCPROBE_HIST_BUCKETS - 1].calls);
}

/* A window without a step: the script's baseline. */
TEST(steady_clock)
{
	static struct tp_noise n;
	uint64_t last;

	clk_reset();
	tp_noise_init(&n, THRESHOLD);
	last = tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, START + WINDOW);
	/* reads at START + TICK, + 2 TICK, ... up to the deadline */
	EXPECT_EQ(START + WINDOW, last);
	EXPECT_EQ(0ULL, n.steps_back);
	EXPECT_EQ(WINDOW / TICK - 1, n.samples);
	EXPECT_EQ(WINDOW - TICK, n.measured);
	EXPECT_EQ(TICK, n.min);
	EXPECT_EQ(TICK, n.max);
	check_books(_metadata, &n);
}

/*
 * A step back in the middle: the window ends at once (a deadline set on
 * the old count would otherwise keep it going for the whole step, a
 * million reads here), and the step is counted, never recorded.
 */
TEST(step_back_ends_the_window)
{
	static struct tp_noise n;
	uint64_t last, back;

	clk_reset();
	clk.back_at = 500;
	clk.back = STEP;
	tp_noise_init(&n, THRESHOLD);
	last = tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, START + WINDOW);
	back = STEP - TICK;	/* the read after the step is @back below */
	EXPECT_LE(clk.reads, 502ULL);
	EXPECT_EQ(clk.t, last);
	EXPECT_LT(last, START + WINDOW);
	EXPECT_EQ(1ULL, n.steps_back);
	EXPECT_EQ(back, n.step_back_max);
	EXPECT_EQ(back, n.step_back_cycles);
	EXPECT_EQ(0ULL, n.events.total);
	EXPECT_EQ(TICK, n.max);
	EXPECT_EQ(TICK, n.min);
	/* every gap but the step: the reads before it and one after */
	EXPECT_EQ(clk.reads - 2, n.samples);
	check_books(_metadata, &n);
}

/* Two steps in a row: the second is the window's last gap. */
TEST(step_back_twice)
{
	static struct tp_noise n;

	clk_reset();
	clk.back_at = 300;
	clk.back_at2 = 301;
	clk.back = STEP;
	tp_noise_init(&n, THRESHOLD);
	tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, START + WINDOW);
	EXPECT_EQ(301ULL, clk.reads);
	EXPECT_EQ(2ULL, n.steps_back);
	EXPECT_EQ(2 * (STEP - TICK), n.step_back_cycles);
	EXPECT_EQ(0ULL, n.events.total);
	EXPECT_EQ(298ULL, n.samples);
	check_books(_metadata, &n);
}

/* The first gap of a window is a step. */
TEST(step_back_first_gap)
{
	static struct tp_noise n;

	clk_reset();
	clk.back_at = 2;
	clk.back = STEP;
	tp_noise_init(&n, THRESHOLD);
	tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, START + WINDOW);
	EXPECT_LE(clk.reads, 3ULL);
	EXPECT_EQ(1ULL, n.steps_back);
	check_books(_metadata, &n);
}

static unsigned int explained;

/* The explain hook of an event during which the TSC steps back. */
static void explain_then_step(struct tp_noise *n, struct tp_event *ev)
{
	(void)n;
	explained++;
	ev->cause = TSCPROBE_CAUSE_UNEXPLAINED;
	if (clk.back_in_path) {
		clk.back_at = clk.reads + 1;	/* the event path's read */
		clk.back_in_path = false;
	}
}

/*
 * An event, and during its path (the counters' read) the TSC steps back:
 * the event stands, the step is counted, the window ends, and the path's
 * time is neither skipped time gone negative nor a gap.
 */
TEST(step_back_during_event_path)
{
	static struct tp_noise n;
	uint64_t last;

	clk_reset();
	clk.jump_at = 200;
	clk.jump = 5 * THRESHOLD;
	clk.back = STEP;
	clk.back_in_path = true;
	tp_noise_init(&n, THRESHOLD);
	n.explain = explain_then_step;
	explained = 0;
	last = tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, START + WINDOW);
	EXPECT_LT(last, START + WINDOW);
	EXPECT_LE(clk.reads, 205ULL);
	EXPECT_EQ(1U, explained);
	EXPECT_EQ(1ULL, n.events.total);
	EXPECT_EQ(5 * THRESHOLD + TICK, n.events.ev[0].cycles);
	EXPECT_EQ(1ULL, n.steps_back);
	EXPECT_EQ(0ULL, n.skipped);
	EXPECT_EQ(5 * THRESHOLD + TICK, n.max);
	check_books(_metadata, &n);
}

static bool followed[4];

/* The explain hook that notes, per event, whether a gap followed it. */
static void explain_followed(struct tp_noise *n, struct tp_event *ev)
{
	if (explained < 4)
		followed[explained] = n->followed;
	explained++;
	ev->cause = TSCPROBE_CAUSE_UNEXPLAINED;
}

/*
 * Two events @apart reads apart: the loop sees a gap one read late, so
 * the first one's path runs after the second gap when they are back to
 * back, and says so (counters read then would count both); with a gap
 * below the threshold between them (and the path's own read: the second
 * jump three reads later), it does not.
 */
static void two_events(struct __test_metadata *_metadata, uint64_t apart,
		       bool first_followed)
{
	static struct tp_noise n;

	clk_reset();
	clk.jump_at = 200;
	clk.jump_at2 = 200 + apart;
	clk.jump = 5 * THRESHOLD;
	tp_noise_init(&n, THRESHOLD);
	n.explain = explain_followed;
	explained = 0;
	tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, START + WINDOW);
	ASSERT_EQ(2U, explained);
	EXPECT_EQ(2ULL, n.events.total);
	EXPECT_EQ(first_followed, followed[0]);
	EXPECT_FALSE(followed[1]);
	EXPECT_EQ(n.events.ev[0].tsc, n.events.ev[1].tsc -
		  n.events.ev[1].cycles - (apart - 1) * TICK);
	check_books(_metadata, &n);
}

TEST(an_event_followed_by_an_event_says_so)
{
	two_events(_metadata, 1, true);
}

TEST(an_event_a_gap_before_another_is_not_followed)
{
	two_events(_metadata, 3, false);
}

/* Windows after a step measure as before; the counts add up. */
TEST(steps_accumulate_over_windows)
{
	static struct tp_noise n;
	uint64_t last;
	unsigned int w;

	clk_reset();
	tp_noise_init(&n, THRESHOLD);
	for (w = 0; w < 3; w++) {
		clk.back_at = clk.reads + 100;
		clk.back = STEP * (w + 1);
		last = tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE,
				       clk.t + WINDOW);
		EXPECT_EQ(clk.t, last);
	}
	EXPECT_EQ(3ULL, n.steps_back);
	EXPECT_EQ(3 * STEP - TICK, n.step_back_max);
	EXPECT_EQ(6 * STEP - 3 * TICK, n.step_back_cycles);
	clk.back_at = 0;
	last = tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, clk.t + WINDOW);
	EXPECT_GE(last, clk.t);
	EXPECT_EQ(3ULL, n.steps_back);
	EXPECT_EQ(0ULL, n.events.total);
	check_books(_metadata, &n);
}

TEST_HARNESS_MAIN
