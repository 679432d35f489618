// SPDX-License-Identifier: GPL-2.0
/*
 * The cache report: per CPU the three series (overhead, cached, uncached) as
 * min/avg/p50/p99/max/sd, the loads net of the overhead (of its mean, as the
 * original program, and of its minimum), the three Average lines, the block
 * averages of the last 1e3, 1e5 and 1e6 rounds, and the level and node curves
 * when measured; or the same as JSON (Documentation/cache.rst).
 *
 * Everything travels gross; every net figure is made here, once, by
 * tp_cache_summarize().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/context_report.h"
#include "lib/format.h"
#include "lib/json_write.h"
#include "core/names.h"
#include "lib/prom_run.h"
#include "reports.h"
#include "core/report.h"
#include "lib/svg.h"
#include "lib/verdict.h"

static const char *const tp_fig_keys[TP_FIGS] = {
	"min", "avg", "p50", "p99", "max", "sd",
};
static const char *const tp_window_keys[TP_CACHE_WINDOWS] = {
	"1e3", "1e5", "1e6",
};

static const struct tp_series_res *tp_series(const struct tp_cpu_res *c,
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
	const struct tp_series_res *ov = tp_series(c, TSCPROBE_SERIES_OVERHEAD);
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
		sr = tp_series(c, id);
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
	const struct tp_window_res *w = &tp_series(c, id)->win[k];
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

static void tp_cache_text_row(FILE *f, const char *label,
			      const double v[TP_FIGS], bool ints)
{
	unsigned int i;

	fprintf(f, "  %-15s", label);
	for (i = 0; i < TP_FIGS; i++)
		fprintf(f, ints && i != 1 ? " %9.0f" : " %9.2f", v[i]);
	fprintf(f, "\n");
}

static void tp_cache_text_avg_lines(const struct tp_cpu_res *c, FILE *f)
{
	char row[128];
	unsigned int i;

	for (i = 0; i < TP_CACHE_AVG_LINES; i++) {
		unsigned int series = tp_cache_avg_line_series(i);

		tp_cache_avg_line(row, sizeof(row), series,
				  &tp_series(c, series)->stats,
				  &tp_series(c, TSCPROBE_SERIES_OVERHEAD)->stats);
		fprintf(f, "  %s\n", row);
	}
}

static void tp_cache_text_windows(const struct tp_cpu_res *c,
				  const struct tp_cache_summary *s, FILE *f)
{
	double base = s->overhead_p50;
	bool lo_c, lo_u;
	unsigned int k;
	double ca, un;

	for (k = 0; k < TP_CACHE_WINDOWS; k++) {
		const struct tp_window_res *w =
			&tp_series(c, TSCPROBE_SERIES_OVERHEAD)->win[k];

		if (!w->rounds)
			continue;
		ca = tp_window_avg(c, TSCPROBE_SERIES_CACHED, k, base, &lo_c);
		un = tp_window_avg(c, TSCPROBE_SERIES_UNCACHED, k, base, &lo_u);
		fprintf(f, "  last %s rounds: overhead %.2f, cached %.2f%s, uncached %.2f%s (net; block %llu)\n",
			tp_window_keys[k],
			tp_window_avg(c, TSCPROBE_SERIES_OVERHEAD, k, -1, NULL),
			ca, lo_c ? " (below the overhead)" : "", un,
			lo_u ? " (below the overhead)" : "",
			(unsigned long long)w->blocks);
	}
}

static void tp_cache_text_curves(const struct tp_result *r,
				 const struct tp_cpu_res *c,
				 const struct tp_cache_summary *s, FILE *f)
{
	char size[32];
	unsigned int i;
	double v;

	if (c->nlevels)
		fprintf(f, "  levels: load-to-use latency, pointer chase\n");
	for (i = 0; i < c->nlevels; i++) {
		v = tp_lat_per_load(&c->levels[i]);
		tp_cache_size(c->levels[i].size, size, sizeof(size));
		fprintf(f, "    %8s %9.2f cycles %8.2f ns\n", size, v,
			tp_cycles_ns(v, r->tsc_khz));
	}
	for (i = 0; i < c->nnodes; i++) {
		v = tp_net(tp_lat_per_load(&c->nodes[i]), s->overhead_p50);
		fprintf(f, "  node %u memory: uncached load %.2f cycles net (%.2f ns)\n",
			c->nodes[i].node, v, tp_cycles_ns(v, r->tsc_khz));
	}
}

/* What the net figures are net of, and how often a load lay below it. */
static void tp_cache_text_net(const struct tp_cache_summary *s, FILE *f)
{
	fprintf(f, "  net: minus the overhead's median (%.0f cycles); below it, counted as 0: cached %llu, uncached %llu rounds\n",
		s->overhead_p50, (unsigned long long)s->below[1],
		(unsigned long long)s->below[2]);
}

