// SPDX-License-Identifier: GPL-2.0
/*
 * The cache report, built once as a model (lib/model.h): per CPU the three
 * series (overhead, cached, uncached) as min/avg/p50/p99/max/sd, the loads
 * net of the overhead's median (with the original program's mean minus
 * mean beside them), the block averages of the last 1e3, 1e5 and 1e6
 * rounds, and the level and node curves when measured
 * (Documentation/cache.rst).  Text adds the three Average lines of each
 * CPU's block (-v, or one CPU), the table of a row per CPU, and the worst.
 *
 * Everything travels gross; every net figure is made here, once, by
 * tp_cache_summarize().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/context_report.h"
#include "user/lib/format.h"
#include "user/lib/render.h"
#include "user/lib/model.h"
#include "core/names.h"
#include "user/reports.h"
#include "core/report.h"
#include "user/lib/verdict.h"

static const char *const tp_fig_keys[TP_FIGS] = {
	"min", "avg", "p50", "p99", "max", "sd",
};
static const char *const tp_window_keys[TP_CACHE_WINDOWS] = {
	"1e3", "1e5", "1e6",
};

static const struct tp_series_res *tp_cache_series(const struct tp_cpu_res *c,
					     unsigned int id)
{
	return &c->series[id];
}

/* The six figures of a series as measured (all 0 without rounds). */
static void tp_cache_figs(const struct tp_series_res *s, double f[TP_FIGS])
{
	const struct tp_stats *st = &s->stats;

	memset(f, 0, TP_FIGS * sizeof(f[0]));
	if (!st->count)
		return;
	f[0] = (double)st->min;
	f[1] = (double)st->sum / (double)st->count;
	f[2] = s->hist ? (double)tp_hist_percentile(s->hist, 500000) : 0;
	f[3] = s->hist ? (double)tp_hist_percentile(s->hist, 990000) : 0;
	f[4] = (double)st->max;
	f[5] = (double)tp_stats_sd(st);
}

/* @gross minus @base, never below 0 (a load never takes negative time). */
static double tp_net(double gross, double base)
{
	return gross > base ? gross - base : 0;
}

/*
 * The figures of a load series net of the overhead's median @base: each
 * percentile minus @base, clamped at 0; the mean of the clamped values
 * (from the histogram); the sd as measured.  A series without rounds stays
 * all 0.
 */
static void tp_cache_net(const struct tp_series_res *s,
			 const double gross[TP_FIGS], double base,
			 double net[TP_FIGS], uint64_t *below)
{
	unsigned int i;

	memcpy(net, gross, TP_FIGS * sizeof(net[0]));
	*below = 0;
	if (!s->stats.count)
		return;
	for (i = 0; i < 5; i++)
		net[i] = tp_net(gross[i], base);
	if (s->hist)
		net[1] = (double)tp_hist_net(s->hist, (uint64_t)base, below) /
			(double)s->stats.count;
}

/**
 * tp_cache_summarize() - compute one CPU's report figures
 * @r: the run
 * @c: the CPU
 * @s: the figures
 *
 * Each series' histogram is walked for its gross figures and once more for
 * the net mean.  The overhead is never net of itself.
 */
void tp_cache_summarize(const struct tp_result *r, const struct tp_cpu_res *c,
			struct tp_cache_summary *s)
{
	const struct tp_series_res *ov = tp_cache_series(c, TSCPROBE_SERIES_OVERHEAD);
	const struct tp_series_res *sr;
	unsigned int i, id;

