// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/noise.c: the real loop, run for ~50 ms per way of
 * reading the TSC, must account for every cycle it measured; and the event
 * set must keep the largest gaps.
 */
#include <stdlib.h>
#include <time.h>

#include "kselftest_harness.h"

#include "core/noise.h"
#include "prng.h"
#include "core/tsc.h"

#define WINDOW_MS	50
#define NR_SYNTH	1000

/* TSC cycles per millisecond, from CLOCK_MONOTONIC over ~20 ms. */
static uint64_t tsc_per_ms(void)
{
	struct timespec a, b;
	uint64_t c0, c1, ns;

	clock_gettime(CLOCK_MONOTONIC, &a);
	c0 = tp_rdtsc_lfence();
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (b.tv_sec - a.tv_sec) * 1000000000ULL + b.tv_nsec -
		     a.tv_nsec;
	} while (ns < 20000000);
	c1 = tp_rdtsc_lfence();
	return (c1 - c0) * 1000000 / ns;
}

/* A TSC read that no later read, however unordered, can pass. */
static uint64_t tsc_fenced(void)
{
	uint64_t t = tp_rdtsc_lfence();

	tp_lfence();
	return t;
}

FIXTURE(noise) {
	struct tp_noise *n;
	uint64_t window;	/* cycles */
};

FIXTURE_VARIANT(noise) {
	enum tscprobe_clock clock;
};

FIXTURE_VARIANT_ADD(noise, lfence) { .clock = TSCPROBE_CLOCK_LFENCE };
FIXTURE_VARIANT_ADD(noise, rdtscp) { .clock = TSCPROBE_CLOCK_RDTSCP };
FIXTURE_VARIANT_ADD(noise, mfence) { .clock = TSCPROBE_CLOCK_MFENCE };
FIXTURE_VARIANT_ADD(noise, plain) { .clock = TSCPROBE_CLOCK_PLAIN };

FIXTURE_SETUP(noise)
{
	self->n = malloc(sizeof(*self->n));
	ASSERT_NE(NULL, self->n);
	self->window = WINDOW_MS * tsc_per_ms();
	ASSERT_GT(self->window, 0ULL);
}

FIXTURE_TEARDOWN(noise)
{
	free(self->n);
}

/*
 * Histogram, counters, min and max tell the same story; returns first.
 * One window: its reads span the gaps and the event paths between them.
 */
static uint64_t check_window(struct __test_metadata *_metadata,
			     const struct tp_noise *n, uint64_t before,
			     uint64_t deadline, uint64_t last)
{
	const struct tp_hist *h = &n->hist;
	uint64_t first = last - n->measured - n->skipped, p50;
	unsigned int lo = 0, hi = TSCPROBE_HIST_BUCKETS - 1;

	EXPECT_GE(last, deadline);
	EXPECT_GT(n->samples, 0ULL);
	EXPECT_EQ(n->samples, tp_hist_count(h));
	/* the gaps telescope: their sum is last - first less event paths */
	EXPECT_EQ(n->measured, tp_hist_sum(h));
	EXPECT_GE(first, before);
	EXPECT_LT(first, deadline);
	EXPECT_LE(n->min, n->max);
	EXPECT_LE(n->max, n->measured);
	p50 = tp_hist_percentile(h, 500000);
	EXPECT_LE(n->min, p50);
	EXPECT_LE(p50, n->max);
	while (lo < hi && !h->b[lo].calls)
		lo++;
	while (hi > lo && !h->b[hi].calls)
		hi--;
	EXPECT_EQ(lo, tp_hist_index(n->min));
	EXPECT_EQ(hi, tp_hist_index(n->max));
	return first;
}

