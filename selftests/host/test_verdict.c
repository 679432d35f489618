// SPDX-License-Identifier: GPL-2.0
/*
 * Limits and verdicts (--fail-above, --limits FILE): the limits as written
 * (good and bad, on the command line and in a file, with its line named),
 * how the command line's limits meet the file's, the judging rule (at the
 * limit passes, above fails by an excess above 0, a missing figure fails,
 * a NaN never passes), each measurement's figure on synthetic results
 * with known figures, the verdict in text, JSON (parsed by jq) and CSV,
 * and the exit code: 7 when the verdict fails, after Ctrl-C's 130 and a
 * report that could not be written.  The CLI's refusals (exit 2, one line,
 * nothing started) are run against the CLI built beside this program.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_path.h"
#include "jq.h"
#include "kselftest_harness.h"
#include "prng.h"
#include "report_string.h"
#include "user/lib/limits.h"
#include "user/lib/module_run.h"
#include "user/lib/verdict.h"
#include "user/reports.h"

#define KHZ	2000000U	/* 2 GHz: 2 cycles per ns */

static struct tp_limit parsed(struct __test_metadata *_metadata,
			      uint32_t kind, const char *s)
{
	struct tp_limit l;
	const char *why = NULL;

	EXPECT_EQ(0, tp_limit_parse(kind, s, &l, &why)) TH_LOG("%s: %s", s, why);
	return l;
}

TEST(limits_as_written)
{
	static const struct {
		uint32_t kind;
		const char *in;
		uint32_t series, stat;
		bool cycles;
		uint64_t value;
		const char *text;
	} ok[] = {
		{ TSCPROBE_KIND_NOISE, "20us", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 20000, "max 20us" },
		{ TSCPROBE_KIND_NOISE, "5000c", TP_LIMIT_ANY, TP_LIMIT_MAX, true, 5000, "max 5000c" },
		{ TSCPROBE_KIND_NOISE, "max:1.5ms", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 1500000, "max 1.5ms" },
		{ TSCPROBE_KIND_NOISE, "p99.99:20us", TP_LIMIT_ANY, TP_LIMIT_P9999, false, 20000, "p99.99 20us" },
		{ TSCPROBE_KIND_NOISE, "p99.9:1234.5us", TP_LIMIT_ANY, TP_LIMIT_P999, false, 1234500, "p99.9 1234.5us" },
		{ TSCPROBE_KIND_NOISE, "p99:750ns", TP_LIMIT_ANY, TP_LIMIT_P99, false, 750, "p99 750ns" },
		{ TSCPROBE_KIND_NOISE, "p50:42cycles", TP_LIMIT_ANY, TP_LIMIT_P50, true, 42, "p50 42c" },
		{ TSCPROBE_KIND_NOISE, "max:2s", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 2000000000ULL, "max 2s" },
		{ TSCPROBE_KIND_NOISE, "max:90s", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 90000000000ULL, "max 1.5m" },
		{ TSCPROBE_KIND_NOISE, "max:1h", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 3600000000000ULL, "max 1h" },
		{ TSCPROBE_KIND_NOISE, "max:1000001ns", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 1000001, "max 1000.001us" },
		{ TSCPROBE_KIND_NOISE, "max:1000000.5us", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 1000000500, "max 1000000.5us" },
		{ TSCPROBE_KIND_CACHE, "p99:120ns", TP_LIMIT_UNCACHED, TP_LIMIT_P99, false, 120, "uncached.p99 120ns" },
		{ TSCPROBE_KIND_CACHE, "uncached.p50:90ns", TP_LIMIT_UNCACHED, TP_LIMIT_P50, false, 90, "uncached.p50 90ns" },
		{ TSCPROBE_KIND_CACHE, "cached.max:300c", TP_LIMIT_CACHED, TP_LIMIT_MAX, true, 300, "cached.max 300c" },
		{ TSCPROBE_KIND_SKEW, "200ns", TP_LIMIT_ANY, TP_LIMIT_MAX, false, 200, "max 200ns" },
		{ TSCPROBE_KIND_SKEW, "max:400c", TP_LIMIT_ANY, TP_LIMIT_MAX, true, 400, "max 400c" },
		{ TSCPROBE_KIND_SKEW, "sync", TP_LIMIT_ANY, TP_LIMIT_SYNC, false, 0, "sync" },
	};
	struct tp_limit l, again;
	char text[64], spec[64];
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(ok); i++) {
		l = parsed(_metadata, ok[i].kind, ok[i].in);
		EXPECT_EQ(ok[i].kind, l.kind) TH_LOG("%s", ok[i].in);
		EXPECT_EQ(ok[i].series, l.series) TH_LOG("%s", ok[i].in);
		EXPECT_EQ(ok[i].stat, l.stat) TH_LOG("%s", ok[i].in);
		EXPECT_EQ(ok[i].cycles, l.cycles) TH_LOG("%s", ok[i].in);
		EXPECT_EQ(ok[i].value, l.value) TH_LOG("%s", ok[i].in);
		tp_limit_text(&l, text, sizeof(text));
		EXPECT_STREQ(ok[i].text, text);
		/* what the report prints reads back as the same limit */
		snprintf(spec, sizeof(spec), "%s", text);
		if (strchr(spec, ' '))
			*strchr(spec, ' ') = ':';
		again = parsed(_metadata, ok[i].kind, spec);
		EXPECT_TRUE(tp_limit_same(&l, &again)) TH_LOG("%s", spec);
		EXPECT_EQ(l.value, again.value) TH_LOG("%s", spec);
	}
}