	memset(s, 0, sizeof(*s));
	s->rounds = c->rounds;
	s->rounds_per_s = c->measured_cycles ? (double)c->rounds * r->tsc_khz *
		1000.0 / (double)c->measured_cycles : 0;
	if (!ov->stats.count)
		return;
	s->overhead_avg = (double)ov->stats.sum / (double)ov->stats.count;
	s->overhead_p50 = ov->hist ? (double)tp_hist_percentile(ov->hist, 500000) :
		s->overhead_avg;
	for (i = 0; i < TP_CACHE_SERIES; i++) {
		id = TP_CACHE_ID(i);
		sr = tp_cache_series(c, id);
		tp_cache_figs(sr, s->gross[i]);
		if (id == TSCPROBE_SERIES_OVERHEAD) {
			memcpy(s->net[i], s->gross[i], sizeof(s->net[i]));
			s->avg_minus_overhead_avg[i] = s->overhead_avg;
			continue;
		}
		tp_cache_net(sr, s->gross[i], s->overhead_p50, s->net[i],
			     &s->below[i]);
		s->avg_minus_overhead_avg[i] = s->gross[i][1] - s->overhead_avg;
	}
}

/*
 * A block's average of series @id; net of the overhead's median @base
 * (never below 0) when @base is not negative.  *@clamped tells whether the
 * block's load average lay below the overhead.
 */
static double tp_window_avg(const struct tp_cpu_res *c, unsigned int id,
			    unsigned int k, double base, bool *clamped)
{
	const struct tp_window_res *w = &tp_cache_series(c, id)->win[k];
	double v;

	if (clamped)
		*clamped = false;
	if (!w->rounds)
		return 0;
	v = (double)w->sum / (double)w->rounds;
	if (base < 0 || id == TSCPROBE_SERIES_OVERHEAD)
		return v;
	if (clamped)
		*clamped = v < base;
	return tp_net(v, base);
}

static double tp_lat_per_load(const struct tp_latency *l)
{
	return l->loads ? (double)l->cycles / (double)l->loads : 0;
}

static double tp_cycles_ns(double cycles, uint32_t khz)
{
	return khz ? cycles * 1e6 / khz : 0;
}

static void tp_cache_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= 1 << 20)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(bytes >> 10));
}

static const char *const tp_cache_series_keys[TP_CACHE_SERIES] = {
	"overhead", "cached", "uncached",
};

static const struct tp_family tp_cache_cycles = {
	"tscprobe_cache_cycles", "gauge",
	"One load in TSC cycles: the overhead gross, cached and uncached net of the overhead's median.",
	false,
};
static const struct tp_family tp_cache_rounds = {
	"tscprobe_cache_rounds_total", "counter", "Rounds measured.", false,
};
static const struct tp_family tp_cache_level = {
	"tscprobe_cache_level_cycles_per_load", "gauge",
	"Load-to-use latency of a working set, pointer chase.", false,
};
static const struct tp_family tp_cache_node = {
	"tscprobe_cache_node_cycles_per_load", "gauge",
	"Uncached load from the CPU to a NUMA node's memory, gross.", false,
};

static const struct tp_picture tp_cache_picture = {
	.title = "tscprobe cache", .width = 760, .panel = 250, .xmin = 64,
	.xlabel = "cycles (log2)", .ylabel = "rounds (log10)",
	.count = "rounds", .strip = 280, .curve = "levels", .curve_x = "size",
	.curve_y = "cycles_per_load",
	.curve_title = "load-to-use latency by working set (pointer chase)",
	.curve_xlabel = "working set (bytes, log2)",
	.curve_ylabel = "cycles/load (log10)",
};

static const char *const tp_cache_colours[TP_CACHE_SERIES] = {
	"#7f7f7f", "#1f77b4", "#d62728",
};

static const char *const tp_cache_strip_titles[TP_CACHE_SERIES] = {
	"overhead (gross)", "cached load (net)", "uncached load (net)",
};

/* The CSV places of a CPU's columns, after the report's own. */
enum {
	TP_CACHE_CSV_CPU = 5,
	TP_CACHE_CSV_FIGS = 11,		/* series x figure */
	TP_CACHE_CSV_WINDOWS = TP_CACHE_CSV_FIGS + TP_CACHE_SERIES * TP_FIGS,
	TP_CACHE_CSV_NS = 901,		/* added later: after the others */
};

/*
 * A CPU block's line of one series, its fields under @obj: the six
 * figures, the avg with two decimals; a @net figure of 0 is a load at or
 * below the overhead, which the method cannot resolve: "below".
 */
