// SPDX-License-Identifier: GPL-2.0
/*
 * Every report of every measurement, byte for byte, on fixed input.
 *
 * The results are synthetic and deterministic (a seeded generator fills
 * the histograms, events, counters, windows, levels and pairs; a small
 * system root under a temporary directory gives the environment audit
 * and two CPUs' interrupt counts are set by hand), so the text, JSON,
 * CSV, Prometheus and SVG output of noise, cache and skew must equal the
 * files in selftests/host/golden/.  This is what keeps a restructuring
 * honest: a change of any report, wanted or not, shows here first.
 *
 * When a report is changed on purpose, write the new files and review
 * their diff:  TP_GOLDEN_UPDATE=1 build/host/test_golden
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "context.h"
#include "hist.h"
#include "prng.h"
#include "reports.h"
#include "result.h"
#include "stats.h"

#define GOLDEN_DIR	"selftests/host/golden"
#define KHZ		2100000U

/* A file of @text under @dir, the directories on its way created. */
static void put_file(const char *dir, const char *rel, const char *text)
{
	char path[512];
	char *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (p = strchr(path + strlen(dir) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A machine of four CPUs, 0-1 isolated, for the environment audit. */
static void make_sysroot(const char *root)
{
	static const char *const cpu_files[][2] = {
		{ "sys/devices/system/cpu/online", "0-3\n" },
		{ "proc/sys/kernel/osrelease", "6.1.0-golden-amd64\n" },
		{ "proc/sys/kernel/hostname", "golden\n" },
		{ "sys/devices/system/cpu/isolated", "0-1\n" },
		{ "sys/devices/system/cpu/nohz_full", "1\n" },
		{ "sys/devices/system/clocksource/clocksource0/current_clocksource", "tsc\n" },
		{ "proc/cmdline", "BOOT_IMAGE=/vmlinuz isolcpus=0-1 nohz_full=1 rcu_nocbs=1\n" },
		{ "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n"
		  "model name\t: Golden CPU @ 2.10GHz\nmicrocode\t: 0x2a\n"
		  "flags\t\t: fpu tsc constant_tsc nonstop_tsc rdtscp tsc_known_freq\n\n" },
		{ "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n" },
		{ "sys/devices/system/cpu/cpu1/cpufreq/scaling_governor", "powersave\n" },
		{ "sys/devices/system/cpu/cpu0/cpuidle/state1/name", "C1\n" },
		{ "sys/devices/system/cpu/cpu0/cpuidle/state1/latency", "2\n" },
		{ "sys/devices/system/cpu/cpu0/cpuidle/state1/disable", "0\n" },
		{ "sys/devices/system/cpu/cpu1/cpuidle/state2/name", "C6\n" },
		{ "sys/devices/system/cpu/cpu1/cpuidle/state2/latency", "133\n" },
		{ "sys/devices/system/cpu/cpu1/cpuidle/state2/disable", "0\n" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cpu_files) / sizeof(cpu_files[0]); i++)
		put_file(root, cpu_files[i][0], cpu_files[i][1]);
}

/* The run fields every kind shares, and the machine around it. */
static void fill_run(struct tp_result *r, const struct tp_cpuset *cpus)
{
	unsigned int k;

	r->tsc_khz = KHZ;
	r->run_id = 7;
	r->state = TSCPROBE_STATE_DONE;
	r->reason = TSCPROBE_STOP_COMPLETED;
	r->elapsed_ns = 1500000000ULL;
	r->start_tsc = 123456789000ULL;
	r->cpus = *cpus;
	r->ctx = tp_context_env(cpus, KHZ);
	r->ctx->have_irqs = true;
	for (k = 0; k < TP_IRQ_CATS; k++) {
		r->ctx->before.seen[0] = r->ctx->after.seen[0] = true;
		r->ctx->before.seen[1] = r->ctx->after.seen[1] = true;
		r->ctx->before.cat[k][0] = 1000 * k;
		r->ctx->after.cat[k][0] = 1000 * k + 3 * k + 1;
		r->ctx->before.cat[k][1] = 50 * k;
		r->ctx->after.cat[k][1] = 50 * k + k;
	}
}

/* A series of @n values from @gen into its statistics and histogram. */
static void fill_series(struct tp_series_res *s, uint64_t *state, uint64_t n,
			uint64_t base, uint64_t spread)
{
	struct tp_hist *h = tp_series_hist(s);
	uint64_t i, v;

	s->present = true;
	tp_stats_init(&s->stats);
	for (i = 0; i < n; i++) {
		v = base + tr_below(state, spread);
		if (!tr_below(state, 500))
			v += tr_log(state, 20);		/* now and then, noise */
		tp_stats_add(&s->stats, v);
		tp_hist_add(h, v);
	}
}

static void fill_counters(struct tp_cpu_res *c, unsigned int i)
{
	c->smi.ok = i != 2;
	c->smi.v = i;
	c->nmi.ok = true;
	c->nmi.v = 2 * i;
	c->irq.ok = i < 2;
	c->irq.v = 10 + i;
	c->aperf.ok = c->mperf.ok = i != 1;
	c->aperf.v = 2000000000ULL + 1000 * i;
	c->mperf.v = 2100000000ULL;
	c->ctx_vol.ok = c->ctx_invol.ok = true;
	c->ctx_vol.v = i;
	c->ctx_invol.v = 3 * i;
	c->migrations.ok = i == 0;
}

static void fill_noise(struct tp_result *r, const struct tp_cpuset *cpus)
{
	uint64_t state = 0x9e3779b97f4a7c15ULL;
	int cpu = -1;
	unsigned int i = 0, e;

	r->p.duration_ns = 1500000000ULL;
	r->p.width_ns = 100000000ULL;
	r->p.gap_ns = 100000;
	r->p.threshold_ns = 10000;
	r->p.threshold_cycles = 21000;
	r->p.irqs = TSCPROBE_IRQS_OFF;
	fill_run(r, cpus);
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		struct tp_cpu_res *c = tp_result_cpu(r, cpu);
		struct tp_series_res *g = &c->series[TSCPROBE_SERIES_GAP];

		fill_series(g, &state, 200000 + 1000 * i, 40, 30);
		c->windows = 15;
		c->measured_cycles = g->stats.sum;
		c->wall_cycles = g->stats.sum + g->stats.sum / 50;
		c->node = i / 2;
		c->flags = TSCPROBE_CPU_F_DONE |
			   (i == 2 ? TSCPROBE_CPU_F_INCOMPLETE : 0);
		c->events_total = 5 + i;
		c->events_dropped = i;
		c->nevents = 5;
		for (e = 0; e < c->nevents; e++) {
			c->events[e].tsc = r->start_tsc + 1000000 * (e + 1) + i;
			c->events[e].cycles = 21000 + tr_below(&state, 400000);
		}
		fill_counters(c, i++);
	}
}

static void fill_cache(struct tp_result *r, const struct tp_cpuset *cpus)
{
	static const uint64_t sizes[] = { 32768, 1048576, 67108864 };
	uint64_t state = 0x243f6a8885a308d3ULL;
	unsigned int i = 0, s, w, l;
	int cpu = -1;

	r->p.rounds = 100000;
	r->p.batch = 1000;
	r->p.width_ns = 100000000ULL;
	r->p.levels = true;
	r->p.nodes = true;
	fill_run(r, cpus);
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		struct tp_cpu_res *c = tp_result_cpu(r, cpu);

		c->rounds = 100000;
		c->node = 0;
		c->flags = TSCPROBE_CPU_F_DONE;
		for (s = TSCPROBE_SERIES_OVERHEAD; s <= TSCPROBE_SERIES_UNCACHED; s++) {
			struct tp_series_res *sr = &c->series[s];
			uint64_t base = s == TSCPROBE_SERIES_UNCACHED ? 250 :
					s == TSCPROBE_SERIES_CACHED ? 34 : 30;

			fill_series(sr, &state, 20000, base, 8 + 40 * (s == TSCPROBE_SERIES_UNCACHED));
			for (w = 0; w < TP_CACHE_WINDOWS; w++) {
				sr->win[w].blocks = w < 2 ? 100 / (w * 99 + 1) : 0;
				sr->win[w].rounds = sr->win[w].blocks ? 100000 / sr->win[w].blocks : 0;
				sr->win[w].sum = sr->win[w].rounds * (base + 3 + w);
			}
		}
		c->nlevels = 3;
		for (l = 0; l < c->nlevels; l++) {
			c->levels[l].size = sizes[l];
			c->levels[l].loads = 1000000;
			c->levels[l].cycles = 1000000 * (4 + 12 * l * l) + 777 * i;
		}
		c->nnodes = 1;
		c->nodes[0].node = 0;
		c->nodes[0].loads = 100000;
		c->nodes[0].cycles = 100000 * 240 + 13 * i;
		fill_counters(c, i++);
	}
}

static void fill_skew(struct tp_result *r, const struct tp_cpuset *cpus)
{
	uint64_t state = 0x452821e638d01377ULL;
	unsigned int n = 0, k;
	int a = -1, b;

	r->p.samples = 256;
	r->p.repeats = 2;
	fill_run(r, cpus);
	while ((a = tp_cpuset_next(cpus, a)) >= 0) {
		b = -1;
		while ((b = tp_cpuset_next(cpus, b)) >= 0) {
			struct tp_pair_res *pr;
			int64_t off = (a - b) * 7;

			if (a == b)
				continue;
			pr = tp_result_add_pair(r, a, b);
			pr->status = n == 4 ? TSCPROBE_PAIR_TIMEOUT : TSCPROBE_PAIR_OK;
			pr->relation = (a ^ b) == 1 ? TSCPROBE_REL_SMT :
				       TSCPROBE_REL_PACKAGE;
			pr->elapsed_cycles = 5000000 + 1000 * n++;
			if (pr->status != TSCPROBE_PAIR_OK)
				continue;
			pr->st.nr = 250;
			pr->st.discarded = 6;
			tp_sstats_init(&pr->st.latij);
			tp_sstats_init(&pr->st.latji);
			tp_sstats_init(&pr->st.skew2);
			tp_sstats_init(&pr->st.one_way2);
			for (k = 0; k < pr->st.nr; k++) {
				int64_t ij = 180 + off + (int64_t)tr_below(&state, 40);
				int64_t ji = 180 - off + (int64_t)tr_below(&state, 40);

				tp_sstats_add(&pr->st.latij, ij);
				tp_sstats_add(&pr->st.latji, ji);
				tp_sstats_add(&pr->st.skew2, ij - ji);
				tp_sstats_add(&pr->st.one_way2, ij + ji);
			}
		}
	}
	r->pairs_done = r->npairs;
	r->pairs_total = r->npairs;
}

/* The report of @r in @fmt (and its SVG into @svg when given). */
static char *report(const struct tp_result *r, enum tp_format fmt,
		    const char *svg)
{
	struct tp_output o = { .fmt = fmt, .svg = svg };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	if (r->kind == TSCPROBE_KIND_NOISE)
		tp_noise_output(r, &o, f);
	else if (r->kind == TSCPROBE_KIND_CACHE)
		tp_cache_output(r, &o, f);
	else
		tp_skew_output(r, &o, f);
	fclose(f);
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while (m && (c = fgetc(f)) != EOF)
		fputc(c, m);
	if (m)
		fclose(m);
	fclose(f);
	return buf;
}

/* Equal to the golden file, or (TP_GOLDEN_UPDATE=1) written as it. */
/*
 * @got with the CLI's version (the label of tscprobe_run_info) written as
 * @VERSION@, so that a release does not change the golden files.
 */
static char *unversioned(const char *got)
{
	static const char from[] = "version=\"" TSCPROBE_VERSION "\"";
	static const char to[] = "version=\"@VERSION@\"";
	const char *hit = strstr(got, from);
	char *out;

	if (!hit)
		return strdup(got);
	out = malloc(strlen(got) - strlen(from) + strlen(to) + 1);
	if (out)
		sprintf(out, "%.*s%s%s", (int)(hit - got), got, to,
			hit + strlen(from));
	return out;
}

static bool same_as_golden(const char *name, const char *raw)
{
	char *got = unversioned(raw);
	char path[256];
	char *want;
	bool same;

	if (!got)
		return false;
	snprintf(path, sizeof(path), GOLDEN_DIR "/%s", name);
	if (getenv("TP_GOLDEN_UPDATE")) {
		put_file(".", path, got);
		free(got);
		return true;
	}
	want = slurp(path);
	same = want && !strcmp(want, got);
	if (!same)
		fprintf(stderr, "# %s differs: diff it with the output of TP_GOLDEN_UPDATE=1\n",
			path);
	free(want);
	free(got);
	return same;
}

FIXTURE(golden) {
	char root[64];
	struct tp_cpuset cpus;
};

FIXTURE_SETUP(golden)
{
	strcpy(self->root, "/tmp/tp-golden.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	make_sysroot(self->root);
	setenv("TSCPROBE_SYSROOT", self->root, 1);
	memset(&self->cpus, 0, sizeof(self->cpus));
	tp_cpuset_add(&self->cpus, 0);
	tp_cpuset_add(&self->cpus, 1);
	tp_cpuset_add(&self->cpus, 3);
}

FIXTURE_TEARDOWN(golden)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->root);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->root);
}