TEST_F(noise, window)
{
	struct tp_noise *n = self->n;
	uint64_t before, deadline, last, first, samples, measured;

	tp_noise_init(n, TP_U64_MAX);
	before = tsc_fenced();
	deadline = before + self->window;
	last = tp_noise_window(n, variant->clock, deadline);
	ASSERT_LE(last, tsc_fenced());
	check_window(_metadata, n, before, deadline, last);
	EXPECT_EQ(0ULL, n->events.total);
	EXPECT_EQ(0ULL, n->skipped);
	EXPECT_EQ(0U, n->events.n);
	TH_LOG("%ju gaps, min %ju, p50 %ju, p99.99 %ju, max %ju cycles",
	       (uintmax_t)n->samples, (uintmax_t)n->min,
	       (uintmax_t)tp_hist_percentile(&n->hist, 500000),
	       (uintmax_t)tp_hist_percentile(&n->hist, 999900),
	       (uintmax_t)n->max);

	/* a second window adds to the first, without the gap between */
	samples = n->samples;
	measured = n->measured;
	before = tsc_fenced();
	deadline = before + self->window / 4;
	last = tp_noise_window(n, variant->clock, deadline);
	EXPECT_GT(n->samples, samples);
	EXPECT_EQ(n->samples, tp_hist_count(&n->hist));
	EXPECT_EQ(n->measured, tp_hist_sum(&n->hist));
	first = last - (n->measured - measured);
	EXPECT_GE(first, before);
	EXPECT_LT(first, deadline);
}

TEST_F(noise, deadline_passed)
{
	struct tp_noise *n = self->n;
	uint64_t before = tsc_fenced();

	tp_noise_init(n, 1);
	EXPECT_GE(tp_noise_window(n, variant->clock, before), before);
	EXPECT_EQ(0ULL, n->samples);
	EXPECT_EQ(0ULL, n->measured);
	EXPECT_EQ(0ULL, tp_hist_count(&n->hist));
	EXPECT_EQ(UINT64_MAX, n->min);
	EXPECT_EQ(0ULL, n->max);
	EXPECT_EQ(0ULL, n->events.total);
}

TEST_F(noise, every_gap_an_event)
{
	struct tp_noise *n = self->n;
	const struct tp_events *e = &n->events;
	uint64_t before, deadline, last, first, small, above = 0, reaching = 0;
	unsigned int i;

	tp_noise_init(n, TSCPROBE_MIN_THRESHOLD_CYCLES);
	before = tsc_fenced();
	deadline = before + self->window;
	last = tp_noise_window(n, variant->clock, deadline);
	first = check_window(_metadata, n, before, deadline, last);

	/* only gaps of 0 (two reads within one TSC tick) are no event */
	ASSERT_EQ(n->samples - n->hist.b[0].calls, e->total);
	ASSERT_GE(e->total, (uint64_t)TSCPROBE_MAX_EVENTS);
	ASSERT_EQ((uint32_t)TSCPROBE_MAX_EVENTS, e->n);
	ASSERT_EQ(e->total - e->n, e->dropped);

	small = e->ev[e->smallest].cycles;
	for (i = 0; i < e->n; i++) {
		EXPECT_LE(small, e->ev[i].cycles);
		EXPECT_GE(e->ev[i].cycles, 1ULL);
		EXPECT_GT(e->ev[i].tsc, first);
		EXPECT_LE(e->ev[i].tsc, last);
		EXPECT_GE(e->ev[i].tsc - e->ev[i].cycles, first);
		if (e->ev[i].cycles == n->max)
			reaching = 1;
	}
	EXPECT_EQ(1ULL, reaching) TH_LOG("the longest gap was not kept");

	/*
	 * They are the largest: every gap longer than the smallest kept one
	 * is kept (so fewer than TSCPROBE_MAX_EVENTS of them), and at least
	 * TSCPROBE_MAX_EVENTS gaps are as long as it.  The histogram counts
	 * some of each for sure: buckets wholly above, or reaching, @small.
	 */
	reaching = 0;
	for (i = 0; i < TSCPROBE_HIST_BUCKETS; i++) {
		if (tp_hist_bucket_lo(i) > small)
			above += n->hist.b[i].calls;
		if (tp_hist_bucket_hi(i) >= small)
			reaching += n->hist.b[i].calls;
	}
	EXPECT_LT(above, (uint64_t)TSCPROBE_MAX_EVENTS);
	EXPECT_GE(reaching, (uint64_t)TSCPROBE_MAX_EVENTS);
}

/*
 * A window short enough for every gap to be kept: the events are then the
 * whole chain of reads, each gap starting where the previous one ended and
 * the first at the window's first read -- which checks that the pipelined
 * loop reports every gap with the TSC at its own end.
 */