static void tp_cache_cpu_line(struct tp_model *m, const char *label,
			      const char *obj, bool net)
{
	struct tp_column cols[TP_FIGS];
	unsigned int x;

	for (x = 0; x < TP_FIGS; x++)
		cols[x] = (struct tp_column){ tp_fig_keys[x],
			x == 1 ? " %9.2f" : " %9.0f", NULL,
			net && x < TP_FIGS - 1 ? TP_CELL_NET : TP_CELL_PLAIN };
	tp_text(m, "  %-15s", label);
	tp_line(m, obj, cols, TP_FIGS);
	tp_text(m, "\n");
}

/* A CPU block's first lines: each series, gross and net, once. */
static void tp_cache_cpu_text(struct tp_model *m, const struct tp_cpu_res *c,
			      const struct tp_cache_summary *s)
{
	/* Incomplete: it went offline, or starved (with windows or none). */
	const char *why = tp_cpu_incomplete_why(c, c->flags & TSCPROBE_CPU_F_STARVED ?
						c->windows : 1);

	tp_text(m, "cpu %u: %llu rounds, %llu windows, %.2f M rounds/s%s%s%s\n",
		c->cpu, (unsigned long long)c->rounds,
		(unsigned long long)c->windows, s->rounds_per_s / 1e6,
		*why ? ", INCOMPLETE (" : "", why, *why ? ")" : "");
	if (!c->rounds)
		return;
	tp_text(m, "  cycles                min       avg       p50       p99       max        sd\n");
	tp_cache_cpu_line(m, "overhead", "overhead", false);
	tp_cache_cpu_line(m, "cached net", "cached", true);
	tp_cache_cpu_line(m, "uncached net", "uncached", true);
	tp_cache_cpu_line(m, "cached gross", "cached.gross", false);
	tp_cache_cpu_line(m, "uncached gross", "uncached.gross", false);
	tp_text(m, "  net: minus the overhead's median (%.0f cycles); at or below it (\"below\": not resolved):\n    cached %llu, uncached %llu rounds\n",
		s->overhead_p50, (unsigned long long)s->below[1],
		(unsigned long long)s->below[2]);
}

/* A fine histogram's buckets that have calls. */
static void tp_cache_hist(struct tp_model *m, const struct tp_series_res *s)
{
	unsigned int i;

	tp_arr(m, "histogram");
	for (i = 0; s->hist && i < TSCPROBE_HIST_BUCKETS; i++) {
		if (!s->hist->b[i].calls)
			continue;
		tp_obj(m, NULL);
		tp_u64(m, "lo", tp_hist_bucket_lo(i), NULL);
		tp_u64(m, "hi", tp_hist_bucket_hi(i), NULL);
		tp_u64(m, "calls", s->hist->b[i].calls, NULL);
		tp_end(m);
	}
	tp_end(m);
}

/* Series @k's six figures: its CSV columns and Prometheus samples. */
static void tp_cache_figs_model(struct tp_model *m, const struct tp_cache_summary *s,
			  unsigned int k, const double v[TP_FIGS], bool csv)
{
	char col[40], svg[48];
	unsigned int x;

	for (x = 0; x < TP_FIGS; x++) {
		snprintf(col, sizeof(col), "%s_%s", tp_cache_series_keys[k],
			 tp_fig_keys[x]);
		/* the picture's figures: p50, p99 and max of each */
		snprintf(svg, sizeof(svg), "%s %s %%.0f", tp_cache_series_keys[k],
			 tp_fig_keys[x]);
		tp_dbl(m, tp_fig_keys[x], v[x], !csv ? NULL : &(struct tp_opts){
			.csv = TP_CACHE_CSV_FIGS + TP_FIGS * k + x, .col = col,
			.svg = x >= 2 && x <= 4 ? svg : NULL,
			.prom = s->rounds ? &tp_cache_cycles : NULL,
			.labels = tp_labels(m, "series", tp_cache_series_keys[k],
					    "stat", tp_fig_keys[x], NULL) });
	}
}

