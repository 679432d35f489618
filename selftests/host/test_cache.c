// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the cache measurement.
 *
 * Exact, on synthetic input: the block averages (windows) against a naive
 * recomputation, the statistics and histograms of every round, the pace
 * that ends windows on time, the pointer chase's cycle through every line,
 * and the Average lines.
 *
 * On this machine's hardware, through core/ and the userspace engine, on
 * one pinned CPU: an uncached load costs at least 3x a cached one; the
 * cached load net of the overhead is close to an independent pointer-chase
 * L1 latency; a missing fence is caught; two runs agree.  Other work on the
 * machine (VMs, benchmarks) disturbs single values, so the figures are
 * quiet means (values of QUIET cycles or more, an interrupt or a
 * preemption, left out) and medians of short interleaved passes, and a
 * comparison that fails is retried, with its figures logged.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "core/cache.h"
#include "core/chase.h"
#include "user/engines.h"
#include "prng.h"
#include "core/report.h"
#include "user/reports.h"
#include "user/lib/result.h"
#include "core/tsc.h"

#define QUIET		4000
#define PASSES		9
#define ATTEMPTS	3

/* ---- exact: windows, statistics, histograms ------------------------------ */

static struct tp_cache *cache_alloc(void)
{
	struct tp_cache *c = aligned_alloc(4096, (sizeof(*c) + 4095) & ~4095UL);

	if (c)
		tp_cache_init(c);
	return c;
}

/* Round r's values: overhead, cached, uncached; deterministic. */
static void synth(uint64_t *state, uint64_t v[3])
{
	v[0] = 20 + tr_below(state, 40);
	v[1] = v[0] + tr_below(state, 10);
	v[2] = tr_below(state, 64) ? 200 + tr_below(state, 300) :
		tr_log(state, 30);	/* now and then an outlier */
}

static void check_windows(struct __test_metadata *_metadata, uint64_t rounds)
{
	struct tp_cache *c = cache_alloc();
	uint64_t *vals = malloc(3 * rounds * sizeof(*vals));
	uint64_t state = 0x1234567 + rounds, r, len, blocks, sum, min, max;
	unsigned int i, k;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, vals);
	for (r = 0; r < rounds; r++) {
		synth(&state, &vals[3 * r]);
		tp_cache_record(c, vals[3 * r], vals[3 * r + 1], vals[3 * r + 2]);
	}
	EXPECT_EQ(rounds, c->pace.units);
	for (i = 0; i < TP_CACHE_SERIES; i++) {
		const struct tp_cache_series *s = &c->s[i];

		sum = 0;
		min = TP_U64_MAX;
		max = 0;
		for (r = 0; r < rounds; r++) {
			uint64_t v = vals[3 * r + i];	/* the series' order */

			sum += v;
			min = v < min ? v : min;
			max = v > max ? v : max;
		}
		EXPECT_EQ(rounds, s->stats.count);
		EXPECT_EQ(sum, s->stats.sum);
		EXPECT_EQ(min, s->stats.min);
		EXPECT_EQ(max, s->stats.max);
		EXPECT_EQ(rounds, tp_hist_count(&s->hist));
		EXPECT_EQ(sum, tp_hist_sum(&s->hist));
		for (k = 0; k < TP_CACHE_WINDOWS; k++) {
			len = tp_cache_window_rounds(k);
			blocks = rounds / len;
			EXPECT_EQ(blocks, s->win[k].blocks) TH_LOG("k %u", k);
			if (!blocks) {
				EXPECT_EQ(0, s->win[k].sum);
				continue;
			}
			/* the most recent complete block: its rounds exactly */
			sum = 0;
			for (r = (blocks - 1) * len; r < blocks * len; r++)
				sum += vals[3 * r + i];
			EXPECT_EQ(sum, s->win[k].sum)
				TH_LOG("series %u, block of %llu, %llu rounds", i,
				       (unsigned long long)len,
				       (unsigned long long)rounds);
		}
	}
	free(vals);
	free(c);
}

TEST(window_lengths)
{
	EXPECT_EQ(1000, tp_cache_window_rounds(0));
	EXPECT_EQ(100000, tp_cache_window_rounds(1));
	EXPECT_EQ(1000000, tp_cache_window_rounds(2));
	EXPECT_EQ(0, tp_cache_window_rounds(3));
}