TEST_F(noise, events_chain)
{
	struct tp_noise *n = self->n;
	const struct tp_events *e = &n->events;
	uint64_t before, last, first, holes = 0;
	unsigned int i, try;

	/*
	 * A microsecond is easily lost to a page fault or an interrupt
	 * before the first read, leaving no gap at all: try again then.
	 */
	for (try = 0; try < 100; try++) {
		tp_noise_init(n, TSCPROBE_MIN_THRESHOLD_CYCLES);
		before = tsc_fenced();
		last = tp_noise_window(n, variant->clock, before + 2000);
		if (n->samples && e->total <= TSCPROBE_MAX_EVENTS &&
		    !n->hist.b[0].calls)
			break;
	}
	if (try == 100)
		SKIP(return, "%ju gaps, %ju of them 0: no complete chain",
		     (uintmax_t)n->samples, (uintmax_t)n->hist.b[0].calls);
	first = last - n->measured - n->skipped;
	ASSERT_EQ(n->samples, e->total);
	ASSERT_EQ(e->total, (uint64_t)e->n);
	ASSERT_GT(e->n, 0U);
	EXPECT_EQ(first, e->ev[0].tsc - e->ev[0].cycles);
	/*
	 * Each gap starts where the previous one ended, or after the event
	 * path that followed it: the chain's holes add up to what was skipped.
	 */
	for (i = 1; i < e->n; i++) {
		EXPECT_GE(e->ev[i].tsc - e->ev[i].cycles, e->ev[i - 1].tsc)
			TH_LOG("event %u", i);
		holes += e->ev[i].tsc - e->ev[i].cycles - e->ev[i - 1].tsc;
	}
	EXPECT_LE(e->ev[e->n - 1].tsc, last);
	EXPECT_EQ(n->skipped, holes + (last - e->ev[e->n - 1].tsc));
}

static void check_smallest(struct __test_metadata *_metadata,
			   const struct tp_events *e)
{
	unsigned int i;

	ASSERT_LT(e->smallest, e->n);
	for (i = 0; i < e->n; i++)
		ASSERT_LE(e->ev[e->smallest].cycles, e->ev[i].cycles);
}

static struct tp_events *events_new(void)
{
	struct tp_events *e = malloc(sizeof(*e));

	if (e)
		tp_events_init(e);
	return e;
}

TEST(events_append_in_order)
{
	struct tp_events *e = events_new();
	unsigned int i;

	ASSERT_NE(NULL, e);
	ASSERT_EQ(0ULL, e->total);
	ASSERT_EQ(0U, e->n);
	for (i = 0; i < 10; i++) {
		tp_events_add(e, 100 + i, 50 - i * (i % 2) * 3);
		check_smallest(_metadata, e);
	}
	ASSERT_EQ(10ULL, e->total);
	ASSERT_EQ(0ULL, e->dropped);
	ASSERT_EQ(10U, e->n);
	for (i = 0; i < 10; i++) {
		EXPECT_EQ(100ULL + i, e->ev[i].tsc);
		EXPECT_EQ(50ULL - i * (i % 2) * 3, e->ev[i].cycles);
	}
	tp_events_init(e);
	ASSERT_EQ(0ULL, e->total);
	ASSERT_EQ(0U, e->n);
	free(e);
}

/* Feed values in the given order; the kept set must be the top ones. */
static void feed(struct __test_metadata *_metadata, const uint64_t *v,
		 unsigned int nr)
{
	struct tp_events *e = events_new();
	unsigned int i, kept[NR_SYNTH + 1] = { 0 };

	ASSERT_NE(NULL, e);
	for (i = 0; i < nr; i++) {
		tp_events_add(e, i, v[i]);
		check_smallest(_metadata, e);
	}
	ASSERT_EQ((uint64_t)nr, e->total);
	ASSERT_EQ((uint32_t)TSCPROBE_MAX_EVENTS, e->n);
	ASSERT_EQ((uint64_t)nr - TSCPROBE_MAX_EVENTS, e->dropped);
	for (i = 0; i < e->n; i++) {
		/* the event is the one fed at time tsc */
		ASSERT_EQ(v[e->ev[i].tsc], e->ev[i].cycles);
		kept[e->ev[i].cycles]++;
	}
	/* values are a permutation of 1..nr: the top 256 exactly once */
	for (i = 1; i <= nr; i++)
		ASSERT_EQ((unsigned int)(i > nr - TSCPROBE_MAX_EVENTS), kept[i])
			TH_LOG("value %u", i);
	free(e);
}