/* The six figures in ns beside the cycles: "ns", and CSV's *_ns (@csv). */
static void tp_cache_ns_model(struct tp_model *m, unsigned int k,
			      const double v[TP_FIGS], bool csv)
{
	uint32_t khz = tp_model_result(m)->tsc_khz;
	char col[40];
	unsigned int x;

	tp_obj(m, "ns");
	for (x = 0; x < TP_FIGS; x++) {
		snprintf(col, sizeof(col), "%s_%s_ns", tp_cache_series_keys[k],
			 tp_fig_keys[x]);
		tp_dbl(m, tp_fig_keys[x], khz ? tp_cycles_ns(v[x], khz) : NAN,
		       !csv ? NULL : &(struct tp_opts){ .col = col,
		       .csv = TP_CACHE_CSV_NS + TP_FIGS * k + x });
	}
	tp_end(m);
}

/*
 * overhead: gross figures; cached, uncached: net of the overhead's median,
 * never below 0, with the original program's mean minus mean beside them
 * (its key "seed_avg" kept for compatibility).
 */
static void tp_cache_series_model(struct tp_model *m,
				  const struct tp_cpu_res *c,
				  const struct tp_cache_summary *s,
				  unsigned int k)
{
	const struct tp_series_res *sr = tp_cache_series(c, TP_CACHE_ID(k));

	tp_obj(m, tp_cache_series_keys[k]);
	tp_cache_figs_model(m, s, k, s->net[k], true);
	tp_cache_ns_model(m, k, s->net[k], true);
	if (TP_CACHE_ID(k) == TSCPROBE_SERIES_OVERHEAD) {
		tp_cache_hist(m, sr);
		tp_end(m);
		return;
	}
	tp_str(m, "net_of", "overhead_p50", NULL);
	tp_dbl(m, "overhead_p50", s->overhead_p50, k != 1 ? NULL :
	       &(struct tp_opts){ .csv = TP_CACHE_CSV_CPU + 5,
	       .col = "overhead_p50_base" });
	tp_u64(m, "below_overhead", s->below[k], NULL);
	tp_dbl(m, "overhead_avg", s->overhead_avg, NULL);
	tp_dbl(m, "seed_avg", s->avg_minus_overhead_avg[k], NULL);
	tp_obj(m, "gross");
	tp_cache_figs_model(m, s, k, s->gross[k], false);
	tp_cache_ns_model(m, k, s->gross[k], false);
	tp_cache_hist(m, sr);
	tp_end(m);
	tp_end(m);
}

/*
 * A window's average of load series @k, net (JSON, where @below is given),
 * and its CSV column: empty where the series has no such block yet.
 */
static void tp_cache_window_load(struct tp_model *m, const struct tp_cpu_res *c,
				 unsigned int k, unsigned int x, double base,
				 bool *below)
{
	unsigned int id = TP_CACHE_ID(k);
	bool known = tp_cache_series(c, id)->win[x].rounds;
	struct tp_opts o = {
		.csv = TP_CACHE_CSV_WINDOWS + TP_CACHE_WINDOWS * (k - 1) + x,
	};
	char col[40];

	snprintf(col, sizeof(col), "%s_avg_last_%s", tp_cache_series_keys[k],
		 tp_window_keys[x]);
	o.col = col;
	if (below)
		tp_dbl(m, tp_cache_series_keys[k],
		       tp_window_avg(c, id, x, base, below), known ? &o : NULL);
	if (below && known)
		return;
	o.not_in = TP_NO_DOC;
	tp_null(m, col, &o);
}

/*
 * The block averages of the last 1e3, 1e5 and 1e6 rounds (net; gross
 * beside), in text a line each; a window not reached yet has no object
 * and empty CSV cells.
 */