TEST(bad_limits_say_why)
{
	static const struct {
		uint32_t kind;
		const char *in;
		const char *why;
	} bad[] = {
		{ TSCPROBE_KIND_NOISE, "20", "needs a unit" },
		{ TSCPROBE_KIND_NOISE, "p99.99:20", "needs a unit" },
		{ TSCPROBE_KIND_NOISE, "1.5", "needs a unit" },
		{ TSCPROBE_KIND_NOISE, "", "a number and its unit" },
		{ TSCPROBE_KIND_NOISE, "p99.5:5us", "noise has max, p50, p99, p99.9 and p99.99" },
		{ TSCPROBE_KIND_NOISE, "p9999:5us", "unknown figure" },
		{ TSCPROBE_KIND_NOISE, "P99:5us", "unknown figure" },
		{ TSCPROBE_KIND_NOISE, ":5us", "unknown figure" },
		{ TSCPROBE_KIND_NOISE, "p99", "after a colon" },
		{ TSCPROBE_KIND_NOISE, "p99:", "a number and its unit" },
		{ TSCPROBE_KIND_NOISE, "0ns", "above 0" },
		{ TSCPROBE_KIND_NOISE, "0c", "positive number of cycles" },
		{ TSCPROBE_KIND_NOISE, "20 us", "a number and its unit" },
		{ TSCPROBE_KIND_NOISE, "20xs", "a number and its unit" },
		{ TSCPROBE_KIND_NOISE, "-5us", "cannot be negative" },
		{ TSCPROBE_KIND_NOISE, "1.5c", "a number and its unit" },
		{ TSCPROBE_KIND_NOISE, "99999999999999999999us", "a number and its unit" },
		{ TSCPROBE_KIND_NOISE, "sync", "a number and its unit" },
		{ TSCPROBE_KIND_CACHE, "120ns", "names its figure" },
		{ TSCPROBE_KIND_CACHE, "p99.99:5us", "cache has p50, p99 and max" },
		{ TSCPROBE_KIND_CACHE, "overhead.p99:5us", "unknown figure" },
		{ TSCPROBE_KIND_CACHE, "cached.:5us", "unknown figure" },
		{ TSCPROBE_KIND_SKEW, "sync:5us", "takes no value" },
		{ TSCPROBE_KIND_SKEW, "p99:5us", "skew has max and sync" },
		{ TSCPROBE_KIND_SKEW, "max", "after a colon" },
	};
	const char *why;
	struct tp_limit l;
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(bad); i++) {
		why = NULL;
		EXPECT_EQ(-1, tp_limit_parse(bad[i].kind, bad[i].in, &l, &why))
			TH_LOG("'%s' was taken", bad[i].in);
		ASSERT_NE(NULL, why);
		EXPECT_NE(NULL, strstr(why, bad[i].why)) TH_LOG("'%s': %s", bad[i].in, why);
	}
}

/* A file of @text; its path in @path. */
static void write_file(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/tp-limits-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		path[0] = '\0';
	close(fd);
}