TEST(windows_exact_on_synthetic_rounds)
{
	static const uint64_t rounds[] = {
		1, 999, 1000, 1001, 99999, 100000, 100001, 250500, 999999,
		1000000, 1000001, 2345678,
	};
	unsigned int i;

	for (i = 0; i < sizeof(rounds) / sizeof(rounds[0]); i++)
		check_windows(_metadata, rounds[i]);
}

/* @n copies of @v into a series of a synthetic result. */
static void add_values(struct tp_series_res *s, uint64_t v, uint64_t n)
{
	struct tp_hist *h = tp_series_hist(s);
	uint64_t i;

	s->present = true;
	for (i = 0; i < n; i++) {
		tp_stats_add(&s->stats, v);
		tp_hist_add(h, v);
	}
}

/*
 * One overhead of 200 million cycles among 100000 of 40 (an SMI inside the
 * empty bracket) moves the overhead's mean to about 2040 cycles: net of the
 * mean, as the original program computes, a cached load of 42 cycles would
 * take -1998.  Net of the median it takes 2, none of the figures is negative,
 * and the loads below the overhead (38 cycles) count 0 and are counted.
 */
TEST(net_of_a_robust_overhead_never_negative)
{
	struct tp_cache_summary s;
	struct tp_result r;
	struct tp_cpu_res *c;
	struct tp_output o = { .fmt = TP_FMT_JSON };
	unsigned int k, x;
	char *buf = NULL, *neg;
	size_t len = 0;
	FILE *out;

	tp_result_init(&r, TSCPROBE_KIND_CACHE);
	r.tsc_khz = 2000000;
	c = tp_result_cpu(&r, 0);
	ASSERT_NE(NULL, c);
	for (k = TSCPROBE_SERIES_OVERHEAD; k <= TSCPROBE_SERIES_UNCACHED; k++)
		tp_stats_init(&c->series[k].stats);
	add_values(&c->series[TSCPROBE_SERIES_OVERHEAD], 40, 100000);
	add_values(&c->series[TSCPROBE_SERIES_OVERHEAD], 200000000, 1);
	add_values(&c->series[TSCPROBE_SERIES_CACHED], 42, 99000);
	add_values(&c->series[TSCPROBE_SERIES_CACHED], 38, 1001);
	add_values(&c->series[TSCPROBE_SERIES_UNCACHED], 300, 100001);
	c->rounds = 100001;
	c->measured_cycles = 1000000000;
	/* The last 1e3 rounds' block, with the outlier in its overhead. */
	c->series[TSCPROBE_SERIES_OVERHEAD].win[0] =
		(struct tp_window_res){ 1000, 999 * 40 + 200000000, 100 };
	c->series[TSCPROBE_SERIES_CACHED].win[0] =
		(struct tp_window_res){ 1000, 1000 * 42, 100 };
	c->series[TSCPROBE_SERIES_UNCACHED].win[0] =
		(struct tp_window_res){ 1000, 1000 * 39, 100 };

	tp_cache_summarize(&r, c, &s);
	EXPECT_GT(s.overhead_avg, 2000.0);
	EXPECT_EQ(40.0, s.overhead_p50);
	/* the original program's figure keeps its meaning */
	EXPECT_LT(s.avg_minus_overhead_avg[1], -1900.0);
	for (k = 1; k < TP_CACHE_SERIES; k++)
		for (x = 0; x < TP_FIGS; x++)
			EXPECT_GE(s.net[k][x], 0.0);
	EXPECT_EQ(0.0, s.net[1][0]);		/* min: 38 - 40 counts 0 */
	EXPECT_EQ(2.0, s.net[1][2]);		/* p50 */
	EXPECT_EQ(2.0, s.net[1][3]);		/* p99 */
	EXPECT_EQ(1001, s.below[1]);
	EXPECT_EQ(0, s.below[2]);
	EXPECT_EQ(260.0, s.net[2][2]);
	/* the mean of the net values: 99000 * 2 + 1001 * 0 over every round */
	EXPECT_LT(s.net[1][1], 2.0);
	EXPECT_GT(s.net[1][1], 1.97);
	/* and the rounds add up: below + the rest */
	EXPECT_EQ(c->series[TSCPROBE_SERIES_CACHED].stats.count, 100001);

	/*
	 * The block averages too: the block's overhead mean is 200040, its
	 * loads' 42 and 39: net of the median 2 and 0 (below the overhead).
	 */
	out = open_memstream(&buf, &len);
	ASSERT_NE(NULL, out);
	tp_cache_output(&r, &o, out);
	fclose(out);
	EXPECT_NE(NULL, strstr(buf, "\"cached\": 2,"));
	EXPECT_NE(NULL, strstr(buf, "\"uncached\": 0,"));
	EXPECT_NE(NULL, strstr(buf, "\"uncached_below_overhead\": true"));
	EXPECT_NE(NULL, strstr(buf, "\"cached_below_overhead\": false"));
	/* Nothing is negative but the original's mean minus mean: seed_avg */
	for (neg = strstr(buf, ": -"); neg; neg = strstr(neg + 1, ": -"))
		EXPECT_EQ(0, strncmp(neg - 10, "\"seed_avg\"", 10));
	free(buf);
	tp_result_free(&r);
}