static void tp_cache_windows_model(struct tp_model *m,
				   const struct tp_cpu_res *c,
				   const struct tp_cache_summary *s)
{
	bool lo_c, lo_u;
	unsigned int x;
	double ca, un;

	tp_obj(m, "windows");
	for (x = 0; x < TP_CACHE_WINDOWS; x++) {
		const struct tp_window_res *w =
			&tp_cache_series(c, TSCPROBE_SERIES_OVERHEAD)->win[x];

		if (!w->rounds) {
			tp_cache_window_load(m, c, 1, x, 0, NULL);
			tp_cache_window_load(m, c, 2, x, 0, NULL);
			continue;
		}
		ca = tp_window_avg(c, TSCPROBE_SERIES_CACHED, x, s->overhead_p50, &lo_c);
		un = tp_window_avg(c, TSCPROBE_SERIES_UNCACHED, x, s->overhead_p50, &lo_u);
		tp_text(m, "  last %s rounds: overhead %.2f, cached %.2f%s, uncached %.2f%s (net; block %llu)\n",
			tp_window_keys[x],
			tp_window_avg(c, TSCPROBE_SERIES_OVERHEAD, x, -1, NULL),
			ca, lo_c ? " (below the overhead)" : "", un,
			lo_u ? " (below the overhead)" : "",
			(unsigned long long)w->blocks);
		tp_obj(m, tp_window_keys[x]);
		tp_u64(m, "rounds", w->rounds, NULL);
		tp_u64(m, "blocks", w->blocks, NULL);
		tp_dbl(m, "overhead", tp_window_avg(c, TSCPROBE_SERIES_OVERHEAD, x, -1, NULL), NULL);
		tp_cache_window_load(m, c, 1, x, s->overhead_p50, &lo_c);
		tp_cache_window_load(m, c, 2, x, s->overhead_p50, &lo_u);
		tp_bool(m, "cached_below_overhead", lo_c, NULL);
		tp_bool(m, "uncached_below_overhead", lo_u, NULL);
		tp_dbl(m, "cached_gross", tp_window_avg(c, TSCPROBE_SERIES_CACHED, x, -1, NULL), NULL);
		tp_dbl(m, "uncached_gross", tp_window_avg(c, TSCPROBE_SERIES_UNCACHED, x, -1, NULL), NULL);
		tp_end(m);
	}
	tp_end(m);
}

/* The memory-level curve: load-to-use latency by working set. */
static void tp_cache_levels_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	uint32_t khz = tp_model_result(m)->tsc_khz;
	char size[32];
	unsigned int i;
	double v;

	if (c->nlevels)
		tp_text(m, "  levels: load-to-use latency, pointer chase\n");
	tp_arr(m, "levels");
	for (i = 0; i < c->nlevels; i++) {
		v = tp_lat_per_load(&c->levels[i]);
		tp_cache_size(c->levels[i].size, size, sizeof(size));
		tp_text(m, "    %8s", size);
		snprintf(size, sizeof(size), "%llu",
			 (unsigned long long)c->levels[i].size);
		tp_obj(m, NULL);
		tp_u64(m, "size", c->levels[i].size, NULL);
		tp_u64(m, "loads", c->levels[i].loads, NULL);
		tp_u64(m, "cycles", c->levels[i].cycles, NULL);
		tp_dbl(m, "cycles_per_load", v, &(struct tp_opts){
			.prom = &tp_cache_level, .text = " %9.2f cycles",
			.labels = tp_labels(m, "size_bytes", size, NULL) });
		tp_dbl(m, "ns_per_load", tp_cycles_ns(v, khz),
		       &(struct tp_opts){ .text = " %8.2f ns\n" });
		tp_end(m);
	}
	tp_end(m);
	if (!tp_model_result(m)->p.levels)
		tp_not_in(m, TP_IN_JSON);
}

