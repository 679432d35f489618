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
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "user/lib/context.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"
#include "core/hist.h"
#include "jq.h"
#include "prng.h"
#include "report_string.h"
#include "slurp.h"
#include "user/reports.h"
#include "user/lib/result.h"
#include "core/stats.h"
#include "user/lib/topology.h"

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
	r->started = 1700000000;	/* 2023-11-14T22:13:20Z */
	r->cpus = *cpus;
	/* The CLI ran on CPU 2 when it was free, else with the measured. */
	r->cli.known = true;
	r->cli.apart = !tp_cpuset_has(cpus, 2);
	memset(&r->cli.cpus, 0, sizeof(r->cli.cpus));
	if (r->cli.apart)
		tp_cpuset_add(&r->cli.cpus, 2);
	else
		r->cli.cpus = *cpus;
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

/* CPU 0's SMI count from the MSR, CPU 1's from a perf counter (AMD). */
static void fill_counters(struct tp_cpu_res *c, unsigned int i)
{
	c->smi.ok = i != 2;
	c->smi.v = i;
	c->smi_source = i == 1 ? TSCPROBE_SMI_SOURCE_PERF :
		c->smi.ok ? TSCPROBE_SMI_SOURCE_MSR : TSCPROBE_SMI_SOURCE_NONE;
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
	/* Cache and skew: unread on the second CPU, moved on the third. */
	c->clock_before_khz = i == 1 ? 0 : 3000000 + 1000 * i;
	c->clock_after_khz = i == 1 ? 0 : i == 2 ? 2500000 : 3004000 + 1000 * i;
}

/*
 * Event @e of the @i-th CPU: a cause from the rule, and counters that
 * are unreadable now and then (SMI on odd CPUs, steal on even events).
 */
static void fill_event_cause(struct tp_event_res *ev, unsigned int e,
			     unsigned int i)
{
	ev->has_cause = true;
	ev->smi.ok = i % 2 == 0;
	ev->smi.v = e == 0;
	ev->nmi.ok = ev->irq.ok = true;
	ev->nmi.v = e == 1;
	ev->irq.v = 0;
	ev->steal_ns.ok = e % 2 == 1;
	ev->steal_ns.v = e == 3 ? 15000 : 0;
	if (ev->smi.ok && ev->smi.v)
		ev->cause = TSCPROBE_CAUSE_SMI;
	else if (ev->nmi.v)
		ev->cause = TSCPROBE_CAUSE_NMI;
	else if (ev->steal_ns.v)
		ev->cause = TSCPROBE_CAUSE_STEAL;
	else
		ev->cause = TSCPROBE_CAUSE_UNEXPLAINED;
}

/*
 * The per-cause totals of a CPU, adding up to its events_total; the SMI
 * cause is unknown where the SMI count is (fill_counters(): the third CPU).
 */
static void fill_causes(struct tp_cpu_res *c, unsigned int i)
{
	bool smi = i % 2 == 0 && i != 2;

	c->has_causes = true;
	c->causes_known = ~0U;
	if (i == 2)
		c->causes_known &= ~(1U << TSCPROBE_CAUSE_SMI);
	c->causes[TSCPROBE_CAUSE_SMI].events = smi;
	c->causes[TSCPROBE_CAUSE_SMI].cycles = smi ? 150000 : 0;
	c->causes[TSCPROBE_CAUSE_NMI].events = 1;
	c->causes[TSCPROBE_CAUSE_NMI].cycles = 30000;
	c->causes[TSCPROBE_CAUSE_STEAL].events = 1;
	c->causes[TSCPROBE_CAUSE_STEAL].cycles = 45000;
	c->causes[TSCPROBE_CAUSE_THREAD].events = 1;
	c->causes[TSCPROBE_CAUSE_THREAD].cycles = 9000000;
	c->causes[TSCPROBE_CAUSE_UNEXPLAINED].events =
		c->events_total - 3 - smi;
	c->causes[TSCPROBE_CAUSE_UNEXPLAINED].cycles = 21000 * (3 + i);
	c->not_notified.ok = true;
	c->not_notified.v = i;
}

/*
 * What ran inside the @i-th CPU's windows: every kind probed but NMI on
 * the second CPU, and more named sources on the third than its block
 * spells out.
 */
static void fill_sources(struct tp_cpu_res *c, unsigned int i)
{
	static const struct tp_source_res named[] = {
		{ TSCPROBE_SOURCE_THREAD, 4242, "stress-ng", 3, 9000000, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 236, "local_timer", 205, 430000, false, true, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 236, "nvme0q3", 120, 420000, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 3, "NET_RX", 118, 210000, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 4, "ttyS0", 40, 84000, false, false, true, 140,
		  "irq/4-ttyS0", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 1, "TIMER", 15, 30000, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_THREAD, 17, "ksoftirqd/1", 2, 21000, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 9, "RCU", 9, 12000, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_NMI, 0, "perf_event_nmi_handler", 1, 4200, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 25, "virtio0-output", 3, 2100, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_OTHER, 0, "other", 4, 800, false, false, false, 0, "", false },
	};
	unsigned int k, n = i == 2 ? TP_ARRAY_SIZE(named) : 3;

	c->kinds_known = i == 1 ? 0x7 : 0xf;
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++)
		c->kinds[k].kind = k;
	for (k = 0; k < n; k++) {
		c->sources[k] = named[k];
		if (named[k].kind == TSCPROBE_SOURCE_OTHER)
			continue;
		c->kinds[named[k].kind].count += named[k].count;
		c->kinds[named[k].kind].cycles += named[k].cycles;
	}
	c->nsources = n;
	c->sources_lost = i;
}

/*
 * What ran inside event @e's gap on the @i-th CPU: nothing recorded on the
 * second (its probes are off, as its stop event's are everywhere), else by
 * turns two sources, none, and more than an event names (then other).  The
 * largest takes half the gap, so it names the cause (tp_src_cause()).
 */