TEST(limits_file)
{
	static const char text[] =
		"# what a qualified machine is\n"
		"\n"
		"noise max 20us\n"
		"  noise   p99.99\t5us   # the tail\n"
		"cache p99 120ns\n"
		"cache cached.p99 40ns\n"
		"skew max 200ns\n"
		"skew sync\n"
		"noise p50:2000c\n";
	struct tp_limits all;
	char path[64], err[512], t[96];

	write_file(path, text);
	ASSERT_EQ(0, tp_limits_read(path, &all, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(7, all.n);
	EXPECT_EQ(TSCPROBE_KIND_NOISE, all.l[0].kind);
	tp_limit_text(&all.l[1], t, sizeof(t));
	EXPECT_STREQ("p99.99 5us", t);
	tp_limit_text(&all.l[3], t, sizeof(t));
	EXPECT_STREQ("cached.p99 40ns", t);
	EXPECT_EQ(TP_LIMIT_SYNC, all.l[5].stat);
	EXPECT_EQ(TSCPROBE_KIND_SKEW, all.l[5].kind);
	tp_limit_text(&all.l[6], t, sizeof(t));
	EXPECT_STREQ("p50 2000c", t);
	EXPECT_TRUE(all.l[1].file == path);
	EXPECT_EQ(4, all.l[1].line);
	tp_limit_source(&all.l[1], err, sizeof(err));
	snprintf(t, sizeof(t), "%s:4", path);
	EXPECT_STREQ(t, err);
	unlink(path);
}

TEST(bad_limits_file_names_the_line)
{
	static const struct {
		const char *text;
		const char *err;	/* after "PATH:" */
	} bad[] = {
		{ "noise max 20us\nnoise p99.5 3us\n", "2: noise p99.5 3us: unknown figure" },
		{ "# c\nnoise max 20\n", "2: noise max 20: a time needs a unit" },
		{ "noise max 20us\nnoise max 3us\n", "2: noise max is given twice (also on line 1)" },
		{ "cache p99 1us\ncache uncached.p99 2us\n", "2: cache uncached.p99 is given twice" },
		{ "latency max 3us\n", "1: unknown measurement 'latency'" },
		{ "none max 3us\n", "1: unknown measurement 'none'" },
		{ "noise\n", "1: expected MEASUREMENT NAME VALUE" },
		{ "noise max 20us extra\n", "1: expected MEASUREMENT NAME VALUE" },
		{ "skew sync 5us\n", "1: skew sync 5us: sync takes no value" },
		{ "cache 120ns\n", "1: cache 120ns: a cache limit names its figure" },
	};
	struct tp_limits all;
	char path[64], err[512], want[640];
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(bad); i++) {
		write_file(path, bad[i].text);
		EXPECT_EQ(-1, tp_limits_read(path, &all, err, sizeof(err)))
			TH_LOG("%s", bad[i].text);
		snprintf(want, sizeof(want), "%s:%s", path, bad[i].err);
		EXPECT_EQ(0, strncmp(err, want, strlen(want))) TH_LOG("%s\n  want %s", err, want);
		unlink(path);
	}
	EXPECT_EQ(-1, tp_limits_read("/nonexistent/limits", &all, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "/nonexistent/limits"));
}

/* A line longer than a line may be is refused, not split into two. */
TEST(limits_file_long_line)
{
	char text[2048], path[64], err[512];
	struct tp_limits all;

	memset(text, ' ', sizeof(text));
	memcpy(text + sizeof(text) - 20, "noise max 20us\n", 16);
	write_file(path, text);
	EXPECT_EQ(-1, tp_limits_read(path, &all, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, ":1: line longer than")) TH_LOG("%s", err);
	unlink(path);
}

TEST(command_line_replaces_the_file_limit_of_its_figure)
{
	char path[64], t[64];
	struct tp_limit_opts o = { 0 };
	struct tp_limits ls;

	write_file(path, "noise max 20us\nnoise p99.99 5us\ncache p99 1us\n");
	o.file = path;
	o.args[o.nargs++] = "max:50us";
	o.args[o.nargs++] = "p50:100c";
	ASSERT_EQ(TP_EXIT_OK, tp_limits_settle(&o, "noise", TSCPROBE_KIND_NOISE, &ls));
	ASSERT_EQ(3, ls.n);
	tp_limit_text(&ls.l[0], t, sizeof(t));
	EXPECT_STREQ("max 50us", t);
	EXPECT_TRUE(ls.l[0].file == NULL);
	tp_limit_source(&ls.l[0], t, sizeof(t));
	EXPECT_STREQ("command line", t);
	tp_limit_text(&ls.l[1], t, sizeof(t));
	EXPECT_STREQ("p99.99 5us", t);
	tp_limit_text(&ls.l[2], t, sizeof(t));
	EXPECT_STREQ("p50 100c", t);
	/* the same figure twice on the command line is a mistake */
	o.args[o.nargs++] = "50us";
	EXPECT_EQ(TP_EXIT_USAGE, tp_limits_settle(&o, "noise", TSCPROBE_KIND_NOISE, &ls));
	/* a file without skew lines judges nothing: refused, unless given */
	o.nargs = 0;
	EXPECT_EQ(TP_EXIT_USAGE, tp_limits_settle(&o, "skew", TSCPROBE_KIND_SKEW, &ls));
	o.args[o.nargs++] = "sync";
	EXPECT_EQ(TP_EXIT_OK, tp_limits_settle(&o, "skew", TSCPROBE_KIND_SKEW, &ls));
	EXPECT_EQ(1, ls.n);
	/* no limit options: no limits */
	memset(&o, 0, sizeof(o));
	EXPECT_EQ(TP_EXIT_OK, tp_limits_settle(&o, "noise", TSCPROBE_KIND_NOISE, &ls));
	EXPECT_EQ(0, ls.n);
	unlink(path);
}

TEST(judging_rule)
{
	struct tp_judgement j;

	tp_judge(&j, 19999, 20000);
	EXPECT_EQ(TP_JUDGED_PASS, j.how);
	/* at the limit passes: --fail-above fails above it */
	tp_judge(&j, 20000, 20000);
	EXPECT_EQ(TP_JUDGED_PASS, j.how);
	EXPECT_TRUE(isnan(j.excess));
	tp_judge(&j, 20001, 20000);
	EXPECT_EQ(TP_JUDGED_OVER, j.how);
	EXPECT_EQ(1, j.excess);
	EXPECT_EQ(20001, j.figure);
	EXPECT_EQ(20000, j.limit);
	/* the least double above the limit is over, by more than 0 */
	tp_judge(&j, nextafter(120.0, INFINITY), 120.0);
	EXPECT_EQ(TP_JUDGED_OVER, j.how);
	EXPECT_GT(j.excess, 0);
	/* no number never passes */
	tp_judge(&j, NAN, 20000);
	EXPECT_EQ(TP_JUDGED_NONE, j.how);
	tp_judge(&j, INFINITY, 20000);
	EXPECT_EQ(TP_JUDGED_NONE, j.how);
	tp_judge(&j, 5, NAN);
	EXPECT_EQ(TP_JUDGED_NONE, j.how);
	EXPECT_NE(NULL, j.why);
}

/* Over, the excess is above 0 and is the difference; never a negative one. */
TEST(an_excess_is_above_zero)
{
	uint64_t state = 0x6a09e667f3bcc908ULL;
	struct tp_judgement j;
	double fig, lim;
	unsigned int i;

	for (i = 0; i < 100000; i++) {
		fig = (double)tr_below(&state, 1000000) / (1 + tr_below(&state, 7));
		lim = (double)tr_below(&state, 1000000) / (1 + tr_below(&state, 7));
		if (i % 10 == 0)
			lim = fig;
		tp_judge(&j, fig, lim);
		if (fig > lim) {
			ASSERT_EQ(TP_JUDGED_OVER, j.how);
			ASSERT_GT(j.excess, 0);
			ASSERT_EQ(fig - lim, j.excess);
		} else {
			ASSERT_EQ(TP_JUDGED_PASS, j.how);
			ASSERT_TRUE(isnan(j.excess));
		}
	}
}

/* A noise CPU whose gaps are 40..@max cycles; none when @max is 0. */
static void noise_cpu(struct tp_result *r, unsigned int cpu, uint64_t max)
{
	struct tp_cpu_res *c = tp_result_cpu(r, cpu);
	struct tp_series_res *g = &c->series[TSCPROBE_SERIES_GAP];
	struct tp_hist *h = tp_series_hist(g);
	uint64_t i;

	g->present = true;
	tp_stats_init(&g->stats);
	c->flags = TSCPROBE_CPU_F_DONE;
	if (!max)
		return;
	for (i = 0; i < 100000; i++) {
		tp_stats_add(&g->stats, 40);
		tp_hist_add(h, 40);
	}
	tp_stats_add(&g->stats, max);
	tp_hist_add(h, max);
	c->measured_cycles = c->wall_cycles = g->stats.sum;
}

/* Three CPUs: max 40000 cycles (20 us at 2 GHz), 40002 (20.001 us), none. */
static void noise_result(struct tp_result *r)
{
	tp_result_init(r, TSCPROBE_KIND_NOISE);
	r->tsc_khz = KHZ;
	r->user_engine = true;
	noise_cpu(r, 0, 40000);
	noise_cpu(r, 1, 40002);
	noise_cpu(r, 3, 0);
	tp_cpuset_add(&r->cpus, 0);
	tp_cpuset_add(&r->cpus, 1);
	tp_cpuset_add(&r->cpus, 3);
}

static struct tp_limits limits_of(struct __test_metadata *_metadata,
				  uint32_t kind, const char *const *specs)
{
	struct tp_limits ls = { 0 };

	while (*specs) {
		ls.l[ls.n++] = parsed(_metadata, kind, *specs++);
	}
	return ls;
}

TEST(noise_figures_and_the_boundary)
{
	static const char *const specs[] = {
		"20us", "40000c", "39999c", "p50:20ns", "p50:39c", NULL,
	};
	struct tp_result r;
	struct tp_limits ls;
	struct tp_verdict v;
	const struct tp_judgement *j;

	noise_result(&r);
	ls = limits_of(_metadata, TSCPROBE_KIND_NOISE, specs);
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_noise_figure));
	EXPECT_FALSE(v.pass);
	/* max 20us: CPU 0 at it passes, CPU 1 is 1 ns over, CPU 3 has none */
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 0, 0)->how);
	EXPECT_EQ(20000, tp_verdict_at(&v, 0, 0)->figure);
	j = tp_verdict_at(&v, 0, 1);
	EXPECT_EQ(TP_JUDGED_OVER, j->how);
	EXPECT_EQ(20001, j->figure);
	EXPECT_EQ(1, j->excess);
	EXPECT_EQ(TP_JUDGED_NONE, tp_verdict_at(&v, 0, 2)->how);
	EXPECT_STREQ("no samples", tp_verdict_at(&v, 0, 2)->why);
	/* in cycles, exactly */
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 1, 0)->how);
	EXPECT_EQ(2, tp_verdict_at(&v, 1, 1)->excess);
	EXPECT_EQ(1, tp_verdict_at(&v, 2, 0)->excess);
	EXPECT_EQ(3, tp_verdict_at(&v, 2, 1)->excess);
	/* p50: 40 cycles, 20 ns */
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 3, 0)->how);
	EXPECT_EQ(1, tp_verdict_at(&v, 4, 0)->excess);
	EXPECT_EQ(TP_EXIT_OVER_LIMIT, tp_verdict_exit(&v, TP_EXIT_OK));
	EXPECT_EQ(TP_EXIT_FAIL, tp_verdict_exit(&v, TP_EXIT_FAIL));
	tp_verdict_free(&v);
	/* without the TSC rate a time cannot be judged; cycles can */
	r.tsc_khz = 0;
	ls.n = 2;
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_noise_figure));
	EXPECT_EQ(TP_JUDGED_NONE, tp_verdict_at(&v, 0, 0)->how);
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 1, 0)->how);
	tp_verdict_free(&v);
	tp_result_free(&r);
}