/* The uncached load to each NUMA node's memory, gross and net. */
static void tp_cache_nodes_model(struct tp_model *m, const struct tp_cpu_res *c,
				 const struct tp_cache_summary *s)
{
	uint32_t khz = tp_model_result(m)->tsc_khz;
	char node[16];
	unsigned int i;
	double v, net;

	tp_arr(m, "nodes");
	for (i = 0; i < c->nnodes; i++) {
		v = tp_lat_per_load(&c->nodes[i]);
		net = tp_net(v, s->overhead_p50);
		tp_text(m, "  node %u memory: uncached load%s", c->nodes[i].node,
			net ? "" : " below the overhead: not resolved\n");
		snprintf(node, sizeof(node), "%u", c->nodes[i].node);
		tp_obj(m, NULL);
		tp_u64(m, "node", c->nodes[i].node, NULL);
		tp_u64(m, "loads", c->nodes[i].loads, NULL);
		tp_u64(m, "cycles", c->nodes[i].cycles, NULL);
		tp_dbl(m, "gross", v, &(struct tp_opts){ .prom = &tp_cache_node,
		       .labels = tp_labels(m, "node", node, NULL) });
		tp_dbl(m, "net", net, &(struct tp_opts){
		       .text = net ? " %.2f cycles net" : NULL });
		tp_dbl(m, "net_ns", tp_cycles_ns(net, khz), &(struct tp_opts){
		       .text = net ? " (%.2f ns)\n" : NULL });
		tp_end(m);
	}
	tp_end(m);
	if (!tp_model_result(m)->p.nodes)
		tp_not_in(m, TP_IN_JSON);
}

/*
 * The CPU in the picture: the three series as measured, the loads' strips
 * net of the overhead's median (at or below it: column 0); "CPU 3" leads
 * the tooltip of its figures (the fields' svg formats).
 */
static void tp_cache_picture_row(struct tp_model *m, const struct tp_cpu_res *c,
				 const struct tp_cache_summary *s)
{
	unsigned int k;

	for (k = 0; k < TP_CACHE_SERIES; k++)
		tp_series(m, &(struct tp_series){
			.name = tp_cache_series_keys[k],
			.strip = tp_cache_strip_titles[k],
			.colour = tp_cache_colours[k],
			.h = tp_cache_series(c, TP_CACHE_ID(k))->hist,
			.base = k ? (uint64_t)s->overhead_p50 : 0,
			.tail = s->net[k][3], .max = s->net[k][4],
			.top = (double)tp_cache_series(c, TP_CACHE_ID(k))->stats.max });
	tp_note(m, TP_NOTE_HEADING, "CPU %u: %llu rounds, one load (gross cycles)",
		c->cpu, (unsigned long long)c->rounds);
	tp_note(m, TP_NOTE_TOOLTIP, "CPU %u", c->cpu);
}

/* Row @i: one CPU. */
static void tp_cache_row(struct tp_model *m, const void *ctx, unsigned int i)
{
	const struct tp_result *r = ctx;
	const struct tp_cpu_res *c = &r->cpu[i];
	struct tp_cache_summary s;
	char cpu[16];
	unsigned int k;

	tp_cache_summarize(r, c, &s);
	snprintf(cpu, sizeof(cpu), "%u", c->cpu);
	tp_model_labels(m, "cpu", cpu, "engine", tp_result_engine(r), NULL);
	tp_cache_cpu_text(m, c, &s);
	tp_report_cpu_model(m, c, TP_CACHE_CSV_CPU);
	tp_u64(m, "rounds", c->rounds, &(struct tp_opts){
		.csv = TP_CACHE_CSV_CPU + 3, .prom = &tp_cache_rounds,
		.svg = "%llu rounds",
		.labels = tp_labels(m, "series", "all", NULL) });
	tp_u64(m, "window_count", c->windows, NULL);
	tp_u64(m, "measured_cycles", c->measured_cycles, NULL);
	tp_dbl(m, "rounds_per_s", s.rounds_per_s,
	       &(struct tp_opts){ .csv = TP_CACHE_CSV_CPU + 4 });
	for (k = 0; k < TP_CACHE_SERIES; k++)
		tp_cache_series_model(m, c, &s, k);
	if (!c->rounds)
		tp_text_quiet(m, true);
	tp_cache_windows_model(m, c, &s);
	tp_text_quiet(m, false);
	tp_cache_levels_model(m, c);
	tp_cache_nodes_model(m, c, &s);
	tp_context_cpu_model(m, c);
	/* the table's last columns: the rounds below the overhead, a note */
	tp_u64(m, "below", s.below[1] + s.below[2],
	       &(struct tp_opts){ .not_in = TP_ONLY_TEXT });
	tp_report_cpu_note(m, c);
	tp_cache_picture_row(m, c, &s);
	tp_verdict_row_model(m, i);
}