static void fill_event_sources(struct tp_event_res *ev, unsigned int e,
			       unsigned int i)
{
	static const struct tp_source_res many[] = {
		{ TSCPROBE_SOURCE_THREAD, 4242, "stress-ng", 1, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 236, "local_timer", 2, 0, false, true, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 236, "nvme0q3", 1, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_NMI, 0, "perf_event_nmi_handler", 1, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_OTHER, 0, "other", 3, 0, false, false, false, 0, "", false },
	};
	uint64_t named = 0;
	unsigned int k;

	if (i == 1)
		return;
	ev->has_sources = true;
	ev->nsources = e % 3 == 1 ? 0 : e % 3 == 0 ? 2 : TP_ARRAY_SIZE(many);
	for (k = 0; k < ev->nsources; k++) {
		ev->sources[k] = many[e % 3 == 0 ? k + 1 : k];
		ev->sources[k].cycles = ev->cycles / (2u << k);
		named += ev->sources[k].cycles;
	}
	ev->unexplained_cycles = ev->cycles - named;
	if (ev->nsources)
		ev->cause = ev->sources[0].kind == TSCPROBE_SOURCE_THREAD ?
			    TSCPROBE_CAUSE_THREAD : TSCPROBE_CAUSE_IRQ;
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
			fill_event_cause(&c->events[e], e, i);
			fill_event_sources(&c->events[e], e, i);
		}
		fill_causes(c, i);
		fill_sources(c, i);
		/* The TSC of the second CPU stepped back, twice. */
		c->steps_back.ok = true;
		c->steps_back.v = i == 1 ? 2 : 0;
		c->step_back_max = i == 1 ? 123456789 : 0;
		fill_counters(c, i++);
	}
	/* The first event of CPU 1 stopped the run (--stop-at). */
	r->p.stop_at_cycles = 200000;
	r->p.stop_at_ns = 95238;
	r->p.trace_stop = true;
	r->reason = TSCPROBE_STOP_THRESHOLD;
	r->has_stop_event = true;
	r->stop_cpu = r->cpu[1].cpu;
	r->stop_event = r->cpu[1].events[0];
	r->tsc_sync = TSCPROBE_TSC_STABLE;
	/* Offsets from skew run 5: the groups' times are aligned. */
	r->tsc_offsets_run_id = 5;
	for (i = 0; i < r->ncpus; i++) {
		r->cpu[i].has_tsc_offset = true;
		r->cpu[i].tsc_offset = 40 * (int64_t)i - 30;
	}
	tp_result_group(r);
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
	/* What the module sends of each CPU: its thread's counters, clocks. */
	while ((a = tp_cpuset_next(cpus, a)) >= 0)
		fill_counters(tp_result_cpu(r, a), n++);
	n = 0;
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
			/* The fourth pair was mostly disturbed: not sound. */
			pr->st.discarded = n == 4 ? 262 : 6;
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
static char *report_v(const struct tp_result *r, enum tp_format fmt,
		      const char *svg, bool verbose)
{
	struct tp_output o = { .fmt = fmt, .svg = svg, .verbose = verbose };

	return tp_test_report(r, &o, NULL);
}

static char *report(const struct tp_result *r, enum tp_format fmt,
		    const char *svg)
{
	return report_v(r, fmt, svg, false);
}

/* Equal to the golden file, or (TP_GOLDEN_UPDATE=1) written as it. */
/*
 * @got with the CLI's version (JSON's "version", the label of
 * tscprobe_run_info) written as @VERSION@, so that a release does not
 * change the golden files.
 */
static char *unversioned(const char *got)
{
	static const char from[] = "\"" TSCPROBE_VERSION "\"";
	static const char to[] = "\"@VERSION@\"";
	const char *hit;
	size_t len = 0, n = 0;
	char *out;

	for (hit = strstr(got, from); hit; hit = strstr(hit + 1, from))
		n++;
	out = malloc(strlen(got) + n * strlen(to) + 1);
	if (!out)
		return NULL;
	for (; (hit = strstr(got, from)); got = hit + strlen(from)) {
		memcpy(out + len, got, (size_t)(hit - got));
		len += (size_t)(hit - got);
		memcpy(out + len, to, strlen(to));
		len += strlen(to);
	}
	strcpy(out + len, got);
	return out;
}

/* Equal to the golden file, or (TP_GOLDEN_UPDATE=1) written as it. */
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
	want = tp_test_slurp(path);
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
	/* -v: every CPU's block (skew: the pairs and the matrices) */
	out = report_v(r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	snprintf(name, sizeof(name), "%s-v.txt", kind);
	EXPECT_TRUE(same_as_golden(name, out));
	free(out);
	snprintf(svg, sizeof(svg), "%s/%s.svg", root, kind);
	free(report(r, TP_FMT_CSV, svg));
	out = tp_test_slurp(svg);
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

/*
 * @src[0..*@n) as the module sends them to a reader without CAP_NET_ADMIN:
 * the threads one entry that sums them, WITHHELD, in their first one's
 * place (largest first holds: the first was the largest of them), and an
 * interrupt's thread neither by pid nor by name.
 */
static void withhold_threads(struct tp_source_res *src, uint32_t *n)
{
	struct tp_source_res sum = {
		.kind = TSCPROBE_SOURCE_THREAD, .withheld = true,
	};
	unsigned int k, kept = 0, at = *n;

	for (k = 0; k < *n; k++) {
		if (src[k].kind != TSCPROBE_SOURCE_THREAD) {
			if (src[k].threaded) {
				src[k].withheld = true;
				src[k].pid = 0;
				memset(src[k].thread, 0, sizeof(src[k].thread));
			}
			src[kept++] = src[k];
			continue;
		}
		if (at == *n)
			at = kept;
		sum.count += src[k].count;
		sum.cycles += src[k].cycles;
	}
	if (at == *n)
		return;
	memmove(&src[at + 1], &src[at], (kept - at) * sizeof(*src));
	src[at] = sum;
	*n = kept + 1;
}

/*
 * What a reader without CAP_NET_ADMIN is shown: no thread's pid or name
 * in any format, the threads summed and said why, an interrupt's thread
 * said to be one; the same sums by kind.
 */
TEST_F(golden, noise_read_without_cap_net_admin)
{
	static const char *const hidden[] = {
		"stress-ng", "4242", "ksoftirqd", "irq/4-ttyS0", "thread 140",
		"\"pid\": 140",
	};
	static const struct { enum tp_format fmt; bool v; } f[] = {
		{ TP_FMT_TEXT, true }, { TP_FMT_JSON, false },
		{ TP_FMT_CSV, false }, { TP_FMT_PROM, false },
	};
	struct tp_result r;
	unsigned int i, k;
	char *out;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	for (i = 0; i < r.ncpus; i++) {
		withhold_threads(r.cpu[i].sources, &r.cpu[i].nsources);
		for (k = 0; k < r.cpu[i].nevents; k++)
			withhold_threads(r.cpu[i].events[k].sources,
					 &r.cpu[i].events[k].nsources);
	}
	for (i = 0; i < TP_ARRAY_SIZE(f); i++) {
		out = report_v(&r, f[i].fmt, NULL, f[i].v);
		ASSERT_NE(NULL, out);
		for (k = 0; k < TP_ARRAY_SIZE(hidden); k++)
			EXPECT_FALSE(strstr(out, hidden[k]) != NULL)
				TH_LOG("format %u shows a hidden name", i);
		if (f[i].fmt == TP_FMT_TEXT) {
			EXPECT_NE(NULL, strstr(out, "threads (names need CAP_NET_ADMIN)"))
				TH_LOG("%s", out);
			EXPECT_NE(NULL, strstr(out, "irq 4 ttyS0 (thread: name needs CAP_NET_ADMIN)"))
				TH_LOG("%s", out);
		}
		if (f[i].fmt == TP_FMT_JSON) {
			EXPECT_NE(NULL, strstr(out, "\"kind\": \"thread\",\n"
					       "            \"id\": null,\n"
					       "            \"vector\": false,\n"
					       "            \"name\": null,\n"
					       "            \"thread\": null,\n"
					       "            \"withheld\": true,\n"
					       "            \"count\": 5,\n"
					       "            \"cycles\": 9021000,"))
				TH_LOG("%s", out);
			EXPECT_NE(NULL, strstr(out, "\"name\": \"ttyS0\",\n"
					       "            \"thread\": {\n"
					       "              \"pid\": null,\n"
					       "              \"name\": null\n"
					       "            },\n"
					       "            \"withheld\": true,"))
				TH_LOG("%s", out);
		}
		free(out);
	}
	tp_result_free(&r);
}

/*
 * What the userspace engine counted on the @i-th CPU from /proc, untimed,
 * largest first and ties in the files' order: named interrupt rows
 * without a number (LOC), numbered ones with their actions, softirqs by
 * vector, more than the first CPU's block spells out.  The second CPU
 * could not read /proc/softirqs; the third went offline, its columns
 * with it.  The thread kind is the measuring thread's preemptions; NMIs
 * are never known.  The interrupts add up to no more than the CPU's
 * irq_count, which spans the whole run.
 */
static void fill_user_sources(struct tp_cpu_res *c, unsigned int i)
{
	static const struct tp_source_res counted[] = {
		{ TSCPROBE_SOURCE_IRQ, 0, "LOC", 5, 0, true, true, false, 0, "", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 9, "RCU", 4, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 1, "TIMER", 3, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 0, "RES", 2, 0, true, true, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 4, "ttyS0", 1, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 24, "virtio0-input.0", 1, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_IRQ, 0, "CAL", 1, 0, true, true, false, 0, "", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 3, "NET_RX", 1, 0, false, false, false, 0, "", false },
		{ TSCPROBE_SOURCE_SOFTIRQ, 7, "SCHED", 1, 0, false, false, false, 0, "", false },
	};
	unsigned int k;

	memset(c->kinds, 0, sizeof(c->kinds));
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++)
		c->kinds[k].kind = k;
	c->sources_untimed = true;
	c->kinds_known = 1U << TSCPROBE_SOURCE_THREAD;
	if (i < 2)
		c->kinds_known |= 1U << TSCPROBE_SOURCE_IRQ;
	if (i == 0)
		c->kinds_known |= 1U << TSCPROBE_SOURCE_SOFTIRQ;
	c->kinds[TSCPROBE_SOURCE_THREAD].count = c->ctx_invol.v;
	c->nsources = 0;
	for (k = 0; k < TP_ARRAY_SIZE(counted); k++) {
		if (!(c->kinds_known & (1U << counted[k].kind)))
			continue;
		c->sources[c->nsources++] = counted[k];
		c->kinds[counted[k].kind].count += counted[k].count;
	}
	c->sources_lost = 0;
}