TEST(pass_needs_a_figure_everywhere)
{
	static const char *const specs[] = { "1s", NULL };
	struct tp_result r;
	struct tp_limits ls;
	struct tp_verdict v;

	ls = limits_of(_metadata, TSCPROBE_KIND_NOISE, specs);
	noise_result(&r);
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_noise_figure));
	EXPECT_FALSE(v.pass);		/* CPU 3 has no samples */
	tp_verdict_free(&v);
	tp_result_free(&r);
	/* nothing measured passes nothing */
	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_noise_figure));
	EXPECT_FALSE(v.pass);
	EXPECT_EQ(TP_EXIT_OVER_LIMIT, tp_verdict_exit(&v, TP_EXIT_OK));
	tp_verdict_free(&v);
	/* no limits: no verdict, the exit code is the report's */
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, NULL, tp_noise_figure));
	EXPECT_TRUE(v.pass);
	EXPECT_FALSE(tp_verdict_given(&v));
	EXPECT_EQ(TP_EXIT_OK, tp_verdict_exit(&v, TP_EXIT_OK));
	tp_verdict_free(&v);
	tp_result_free(&r);
}

/* A cache CPU: overhead 30, cached 34, uncached 250 + i % 100 cycles. */
static void cache_result(struct tp_result *r)
{
	static const uint32_t ids[] = {
		TSCPROBE_SERIES_OVERHEAD, TSCPROBE_SERIES_CACHED,
		TSCPROBE_SERIES_UNCACHED,
	};
	struct tp_cpu_res *c;
	uint64_t i, v;
	unsigned int s;

	tp_result_init(r, TSCPROBE_KIND_CACHE);
	r->tsc_khz = KHZ;
	c = tp_result_cpu(r, 2);
	c->rounds = 10000;
	tp_cpuset_add(&r->cpus, 2);
	for (s = 0; s < 3; s++) {
		struct tp_series_res *sr = &c->series[ids[s]];
		struct tp_hist *h = tp_series_hist(sr);

		sr->present = true;
		tp_stats_init(&sr->stats);
		for (i = 0; i < 10000; i++) {
			v = s == 0 ? 30 : s == 1 ? 34 : 250 + i % 100;
			tp_stats_add(&sr->stats, v);
			tp_hist_add(h, v);
		}
	}
}