static void tp_cache_cpu_text(const struct tp_result *r,
			      const struct tp_cpu_res *c, FILE *f)
{
	/* Incomplete: it went offline, or starved (with windows or none). */
	const char *why = tp_cpu_incomplete_why(c, c->flags & TSCPROBE_CPU_F_STARVED ?
						c->windows : 1);
	struct tp_cache_summary s;
	unsigned int i;

	tp_cache_summarize(r, c, &s);
	fprintf(f, "cpu %u: %llu rounds, %llu windows, %.2f M rounds/s%s%s%s\n",
		c->cpu, (unsigned long long)c->rounds,
		(unsigned long long)c->windows, s.rounds_per_s / 1e6,
		*why ? ", INCOMPLETE (" : "", why, *why ? ")" : "");
	if (c->rounds) {
		tp_cache_text_avg_lines(c, f);
		fprintf(f, "  %-15s", "cycles");
		for (i = 0; i < TP_FIGS; i++)
			fprintf(f, " %9s", tp_fig_keys[i]);
		fprintf(f, "\n");
		tp_cache_text_row(f, "overhead", s.net[0], true);
		tp_cache_text_row(f, "cached net", s.net[1], true);
		tp_cache_text_row(f, "uncached net", s.net[2], true);
		tp_cache_text_row(f, "cached gross", s.gross[1], true);
		tp_cache_text_row(f, "uncached gross", s.gross[2], true);
		tp_cache_text_net(&s, f);
		tp_cache_text_windows(c, &s, f);
	}
	tp_cache_text_curves(r, c, &s, f);
	tp_context_cpu_text(r, c, f);
}

static void tp_cache_table_row(const struct tp_cpu_res *c,
			       const struct tp_cache_summary *s, FILE *f)
{
	bool starved = (c->flags & TSCPROBE_CPU_F_STARVED) &&
		       (c->flags & TSCPROBE_CPU_F_INCOMPLETE);

	fprintf(f, "%4u %10llu %8.0f  %8.2f %6.0f %6.0f  %8.2f %6.0f %6.0f %8llu%s%s\n",
		c->cpu, (unsigned long long)s->rounds, s->overhead_p50,
		s->net[1][1], s->net[1][2], s->net[1][3], s->net[2][1],
		s->net[2][2], s->net[2][3],
		(unsigned long long)(s->below[1] + s->below[2]),
		c->flags & TSCPROBE_CPU_F_INCOMPLETE ? "  INCOMPLETE" : "",
		starved ? " (starved)" : "");
}

static int tp_double_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The line under the table: the CPU whose uncached load is slowest at p99,
 * against the median CPU, and the one with the largest overhead.
 */
static void tp_cache_worst(const struct tp_result *r, FILE *f)
{
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
		fprintf(f, "worst: no CPU completed a round\n");
		free(p99);
		return;
	}
	qsort(p99, n, sizeof(*p99), tp_double_cmp);
	fprintf(f, "worst: CPU %u, uncached p99 %.0f cycles net (the median CPU's: %.0f); largest overhead p50: CPU %u, %.0f cycles\n",
		worst, w, p99[(n - 1) / 2], loud, lw);
	free(p99);
}

/* One row per CPU: the net loads' avg, p50 and p99; then the worst CPU. */
static void tp_cache_table(const struct tp_result *r, bool verbose, FILE *f)
{
	struct tp_cache_summary s;
	unsigned int i;

	fprintf(f, "                    overhead  ---- cached net ----  --- uncached net ---  below\n");
	fprintf(f, " cpu     rounds      p50       avg    p50    p99       avg    p50    p99  overhead\n");
	for (i = 0; i < r->ncpus; i++) {
		tp_cache_summarize(r, &r->cpu[i], &s);
		tp_cache_table_row(&r->cpu[i], &s, f);
	}
	tp_cache_worst(r, f);
	fprintf(f, "(cycles; net: minus the overhead's median, a load below it counted as 0 and in \"below overhead\"%s)\n",
		verbose ? "" : "; -v: every CPU in full");
}