/*
 * What the userspace engine can tell: no SMI or NMI per gap (both
 * unknown, their events unexplained), no SMI count, no source traced (the
 * thread and softirq causes unknown, no event's sources), interrupt and
 * steal counts per window only (an event in a window where one moved has
 * no cause and those counters unknown: counted under NONE), and the
 * sources it counted.
 */
static void user_engine_causes(struct tp_result *r)
{
	static const uint32_t hidden[] = {
		TSCPROBE_CAUSE_SMI, TSCPROBE_CAUSE_NMI, TSCPROBE_CAUSE_THREAD,
		TSCPROBE_CAUSE_SOFTIRQ, TSCPROBE_CAUSE_IRQ, TSCPROBE_CAUSE_STEAL,
	};
	struct tp_event_res *ev;
	struct tp_cause_res *u;
	unsigned int i, k;

	for (i = 0; i < r->ncpus; i++) {
		for (k = 0; k < TP_ARRAY_SIZE(hidden); k++) {
			u = &r->cpu[i].causes[k < 4 ? TSCPROBE_CAUSE_UNEXPLAINED :
					      TSCPROBE_CAUSE_NONE];
			u->events += r->cpu[i].causes[hidden[k]].events;
			u->cycles += r->cpu[i].causes[hidden[k]].cycles;
			memset(&r->cpu[i].causes[hidden[k]], 0, sizeof(*u));
		}
		r->cpu[i].causes_known = 1U << TSCPROBE_CAUSE_UNEXPLAINED;
		r->cpu[i].smi.ok = false;
		fill_user_sources(&r->cpu[i], i);
		for (k = 0; k < r->cpu[i].nevents; k++) {
			ev = &r->cpu[i].events[k];
			ev->has_sources = false;
			fill_event_cause(ev, k, i);
			ev->smi.ok = ev->nmi.ok = false;
			ev->cause = TSCPROBE_CAUSE_UNEXPLAINED;
			if (ev->steal_ns.ok && ev->steal_ns.v) {
				ev->has_cause = ev->steal_ns.ok = false;
				ev->cause = TSCPROBE_CAUSE_NONE;
			}
		}
	}
}

TEST_F(golden, noise_user_engine)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	r.user_engine = true;
	r.p.irqs = TSCPROBE_IRQS_ON;
	user_engine_causes(&r);
	r.state = TSCPROBE_STATE_STOPPED;
	r.reason = TSCPROBE_STOP_REQUESTED;
	check_all(_metadata, &r, "noise-user", self->root);
	tp_result_free(&r);
}

/*
 * A run in a virtual machine: the module reads no SMI count there (its
 * MSR_SMI_COUNT is the hypervisor's), so every CPU's count and SMI cause
 * are unknown.  The reports say so and why, and never show a 0 for them:
 * no event reads as "not an SMI".
 */
TEST_F(golden, noise_in_a_vm_has_no_smi_count)
{
	struct tp_result r;
	unsigned int i;
	char *out;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	ASSERT_TRUE(r.ctx->have_env);
	r.ctx->env.hypervisor = true;
	for (i = 0; i < r.ncpus; i++) {
		struct tp_cpu_res *c = &r.cpu[i];

		c->smi.ok = false;
		c->causes[TSCPROBE_CAUSE_UNEXPLAINED].events +=
			c->causes[TSCPROBE_CAUSE_SMI].events;
		c->causes[TSCPROBE_CAUSE_SMI].events = 0;
		c->causes_known &= ~(1U << TSCPROBE_CAUSE_SMI);
	}
	EXPECT_EQ(TP_SMI_VM, tp_result_smi_why(&r));
	out = report(&r, TP_FMT_TEXT, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\nsmi n/a: a virtual machine: ")) TH_LOG("%s", out);
	free(out);
	out = report_v(&r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "  the events by cause, and their time: smi n/a, nmi "))
		TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "their time: smi 0")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, ", smi 0,")) TH_LOG("%s", out);
	free(out);
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\"smi_count_unreadable\": \"virtual-machine\""));
	EXPECT_EQ(NULL, strstr(out, "\"smi_count\": 0")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"smi\": null,\n        \"nmi\": {"))
		TH_LOG("the SMI cause must be null");
	free(out);
	tp_result_free(&r);
}