TEST(average_lines)
{
	struct tp_stats ov, un, ca;
	char row[128];

	tp_stats_init(&ov);
	tp_stats_init(&un);
	tp_stats_init(&ca);
	tp_stats_add(&ov, 37);
	tp_stats_add(&ov, 38);		/* mean 37.5: rounds to 38 */
	tp_stats_add(&un, 259);
	tp_stats_add(&un, 260);		/* 259.5 -> 260 */
	tp_stats_add(&ca, 30);
	tp_stats_add(&ca, 30);		/* below the overhead: negative */
	tp_cache_avg_line(row, sizeof(row), TSCPROBE_SERIES_OVERHEAD, &ov, &ov);
	EXPECT_STREQ("Average measurement overhead: 38 cycles", row);
	tp_cache_avg_line(row, sizeof(row), TSCPROBE_SERIES_UNCACHED, &un, &ov);
	EXPECT_STREQ("Average uncached memory access: 222 cycles", row);
	tp_cache_avg_line(row, sizeof(row), TSCPROBE_SERIES_CACHED, &ca, &ov);
	EXPECT_STREQ("Average cached memory access: -8 cycles", row);
}

/* ---- exact: the pace -------------------------------------------------------- */

/**
 * struct fake - a loop whose units take at least @cost TSC cycles each
 * @cost: cycles per unit (spun on the TSC; preemption only adds)
 * @deadline: the window's deadline, to check every batch against
 * @prev: the TSC the previous batch returned (what the pace saw)
 * @units: units run
 * @largest: the largest batch
 * @overplanned: batches planned to end more than a unit past @deadline
 */
struct fake {
	uint64_t cost;
	uint64_t deadline;
	uint64_t prev;
	uint64_t units;
	uint64_t largest;
	uint64_t overplanned;
};

static uint64_t fake_batch(void *state, uint64_t n)
{
	struct fake *f = state;
	uint64_t end = tp_rdtsc_lfence() + n * f->cost, now;

	/*
	 * The pace chose n from the TSC f->prev and a pace of at least
	 * f->cost per unit: it may plan one unit past the deadline, no more.
	 */
	if (f->deadline != TP_U64_MAX &&
	    f->prev + n * f->cost > f->deadline + f->cost)
		f->overplanned++;
	while ((now = tp_rdtsc_lfence()) < end)
		;
	f->units += n;
	f->largest = n > f->largest ? n : f->largest;
	f->prev = now;
	return now;
}

TEST(pace_ends_windows_on_time_and_respects_batch)
{
	struct fake f = { .cost = 20000, .deadline = TP_U64_MAX };
	struct tp_pace pace = { 0, 0 };
	uint64_t done, start;

	/* Far deadline: every unit, never more than a batch at a time. */
	done = tp_paced_window(&pace, fake_batch, &f, 50, 7, TP_U64_MAX);
	EXPECT_EQ(50, done);
	EXPECT_EQ(50, f.units);
	EXPECT_EQ(7, f.largest);
	EXPECT_EQ(50, pace.units);
	/* A passed deadline still makes progress: one unit. */
	f.units = 0;
	EXPECT_EQ(1, tp_paced_window(&pace, fake_batch, &f, 1000, 1000, 0));
	EXPECT_EQ(1, f.units);
	EXPECT_EQ(0, tp_paced_window(&pace, fake_batch, &f, 0, 1000, TP_U64_MAX));
	/*
	 * A batch of 1e6 units of 20000 cycles would take seconds: the pace
	 * cuts every batch to what fits before the deadline.  Preemption can
	 * only make units slower, so the plan, not the clock, is checked.
	 */
	memset(&f, 0, sizeof(f));
	f.cost = 20000;
	start = tp_rdtsc_lfence();
	f.deadline = start + 100 * f.cost;
	f.prev = start;
	done = tp_paced_window(&pace, fake_batch, &f, 1000000, 1000000,
			       f.deadline);
	EXPECT_EQ(0, f.overplanned);
	EXPECT_GE(f.prev, f.deadline);
	EXPECT_LE(done, 101);
	EXPECT_GE(done, 1);
	TH_LOG("%llu units of a 100-unit window, largest batch %llu",
	       (unsigned long long)done, (unsigned long long)f.largest);
}