TEST(events_keep_largest)
{
	static uint64_t v[NR_SYNTH];
	uint64_t seed = 8, t;
	unsigned int i, j;

	for (i = 0; i < NR_SYNTH; i++)
		v[i] = i + 1;
	feed(_metadata, v, NR_SYNTH);		/* ascending: all displace */
	for (i = 0; i < NR_SYNTH; i++)
		v[i] = NR_SYNTH - i;
	feed(_metadata, v, NR_SYNTH);		/* descending: none does */
	for (i = NR_SYNTH - 1; i > 0; i--) {	/* shuffled */
		j = tr_below(&seed, i + 1);
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
	feed(_metadata, v, NR_SYNTH);
}

TEST(events_ties_keep_oldest)
{
	struct tp_events *e = events_new();
	unsigned int i;

	ASSERT_NE(NULL, e);
	for (i = 0; i < 300; i++)
		tp_events_add(e, i, 7);
	ASSERT_EQ(300ULL, e->total);
	ASSERT_EQ(300ULL - TSCPROBE_MAX_EVENTS, e->dropped);
	for (i = 0; i < e->n; i++)
		EXPECT_EQ((uint64_t)i, e->ev[i].tsc);
	/* a larger one displaces exactly one of them */
	tp_events_add(e, 1000, 8);
	EXPECT_EQ(301ULL - TSCPROBE_MAX_EVENTS, e->dropped);
	EXPECT_EQ(8ULL, e->ev[0].cycles);
	EXPECT_EQ(1000ULL, e->ev[0].tsc);
	check_smallest(_metadata, e);
	free(e);
}

/* The rule of enum tscprobe_cause, on deltas read or not. */
TEST(event_cause_rule)
{
	const struct {
		uint16_t valid;
		uint32_t smi, nmi, irq;
		uint64_t steal;
		unsigned int cause;
	} c[] = {
		{ 0, 0, 0, 0, 0, TSCPROBE_CAUSE_UNEXPLAINED },
		{ 0, 5, 5, 5, 5, TSCPROBE_CAUSE_UNEXPLAINED },	/* none read */
		{ TP_EVENT_SMI | TP_EVENT_NMI | TP_EVENT_IRQ | TP_EVENT_STEAL,
		  1, 1, 1, 1, TSCPROBE_CAUSE_SMI },
		{ TP_EVENT_NMI | TP_EVENT_IRQ | TP_EVENT_STEAL,
		  1, 1, 1, 1, TSCPROBE_CAUSE_NMI },		/* smi unread */
		{ TP_EVENT_SMI | TP_EVENT_NMI | TP_EVENT_IRQ,
		  0, 0, 2, 9, TSCPROBE_CAUSE_IRQ },		/* steal unread */
		{ TP_EVENT_SMI | TP_EVENT_NMI | TP_EVENT_IRQ | TP_EVENT_STEAL,
		  0, 0, 0, 9, TSCPROBE_CAUSE_STEAL },
		{ TP_EVENT_SMI | TP_EVENT_NMI | TP_EVENT_IRQ,
		  0, 0, 0, 9, TSCPROBE_CAUSE_UNEXPLAINED },
		{ TP_EVENT_SMI | TP_EVENT_NMI, 0, 3, 0, 0, TSCPROBE_CAUSE_NMI },
		/* a VM: no SMI delta, whatever a virtual count said */
		{ TP_EVENT_NMI | TP_EVENT_IRQ, 7, 0, 0, 0,
		  TSCPROBE_CAUSE_UNEXPLAINED },
		{ TP_EVENT_NMI | TP_EVENT_IRQ | TP_EVENT_STEAL, 7, 0, 0, 9,
		  TSCPROBE_CAUSE_STEAL },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct tp_event ev = {
			.tsc = 1, .cycles = 100, .steal_ns = c[i].steal,
			.smi = c[i].smi, .nmi = c[i].nmi, .irq = c[i].irq,
			.valid = c[i].valid,
		};

		EXPECT_EQ(c[i].cause, tp_event_cause(&ev)) TH_LOG("case %zu", i);
	}
}

static unsigned int explained;

/* A hook that reads "an NMI" for every event and counts its calls. */
static void explain_nmi(struct tp_noise *n, struct tp_event *ev)
{
	(void)n;
	explained++;
	ev->valid = TP_EVENT_NMI;
	ev->nmi = 1;
	ev->cause = (uint16_t)tp_event_cause(ev);
}

/* The slow path explains every event, also those the set does not keep. */
TEST(noise_event_explains_every_event)
{
	static struct tp_noise n;
	uint32_t i;

	tp_noise_init(&n, 10);
	ASSERT_EQ(NULL, n.explain);
	tp_noise_event(&n, 1, 10);
	EXPECT_EQ(TSCPROBE_CAUSE_NONE, n.events.ev[0].cause);
	EXPECT_EQ(0, n.events.ev[0].valid);

	tp_noise_init(&n, 10);
	n.explain = explain_nmi;
	explained = 0;
	for (i = 0; i < TSCPROBE_MAX_EVENTS + 44; i++)
		tp_noise_event(&n, 100 + i, 10 + i % 7);
	EXPECT_EQ(TSCPROBE_MAX_EVENTS + 44, explained);
	EXPECT_EQ(TSCPROBE_MAX_EVENTS + 44, n.events.total);
	EXPECT_EQ(TSCPROBE_MAX_EVENTS, n.events.n);
	for (i = 0; i < n.events.n; i++) {
		EXPECT_EQ(TSCPROBE_CAUSE_NMI, n.events.ev[i].cause);
		EXPECT_EQ(1, n.events.ev[i].nmi);
		EXPECT_EQ(TP_EVENT_NMI, n.events.ev[i].valid);
	}
}

/* The loop reaches the slow path, and through it the hook, for its gaps. */
TEST(loop_calls_the_hook)
{
	static struct tp_noise n;

	tp_noise_init(&n, 0);	/* every gap an event, but gaps of 0 */
	EXPECT_EQ(1, n.threshold);
	n.explain = explain_nmi;
	explained = 0;
	/*
	 * A first call that measures nothing: under ASan the first one in a
	 * fresh test process took over 100,000 cycles to reach the loop.
	 */
	tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE, 0);
	tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE,
			tp_read_tsc(TSCPROBE_CLOCK_LFENCE) + 100000);
	EXPECT_GT(n.samples, 0);
	EXPECT_EQ(n.samples - n.hist.b[0].calls, explained);
	EXPECT_EQ(explained, n.events.total);
}