/*
 * Every report says where each CPU's SMI count came from, and only where
 * there is one: a module before SMI_SOURCE sent a count from the MSR
 * only, and no count is never a source.
 */
TEST_F(golden, noise_smi_source)
{
	struct tp_result r;
	char *out;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	ASSERT_LE(3, r.ncpus);
	EXPECT_EQ(TSCPROBE_SMI_SOURCE_MSR, tp_cpu_smi_source(&r.cpu[0]));
	EXPECT_EQ(TSCPROBE_SMI_SOURCE_PERF, tp_cpu_smi_source(&r.cpu[1]));
	EXPECT_EQ(TSCPROBE_SMI_SOURCE_NONE, tp_cpu_smi_source(&r.cpu[2]));
	r.cpu[0].smi_source = TSCPROBE_SMI_SOURCE_NONE;	/* not sent */
	EXPECT_EQ(TSCPROBE_SMI_SOURCE_MSR, tp_cpu_smi_source(&r.cpu[0]));
	r.cpu[2].smi_source = TSCPROBE_SMI_SOURCE_PERF;	/* but no count */
	EXPECT_EQ(TSCPROBE_SMI_SOURCE_NONE, tp_cpu_smi_source(&r.cpu[2]));
	out = report_v(&r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, ": smi 0 (msr), nmi 0,")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ": smi 1 (perf), nmi 2,")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ": smi n/a, nmi 4,")) TH_LOG("%s", out);
	free(out);
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\"smi_count\": 1,\n      \"smi_source\": \"perf\""))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"smi_count\": null,\n      \"smi_source\": \"none\""))
		TH_LOG("%s", out);
	free(out);
	out = report(&r, TP_FMT_CSV, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, ",top_source_ns,smi_source,")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ",perf,")) TH_LOG("%s", out);
	free(out);
	tp_result_free(&r);
}

/*
 * Every kind's JSON says where it came from: its schema, the tscprobe
 * that wrote it, the host, the kernel and when the run started (null
 * for a stored result, whose start the CLI does not know).
 */
TEST_F(golden, json_says_where_it_came_from)
{
	static const char where[] =
		".schema == 1 and .version == \"" TSCPROBE_VERSION "\" and "
		".host == \"golden\" and .kernel == \"6.1.0-golden-amd64\"";
	static const uint32_t kinds[] = {
		TSCPROBE_KIND_NOISE, TSCPROBE_KIND_CACHE, TSCPROBE_KIND_SKEW,
	};
	struct tp_result r;
	unsigned int k;
	char *out;

	for (k = 0; k < TP_ARRAY_SIZE(kinds); k++) {
		tp_result_init(&r, kinds[k]);
		if (kinds[k] == TSCPROBE_KIND_NOISE)
			fill_noise(&r, &self->cpus);
		else if (kinds[k] == TSCPROBE_KIND_CACHE)
			fill_cache(&r, &self->cpus);
		else
			fill_skew(&r, &self->cpus);
		out = report(&r, TP_FMT_JSON, NULL);
		ASSERT_NE(NULL, out);
		EXPECT_EQ(0, tp_test_jq(out, "", where)) TH_LOG("%s", out);
		EXPECT_EQ(0, tp_test_jq(out, "",
					".started == \"2023-11-14T22:13:20Z\""));
		free(out);
		r.started = 0;
		out = report(&r, TP_FMT_JSON, NULL);
		ASSERT_NE(NULL, out);
		EXPECT_EQ(0, tp_test_jq(out, "", ".started == null"));
		free(out);
		tp_result_free(&r);
	}
}

/*
 * Every time figure in both units: each noise *_cycles figure has its
 * *_ns in JSON and in CSV, cache's figures their "ns" beside the cycles,
 * skew's pairs their skew in ns, every CSV row the TSC rate; skew's text
 * shows its matrices in one unit, and the pictures' axes give the rate.
 */
TEST_F(golden, time_figures_in_ns_beside_cycles)
{
	struct tp_result r;
	char *out, svg[128];

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", "[.cpus[0] | keys[] | select(endswith(\"_cycles\") and "
				"test(\"^(min|p|max)\")) | sub(\"_cycles\"; \"_ns\")] - (.cpus[0] | keys) == []"));
	free(out);
	out = report(&r, TP_FMT_CSV, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, ",tsc_khz,min_ns,p99_ns,p999_ns\r\n")) TH_LOG("%s", out);
	free(out);
	snprintf(svg, sizeof(svg), "%s/units.svg", self->root);
	free(report(&r, TP_FMT_CSV, svg));
	out = tp_test_slurp(svg);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "(cycles, log2), at 2.10 cycles/ns</text>"));
	free(out);
	tp_result_free(&r);

	tp_result_init(&r, TSCPROBE_KIND_CACHE);
	fill_cache(&r, &self->cpus);
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", "all(.cpus[]; (.uncached.p99 * 1e6 / 2100000 - "
				".uncached.ns.p99 | fabs) < 1e-3 and .cached.gross.ns.max > 0)"));
	free(out);
	out = report(&r, TP_FMT_CSV, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, ",tsc_khz,overhead_min_ns,")) TH_LOG("%s", out);
	free(out);
	tp_result_free(&r);

	tp_result_init(&r, TSCPROBE_KIND_SKEW);
	fill_skew(&r, &self->cpus);
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", "(.pairs[0] | (.skew.avg * 1e6 / 2100000 - .skew_ns | fabs) < 1e-9)"
				" and .verdict.max_abs_skew_ns > 0"));
	free(out);
	out = report_v(&r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\nskew, ns: TSC_j - TSC_i")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "largest |skew| 9.5ns (20.0 cycles)")) TH_LOG("%s", out);
	free(out);
	tp_result_free(&r);
}

/*
 * Each quantity once in cache's text: no "Average ... memory access" line
 * (the original program's mean minus mean, 0 where the loads' mean lay
 * below the overhead's) above the net figures of the same loads; a net
 * figure the method cannot resolve, at or below the overhead, says so.
 */