/* ---- exact: the chase's cycle --------------------------------------------- */

static void check_cycle(struct __test_metadata *_metadata, uint64_t lines,
			unsigned int chunk_shift, uint64_t steps)
{
	uint64_t nchunks = ((lines - 1) >> chunk_shift) + 1, k, n;
	size_t chunk_bytes = (size_t)64 << chunk_shift;
	void **chunks = calloc(nchunks, sizeof(*chunks));
	uint8_t *seen = calloc(lines, 1);
	struct tp_chase ch;
	void **p;
	uint64_t i;

	ASSERT_NE(NULL, chunks);
	ASSERT_NE(NULL, seen);
	for (i = 0; i < nchunks; i++) {
		chunks[i] = aligned_alloc(64, chunk_bytes);
		ASSERT_NE(NULL, chunks[i]);
	}
	tp_chase_init(&ch, chunks, chunk_shift, lines, 42);
	n = 0;
	while (!tp_chase_build(&ch, steps))
		ASSERT_LT(++n, 3 * lines + 2);
	EXPECT_EQ(3 * lines / steps + (3 * lines % steps != 0), n + 1);
	/* one cycle through every line: lines steps back to the start */
	p = ch.pos;
	for (n = 0; n < lines; n++) {
		for (k = 0; k < nchunks; k++)
			if ((char *)p >= (char *)chunks[k] &&
			    (char *)p < (char *)chunks[k] + chunk_bytes)
				break;
		ASSERT_LT(k, nchunks);
		ASSERT_EQ(0, ((char *)p - (char *)chunks[k]) % 64);
		i = (k << chunk_shift) + ((char *)p - (char *)chunks[k]) / 64;
		ASSERT_LT(i, lines);
		ASSERT_EQ(0, seen[i]) TH_LOG("line %llu twice", (unsigned long long)i);
		seen[i] = 1;
		p = (void **)*p;
	}
	EXPECT_EQ(ch.pos, p);
	for (i = 0; i < nchunks; i++)
		free(chunks[i]);
	free(chunks);
	free(seen);
}

TEST(chase_is_one_cycle_through_every_line)
{
	check_cycle(_metadata, 2, 6, 1);
	check_cycle(_metadata, 64, 6, 1000);
	check_cycle(_metadata, 64, 2, 5);	/* 16 chunks of 4 lines */
	check_cycle(_metadata, 4096, 10, 100);	/* 4 chunks, built in steps */
	check_cycle(_metadata, 100000, 17, TP_CHASE_BUILD_STEPS);
}

TEST(chase_is_random_but_reproducible)
{
	void *a = aligned_alloc(4096, 1 << 16), *b = aligned_alloc(4096, 1 << 16);
	struct tp_chase ca, cb;
	uint64_t follows = 0, i;
	void *chunks_a[1] = { a }, *chunks_b[1] = { b };

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	tp_chase_init(&ca, chunks_a, 10, 1024, 7);
	tp_chase_init(&cb, chunks_b, 10, 1024, 7);
	ASSERT_TRUE(tp_chase_build(&ca, 3 * 1024));
	while (!tp_chase_build(&cb, 13))
		;
	for (i = 0; i < 1024; i++) {
		void *pa = ((void **)((char *)a + 64 * i))[0];
		void *pb = ((void **)((char *)b + 64 * i))[0];

		EXPECT_EQ((char *)pa - (char *)a, (char *)pb - (char *)b);
		follows += (char *)pa - (char *)a == (int64_t)(64 * (i + 1));
	}
	/* a prefetcher's favourite, the next line, is as rare as chance */
	EXPECT_LT(follows, 10);
	free(a);
	free(b);
}