#define SLOW_HOOK_CYCLES	20000

/* A hook as slow as an rdmsr that traps to a hypervisor, and more. */
static void explain_slowly(struct tp_noise *n, struct tp_event *ev)
{
	uint64_t until = tp_read_tsc(TSCPROBE_CLOCK_LFENCE) + SLOW_HOOK_CYCLES;

	(void)n;
	explained++;
	while (tp_read_tsc(TSCPROBE_CLOCK_LFENCE) < until)
		;
	ev->cause = TSCPROBE_CAUSE_UNEXPLAINED;
}

/*
 * The event path's own time is neither a gap nor measured: with a hook
 * slower than the threshold, an event must not make the next gap an event
 * (which would make every gap one), and the window's reads must account
 * for every cycle: gaps plus skipped event paths.  Every gap is an event
 * here, so without the resync every gap but the first would be at least
 * SLOW_HOOK_CYCLES long.
 */
TEST(event_path_is_not_noise)
{
	static struct tp_noise n;
	uint64_t before, last, p50;
	unsigned int try;

	/*
	 * The window is 4 million cycles, a few ms: on a host busy with
	 * compiles one preemption can take all of it.  Such a window proves
	 * nothing: run another.
	 */
	for (try = 0; try < 50; try++) {
		tp_noise_init(&n, 1);
		n.explain = explain_slowly;
		explained = 0;
		before = tp_read_tsc(TSCPROBE_CLOCK_LFENCE);
		last = tp_noise_window(&n, TSCPROBE_CLOCK_LFENCE,
				       before + 200 * SLOW_HOOK_CYCLES);
		if (n.samples > 10)
			break;
	}
	ASSERT_GT(n.samples, 10) TH_LOG("%u windows", try);
	p50 = tp_hist_percentile(&n.hist, 500000);
	TH_LOG("%ju gaps, p50 %ju cycles, %ju events, %ju cycles skipped",
	       (uintmax_t)n.samples, (uintmax_t)p50,
	       (uintmax_t)n.events.total, (uintmax_t)n.skipped);
	EXPECT_LT(p50, SLOW_HOOK_CYCLES / 2);
	EXPECT_EQ(n.events.total, explained);
	EXPECT_GE(n.skipped, (explained - 1) * SLOW_HOOK_CYCLES);
	EXPECT_EQ(n.measured, tp_hist_sum(&n.hist));
	EXPECT_LE(n.measured + n.skipped, last - before);
}

TEST_HARNESS_MAIN