TEST_F(golden, cache_one_figure_per_quantity)
{
	struct tp_result r;
	char *out;

	tp_result_init(&r, TSCPROBE_KIND_CACHE);
	fill_cache(&r, &self->cpus);
	out = report_v(&r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(NULL, strstr(out, "Average")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n  cached net          below ")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "\n  cached net              0 ")) TH_LOG("%s", out);
	free(out);
	tp_result_free(&r);
}

/* Every line of @text within @max columns (each too long logged). */
static unsigned int lines_over(struct __test_metadata *_metadata,
			       const char *text, size_t max)
{
	unsigned int bad = 0;
	size_t len;

	for (; *text; text += len + (text[len] == '\n')) {
		len = strcspn(text, "\n");
		if (len <= max)
			continue;
		TH_LOG("%zu columns: %.*s", len, (int)len, text);
		bad++;
	}
	return bad;
}

/* How often @what stands in @s. */
static unsigned int occurs(const char *s, const char *what)
{
	unsigned int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

/*
 * One CPU reads like many: the table of a row per CPU first, whatever the
 * CPUs, every CPU in full only with -v and after the table; every line
 * within 100 columns; in a CPU's block each interrupt figure once, with
 * what it counts.
 */
TEST_F(golden, noise_one_cpu_reads_like_many)
{
	static const char *const meanings[] = {
		"\n  the CPU's counters over the run: ",
		"\n  the events by cause, and their time: ",
		"\n  what ran inside the windows, traced: ",
		"\n  /proc/interrupts over the run: ",
	};
	struct tp_cpuset one;
	struct tp_result r;
	char *out, *v;
	unsigned int k;

	memset(&one, 0, sizeof(one));
	tp_cpuset_add(&one, 1);
	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &one);
	ASSERT_EQ(1, r.ncpus);
	out = report(&r, TP_FMT_TEXT, NULL);
	v = report_v(&r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, v);
	EXPECT_NE(NULL, strstr(out, "\n cpu     samples ")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n   1      ")) TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "\ncpu 1: ")) TH_LOG("%s", out);
	EXPECT_GT(20, occurs(out, "\n")) TH_LOG("%s", out);
	EXPECT_LT(strstr(v, "\n cpu     samples "), strstr(v, "\ncpu 1: ")) TH_LOG("%s", v);
	for (k = 0; k < TP_ARRAY_SIZE(meanings); k++)
		EXPECT_EQ(1, occurs(v, meanings[k])) TH_LOG("meaning %u", k);
	EXPECT_EQ(0, lines_over(_metadata, out, 100));
	EXPECT_EQ(0, lines_over(_metadata, v, 100));
	free(out);
	free(v);
	tp_result_free(&r);
	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	out = report(&r, TP_FMT_TEXT, NULL);
	v = report_v(&r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, v);
	EXPECT_EQ(0, lines_over(_metadata, out, 100));
	EXPECT_EQ(0, lines_over(_metadata, v, 100));
	free(out);
	free(v);
	tp_result_free(&r);
}

static const struct tp_family test_answer = {
	"tscprobe_test_answer", "gauge", "A field the test added.", false,
};
static tp_row_fn noise_row;

/*
 * A noise CPU's row with two fields more, each declared once with every
 * format: "answer" (42 on the first CPU, then 43...) and "unknown".
 */
static void row_plus_two(struct tp_model *m, const void *ctx, unsigned int i)
{
	noise_row(m, ctx, i);
	tp_u64(m, "answer", 42 + i, &(struct tp_opts){
		.csv = 950, .prom = &test_answer, .text = "  the answer: %llu\n",
		.svg = "answer %llu" });
	tp_null(m, "unknown", &(struct tp_opts){
		.csv = 951, .prom = &test_answer, .text = "  unknown: %llu\n",
		.svg = "unknown %llu", .labels = "which=\"unknown\"" });
}

/* The noise report's model, its rows built by row_plus_two(). */
static void noise_plus_two(struct tp_model *m)
{
	struct tp_node *rows;

	tp_noise_report.build(m);
	rows = (struct tp_node *)tp_model_rows(m, "cpus");
	noise_row = rows->rows.fn;
	rows->rows.fn = row_plus_two;
}

/* @r's report as @fmt asks, from noise_plus_two()'s model. */
static char *report_plus_two(const struct tp_result *r, enum tp_format fmt,
			     const char *svg)
{
	static const struct tp_report_kind kind = {
		tp_noise_figure, noise_plus_two,
	};
	struct tp_output o = { .fmt = fmt, .svg = svg, .verbose = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	tp_report(r, &o, f, &kind);
	fclose(f);
	return buf;
}

/*
 * A field declared once appears in all five formats: JSON's key, a CSV
 * column, a Prometheus sample, text where it stands, the picture's
 * tooltip of its row.  Unknown stays unknown in each: null, an empty
 * cell, no sample, n/a, not in the picture.
 */
TEST_F(golden, a_field_declared_once_is_in_every_format)
{
	char *out, svg[128];
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	out = report_plus_two(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", "[.cpus[].answer] == [42, 43, 44] and "
				"all(.cpus[]; has(\"unknown\") and .unknown == null)"));
	free(out);
	out = report_plus_two(&r, TP_FMT_CSV, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, ",answer,unknown\r\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ",42,\r\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, ",44,\r\n")) TH_LOG("%s", out);
	free(out);
	out = report_plus_two(&r, TP_FMT_PROM, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\ntscprobe_test_answer{cpu=\"1\",engine=\"kernel\",irqs=\"off\"} 43\n"))
		TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "which=\"unknown\"")) TH_LOG("%s", out);
	free(out);
	out = report_plus_two(&r, TP_FMT_TEXT, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\n  the answer: 44\n")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\n  unknown: n/a\n")) TH_LOG("%s", out);
	free(out);
	snprintf(svg, sizeof(svg), "%s/plus.svg", self->root);
	free(report_plus_two(&r, TP_FMT_CSV, svg));
	out = tp_test_slurp(svg);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "<title>CPU 3: 202000 samples, p50 54, p99.99 638698, max 1047987 cycles, answer 44</title>"))
		TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "unknown")) TH_LOG("%s", out);
	free(out);
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

/*
 * The clock moved when before and after differ by more than 5 % of
 * before: exactly 5 % either way is steady.  The userspace engine says it
 * read no clock.
 */