static void tp_cache_text(const struct tp_result *r,
			  const struct tp_verdict *v, bool verbose, FILE *f)
{
	char cpus[256], dur[32];
	unsigned int i;

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	tp_format_ns(r->elapsed_ns, dur, sizeof(dur));
	fprintf(f, "cache: %s engine, %llu rounds per CPU on CPUs %s, batch %u, %s, tsc %u kHz; cycles are TSC cycles",
		tp_result_engine(r),
		(unsigned long long)r->p.rounds, cpus, r->p.batch, dur,
		r->tsc_khz);
	if (!r->user_engine)
		fprintf(f, ", run %llu %s (%s)", (unsigned long long)r->run_id,
			tp_state_name(r->state), tp_stop_reason_name(r->reason));
	fprintf(f, "\n");
	/* -v: every CPU's block, then the table as well (not for one CPU) */
	if (verbose || r->ncpus == 1)
		for (i = 0; i < r->ncpus; i++)
			tp_cache_cpu_text(r, &r->cpu[i], f);
	if (r->ncpus > 1)
		tp_cache_table(r, verbose, f);
	tp_context_text(r, f);
	tp_verdict_text(v, r, verbose, f);
}

static void tp_cache_json_figs(struct jw *j, const double v[TP_FIGS])
{
	unsigned int i;

	for (i = 0; i < TP_FIGS; i++)
		jw_double(j, tp_fig_keys[i], v[i]);
}