TEST(cache_figures_are_the_reports_net_ones)
{
	static const char *const specs[] = {
		"p99:1us", "cached.p50:4c", "cached.p50:3c", "max:1c", NULL,
	};
	struct tp_cache_summary s;
	struct tp_result r;
	struct tp_limits ls;
	struct tp_verdict v;

	cache_result(&r);
	tp_cache_summarize(&r, &r.cpu[0], &s);
	ls = limits_of(_metadata, TSCPROBE_KIND_CACHE, specs);
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_cache_figure));
	/* uncached p99 net, in ns at 2 GHz */
	EXPECT_EQ(s.net[2][3] / 2, tp_verdict_at(&v, 0, 0)->figure);
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 0, 0)->how);
	/* cached p50 net of the overhead's median: 4 cycles, at the limit */
	EXPECT_EQ(4, s.net[1][2]);
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 1, 0)->how);
	EXPECT_EQ(TP_JUDGED_OVER, tp_verdict_at(&v, 2, 0)->how);
	EXPECT_EQ(1, tp_verdict_at(&v, 2, 0)->excess);
	EXPECT_EQ(s.net[2][4] - 1, tp_verdict_at(&v, 3, 0)->excess);
	tp_verdict_free(&v);
	/* a CPU without rounds has no figure */
	r.cpu[0].series[TSCPROBE_SERIES_OVERHEAD].stats.count = 0;
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_cache_figure));
	EXPECT_EQ(TP_JUDGED_NONE, tp_verdict_at(&v, 0, 0)->how);
	EXPECT_FALSE(v.pass);
	tp_verdict_free(&v);
	tp_result_free(&r);
}

/*
 * A skew pair: 100 samples of latij = @ij + i % 2, latji = @ji + i % 2: the
 * one-way latency varies, the skew (@ij - @ji) / 2 does not.
 */
static void skew_pair(struct tp_result *r, unsigned int from, unsigned int to,
		      int64_t ij, int64_t ji, uint32_t discarded)
{
	struct tp_pair_res *p = tp_result_add_pair(r, from, to);
	int64_t a, b;
	unsigned int i;

	p->status = TSCPROBE_PAIR_OK;
	p->st.nr = 100;
	p->st.discarded = discarded;
	tp_sstats_init(&p->st.latij);
	tp_sstats_init(&p->st.latji);
	tp_sstats_init(&p->st.skew2);
	tp_sstats_init(&p->st.one_way2);
	for (i = 0; i < p->st.nr; i++) {
		a = ij + i % 2;
		b = ji + i % 2;
		tp_sstats_add(&p->st.latij, a);
		tp_sstats_add(&p->st.latji, b);
		tp_sstats_add(&p->st.skew2, a - b);
		tp_sstats_add(&p->st.one_way2, a + b);
	}
}

/*
 * Pairs: 0->1 in sync (skew ~0), 1->0 skewed by ~100 cycles, 0->2 with a
 * hand-off of less than 0 cycles but a skew within its noise, 2->0 not
 * sound, 1->2 timed out.
 */
static void skew_result(struct tp_result *r)
{
	struct tp_pair_res *p;

	tp_result_init(r, TSCPROBE_KIND_SKEW);
	r->tsc_khz = KHZ;
	tp_cpuset_add(&r->cpus, 0);
	tp_cpuset_add(&r->cpus, 1);
	tp_cpuset_add(&r->cpus, 2);
	skew_pair(r, 0, 1, 200, 200, 0);
	skew_pair(r, 1, 0, 300, 100, 0);
	skew_pair(r, 0, 2, 200, 200, 0);
	r->pair[2].st.latij.min = -1;
	skew_pair(r, 2, 0, 200, 200, 150);
	p = tp_result_add_pair(r, 1, 2);
	p->status = TSCPROBE_PAIR_TIMEOUT;
}