TEST_F(golden, cache_clock_moved_beyond_5_pct)
{
	static const uint32_t after[] = { 3150000, 3150001, 2850000, 2849999 };
	struct tp_result r;
	unsigned int i;
	char *out;

	tp_result_init(&r, TSCPROBE_KIND_CACHE);
	fill_cache(&r, &self->cpus);
	ASSERT_EQ(3, r.ncpus);
	for (i = 0; i < r.ncpus; i++) {
		r.cpu[i].clock_before_khz = 3000000;
		r.cpu[i].clock_after_khz = after[i];
	}
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", ".clock.moved_cpus == [1] and "
				 "([.clock.cpus[] | select(.moved) | .cpu] == [1])"))
		TH_LOG("%s", out);
	free(out);
	r.cpu[2].clock_after_khz = after[3];
	out = report(&r, TP_FMT_TEXT, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "warning: CPU 1: the clock moved +5.0 % during its run (3000 -> 3150 MHz)"))
		TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "warning: CPU 3: the clock moved -5.0 % during its run (3000 -> 2849 MHz)"))
		TH_LOG("%s", out);
	EXPECT_EQ(NULL, strstr(out, "warning: CPU 0: the clock")) TH_LOG("%s", out);
	free(out);
	r.user_engine = true;
	out = report(&r, TP_FMT_TEXT, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_NE(NULL, strstr(out, "\neffective clock: not read (the userspace engine reads no MSR)\n"))
		TH_LOG("%s", out);
	free(out);
	out = report(&r, TP_FMT_JSON, NULL);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(0, tp_test_jq(out, "", ".clock == null")) TH_LOG("%s", out);
	free(out);
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

/*
 * A big machine: 64 CPUs numbered 0-31 and 64-95 (two packages, a gap
 * between them); in each package two dies with their own L3 (cores 0-7
 * and 8-15), SMT siblings n and n + 16.
 */
static bool big_cpu(unsigned int cpu)
{
	return cpu < 32 || (cpu >= 64 && cpu < 96);
}

static unsigned int big_core(unsigned int cpu)
{
	return (cpu & 64) + cpu % 16;
}

static void make_big_sysroot(const char *root)
{
	char rel[160], text[64];
	unsigned int cpu, core;

	put_file(root, "sys/devices/system/cpu/online", "0-31,64-95\n");
	put_file(root, "sys/devices/system/cpu/isolated", "\n");
	put_file(root, "proc/cpuinfo", "processor\t: 0\nflags\t\t: tsc constant_tsc nonstop_tsc\n\n");
	for (cpu = 0; cpu < 96; cpu++) {
		if (!big_cpu(cpu))
			continue;
		core = big_core(cpu);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", cpu);
		snprintf(text, sizeof(text), "%u,%u\n", core, core + 16);
		put_file(root, rel, text);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/physical_package_id", cpu);
		snprintf(text, sizeof(text), "%u\n", cpu / 64);
		put_file(root, rel, text);
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/shared_cpu_list", cpu);
		snprintf(text, sizeof(text), "%u-%u,%u-%u\n", core & ~7U, (core & ~7U) + 7,
			 (core & ~7U) + 16, (core & ~7U) + 23);
		put_file(root, rel, text);
	}
}

static uint32_t big_relation(unsigned int a, unsigned int b)
{
	if ((a & 64) != (b & 64))
		return TSCPROBE_REL_OTHER_PACKAGE;
	return big_core(a) == big_core(b) ? TSCPROBE_REL_SMT :
	       TSCPROBE_REL_PACKAGE;
}

/* Every ordered pair in sync (skew 0 +- 2), but 5 -> 70: 300 cycles off. */
static void fill_big_skew(struct tp_result *r, const struct tp_cpuset *cpus)
{
	uint64_t state = 0x13198a2e03707344ULL;
	int a = -1, b;
	unsigned int k;

	r->p.samples = 32;
	r->p.repeats = 1;
	fill_run(r, cpus);
	while ((a = tp_cpuset_next(cpus, a)) >= 0) {
		for (b = -1; (b = tp_cpuset_next(cpus, b)) >= 0;) {
			struct tp_pair_res *pr;
			int64_t off = a == 5 && b == 70 ? 300 : 0;
			int64_t base = 100 + 100 * (big_relation(a, b) == TSCPROBE_REL_OTHER_PACKAGE);

			if (a == b)
				continue;
			pr = tp_result_add_pair(r, a, b);
			pr->status = TSCPROBE_PAIR_OK;
			pr->relation = big_relation(a, b);
			pr->st.nr = 16;
			tp_sstats_init(&pr->st.latij);
			tp_sstats_init(&pr->st.latji);
			tp_sstats_init(&pr->st.skew2);
			tp_sstats_init(&pr->st.one_way2);
			for (k = 0; k < pr->st.nr; k++) {
				int64_t ij = base + off + (int64_t)tr_below(&state, 4);
				int64_t ji = base - off + (int64_t)tr_below(&state, 4) + 400 * !!off;

				tp_sstats_add(&pr->st.latij, ij);
				tp_sstats_add(&pr->st.latji, ji);
				tp_sstats_add(&pr->st.skew2, ij - ji);
				tp_sstats_add(&pr->st.one_way2, ij + ji);
			}
		}
	}
	r->pairs_done = r->pairs_total = r->npairs;
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/*
 * strstr() for the scans of big reports: ASan's strstr() takes the length
 * of the whole rest of the string at every call, which made scanning a
 * megabyte SVG for its thousands of elements quadratic (over 30 s).
 */
static const char *find(const char *s, const char *what)
{
	size_t n = strlen(what);

	for (; *s; s++)
		if (*s == *what && !strncmp(s, what, n))
			return s;
	return NULL;
}

static unsigned int count_str(const char *s, const char *what)
{
	unsigned int n = 0;

	for (s = find(s, what); s; s = find(s + 1, what))
		n++;
	return n;
}

FIXTURE(big) {
	char root[64];
	struct tp_cpuset cpus;
};

FIXTURE_SETUP(big)
{
	unsigned int cpu;

	strcpy(self->root, "/tmp/tp-big.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	make_big_sysroot(self->root);
	setenv("TSCPROBE_SYSROOT", self->root, 1);
	memset(&self->cpus, 0, sizeof(self->cpus));
	for (cpu = 0; cpu < 96; cpu++)
		if (big_cpu(cpu))
			tp_cpuset_add(&self->cpus, cpu);
}

FIXTURE_TEARDOWN(big)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", self->root);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->root);
}

/* The number in attribute @name of the root <svg> element (-1: none). */
static double svg_root_attr(const char *svg, const char *name)
{
	const char *root = strstr(svg, "<svg ");
	char key[32];
	const char *at;

	snprintf(key, sizeof(key), " %s=\"", name);
	at = root ? strstr(root, key) : NULL;
	return at ? strtod(at + strlen(key), NULL) : -1;
}

/*
 * Every geometric attribute of @svg a number, finite, not negative, and
 * every rectangle inside the picture: a NaN, an infinity or a negative
 * value from a figure that cannot be is caught here.  Return: how many
 * attributes are wrong (each logged).
 */
static unsigned int svg_bad_attrs(struct __test_metadata *_metadata,
				  const char *svg)
{
	static const char *const names[] = {
		" x=\"", " y=\"", " width=\"", " height=\"", " x1=\"",
		" y1=\"", " x2=\"", " y2=\"", " font-size=\"",
		" stroke-width=\"",
	};
	double w = svg_root_attr(svg, "width"), h = svg_root_attr(svg, "height");
	unsigned int i, bad = 0;
	const char *at, *rect;
	char *end;
	double v;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (at = find(svg, names[i]); at; at = find(at + 1, names[i])) {
			v = strtod(at + strlen(names[i]), &end);
			if (*end == '"' && isfinite(v) && v >= 0)
				continue;
			TH_LOG("bad attribute: %.40s", at);
			bad++;
		}
	for (rect = find(svg, "<rect "); rect; rect = find(rect + 1, "<rect ")) {
		double x = strtod(find(rect, " x=\"") + 4, NULL);
		double y = strtod(find(rect, " y=\"") + 4, NULL);
		double rw = strtod(find(rect, " width=\"") + 8, NULL);
		double rh = strtod(find(rect, " height=\"") + 9, NULL);

		if (x + rw <= w + 0.05 && y + rh <= h + 0.05)
			continue;
		TH_LOG("rectangle outside the %.0f x %.0f picture: %.80s", w, h,
		       rect);
		bad++;
	}
	return bad;
}

/*
 * A heat strip (noise, cache) of many CPUs: its height bounded, about 900
 * pixels of rows whatever the CPUs; every CPU in it once (its row's
 * tooltip), each of its rows with a max mark (red).
 */
static void check_strip_svg(struct __test_metadata *_metadata,
			    const struct tp_result *r, const char *svg,
			    unsigned int rows_per_cpu)
{
	char name[48];
	int cpu = -1;

	EXPECT_NE(NULL, strstr(svg, "rows: CPUs"));
	EXPECT_LE(svg_root_attr(svg, "height"), 1400);
	EXPECT_LE(svg_root_attr(svg, "width"), 1100);
	EXPECT_EQ(r->ncpus, count_str(svg, "<title>CPU "));
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		snprintf(name, sizeof(name), "<title>CPU %d: ", cpu);
		EXPECT_EQ(1, count_str(svg, name)) TH_LOG("CPU %d", cpu);
	}
	EXPECT_EQ(rows_per_cpu * r->ncpus, count_str(svg, "fill=\"#d62728\"/>"));
	EXPECT_EQ(0, svg_bad_attrs(_metadata, svg));
}

/*
 * The SVG of a 64-CPU result: written, not empty, and where
 * $TP_SVG_OUT names a directory kept there as KIND-64.svg, for
 * test_reports.sh to render in Chromium.
 */
static void check_big_svg(struct __test_metadata *_metadata,
			  const struct tp_result *r, const char *kind,
			  const char *root)
{
	const char *keep = getenv("TP_SVG_OUT");
	char path[256];
	char *svg;

	snprintf(path, sizeof(path), "%s/%s-64.svg", keep ? keep : root, kind);
	free(report(r, TP_FMT_CSV, path));
	svg = tp_test_slurp(path);
	ASSERT_NE(NULL, svg);
	EXPECT_NE(NULL, strstr(svg, "</svg>"));
	/* heat strips (noise: one, cache: three) or 64 x 64 cells (skew),
	 * not 64 charts */
	if (r->kind == TSCPROBE_KIND_NOISE)
		check_strip_svg(_metadata, r, svg, 1);
	if (r->kind == TSCPROBE_KIND_CACHE)
		check_strip_svg(_metadata, r, svg, TP_CACHE_SERIES);
	if (r->kind == TSCPROBE_KIND_SKEW)
		EXPECT_GE(count_str(svg, "<rect"), 2 * 64 * 64);
	free(svg);
}

/* The default is a row per CPU, at most ~100 lines; -v every CPU's block. */
static void check_big_rows(struct __test_metadata *_metadata,
			   const struct tp_result *r, const char *kind)
{
	char *out = report(r, TP_FMT_TEXT, NULL), *v, name[64], *json, *csv;
	int cpu = -1;

	ASSERT_NE(NULL, out);
	v = report_v(r, TP_FMT_TEXT, NULL, true);
	ASSERT_NE(NULL, v);
	TH_LOG("%s: %u lines by default, %u with -v", kind, count_lines(out),
	       count_lines(v));
	EXPECT_LE(count_lines(out), 100);
	/* the rows, a dozen lines around them, and noise's stop line and
	 * groups section (at most 10 rows and 3 more) */
	EXPECT_LE(count_lines(out), 64 + 12 + 14);
	EXPECT_EQ(1, count_str(out, "\nworst: CPU "));
	EXPECT_EQ(0, count_str(out, "\ncpu "));
	EXPECT_EQ(64, count_str(v, "\ncpu "));
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		snprintf(name, sizeof(name), "\ncpu %d: ", cpu);
		EXPECT_EQ(1, count_str(v, name));
		snprintf(name, sizeof(name), "\n%4d ", cpu);
		EXPECT_EQ(1, count_str(out, name));
	}
	/* every CPU named once, in each merged warning */
	EXPECT_EQ(1, count_str(out, "CPUs 0-31,64-95 are not isolated"));
	EXPECT_EQ(0, count_str(out, "CPU 17 "));
	json = report(r, TP_FMT_JSON, NULL);
	csv = report(r, TP_FMT_CSV, NULL);
	ASSERT_NE(NULL, json);
	ASSERT_NE(NULL, csv);
	EXPECT_EQ(64 + 1, count_lines(csv));
	/* the JSON: a "samples"/"rounds" per CPU in "cpus" */
	EXPECT_EQ(64, count_str(json, r->kind == TSCPROBE_KIND_NOISE ?
				"\"samples\":" : "\"window_count\":"));
	snprintf(name, sizeof(name), "%s-64.txt", kind);
	EXPECT_TRUE(same_as_golden(name, out));
	free(json);
	free(csv);
	free(out);
	free(v);
}