/* Every format of @r against the golden files KIND.{txt,json,csv,prom,svg}. */
static void check_all(struct __test_metadata *_metadata,
		      const struct tp_result *r, const char *kind,
		      const char *root)
{
	static const struct { enum tp_format fmt; const char *ext; } f[] = {
		{ TP_FMT_TEXT, "txt" }, { TP_FMT_JSON, "json" },
		{ TP_FMT_CSV, "csv" }, { TP_FMT_PROM, "prom" },
	};
	char name[64], svg[128];
	char *out;
	unsigned int i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		out = report(r, f[i].fmt, NULL);
		ASSERT_NE(NULL, out);
		snprintf(name, sizeof(name), "%s.%s", kind, f[i].ext);
		EXPECT_TRUE(same_as_golden(name, out));
		free(out);
	}
	snprintf(svg, sizeof(svg), "%s/%s.svg", root, kind);
	free(report(r, TP_FMT_CSV, svg));
	out = slurp(svg);
	ASSERT_NE(NULL, out);
	snprintf(name, sizeof(name), "%s.svg", kind);
	EXPECT_TRUE(same_as_golden(name, out));
	free(out);
}

TEST_F(golden, noise)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	check_all(_metadata, &r, "noise", self->root);
	tp_result_free(&r);
}

TEST_F(golden, noise_user_engine)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	r.user_engine = true;
	r.p.irqs = TSCPROBE_IRQS_ON;
	r.state = TSCPROBE_STATE_STOPPED;
	r.reason = TSCPROBE_STOP_REQUESTED;
	check_all(_metadata, &r, "noise-user", self->root);
	tp_result_free(&r);
}

TEST_F(golden, cache)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_CACHE);
	fill_cache(&r, &self->cpus);
	check_all(_metadata, &r, "cache", self->root);
	tp_result_free(&r);
}

TEST_F(golden, skew)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_SKEW);
	fill_skew(&r, &self->cpus);
	check_all(_metadata, &r, "skew", self->root);
	tp_result_free(&r);
}

TEST_HARNESS_MAIN