static const struct tp_column tp_cache_table_cols[] = {
	{ "cpu", "%4llu", NULL, TP_CELL_PLAIN },
	{ "rounds", " %10llu", NULL, TP_CELL_PLAIN },
	{ "cached.overhead_p50", " %8.0f", NULL, TP_CELL_PLAIN },
	{ "cached.avg", "  %8.2f", NULL, TP_CELL_NET },
	{ "cached.p50", " %6.0f", NULL, TP_CELL_NET },
	{ "cached.p99", " %6.0f", NULL, TP_CELL_NET },
	{ "uncached.avg", "  %8.2f", NULL, TP_CELL_NET },
	{ "uncached.p50", " %6.0f", NULL, TP_CELL_NET },
	{ "uncached.p99", " %6.0f", NULL, TP_CELL_NET },
	{ "below", " %8llu", NULL, TP_CELL_PLAIN },
	{ "note", "%s", NULL, TP_CELL_PLAIN },
};

static int tp_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The line under the table: the CPU whose uncached load is slowest at p99,
 * against the median CPU, and the one with the largest overhead.
 */
static void tp_cache_worst(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_cache_summary s;
	unsigned int i, n = 0, worst = 0, loud = 0;
	double w = -1, lw = -1, *p99 = calloc(r->ncpus, sizeof(*p99));

	for (i = 0; p99 && i < r->ncpus; i++) {
		tp_cache_summarize(r, &r->cpu[i], &s);
		if (!s.rounds)
			continue;
		p99[n++] = s.net[2][3];
		if (s.net[2][3] > w) {
			w = s.net[2][3];
			worst = r->cpu[i].cpu;
		}
		if (s.overhead_p50 > lw) {
			lw = s.overhead_p50;
			loud = r->cpu[i].cpu;
		}
	}
	if (!n) {
		tp_text(m, "worst: no CPU completed a round\n");
		free(p99);
		return;
	}
	qsort(p99, n, sizeof(*p99), tp_double_cmp);
	tp_text_wrap(m, "  ", "worst: CPU %u, uncached p99 %.0f cycles net (the median CPU's: %.0f); largest overhead p50: CPU %u, %.0f cycles\n",
		     worst, w, p99[(n - 1) / 2], loud, lw);
	free(p99);
}

/* One row per CPU: the net loads' avg, p50 and p99; then the worst CPU. */
static void tp_cache_table(struct tp_model *m)
{
	if (tp_model_result(m)->ncpus <= 1)
		return;
	tp_text(m, "                    overhead  ---- cached net ----  --- uncached net ---  below\n");
	tp_text(m, " cpu     rounds      p50       avg    p50    p99       avg    p50    p99  overhead\n");
	tp_table(m, "cpus", tp_cache_table_cols, TP_ARRAY_SIZE(tp_cache_table_cols));
	tp_cache_worst(m);
	tp_text(m, "(cycles; net: minus the overhead's median; \"below\": at or below it, not resolved,\n as the rounds in \"below overhead\"%s)\n",
		tp_model_output(m)->verbose ? "" : "; -v: every CPU in full");
}