TEST_F(big, noise_64_cpus_a_row_each)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_NOISE);
	fill_noise(&r, &self->cpus);
	check_big_rows(_metadata, &r, "noise");
	check_big_svg(_metadata, &r, "noise", self->root);
	tp_result_free(&r);
}

TEST_F(big, cache_64_cpus_a_row_each)
{
	struct tp_result r;

	tp_result_init(&r, TSCPROBE_KIND_CACHE);
	fill_cache(&r, &self->cpus);
	check_big_rows(_metadata, &r, "cache");
	check_big_svg(_metadata, &r, "cache", self->root);
	tp_result_free(&r);
}

/*
 * @r: a cache result of CPUs 0..@n - 1 (synthetic); its SVG, read back
 * (kept as cache-N.svg where $TP_SVG_OUT says).
 */
static char *cache_svg_of(struct tp_result *r, unsigned int n,
			  const char *root)
{
	struct tp_cpuset cpus;
	char path[128];
	unsigned int cpu;

	memset(&cpus, 0, sizeof(cpus));
	for (cpu = 0; cpu < n; cpu++)
		tp_cpuset_add(&cpus, cpu);
	tp_result_init(r, TSCPROBE_KIND_CACHE);
	fill_cache(r, &cpus);
	snprintf(path, sizeof(path), "%s/cache-%u.svg",
		 getenv("TP_SVG_OUT") ? getenv("TP_SVG_OUT") : root, n);
	free(report(r, TP_FMT_CSV, path));
	return tp_test_slurp(path);
}