TEST(skew_figures_and_sync)
{
	static const char *const specs[] = { "sync", "99c", "49ns", NULL };
	const struct tp_judgement *j;
	struct tp_result r;
	struct tp_limits ls;
	struct tp_verdict v;
	unsigned int i;

	skew_result(&r);
	ls = limits_of(_metadata, TSCPROBE_KIND_SKEW, specs);
	ASSERT_EQ(TP_EXIT_OK, tp_verdict_judge(&v, &r, &ls, tp_skew_figure));
	EXPECT_FALSE(v.pass);
	EXPECT_EQ(5, v.entries);
	/* sync */
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 0, 0)->how);
	j = tp_verdict_at(&v, 0, 1);
	EXPECT_EQ(TP_JUDGED_OVER, j->how);
	EXPECT_GT(j->excess, 0);
	EXPECT_EQ(j->figure - j->limit, j->excess);
	EXPECT_EQ(100, j->figure);	/* |avg skew| with halves exact */
	j = tp_verdict_at(&v, 0, 2);
	EXPECT_EQ(TP_JUDGED_OVER, j->how);	/* out of sync ... */
	EXPECT_LE(j->figure, j->limit);		/* ... within its noise */
	EXPECT_TRUE(isnan(j->excess));		/* so no excess to give */
	EXPECT_NE(NULL, j->why);
	EXPECT_EQ(TP_JUDGED_NONE, tp_verdict_at(&v, 0, 3)->how);
	EXPECT_STREQ("timed out", tp_verdict_at(&v, 0, 4)->why);
	/* max: 100 cycles, 50 ns */
	EXPECT_EQ(1, tp_verdict_at(&v, 1, 1)->excess);
	EXPECT_EQ(1, tp_verdict_at(&v, 2, 1)->excess);
	EXPECT_EQ(TP_JUDGED_PASS, tp_verdict_at(&v, 1, 0)->how);
	/* never an excess at or below 0 */
	for (i = 0; i < ls.n * v.entries; i++)
		if (isfinite(v.j[i].excess))
			EXPECT_GT(v.j[i].excess, 0);
	tp_verdict_free(&v);
	tp_result_free(&r);
}

/*
 * The report of @r in @fmt, judged against @specs (NULL: no limits), into
 * a string; its exit code in *@ret.
 */
static char *judged(struct __test_metadata *_metadata,
		    const struct tp_result *r, const char *const *specs,
		    enum tp_format fmt, int *ret)
{
	struct tp_limits ls;
	struct tp_output o = { .fmt = fmt, .limits = specs ? &ls : NULL };

	if (specs)
		ls = limits_of(_metadata, r->kind, specs);
	return tp_test_report(r, &o, ret);
}

/* jq -e @filter on @json: 0 when it holds. */
static int jq(const char *json, const char *filter)
{
	return tp_test_jq(json, "", filter);
}