TEST(chase_leaves_out_disturbed_units)
{
	void *mem = aligned_alloc(4096, 4096), *chunks[1] = { mem };
	struct tp_chase ch;
	unsigned int tries;

	ASSERT_NE(NULL, mem);
	tp_chase_init(&ch, chunks, 6, 64, 3);
	ASSERT_TRUE(tp_chase_build(&ch, 3 * 64));
	/* every unit far slower than a "fastest" of 1 cycle: none kept */
	ch.fastest = 1;
	tp_chase_batch(&ch, 10);
	EXPECT_EQ(0, ch.loads);
	EXPECT_EQ(0, ch.cycles);
	EXPECT_EQ(10, ch.disturbed);
	/*
	 * An honest fastest: a unit is kept or left out, never lost, and a
	 * quiet batch keeps most.  Other work on a busy host can disturb
	 * many units of one batch, so batches go on until one is quiet.
	 */
	ch.fastest = TP_U64_MAX;
	for (tries = 0; tries < 50; tries++) {
		tp_chase_reset_counts(&ch);
		tp_chase_batch(&ch, 100);
		EXPECT_EQ(100 * TP_CHASE_UNIT,
			  ch.loads + ch.disturbed * TP_CHASE_UNIT);
		if (ch.disturbed <= 10)
			break;
		TH_LOG("batch %u: %llu of 100 units disturbed", tries,
		       (unsigned long long)ch.disturbed);
	}
	EXPECT_LE(ch.disturbed, 10);
	EXPECT_GT(ch.cycles, 0);
	free(mem);
}

/* ---- this machine: timing ------------------------------------------------- */

static int pin_last_cpu(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int cpu = n > 1 ? (int)n - 1 : 0;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -1 : cpu;
}

/* Mean of the values below QUIET cycles. */
static double quiet_mean(const struct tp_hist *h)
{
	uint64_t calls = 0, cycles = 0;
	unsigned int i;

	for (i = 0; tp_hist_bucket_hi(i) < QUIET; i++) {
		calls += h->b[i].calls;
		cycles += h->b[i].cycles;
	}
	return calls ? (double)cycles / calls : 0;
}

/**
 * struct figs - one pass's figures, TSC cycles
 * @ov: overhead, quiet mean
 * @ca: cached, net of @ov
 * @un: uncached, net of @ov
 * @ca_p50: cached, gross median
 * @un_p50: uncached, gross median
 * @l1: an independent pointer chase through 64 lines (4 KiB)
 */