/*
 * Up to 8 CPUs the cache SVG keeps a chart per CPU (and a level curve
 * each); from 9 the heat strips, up to 256 CPUs in the same height.
 */
TEST_F(big, cache_svg_charts_then_strips)
{
	static const unsigned int n[] = { 8, 9, 256 };
	struct tp_result r;
	unsigned int i;
	char *svg;

	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		svg = cache_svg_of(&r, n[i], self->root);
		ASSERT_NE(NULL, svg);
		ASSERT_EQ(n[i], r.ncpus);
		EXPECT_NE(NULL, strstr(svg, "</svg>"));
		EXPECT_EQ(n[i] <= 8 ? n[i] : 0,
			  count_str(svg, "rounds, one load (gross cycles)"));
		EXPECT_EQ(n[i] <= 8 ? n[i] : 1,
			  count_str(svg, "load-to-use latency by working set"));
		EXPECT_EQ(0, svg_bad_attrs(_metadata, svg));
		if (n[i] > 8)
			check_strip_svg(_metadata, &r, svg, TP_CACHE_SERIES);
		free(svg);
		tp_result_free(&r);
	}
}

/*
 * 64 CPUs of skew: the topology summary (every group of the machine, the
 * pairs adding up), the ten worst pairs with 5 -> 70 first, the verdict;
 * every pair and the matrices only with -v; JSON and CSV every pair.
 */
TEST_F(big, skew_64_cpus_by_topology)
{
	struct tp_result r;
	char *out, *v, *json, *csv;
	unsigned int smt, l3, pkg, pkgs;

	tp_result_init(&r, TSCPROBE_KIND_SKEW);
	fill_big_skew(&r, &self->cpus);
	ASSERT_EQ(64 * 63, r.npairs);
	out = report(&r, TP_FMT_TEXT, NULL);
	v = report_v(&r, TP_FMT_TEXT, NULL, true);
	json = report(&r, TP_FMT_JSON, NULL);
	csv = report(&r, TP_FMT_CSV, NULL);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, v);
	ASSERT_NE(NULL, json);
	ASSERT_NE(NULL, csv);
	TH_LOG("skew: %u lines by default, %u with -v", count_lines(out),
	       count_lines(v));
	EXPECT_LE(count_lines(out), 40);
	EXPECT_NE(NULL, strstr(out, "by topology"));
	/*
	 * Per CPU: 1 SMT sibling, 14 others on its die (7 cores x 2 - 1
	 * sibling... 16 CPUs per die), 16 in the other die, 32 in the other
	 * package; ordered pairs, so times 64.
	 */
	ASSERT_NE(NULL, strstr(out, "  SMT siblings "));
	ASSERT_NE(NULL, strstr(out, "  same die/L3 "));
	ASSERT_NE(NULL, strstr(out, "  same package "));
	ASSERT_NE(NULL, strstr(out, "  across packages "));
	EXPECT_EQ(1, sscanf(strstr(out, "  SMT siblings "), "  SMT siblings %u", &smt));
	EXPECT_EQ(1, sscanf(strstr(out, "  same die/L3 "), "  same die/L3 %u", &l3));
	EXPECT_EQ(1, sscanf(strstr(out, "  same package "), "  same package %u", &pkg));
	EXPECT_EQ(1, sscanf(strstr(out, "  across packages "), "  across packages %u", &pkgs));
	EXPECT_EQ(64 * 1, smt);
	EXPECT_EQ(64 * 14, l3);
	EXPECT_EQ(64 * 16, pkg);
	EXPECT_EQ(64 * 32, pkgs);
	EXPECT_NE(NULL, strstr(out, "worst pairs"));
	EXPECT_NE(NULL, strstr(out, "\n     5 -> 70  "));
	EXPECT_LT(strstr(out, "\n     5 -> 70  "), strstr(out, "\nverdict: "));
	EXPECT_NE(NULL, strstr(out, "NO, 1 of 4032 judged pairs out"));
	EXPECT_EQ(NULL, strstr(out, "i\\j"));		/* no matrix */
	EXPECT_NE(NULL, strstr(v, "i\\j"));
	EXPECT_EQ(4032, count_str(v, " <-> "));
	EXPECT_EQ(4032, count_str(json, "\"relation\":"));
	EXPECT_EQ(4032 + 1, count_lines(csv));
	EXPECT_TRUE(same_as_golden("skew-64.txt", out));
	check_big_svg(_metadata, &r, "skew", self->root);
	free(out);
	free(v);
	free(json);
	free(csv);
	tp_result_free(&r);
}

/*
 * The groups of single pairs on the big machine's sysfs: the relation
 * decides but for "same package", which sysfs splits by L3 (or die); a
 * CPU sysfs says nothing of (40, in the gap) stays "same package".
 */
TEST_F(big, topology_groups_from_sysfs)
{
	struct tp_cpuset all;
	struct tp_topo *t;

	tp_parse_cpus("0-95", &all, &(const char *){ NULL });
	t = tp_topo_read(&all);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(TP_TOPO_SMT, tp_topo_group(t, TSCPROBE_REL_SMT, 0, 16));
	EXPECT_EQ(TP_TOPO_L3, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 0, 1));
	EXPECT_EQ(TP_TOPO_L3, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 0, 23));
	EXPECT_EQ(TP_TOPO_PACKAGE, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 0, 8));
	EXPECT_EQ(TP_TOPO_L3, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 72, 88));
	EXPECT_EQ(TP_TOPO_PACKAGE, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 64, 95));
	EXPECT_EQ(TP_TOPO_PACKAGES, tp_topo_group(t, TSCPROBE_REL_OTHER_PACKAGE, 5, 70));
	EXPECT_EQ(TP_TOPO_NODES, tp_topo_group(t, TSCPROBE_REL_OTHER_NODE, 5, 70));
	EXPECT_EQ(TP_TOPO_UNKNOWN, tp_topo_group(t, TSCPROBE_REL_UNKNOWN, 5, 70));
	EXPECT_EQ(TP_TOPO_PACKAGE, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 40, 41));
	EXPECT_EQ(TP_TOPO_PACKAGE, tp_topo_group(NULL, TSCPROBE_REL_PACKAGE, 0, 1));
	free(t);
	/* one die for CPUs 0 and 8 of package 0: same die, other L3s */
	put_file(self->root, "sys/devices/system/cpu/cpu0/topology/die_id", "0\n");
	put_file(self->root, "sys/devices/system/cpu/cpu8/topology/die_id", "0\n");
	put_file(self->root, "sys/devices/system/cpu/cpu9/topology/die_id", "1\n");
	t = tp_topo_read(&all);
	ASSERT_NE(NULL, t);
	EXPECT_EQ(TP_TOPO_L3, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 0, 8));
	EXPECT_EQ(TP_TOPO_PACKAGE, tp_topo_group(t, TSCPROBE_REL_PACKAGE, 0, 9));
	free(t);
}

TEST_HARNESS_MAIN