static void tp_cache_json_hist(struct jw *j, const struct tp_series_res *s)
{
	unsigned int i;

	jw_arr(j, "histogram");
	for (i = 0; s->hist && i < TSCPROBE_HIST_BUCKETS; i++) {
		if (!s->hist->b[i].calls)
			continue;
		jw_obj(j, NULL);
		jw_u64(j, "lo", tp_hist_bucket_lo(i));
		jw_u64(j, "hi", tp_hist_bucket_hi(i));
		jw_u64(j, "calls", s->hist->b[i].calls);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

/*
 * overhead: gross figures; cached, uncached: net of the overhead's median,
 * never below 0, with the original program's mean minus mean beside them
 * (its key "seed_avg" kept for compatibility).
 */
static void tp_cache_json_series(struct jw *j, const struct tp_cpu_res *c,
				 const struct tp_cache_summary *s,
				 unsigned int i)
{
	const struct tp_series_res *sr = tp_series(c, TP_CACHE_ID(i));

	jw_obj(j, tp_series_name(TP_CACHE_ID(i)));
	tp_cache_json_figs(j, s->net[i]);
	if (TP_CACHE_ID(i) == TSCPROBE_SERIES_OVERHEAD) {
		tp_cache_json_hist(j, sr);
		jw_obj_end(j);
		return;
	}
	jw_str(j, "net_of", "overhead_p50");
	jw_double(j, "overhead_p50", s->overhead_p50);
	jw_u64(j, "below_overhead", s->below[i]);
	jw_double(j, "overhead_avg", s->overhead_avg);
	jw_double(j, "seed_avg", s->avg_minus_overhead_avg[i]);
	jw_obj(j, "gross");
	tp_cache_json_figs(j, s->gross[i]);
	tp_cache_json_hist(j, sr);
	jw_obj_end(j);
	jw_obj_end(j);
}

static void tp_cache_json_windows(struct jw *j, const struct tp_cpu_res *c,
				  const struct tp_cache_summary *s)
{
	double base = s->overhead_p50;
	bool lo_c, lo_u;
	unsigned int k;

	jw_obj(j, "windows");
	for (k = 0; k < TP_CACHE_WINDOWS; k++) {
		const struct tp_window_res *w =
			&tp_series(c, TSCPROBE_SERIES_OVERHEAD)->win[k];

		if (!w->rounds)
			continue;
		jw_obj(j, tp_window_keys[k]);
		jw_u64(j, "rounds", w->rounds);
		jw_u64(j, "blocks", w->blocks);
		jw_double(j, "overhead", tp_window_avg(c, TSCPROBE_SERIES_OVERHEAD, k, -1, NULL));
		jw_double(j, "cached", tp_window_avg(c, TSCPROBE_SERIES_CACHED, k, base, &lo_c));
		jw_double(j, "uncached", tp_window_avg(c, TSCPROBE_SERIES_UNCACHED, k, base, &lo_u));
		jw_bool(j, "cached_below_overhead", lo_c);
		jw_bool(j, "uncached_below_overhead", lo_u);
		jw_double(j, "cached_gross", tp_window_avg(c, TSCPROBE_SERIES_CACHED, k, -1, NULL));
		jw_double(j, "uncached_gross", tp_window_avg(c, TSCPROBE_SERIES_UNCACHED, k, -1, NULL));
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

static void tp_cache_json_curves(struct jw *j, const struct tp_result *r,
				 const struct tp_cpu_res *c,
				 const struct tp_cache_summary *s)
{
	unsigned int i;
	double v;

	if (r->p.levels) {
		jw_arr(j, "levels");
		for (i = 0; i < c->nlevels; i++) {
			v = tp_lat_per_load(&c->levels[i]);
			jw_obj(j, NULL);
			jw_u64(j, "size", c->levels[i].size);
			jw_u64(j, "loads", c->levels[i].loads);
			jw_u64(j, "cycles", c->levels[i].cycles);
			jw_double(j, "cycles_per_load", v);
			jw_double(j, "ns_per_load", tp_cycles_ns(v, r->tsc_khz));
			jw_obj_end(j);
		}
		jw_arr_end(j);
	}
	if (r->p.nodes) {
		jw_arr(j, "nodes");
		for (i = 0; i < c->nnodes; i++) {
			v = tp_lat_per_load(&c->nodes[i]);
			jw_obj(j, NULL);
			jw_u64(j, "node", c->nodes[i].node);
			jw_u64(j, "loads", c->nodes[i].loads);
			jw_u64(j, "cycles", c->nodes[i].cycles);
			jw_double(j, "gross", v);
			jw_double(j, "net", tp_net(v, s->overhead_p50));
			jw_double(j, "net_ns", tp_cycles_ns(tp_net(v, s->overhead_p50),
							    r->tsc_khz));
			jw_obj_end(j);
		}
		jw_arr_end(j);
	}
}

static void tp_cache_cpu_json(struct jw *j, const struct tp_result *r,
			      const struct tp_cpu_res *c)
{
	struct tp_cache_summary s;
	unsigned int i;

	tp_cache_summarize(r, c, &s);
	jw_obj(j, NULL);
	jw_u64(j, "cpu", c->cpu);
	jw_u64(j, "node", c->node);
	jw_bool(j, "incomplete", c->flags & TSCPROBE_CPU_F_INCOMPLETE);
	jw_bool(j, "starved", c->flags & TSCPROBE_CPU_F_STARVED);
	jw_bool(j, "held", c->flags & TSCPROBE_CPU_F_HELD);
	jw_u64(j, "rounds", c->rounds);
	jw_u64(j, "window_count", c->windows);
	jw_u64(j, "measured_cycles", c->measured_cycles);
	jw_double(j, "rounds_per_s", s.rounds_per_s);
	for (i = 0; i < TP_CACHE_SERIES; i++)
		tp_cache_json_series(j, c, &s, i);
	tp_cache_json_windows(j, c, &s);
	tp_cache_json_curves(j, r, c, &s);
	tp_context_cpu_json(r, c, j);
	jw_obj_end(j);
}

static void tp_cache_json(const struct tp_result *r,
			  const struct tp_verdict *v, FILE *f)
{
	struct jw j;
	unsigned int i;

	jw_init(&j, f);
	tp_result_json_head(&j, r, "cache");
	jw_u64(&j, "rounds", r->p.rounds);
	jw_u64(&j, "batch", r->p.batch);
	jw_bool(&j, "levels", r->p.levels);
	jw_bool(&j, "nodes", r->p.nodes);
	jw_u64(&j, "width_ns", r->p.width_ns);
	jw_u64(&j, "gap_ns", r->p.gap_ns);
	jw_u64(&j, "elapsed_ns", r->elapsed_ns);
	jw_arr(&j, "cpus");
	for (i = 0; i < r->ncpus; i++)
		tp_cache_cpu_json(&j, r, &r->cpu[i]);
	jw_arr_end(&j);
	tp_context_json(r, &j);
	if (tp_verdict_given(v)) {
		jw_obj(&j, "verdict");
		tp_verdict_json(v, r, &j);
		jw_obj_end(&j);
	}
	jw_obj_end(&j);
	jw_finish(&j);
}


static const char *const tp_cache_series_keys[TP_CACHE_SERIES] = {
	"overhead", "cached", "uncached",
};

/* One header row, then a row per CPU: the three series, net of the
 * overhead's median (the overhead itself gross), and the block averages;
 * the verdict's columns last, with limits.
 */
static void tp_cache_csv(const struct tp_result *r,
			 const struct tp_verdict *v, FILE *f)
{
	static const char *const lead[] = {
		"kind", "engine", "run_id", "cpu", "node", "incomplete", "rounds",
		"rounds_per_s", "overhead_p50_base",
	};
	struct tp_cache_summary s;
	struct tp_csv c = { f, 0 };
	unsigned int i, k, x;
	char name[40];

	for (i = 0; i < TP_ARRAY_SIZE(lead); i++)
		tp_csv_str(&c, lead[i]);
	for (k = 0; k < TP_CACHE_SERIES; k++)
		for (x = 0; x < TP_FIGS; x++) {
			snprintf(name, sizeof(name), "%s_%s", tp_cache_series_keys[k],
				 tp_fig_keys[x]);
			tp_csv_str(&c, name);
		}
	for (k = 1; k < TP_CACHE_SERIES; k++)
		for (x = 0; x < TP_CACHE_WINDOWS; x++) {
			snprintf(name, sizeof(name), "%s_avg_last_%s",
				 tp_cache_series_keys[k], tp_window_keys[x]);
			tp_csv_str(&c, name);
		}
	tp_verdict_csv_head(v, &c);
	tp_csv_end(&c);
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *cpu = &r->cpu[i];

		tp_cache_summarize(r, cpu, &s);
		tp_csv_str(&c, "cache");
		tp_csv_str(&c, tp_result_engine(r));
		tp_csv_u64(&c, r->run_id);
		tp_csv_u64(&c, cpu->cpu);
		tp_csv_u64(&c, cpu->node);
		tp_csv_u64(&c, !!(cpu->flags & TSCPROBE_CPU_F_INCOMPLETE));
		tp_csv_u64(&c, s.rounds);
		tp_csv_double(&c, s.rounds_per_s);
		tp_csv_double(&c, s.overhead_p50);
		for (k = 0; k < TP_CACHE_SERIES; k++)
			for (x = 0; x < TP_FIGS; x++)
				tp_csv_double(&c, s.net[k][x]);
		for (k = 1; k < TP_CACHE_SERIES; k++)
			for (x = 0; x < TP_CACHE_WINDOWS; x++) {
				unsigned int id = TP_CACHE_ID(k);

				if (tp_series(cpu, id)->win[x].rounds)
					tp_csv_double(&c, tp_window_avg(cpu, id, x, s.overhead_p50, NULL));
				else
					tp_csv_empty(&c);	/* not that many rounds */
			}
		tp_verdict_csv_row(v, i, &c);
		tp_csv_end(&c);
	}
}

/**
 * tp_cache_labels() - the labels of a CPU's cache series
 * @buf: the output
 * @len: its size
 * @r: the run (engine)
 * @cpu: the CPU
 * @k1: the first label of the series, with its value @v1
 * @v1: its value
 * @k2: a second label (NULL: none), with its value @v2
 * @v2: its value
 */
static void tp_cache_labels(char *buf, size_t len, const struct tp_result *r,
			    unsigned int cpu, const char *k1, const char *v1,
			    const char *k2, const char *v2)
{
	char c[16];

	snprintf(c, sizeof(c), "%u", cpu);
	tp_prom_labels(buf, len, "cpu", c, "engine", tp_result_engine(r), k1, v1,
		       k2, v2, NULL);
}

static void tp_cache_prom_figs(const struct tp_result *r, FILE *f)
{
	struct tp_cache_summary s;
	char labels[192];
	unsigned int i, k, x;

	tp_prom_family(f, "tscprobe_cache_cycles", "gauge",
		       "One load in TSC cycles: the overhead gross, cached and uncached net of the overhead's median.");
	for (i = 0; i < r->ncpus; i++) {
		tp_cache_summarize(r, &r->cpu[i], &s);
		if (!s.rounds)
			continue;
		for (k = 0; k < TP_CACHE_SERIES; k++)
			for (x = 0; x < TP_FIGS; x++) {
				tp_cache_labels(labels, sizeof(labels), r,
						r->cpu[i].cpu, "series",
						tp_cache_series_keys[k], "stat",
						tp_fig_keys[x]);
				tp_prom_double(f, "tscprobe_cache_cycles", labels,
					       s.net[k][x]);
			}
	}
	tp_prom_family(f, "tscprobe_cache_rounds_total", "counter",
		       "Rounds measured.");
	for (i = 0; i < r->ncpus; i++) {
		tp_cache_labels(labels, sizeof(labels), r, r->cpu[i].cpu,
				"series", "all", NULL, NULL);
		tp_prom_u64(f, "tscprobe_cache_rounds_total", labels,
			    r->cpu[i].rounds);
	}
}

static void tp_cache_prom_curves(const struct tp_result *r, FILE *f)
{
	bool levels = false, nodes = false;
	char labels[192], v[32];
	unsigned int i, k;

	for (i = 0; i < r->ncpus; i++) {
		levels |= r->cpu[i].nlevels > 0;
		nodes |= r->cpu[i].nnodes > 0;
	}
	if (levels)
		tp_prom_family(f, "tscprobe_cache_level_cycles_per_load", "gauge",
			       "Load-to-use latency of a working set, pointer chase.");
	for (i = 0; i < r->ncpus; i++)
		for (k = 0; k < r->cpu[i].nlevels; k++) {
			snprintf(v, sizeof(v), "%llu",
				 (unsigned long long)r->cpu[i].levels[k].size);
			tp_cache_labels(labels, sizeof(labels), r,
					r->cpu[i].cpu, "size_bytes", v, NULL,
					NULL);
			tp_prom_double(f, "tscprobe_cache_level_cycles_per_load",
				       labels, tp_lat_per_load(&r->cpu[i].levels[k]));
		}
	if (nodes)
		tp_prom_family(f, "tscprobe_cache_node_cycles_per_load", "gauge",
			       "Uncached load from the CPU to a NUMA node's memory, gross.");
	for (i = 0; i < r->ncpus; i++)
		for (k = 0; k < r->cpu[i].nnodes; k++) {
			snprintf(v, sizeof(v), "%u", r->cpu[i].nodes[k].node);
			tp_cache_labels(labels, sizeof(labels), r,
					r->cpu[i].cpu, "node", v, NULL, NULL);
			tp_prom_double(f, "tscprobe_cache_node_cycles_per_load",
				       labels, tp_lat_per_load(&r->cpu[i].nodes[k]));
		}
}

static void tp_cache_prom(const struct tp_result *r, FILE *f)
{
	tp_prom_run(r, f);
	tp_cache_prom_figs(r, f);
	tp_cache_prom_curves(r, f);
}

#define TP_CACHE_SVG_W		760.0
#define TP_CACHE_SVG_PANEL	250.0

static const char *const tp_cache_colours[TP_CACHE_SERIES] = {
	"#7f7f7f", "#1f77b4", "#d62728",
};

/* The three distributions of one CPU, as steps on log axes. */
static void tp_cache_svg_dist(struct tp_svg *s, const struct tp_cpu_res *c,
			      double top)
{
	struct tp_plot p = { 70, top + 30, TP_CACHE_SVG_W - 230,
			     TP_CACHE_SVG_PANEL - 80, 4, 8, 1 };
	uint64_t most = 1, max = 64;
	unsigned int k;

	for (k = 0; k < TP_CACHE_SERIES; k++) {
		const struct tp_series_res *sr = tp_series(c, TP_CACHE_ID(k));

		if (sr->stats.max > max)
			max = sr->stats.max;
		most = tp_hist_most(sr->hist, most);
	}
	p.xhi = ceil(log2((double)max + 1));
	p.yhi = ceil(log10((double)most + 1));
	tp_svg_text(s, p.x, top + 18, "start", 13,
		    "CPU %u: %llu rounds, one load (gross cycles)", c->cpu,
		    (unsigned long long)c->rounds);
	tp_plot_axes(s, &p, "cycles (log2)", "rounds (log10)");
	for (k = 0; k < TP_CACHE_SERIES; k++) {
		const struct tp_series_res *sr = tp_series(c, TP_CACHE_ID(k));

		tp_plot_hist(s, &p, sr->hist, tp_cache_colours[k]);
		tp_svg_rect(s, p.x + p.w + 20, p.y + 10 + 18 * k, 12, 12,
			    tp_cache_colours[k]);
		tp_svg_text(s, p.x + p.w + 38, p.y + 21 + 18 * k, "start", 11,
			    "%s", tp_cache_series_keys[k]);
	}
}

/*
 * The memory-level curves of @n CPUs from @first, one line each on one
 * panel: cycles per load against the working set's size.
 */
static void tp_cache_svg_levels(struct tp_svg *s, const struct tp_result *r,
				unsigned int first, unsigned int n, double top)
{
	struct tp_plot p = { 70, top + 30, TP_CACHE_SVG_W - 230,
			     TP_CACHE_SVG_PANEL - 80, 40, 0, 1 };
	double most = 1, x, y, px = 0, py = 0;
	const struct tp_cpu_res *c;
	unsigned int i, k;

	for (i = first; i < first + n; i++) {
		c = &r->cpu[i];
		for (k = 0; k < c->nlevels; k++)
			if (tp_lat_per_load(&c->levels[k]) > most)
				most = tp_lat_per_load(&c->levels[k]);
		if (c->nlevels < 2)
			continue;
		p.xlo = fmin(p.xlo, log2((double)c->levels[0].size));
		p.xhi = fmax(p.xhi, log2((double)c->levels[c->nlevels - 1].size) + 0.5);
	}
	p.yhi = ceil(log10(most + 1));
	if (n == 1)
		tp_svg_text(s, p.x, top + 18, "start", 13,
			    "CPU %u: load-to-use latency by working set (pointer chase)",
			    r->cpu[first].cpu);
	else
		tp_svg_text(s, p.x, top + 18, "start", 13,
			    "%u CPUs: load-to-use latency by working set (pointer chase), a line per CPU",
			    n);
	tp_plot_axes(s, &p, "working set (bytes, log2)", "cycles/load (log10)");
	for (i = first; i < first + n; i++) {
		c = &r->cpu[i];
		for (k = 0; k < c->nlevels; k++) {
			x = tp_plot_x(&p, (double)c->levels[k].size);
			y = tp_plot_y(&p, tp_lat_per_load(&c->levels[k]));
			if (k)
				tp_svg_line(s, px, py, x, y, "#1f77b4",
					    n == 1 ? 2 : 1, false);
			if (n == 1)
				tp_svg_rect(s, x - 3, y - 3, 6, 6, "#1f77b4");
			px = x;
			py = y;
		}
	}
}

/* Beyond this many CPUs three heat strips replace the per-CPU charts. */
#define TP_CACHE_SVG_PANEL_CPUS	8
#define TP_CACHE_STRIP_W	280.0
#define TP_CACHE_STRIP_GAP	40.0

static const char *const tp_cache_strip_titles[TP_CACHE_SERIES] = {
	"overhead (gross)", "cached load (net)", "uncached load (net)",
};

/*
 * Series @k of a CPU folded into log2 buckets: the overhead as measured,
 * the loads net of the overhead's median (at or below it: bucket 0).
 */
static void tp_cache_strip_fold(const struct tp_cpu_res *c,
				const struct tp_cache_summary *s,
				unsigned int k, uint64_t *calls)
{
	const struct tp_series_res *sr = tp_series(c, TP_CACHE_ID(k));
	uint64_t cycles[TP_LOG2_BUCKETS];
	uint64_t base = k ? (uint64_t)s->overhead_p50 : 0;

	memset(calls, 0, TP_LOG2_BUCKETS * sizeof(*calls));
	if (sr->hist && sr->stats.count)
		tp_hist_fold_log2_net(sr->hist, base, calls, cycles);
}

/* A CPU's three rows, with its figures as the rows' tooltip. */
static void tp_cache_strip_cpu(struct tp_svg *svg, const struct tp_result *r,
			       const struct tp_cpu_res *c,
			       const struct tp_strip *st, double y)
{
	uint64_t calls[TP_LOG2_BUCKETS];
	struct tp_cache_summary s;
	struct tp_strip at = *st;
	unsigned int k;

	tp_cache_summarize(r, c, &s);
	tp_svg_group(svg, "CPU %u: %llu rounds; overhead p50 %.0f, p99 %.0f, max %.0f; cached net p50 %.0f, p99 %.0f, max %.0f; uncached net p50 %.0f, p99 %.0f, max %.0f cycles",
		     c->cpu, (unsigned long long)c->rounds, s.net[0][2],
		     s.net[0][3], s.net[0][4], s.net[1][2], s.net[1][3],
		     s.net[1][4], s.net[2][2], s.net[2][3], s.net[2][4]);
	for (k = 0; s.rounds && k < TP_CACHE_SERIES; k++) {
		at.x = st->x + k * (TP_CACHE_STRIP_W + TP_CACHE_STRIP_GAP);
		tp_cache_strip_fold(c, &s, k, calls);
		tp_strip_row(svg, &at, y, calls, s.net[k][3], s.net[k][4]);
	}
	tp_svg_group_end(svg);
}

/* The three strips' extent (one x axis and colour scale for all three). */
static void tp_cache_strip_extent(const struct tp_result *r,
				  struct tp_strip *st)
{
	uint64_t calls[TP_LOG2_BUCKETS];
	struct tp_cache_summary s;
	unsigned int i, k;

	for (i = 0; i < r->ncpus; i++) {
		tp_cache_summarize(r, &r->cpu[i], &s);
		for (k = 0; s.rounds && k < TP_CACHE_SERIES; k++) {
			tp_cache_strip_fold(&r->cpu[i], &s, k, calls);
			tp_strip_extent(st, calls, s.net[k][4]);
		}
	}
	tp_strip_layout(st, r->ncpus, TP_CACHE_STRIP_W);
}

/*
 * Many CPUs: three heat strips side by side (overhead, cached, uncached),
 * a row per CPU, a column per log2 bucket of cycles, the colour the log of
 * the rounds; each row's p99 (black) and max (red) marked.  The loads are
 * net of their CPU's overhead median, as in the text report.  The level
 * curves, when measured, on one panel below.
 */
static int tp_cache_svg_strips(const struct tp_result *r, const char *path)
{
	struct tp_strip st = { 70, 96, 0, 0, 0, 1 }, at;
	double w = st.x + 3 * TP_CACHE_STRIP_W + 2 * TP_CACHE_STRIP_GAP + 30;
	double bottom, h;
	bool levels = false;
	unsigned int i, k;
	struct tp_svg s;

	tp_cache_strip_extent(r, &st);
	for (i = 0; i < r->ncpus; i++)
		levels |= r->cpu[i].nlevels > 1;
	bottom = st.y + st.row * r->ncpus;
	h = bottom + 100 + (levels ? TP_CACHE_SVG_PANEL : 0);
	if (tp_svg_open(&s, path, w, h, "tscprobe cache"))
		return TP_EXIT_FAIL;
	tp_svg_text(&s, 20, 26, "start", 15,
		    "tscprobe cache: %s engine, %u CPUs, tsc %u kHz",
		    tp_result_engine(r), r->ncpus, r->tsc_khz);
	tp_svg_text(&s, 20, 46, "start", 11,
		    "rows: CPUs; columns: one load (cycles, log2); colour: log10 of the rounds; black: p99, red: max");
	tp_svg_text(&s, 20, 62, "start", 11,
		    "cached and uncached net of their CPU's overhead median, never below 0 (column 0: at or below it)");
	for (i = 0; i < r->ncpus; i++) {
		tp_strip_cpu_label(&s, &st, i, r->cpu[i].cpu);
		tp_cache_strip_cpu(&s, r, &r->cpu[i], &st, st.y + i * st.row);
	}
	for (k = 0, at = st; k < TP_CACHE_SERIES; k++) {
		at.x = st.x + k * (TP_CACHE_STRIP_W + TP_CACHE_STRIP_GAP);
		tp_svg_text(&s, at.x, st.y - 8, "start", 12, "%s",
			    tp_cache_strip_titles[k]);
		tp_strip_xlabels(&s, &at, bottom + 16);
	}
	tp_strip_legend(&s, st.x, bottom + 40, st.most, "rounds");
	if (levels)
		tp_cache_svg_levels(&s, r, 0, r->ncpus, bottom + 90);
	return tp_svg_close(&s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
}

static int tp_cache_svg(const struct tp_result *r, const char *path)
{
	unsigned int i, panels = 0;
	struct tp_svg s;
	double top = 40;

	if (r->ncpus > TP_CACHE_SVG_PANEL_CPUS)
		return tp_cache_svg_strips(r, path);
	for (i = 0; i < r->ncpus; i++)
		panels += 1 + (r->cpu[i].nlevels > 1);
	if (tp_svg_open(&s, path, TP_CACHE_SVG_W, 50 + TP_CACHE_SVG_PANEL * panels,
			"tscprobe cache"))
		return TP_EXIT_FAIL;
	tp_svg_text(&s, 20, 26, "start", 15,
		    "tscprobe cache: %s engine, tsc %u kHz",
		    tp_result_engine(r), r->tsc_khz);
	for (i = 0; i < r->ncpus; i++) {
		tp_cache_svg_dist(&s, &r->cpu[i], top);
		top += TP_CACHE_SVG_PANEL;
		if (r->cpu[i].nlevels > 1) {
			tp_cache_svg_levels(&s, r, i, 1, top);
			top += TP_CACHE_SVG_PANEL;
		}
	}
	return tp_svg_close(&s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
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

	if (!tp_series(c, TSCPROBE_SERIES_OVERHEAD)->stats.count ||
	    !tp_series(c, TP_CACHE_ID(k))->stats.count ||
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

/**
 * tp_cache_output() - print a cache result as asked
 * @r: the result
 * @o: the format, the SVG file if any, and the limits if any
 * @f: standard output's stream
 *
 * Return: TP_EXIT_OK, TP_EXIT_FAIL when the SVG cannot be written, or
 * TP_EXIT_OVER_LIMIT when the result fails its limits.
 */
int tp_cache_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f)
{
	struct tp_verdict v;
	int ret = tp_verdict_judge(&v, r, o->limits, tp_cache_figure);

	if (ret)
		return ret;
	switch (o->fmt) {
	case TP_FMT_JSON:
		tp_cache_json(r, &v, f);
		break;
	case TP_FMT_CSV:
		tp_cache_csv(r, &v, f);
		break;
	case TP_FMT_PROM:
		tp_cache_prom(r, f);
		tp_verdict_prom(&v, f);
		break;
	default:
		tp_cache_text(r, &v, o->verbose, f);
	}
	ret = o->svg ? tp_cache_svg(r, o->svg) : TP_EXIT_OK;
	ret = tp_verdict_exit(&v, ret);
	tp_verdict_free(&v);
	return ret;
}