struct figs {
	double ov, ca, un, ca_p50, un_p50, l1;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Not core/chase.c: a ring written here, so that the comparison is with a
 * figure the cache code did not produce.
 */
static void *l1_ring[64 * 8] __attribute__((aligned(4096)));

static void l1_ring_init(void)
{
	uint64_t state = 99;
	unsigned int order[64], i, j, t;

	for (i = 0; i < 64; i++)
		order[i] = i;
	for (i = 63; i > 0; i--) {
		j = tr_below(&state, i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0; i < 64; i++)
		l1_ring[8 * order[i]] = &l1_ring[8 * order[(i + 1) % 64]];
}

static double l1_chase(void)
{
	void **p = &l1_ring[0];
	uint64_t t0, t1, i;

	t0 = tp_rdtsc_lfence();
	for (i = 0; i < 200000; i++)
		p = (void **)*p;
	t1 = tp_rdtsc_lfence();
	return p ? (t1 - t0) / 2e5 : 0;
}

/* Medians of PASSES passes of (chase, @rounds cache rounds, chase). */
static bool measure(struct figs *m, uint64_t rounds)
{
	double v[6][PASSES];
	struct tp_cache *c = cache_alloc();
	unsigned int p, k;

	if (!c)
		return false;
	l1_ring_init();
	for (p = 0; p < PASSES; p++) {
		tp_cache_init(c);
		v[5][p] = l1_chase();
		tp_paced_window(&c->pace, tp_cache_batch, c, rounds,
				TSCPROBE_DEFAULT_BATCH, TP_U64_MAX);
		v[5][p] = (v[5][p] + l1_chase()) / 2;
		v[0][p] = quiet_mean(&c->s[0].hist);
		v[1][p] = quiet_mean(&c->s[1].hist) - v[0][p];
		v[2][p] = quiet_mean(&c->s[2].hist) - v[0][p];
		v[3][p] = tp_hist_percentile(&c->s[1].hist, 500000);
		v[4][p] = tp_hist_percentile(&c->s[2].hist, 500000);
	}
	for (k = 0; k < 6; k++)
		qsort(v[k], PASSES, sizeof(double), cmp_double);
	m->ov = v[0][PASSES / 2];
	m->ca = v[1][PASSES / 2];
	m->un = v[2][PASSES / 2];
	m->ca_p50 = v[3][PASSES / 2];
	m->un_p50 = v[4][PASSES / 2];
	m->l1 = v[5][PASSES / 2];
	free(c);
	return true;
}

static void log_figs(struct __test_metadata *_metadata, const char *what,
		     const struct figs *m)
{
	TH_LOG("%s: overhead %.2f, cached net %.2f, uncached net %.2f, gross p50 %.0f/%.0f, L1 chase %.2f",
	       what, m->ov, m->ca, m->un, m->ca_p50, m->un_p50, m->l1);
}

TEST(uncached_is_at_least_3x_cached)
{
	struct figs m;
	int attempt, ok = 0;

	ASSERT_LE(0, pin_last_cpu());
	for (attempt = 0; attempt < ATTEMPTS && !ok; attempt++) {
		ASSERT_TRUE(measure(&m, 20000));
		ok = m.un_p50 >= 3 * m.ca_p50 && m.un + m.ov >= 3 * (m.ca + m.ov);
		log_figs(_metadata, ok ? "figures" : "retrying", &m);
	}
	EXPECT_TRUE(ok);
}

/*
 * A fenced load is timed, and nothing else is: cached net lies above a
 * quarter of the L1 load-to-use latency and below twice it (plus one
 * cycle of rounding).  Not the whole latency at the bottom: the closing
 * fence's own cost, which the empty bracket has too, overlaps part of the
 * load; one host here gave 2.0-3.2 net against an L1 chase of 4.7-4.9,
 * and 0.0-0.1 without fence 3, 0.7-1.0 without fence 2 (the next test
 * checks the first of these in the same run).  Above twice, the bracket
 * would be counting something else.
 */
TEST(cached_net_is_close_to_the_l1_latency)
{
	struct figs m;
	int attempt, ok = 0;

	ASSERT_LE(0, pin_last_cpu());
	for (attempt = 0; attempt < ATTEMPTS && !ok; attempt++) {
		ASSERT_TRUE(measure(&m, 20000));
		ok = m.l1 > 0 && m.ca >= m.l1 / 4 && m.ca <= 2 * m.l1 + 1;
		log_figs(_metadata, ok ? "figures" : "retrying", &m);
	}
	EXPECT_TRUE(ok);
}

/*
 * The bracket without fence 3, as bench_cache times it: the load, a miss
 * or a hit, escapes it.
 */
TP_CACHE_TIMER(ov_nofence3, "", TP_LFENCE, TP_LFENCE, TP_NOFENCE, TP_LFENCE, "")
TP_CACHE_TIMER(un_nofence3, TP_FLUSH, TP_LFENCE, TP_LFENCE, TP_NOFENCE,
	       TP_LFENCE, TP_LOAD)
TP_CACHE_TIMER(ca_nofence3, "", TP_LFENCE, TP_LFENCE, TP_NOFENCE, TP_LFENCE,
	       TP_LOAD)

/*
 * Each load's net with every fence and without fence 3, the four timers in
 * turns.  Misses and hits are timed in separate loops: a flush just before
 * the empty bracket slows it, and the hits' net would come out negative.
 */
static void nets(struct tp_hist *h, bool miss, double *with, double *without)
{
	static uint64_t line[16] __attribute__((aligned(128)));
	uint64_t end, i;

	for (i = 0; i < 4; i++)
		tp_hist_reset(&h[i]);
	for (i = 0; i < 20000; i++) {
		tp_hist_add(&h[0], tp_cache_time_overhead(line, &end));
		tp_hist_add(&h[1], miss ? tp_cache_time_uncached(line, &end) :
				   tp_cache_time_cached(line, &end));
		tp_hist_add(&h[2], ov_nofence3(line, &end));
		tp_hist_add(&h[3], miss ? un_nofence3(line, &end) :
				   ca_nofence3(line, &end));
	}
	*with = quiet_mean(&h[1]) - quiet_mean(&h[0]);
	*without = quiet_mean(&h[3]) - quiet_mean(&h[2]);
}

TEST(without_the_fence_before_the_end_the_load_is_not_timed)
{
	struct tp_hist *h = calloc(4, sizeof(*h));
	double un = 0, un3 = 0, ca = 0, ca3 = 0;
	int attempt, ok = 0;

	ASSERT_NE(NULL, h);
	ASSERT_LE(0, pin_last_cpu());
	for (attempt = 0; attempt < ATTEMPTS && !ok; attempt++) {
		nets(h, true, &un, &un3);
		nets(h, false, &ca, &ca3);
		ok = un > 0 && ca > 0 && un3 < un / 2 && ca3 < ca / 2;
		TH_LOG("net with every fence: uncached %.1f, cached %.2f; without fence 3: %.1f, %.2f",
		       un, ca, un3, ca3);
	}
	EXPECT_TRUE(ok);
	free(h);
}

TEST(two_runs_agree)
{
	struct figs m1, m2;
	int attempt, ok = 0;

	ASSERT_LE(0, pin_last_cpu());
	for (attempt = 0; attempt < ATTEMPTS && !ok; attempt++) {
		ASSERT_TRUE(measure(&m1, 20000));
		ASSERT_TRUE(measure(&m2, 20000));
		/*
		 * The timing's own overhead settles in one of two modes
		 * about 2 cycles apart (58.4 and 60.2 on one host, run to
		 * run; 59.4 and 63.0 beside a kernel build), and the cached
		 * net, a few cycles, inherits it: the cached load's gross
		 * time is what two runs agree on, within 8 %.
		 */
		ok = m2.ov > 0.8 * m1.ov && m2.ov < 1.25 * m1.ov &&
		     m2.un > 0.75 * m1.un && m2.un < 1.33 * m1.un &&
		     fabs((m2.ca + m2.ov) - (m1.ca + m1.ov)) <
			     0.08 * (m1.ca + m1.ov);
		log_figs(_metadata, "run 1", &m1);
		log_figs(_metadata, ok ? "run 2" : "run 2 (disagrees, retrying)",
			 &m2);
	}
	EXPECT_TRUE(ok);
}

/* The same through the userspace engine, as "tscprobe cache --user" runs. */
TEST(user_engine_measures_and_agrees_with_itself)
{
	struct tp_run_params p = {
		.rounds = 100000, .batch = 1000, .width_ns = 100000000,
		.nodes = true,
	};
	struct tp_cpuset cpus = { 0 };
	double ov[2], un[2], ca[2];
	int attempt, run, ok = 0, cpu = pin_last_cpu();

	ASSERT_LE(0, cpu);
	tp_cpuset_add(&cpus, (unsigned int)cpu);
	for (attempt = 0; attempt < ATTEMPTS && !ok; attempt++) {
		for (run = 0; run < 2; run++) {
			struct tp_result res;
			struct tp_cpu_res *c;

			tp_result_init(&res, TSCPROBE_KIND_CACHE);
			ASSERT_EQ(TP_EXIT_OK, tp_user_cache(&cpus, &p, true, &res));
			ASSERT_EQ(1, res.ncpus);
			c = &res.cpu[0];
			EXPECT_EQ(100000, c->rounds);
			EXPECT_EQ(100, c->series[TSCPROBE_SERIES_CACHED].win[0].blocks);
			EXPECT_EQ(1, c->series[TSCPROBE_SERIES_CACHED].win[1].blocks);
			EXPECT_EQ(0, c->series[TSCPROBE_SERIES_CACHED].win[2].blocks);
			EXPECT_LE(1, c->nnodes);
			EXPECT_EQ(100000, c->nodes[0].loads);
			ov[run] = quiet_mean(c->series[TSCPROBE_SERIES_OVERHEAD].hist);
			ca[run] = quiet_mean(c->series[TSCPROBE_SERIES_CACHED].hist);
			un[run] = quiet_mean(c->series[TSCPROBE_SERIES_UNCACHED].hist);
			tp_result_free(&res);
		}
		ok = un[0] >= 3 * ca[0] && un[1] >= 3 * ca[1] &&
		     un[1] > 0.75 * un[0] && un[1] < 1.33 * un[0] &&
		     ov[1] > 0.8 * ov[0] && ov[1] < 1.25 * ov[0];
		TH_LOG("gross quiet means: overhead %.2f/%.2f, cached %.2f/%.2f, uncached %.1f/%.1f",
		       ov[0], ov[1], ca[0], ca[1], un[0], un[1]);
	}
	EXPECT_TRUE(ok);
}

TEST_HARNESS_MAIN