TEST(verdict_in_json)
{
	static const char *const specs[] = { "20us", "p99.99:1ms", NULL };
	struct tp_result r;
	char *out;
	int ret;

	noise_result(&r);
	out = judged(_metadata, &r, specs, TP_FMT_JSON, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(TP_EXIT_OVER_LIMIT, ret);
	EXPECT_EQ(0, jq(out,
		".verdict.pass == false and (.verdict.limits | length) == 2 and "
		"(.verdict.limits[0] | .measurement == \"noise\" and .name == \"max\" and "
		" .text == \"max 20us\" and .limit == 20000 and .unit == \"ns\" and "
		" .source == \"command line\" and .pass == false and .cpus == 3 and "
		" .over == 1 and .not_judged == 1 and .highest == {cpu: 1, figure: 20001} and "
		" .failures == [{cpu: 1, judged: true, figure: 20001, limit: 20000, excess: 1, why: null},"
		"               {cpu: 3, judged: false, figure: null, limit: null, excess: null, why: \"no samples\"}]) and "
		"(.verdict.limits[1] | .pass == false and .over == 0 and .not_judged == 1) and "
		"([.verdict.limits[].failures[] | select(.excess != null) | .excess <= 0] | any | not)"))
		TH_LOG("%s", out);
	free(out);
	/* no limits: no verdict key */
	out = judged(_metadata, &r, NULL, TP_FMT_JSON, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(TP_EXIT_OK, ret);
	EXPECT_EQ(0, jq(out, "has(\"verdict\") | not"));
	free(out);
	tp_result_free(&r);
}

TEST(skew_verdict_in_json_beside_the_sync_verdict)
{
	static const char *const specs[] = { "sync", "1s", NULL };
	struct tp_result r;
	char *out;
	int ret;

	skew_result(&r);
	out = judged(_metadata, &r, specs, TP_FMT_JSON, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(TP_EXIT_OVER_LIMIT, ret);
	EXPECT_EQ(0, jq(out,
		".verdict.in_sync == false and .verdict.pass == false and "
		"(.verdict.limits[0] | .name == \"sync\" and .limit == null and .unit == \"cycles\" and "
		" .pairs == 5 and .over == 2 and .not_judged == 2 and "
		" (.failures | map([.from, .to]) == [[1,0],[0,2],[2,0],[1,2]])) and "
		"(.verdict.limits[1] | .over == 0 and .not_judged == 2 and "
		" .highest == {from: 1, to: 0, figure: 50})"))
		TH_LOG("%s", out);
	free(out);
	out = judged(_metadata, &r, NULL, TP_FMT_JSON, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, jq(out, ".verdict | has(\"pass\") or has(\"limits\") | not"));
	free(out);
	tp_result_free(&r);
}

TEST(verdict_in_text)
{
	static const char *const fail[] = { "20us", "p50:1s", NULL };
	static const char *const pass[] = { "20001ns", "p50:1s", NULL };
	struct tp_result r;
	char *out;
	int ret;

	noise_result(&r);
	out = judged(_metadata, &r, fail, TP_FMT_TEXT, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out,
		"\nlimits: FAIL: 2 of 2 not met, on 2 of 3 CPUs\n"
		"  noise max 20us (command line): FAIL on 2 of 3 CPUs\n"
		"    cpu 1: 20.001us, 1ns over\n"
		"    cpu 3: not judged: no samples\n"
		"  noise p50 1s (command line): FAIL on 1 of 3 CPUs\n"
		"    cpu 3: not judged: no samples\n")) TH_LOG("%s", out);
	free(out);
	/* the CPU without samples gone: a pass, with the highest figure */
	r.ncpus = 2;
	out = judged(_metadata, &r, pass, TP_FMT_TEXT, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(TP_EXIT_OK, ret);
	EXPECT_NE(NULL, strstr(out,
		"\nlimits: pass: 2 of 2 met, on 2 CPUs\n"
		"  noise max 20.001us (command line): pass on 2 CPUs, the highest 20.001us (cpu 1)\n"
		"  noise p50 1s (command line): pass on 2 CPUs, the highest 20ns (cpu 0)\n"))
		TH_LOG("%s", out);
	free(out);
	r.ncpus = 3;
	tp_result_free(&r);
}

TEST(skew_verdict_in_text)
{
	static const char *const specs[] = { "sync", NULL };
	struct tp_result r;
	char *out;
	int ret;

	skew_result(&r);
	out = judged(_metadata, &r, specs, TP_FMT_TEXT, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\n  skew sync (command line): FAIL on 4 of 5 pairs\n"
				    "    1 -> 0: |skew| 100 cycles, ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " over its 3 sd + 1 (")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n    0 -> 2: |skew| 0 cycles, within its 3 sd + 1 (")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n    2 -> 0: not judged: not sound: more samples dropped than kept\n"
				    "    1 -> 2: not judged: timed out\n")) TH_LOG("%s", out);
	free(out);
	tp_result_free(&r);
}

/* Beyond ten failing CPUs, text names ten and counts the rest (-v: all). */
TEST(many_failures_in_text)
{
	static const char *const specs[] = { "1c", NULL };
	struct tp_limits ls = limits_of(_metadata, TSCPROBE_KIND_NOISE, specs);
	struct tp_output o = { .fmt = TP_FMT_TEXT, .limits = &ls };
	struct tp_result r;
	unsigned int i;
	char *out;
	int ret;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	r.tsc_khz = KHZ;
	for (i = 0; i < 14; i++) {
		noise_cpu(&r, i, 100 + i);
		tp_cpuset_add(&r.cpus, i);
	}
	out = tp_test_report(&r, &o, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(TP_EXIT_OVER_LIMIT, ret);
	EXPECT_NE(NULL, strstr(out, "    cpu 9: 109 cycles, 108 cycles over\n"
				    "    and 4 more (-v: every one)\n")) TH_LOG("%s", out);
	free(out);
	o.verbose = true;
	out = tp_test_report(&r, &o, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "    cpu 13: 113 cycles, 112 cycles over\n")) TH_LOG("%s", out);
	free(out);
	tp_result_free(&r);
}

TEST(verdict_in_csv)
{
	static const char *const specs[] = { "20us", "p50:20ns", NULL };
	static const char head_end[] = ",verdict,failed_limits\r\n";
	struct tp_result r;
	char *out, *line;
	int ret;

	noise_result(&r);
	out = judged(_metadata, &r, specs, TP_FMT_CSV, &ret);
	ASSERT_NE(NULL, out);
	line = strstr(out, "\r\n");
	ASSERT_NE(NULL, line);
	EXPECT_EQ(0, strncmp(line + 2 - strlen(head_end), head_end, strlen(head_end)));
	EXPECT_NE(NULL, strstr(out, ",pass,\r\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ",fail,max 20us\r\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ",fail,max 20us;p50 20ns\r\n")) TH_LOG("%s", out);
	free(out);
	out = judged(_metadata, &r, NULL, TP_FMT_CSV, &ret);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(NULL, strstr(out, "verdict"));
	free(out);
	tp_result_free(&r);
}

/* A report that cannot be written is exit 1, whatever the verdict. */
TEST(unwritable_svg_comes_before_the_verdict)
{
	static const char *const specs[] = { "20us", NULL };
	struct tp_limits ls = limits_of(_metadata, TSCPROBE_KIND_NOISE, specs);
	struct tp_output o = {
		.fmt = TP_FMT_CSV, .svg = "/nonexistent/x.svg", .limits = &ls,
	};
	struct tp_result r;
	int ret = 0;

	noise_result(&r);
	free(tp_test_report(&r, &o, &ret));
	EXPECT_EQ(TP_EXIT_FAIL, ret);
	tp_result_free(&r);
}

/* The engine and report that tp_run_cmd() is given here: fixed codes. */
static int engine_ret, output_ret;

static int fake_engine(const struct tp_cpuset *cpus,
		       const struct tp_run_params *p, bool quiet,
		       struct tp_result *res)
{
	return engine_ret;
}

static int fake_output(const struct tp_result *r, const struct tp_output *o,
		       FILE *f)
{
	return output_ret;
}

TEST(exit_code_precedence)
{
	static const struct { int engine, output, want; } cases[] = {
		{ TP_EXIT_OK, TP_EXIT_OK, TP_EXIT_OK },
		{ TP_EXIT_OK, TP_EXIT_OVER_LIMIT, TP_EXIT_OVER_LIMIT },
		{ TP_EXIT_INTERRUPTED, TP_EXIT_OVER_LIMIT, TP_EXIT_INTERRUPTED },
		{ TP_EXIT_INTERRUPTED, TP_EXIT_FAIL, TP_EXIT_FAIL },
		{ TP_EXIT_OK, TP_EXIT_FAIL, TP_EXIT_FAIL },
		{ TP_EXIT_FAIL, TP_EXIT_OVER_LIMIT, TP_EXIT_FAIL },
	};
	struct tp_run_params p = { 0 };
	struct tp_start st = { .kind = TSCPROBE_KIND_NOISE, .p = &p };
	struct tp_output o = { .fmt = TP_FMT_TEXT };
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(cases); i++) {
		engine_ret = cases[i].engine;
		output_ret = cases[i].output;
		EXPECT_EQ(cases[i].want, tp_run_cmd(&st, true, fake_engine,
						    fake_output, &o))
			TH_LOG("engine %d, report %d", cases[i].engine, cases[i].output);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Bad limits: one line, exit 2, before anything starts.  Without the
 * module a good command line is exit 3, so 2 says the limit was refused
 * before netlink was tried; with --user an hour's run (or a billion
 * loads) that ends within seconds, however busy the host, was never
 * started.
 */
TEST(bad_limits_refused_before_anything_starts)
{
	static const struct { const char *args, *says; } bad[] = {
		{ "noise --fail-above 20", "needs a unit" },
		{ "noise --fail-above p99.99:20", "needs a unit" },
		{ "noise --fail-above p99.5:5us", "unknown figure" },
		{ "noise --fail-above 20us --fail-above max:30us", "max is given twice" },
		{ "noise --fail-above 20us --compare", "--compare is not judged" },
		{ "noise --limits /nonexistent/lab.limits", "'/nonexistent/lab.limits'" },
		{ "noise --limits a --limits b", "one file of limits" },
		{ "cache --fail-above 120ns", "names its figure" },
		{ "cache --fail-above p99.9:1us", "cache has p50, p99 and max" },
		{ "skew --fail-above sync:1us", "takes no value" },
		{ "skew --fail-above p99:1us", "skew has max and sync" },
		{ "show --fail-above 20us", "needs the measurement named" },
		{ "show noise --fail-above 20", "needs a unit" },
		{ "show skew --fail-above p99:1us", "skew has max and sync" },
		{ "noise --user -c 0 -d 1h --fail-above 20", "needs a unit" },
		{ "cache --user -c 0 -n 1e9 --fail-above 1us", "names its figure" },
	};
	char err[1024];
	unsigned int i;
	double t0;

	for (i = 0; i < TP_ARRAY_SIZE(bad); i++) {
		t0 = now_s();
		EXPECT_EQ(1, tp_test_refused(bad[i].args, err, sizeof(err)))
			TH_LOG("%s: %s", bad[i].args, err);
		EXPECT_LT(now_s() - t0, 10.0) TH_LOG("%s took long: it measured", bad[i].args);
		EXPECT_NE(NULL, strstr(err, bad[i].says)) TH_LOG("%s: %s", bad[i].args, err);
	}
	/* good limits get as far as the module, which is not here */
	EXPECT_EQ(3, tp_test_run_cli("noise --fail-above p99.99:20us --fail-above 5000c", err, sizeof(err)));
	EXPECT_EQ(3, tp_test_run_cli("cache --fail-above cached.p99:40ns", err, sizeof(err)));
	EXPECT_EQ(3, tp_test_run_cli("skew -c 0-1 --fail-above sync --fail-above 200ns", err, sizeof(err)));
	EXPECT_EQ(3, tp_test_run_cli("show noise --fail-above 20us", err, sizeof(err)));
}

TEST(bad_limits_file_refused_with_its_line)
{
	char path[64], args[256], err[1024], want[128];

	write_file(path, "# lab\nnoise max 20us\n\nnoise p99.99 5\n");
	snprintf(args, sizeof(args), "noise --limits %s", path);
	EXPECT_EQ(2, tp_test_run_cli(args, err, sizeof(err)));
	snprintf(want, sizeof(want), "tscprobe: %s:4: noise p99.99 5: a time needs a unit", path);
	EXPECT_EQ(0, strncmp(err, want, strlen(want))) TH_LOG("%s", err);
	EXPECT_EQ(strlen(err) - 1, strcspn(err, "\n")) TH_LOG("%s", err);
	/* a line for another measurement is checked too: one file, every command */
	snprintf(args, sizeof(args), "skew -c 0-1 --limits %s --fail-above sync", path);
	EXPECT_EQ(2, tp_test_run_cli(args, err, sizeof(err)));
	snprintf(args, sizeof(args), "show --limits %s", path);
	EXPECT_EQ(2, tp_test_run_cli(args, err, sizeof(err)));
	unlink(path);
	write_file(path, "noise max 20us\n");
	snprintf(args, sizeof(args), "cache --limits %s", path);
	EXPECT_EQ(2, tp_test_run_cli(args, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "has no cache limits")) TH_LOG("%s", err);
	snprintf(args, sizeof(args), "noise --limits %s", path);
	EXPECT_EQ(3, tp_test_run_cli(args, err, sizeof(err)));
	unlink(path);
}

TEST_HARNESS_MAIN