static void tp_cache_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	char cpus[256], dur[32];

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	tp_format_ns(r->elapsed_ns, dur, sizeof(dur));
	tp_text(m, "cache: %s engine, %s on CPUs %s", tp_result_engine(r), dur,
		cpus);
	tp_report_run_text(m);
	tp_text(m, "  %llu rounds per CPU, batch %u; cycles are TSC cycles: tsc %u kHz, %.2f cycles per ns\n",
		(unsigned long long)r->p.rounds, r->p.batch, r->tsc_khz,
		r->tsc_khz / 1e6);
	tp_picture(m, &tp_cache_picture);
	if (r->ncpus <= TP_PANEL_ROWS) {
		tp_note(m, TP_NOTE_TITLE, "tscprobe cache: %s engine, tsc %u kHz",
			tp_result_engine(r), r->tsc_khz);
	} else {
		tp_note(m, TP_NOTE_TITLE, "tscprobe cache: %s engine, %u CPUs, tsc %u kHz",
			tp_result_engine(r), r->ncpus, r->tsc_khz);
		tp_note(m, TP_NOTE_TITLE,
			"rows: CPUs; columns: one load (cycles, log2); colour: log10 of the rounds; black: p99, red: max");
		tp_note(m, TP_NOTE_TITLE,
			"cached and uncached net of their CPU's overhead median, never below 0 (column 0: at or below it)");
	}
	tp_report_head(m, "cache");
	tp_family(m, &tp_cache_cycles);
	tp_family(m, &tp_cache_rounds);
	tp_family(m, &tp_cache_level);
	tp_family(m, &tp_cache_node);
	tp_u64(m, "rounds", r->p.rounds, NULL);
	tp_u64(m, "batch", r->p.batch, NULL);
	tp_bool(m, "levels", r->p.levels, NULL);
	tp_bool(m, "nodes", r->p.nodes, NULL);
	tp_u64(m, "width_ns", r->p.width_ns, NULL);
	tp_u64(m, "gap_ns", r->p.gap_ns, NULL);
	tp_u64(m, "elapsed_ns", r->elapsed_ns, &tp_elapsed_opts);
	/* -v: every CPU's block, then the table as well (not for one CPU) */
	tp_rows(m, "cpus", r->ncpus, tp_cache_row, r);
	if (!tp_model_output(m)->verbose && r->ncpus != 1)
		tp_not_in(m, TP_IN_TEXT);
	tp_cache_table(m);
	tp_context_model(m);
	tp_verdict_model(m);
}

/* The figure of a series that a cache limit can name, by enum tp_limit_stat. */
static const unsigned int tp_cache_limit_fig[] = {
	[TP_LIMIT_MAX] = 4, [TP_LIMIT_P50] = 2, [TP_LIMIT_P99] = 3,
};

/**
 * tp_cache_figure() - a CPU's figure for a cache limit (a tp_figure_fn)
 * @r: the result
 * @l: the limit: p50, p99 or max of the cached or the uncached load
 * @i: the CPU's index in @r
 * @j: the judgement
 *
 * The figure is the report's net one: minus the overhead's median, never
 * below 0; in time at the run's TSC rate.
 */
void tp_cache_figure(const struct tp_result *r, const struct tp_limit *l,
		     unsigned int i, struct tp_judgement *j)
{
	const struct tp_cpu_res *c = &r->cpu[i];
	unsigned int k = l->series == TP_LIMIT_CACHED ? 1 : 2;
	struct tp_cache_summary s;
	double v;

	if (!tp_cache_series(c, TSCPROBE_SERIES_OVERHEAD)->stats.count ||
	    !tp_cache_series(c, TP_CACHE_ID(k))->stats.count ||
	    l->stat >= TP_ARRAY_SIZE(tp_cache_limit_fig)) {
		tp_judge_none(j, "no rounds");
		return;
	}
	tp_cache_summarize(r, c, &s);
	v = s.net[k][tp_cache_limit_fig[l->stat]];
	if (l->cycles)
		tp_judge(j, v, (double)l->value);
	else if (!r->tsc_khz)
		tp_judge_none(j, "the TSC rate is unknown");
	else
		tp_judge(j, tp_cycles_ns(v, r->tsc_khz), (double)l->value);
}

/* The cache report: its figures for limits, its model. */
const struct tp_report_kind tp_cache_report = {
	tp_cache_figure, tp_cache_model,
};

/* A cache result's report, as @o asks (tp_report()). */
int tp_cache_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f)
{
	return tp_report(r, o, f, &tp_cache_report);
}
