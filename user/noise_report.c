// SPDX-License-Identifier: GPL-2.0
/*
 * The noise report: per CPU a summary (samples, coverage, percentiles in
 * cycles and ns, events, attribution), the log2 table and the
 * largest events; or the same as JSON (schema in Documentation/).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib/context_report.h"
#include "lib/format.h"
#include "lib/json_write.h"
#include "core/names.h"
#include "lib/prom_run.h"
#include "reports.h"
#include "core/report.h"
#include "noise_events.h"
#include "noise_sources.h"
#include "lib/svg.h"
#include "lib/verdict.h"

static const uint32_t tp_noise_ppm[4] = { 500000, 990000, 999000, 999900 };
static const char *const tp_noise_cols[6] = {
	"min", "p50", "p99", "p99.9", "p99.99", "max",
};
static const char *const tp_noise_keys[6] = {
	"min", "p50", "p99", "p999", "p9999", "max",
};

static const struct tp_series_res *tp_gap(const struct tp_cpu_res *c)
{
	return &c->series[TSCPROBE_SERIES_GAP];
}

/**
 * tp_noise_summarize() - compute one CPU's report figures
 * @r: the run
 * @c: the CPU
 * @s: the figures
 */
void tp_noise_summarize(const struct tp_result *r, const struct tp_cpu_res *c,
			struct tp_noise_summary *s)
{
	const struct tp_series_res *g = tp_gap(c);
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->samples = g->stats.count;
	s->coverage = c->wall_cycles ?
		(double)c->measured_cycles / (double)c->wall_cycles : 0.0;
	if (!s->samples || !g->hist)
		return;
	s->pct[0] = g->stats.min;
	for (i = 0; i < 4; i++)
		s->pct[i + 1] = tp_hist_percentile(g->hist, tp_noise_ppm[i]);
	s->pct[5] = g->stats.max;
	if (c->aperf.ok && c->mperf.ok && c->mperf.v)
		s->effective_khz = (uint64_t)((double)r->tsc_khz *
					      (double)c->aperf.v /
					      (double)c->mperf.v);
}

static void tp_noise_table(const struct tp_result *r,
			   const struct tp_cpu_res *c, FILE *f)
{
	uint64_t calls[65], cycles[65];
	char row[256];
	unsigned int k;

	tp_hist_fold_log2(tp_gap(c)->hist, calls, cycles);
	for (k = 0; k < 65; k++) {
		if (!calls[k])
			continue;
		tp_log2_row(row, sizeof(row), k, calls[k], cycles[k],
			    tp_gap(c)->stats.count, tp_gap(c)->stats.sum,
			    r->tsc_khz);
		fprintf(f, "  %s\n", row);
	}
}

static int tp_event_by_cycles_desc(const void *a, const void *b)
{
	const struct tp_event_res *x = a, *y = b;

	return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : 0;
}

static int tp_event_by_tsc(const void *a, const void *b)
{
	const struct tp_event_res *x = a, *y = b;

	return x->tsc > y->tsc ? 1 : x->tsc < y->tsc ? -1 : 0;
}

/* The five largest events, with their time since the start of the run. */
static void tp_noise_largest(const struct tp_result *r,
			     const struct tp_cpu_res *c, FILE *f)
{
	struct tp_event_res ev[TSCPROBE_MAX_EVENTS];
	char at[32], len[32];
	unsigned int i, n = c->nevents;

	if (!n)
		return;
	memcpy(ev, c->events, n * sizeof(ev[0]));
	qsort(ev, n, sizeof(ev[0]), tp_event_by_cycles_desc);
	fprintf(f, "  largest events:\n");
	for (i = 0; i < n && i < 5; i++) {
		tp_format_cycles(ev[i].tsc - r->start_tsc, r->tsc_khz,
				 at, sizeof(at));
		tp_format_cycles(ev[i].cycles, r->tsc_khz, len, sizeof(len));
		fprintf(f, "    at +%-10s %10llu cycles (%s)", at,
			(unsigned long long)ev[i].cycles, len);
		tp_noise_event_text(r, &ev[i], f);
		fprintf(f, "\n");
	}
}

/* Whether the TSC of @c stepped back during the run. */
static bool tp_noise_stepped(const struct tp_cpu_res *c)
{
	return c->steps_back.ok && c->steps_back.v;
}

/*
 * A CPU's steps back of the TSC, when it had any: they are no gap and in
 * no figure of the report, so they get a line of their own.
 */
static void tp_noise_steps_text(const struct tp_result *r,
				const struct tp_cpu_res *c, FILE *f)
{
	char len[32];

	if (!tp_noise_stepped(c))
		return;
	tp_format_cycles(c->step_back_max, r->tsc_khz, len, sizeof(len));
	fprintf(f, "  TSC stepped back %llu time%s, the largest by %llu cycles (%s): each ended its window; no gap, not noise\n",
		(unsigned long long)c->steps_back.v,
		c->steps_back.v == 1 ? "" : "s",
		(unsigned long long)c->step_back_max, len);
}

static void tp_noise_cpu_text(const struct tp_result *r,
			      const struct tp_cpu_res *c, FILE *f)
{
	struct tp_noise_summary s;
	const char *why;
	char ns[32];
	unsigned int i;

	tp_noise_summarize(r, c, &s);
	why = tp_cpu_incomplete_why(c, s.samples);
	fprintf(f, "cpu %u: %llu samples, coverage %.2f%%, %llu windows%s%s%s\n",
		c->cpu, (unsigned long long)s.samples, 100.0 * s.coverage,
		(unsigned long long)c->windows, *why ? ", INCOMPLETE (" : "",
		why, *why ? ")" : "");
	if (!s.samples)
		return;
	fprintf(f, "        ");
	for (i = 0; i < 6; i++)
		fprintf(f, " %9s", tp_noise_cols[i]);
	fprintf(f, "\n  cycles");
	for (i = 0; i < 6; i++)
		fprintf(f, " %9llu", (unsigned long long)s.pct[i]);
	fprintf(f, "\n  time  ");
	for (i = 0; i < 6; i++) {
		tp_format_cycles(s.pct[i], r->tsc_khz, ns, sizeof(ns));
		fprintf(f, " %9s", ns);
	}
	fprintf(f, "\n  events %llu, %llu not kept", (unsigned long long)c->events_total,
		(unsigned long long)c->events_dropped);
	tp_counter_text(f, ", ", "smi", &c->smi);
	if (c->smi.ok)
		fprintf(f, " (%s)", tp_smi_source_name(tp_cpu_smi_source(c)));
	tp_counter_text(f, ", ", "nmi", &c->nmi);
	tp_counter_text(f, ", ", "irq", &c->irq);
	if (s.effective_khz)
		fprintf(f, ", clock %llu MHz", (unsigned long long)(s.effective_khz / 1000));
	else
		fprintf(f, ", clock n/a");
	fprintf(f, "\n");
	tp_noise_steps_text(r, c, f);
	tp_noise_causes_text(r, c, f);
	tp_noise_sources_text(r, c, f);
	tp_context_cpu_text(r, c, f);
	tp_noise_table(r, c, f);
	tp_noise_largest(r, c, f);
}

/* A counter in a table column: its value, or "-" when unreadable. */
static void tp_noise_counter_cell(FILE *f, const struct tp_counter_res *k)
{
	if (k->ok)
		fprintf(f, " %5llu", (unsigned long long)k->v);
	else
		fprintf(f, " %5s", "-");
}

/*
 * What took the CPU away, in the table's last columns: today the SMI, NMI
 * and interrupt counts of the run.
 */
static void tp_noise_row_causes(const struct tp_cpu_res *c, FILE *f)
{
	tp_noise_counter_cell(f, &c->smi);
	tp_noise_counter_cell(f, &c->nmi);
	tp_noise_counter_cell(f, &c->irq);
}

static void tp_noise_row(const struct tp_result *r, const struct tp_cpu_res *c,
			 FILE *f)
{
	struct tp_noise_summary s;
	char t9999[32], tmax[32];
	unsigned int k;

	tp_noise_summarize(r, c, &s);
	tp_format_cycles(s.pct[4], r->tsc_khz, t9999, sizeof(t9999));
	tp_format_cycles(s.pct[5], r->tsc_khz, tmax, sizeof(tmax));
	fprintf(f, "%4u %11llu %6.2f%%", c->cpu, (unsigned long long)s.samples,
		100.0 * s.coverage);
	for (k = 0; k < 6; k++)
		if (k != 3)	/* p99.9: in -v */
			fprintf(f, " %8llu", (unsigned long long)s.pct[k]);
	fprintf(f, " %9s %9s %7llu", t9999, tmax,
		(unsigned long long)c->events_total);
	tp_noise_row_causes(c, f);
	if ((c->flags & TSCPROBE_CPU_F_STARVED) &&
	    (c->flags & TSCPROBE_CPU_F_INCOMPLETE))
		fprintf(f, "  INCOMPLETE (%s)\n",
			tp_cpu_incomplete_why(c, s.samples));
	else
		fprintf(f, "%s\n", c->flags & TSCPROBE_CPU_F_INCOMPLETE ?
			"  INCOMPLETE" : "");
}

/*
 * The line under the table: the CPU with the largest gap, how large, and
 * what the run saw on it; the worst p99.99 too when another CPU has it.
 */
static void tp_noise_worst(const struct tp_result *r, FILE *f)
{
	const struct tp_cpu_res *w = NULL, *t = NULL;
	struct tp_noise_summary s, ws = { 0 }, ts = { 0 };
	char len[32];
	unsigned int i;

	for (i = 0; i < r->ncpus; i++) {
		tp_noise_summarize(r, &r->cpu[i], &s);
		if (!s.samples)
			continue;
		if (!w || s.pct[5] > ws.pct[5]) {
			w = &r->cpu[i];
			ws = s;
		}
		if (!t || s.pct[4] > ts.pct[4]) {
			t = &r->cpu[i];
			ts = s;
		}
	}
	if (!w) {
		fprintf(f, "worst: no CPU has samples\n");
		return;
	}
	tp_format_cycles(ws.pct[5], r->tsc_khz, len, sizeof(len));
	fprintf(f, "worst: CPU %u, max gap %s (%llu cycles), %llu events",
		w->cpu, len, (unsigned long long)ws.pct[5],
		(unsigned long long)w->events_total);
	tp_counter_text(f, ", ", "smi", &w->smi);
	tp_counter_text(f, ", ", "nmi", &w->nmi);
	tp_counter_text(f, ", ", "irq", &w->irq);
	if (t != w) {
		tp_format_cycles(ts.pct[4], r->tsc_khz, len, sizeof(len));
		fprintf(f, "; worst p99.99: CPU %u, %s", t->cpu, len);
	}
	fprintf(f, "\n");
}

/* Why the SMI counts are n/a, when they are: never left to be read as 0. */
static void tp_noise_smi_text(const struct tp_result *r, FILE *f)
{
	enum tp_smi_why why = tp_result_smi_why(r);

	if (why != TP_SMI_READABLE)
		fprintf(f, "smi n/a: %s\n", tp_smi_why_text(why));
}

/* The CPUs whose TSC stepped back: "tsc stepped back: cpu 2 1x (N cycles)". */
static void tp_noise_steps_all(const struct tp_result *r, FILE *f)
{
	unsigned int i, n = 0;

	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		if (!tp_noise_stepped(c))
			continue;
		fprintf(f, "%s cpu %u %llux (largest %llu cycles)",
			n++ ? "," : "TSC stepped back (each ended its window; no gap, not noise):",
			c->cpu, (unsigned long long)c->steps_back.v,
			(unsigned long long)c->step_back_max);
	}
	if (n)
		fprintf(f, "\n");
}

/* One row per CPU, then the worst CPU; the full blocks are -v's. */
static void tp_noise_table_all(const struct tp_result *r, bool verbose, FILE *f)
{
	unsigned int i;

	fprintf(f, "                            ------------- gap, cycles -------------  ------ time ------\n");
	fprintf(f, " cpu     samples   cover     min      p50      p99   p99.99      max    p99.99       max  events   smi   nmi   irq\n");
	for (i = 0; i < r->ncpus; i++)
		tp_noise_row(r, &r->cpu[i], f);
	tp_noise_worst(r, f);
	tp_noise_steps_all(r, f);
	tp_noise_smi_text(r, f);
	if (!verbose)
		fprintf(f, "(-v: every CPU in full: histogram, largest events, interrupts, scheduler)\n");
}

static void tp_noise_text(const struct tp_result *r,
			  const struct tp_verdict *v, bool verbose, FILE *f)
{
	char cpus[256], dur[32], thr[32];
	unsigned int i;

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	tp_format_ns(r->elapsed_ns, dur, sizeof(dur));
	tp_format_ns(r->p.threshold_ns, thr, sizeof(thr));
	fprintf(f, "noise: %s engine, irqs %s, clock %s, %s on CPUs %s, tsc %u kHz, threshold %s (%llu cycles)",
		tp_result_engine(r), tp_irqs_name(r->p.irqs),
		tp_clock_name(r->p.clock), dur, cpus, r->tsc_khz, thr,
		(unsigned long long)r->p.threshold_cycles);
	if (r->p.warm_up_ns) {
		tp_format_ns(r->p.warm_up_ns, dur, sizeof(dur));
		fprintf(f, ", warm-up %s dropped", dur);
	}
	if (!r->user_engine)
		fprintf(f, ", run %llu %s (%s)", (unsigned long long)r->run_id,
			tp_state_name(r->state), tp_stop_reason_name(r->reason));
	fprintf(f, "\n");
	tp_noise_stop_text(r, f);
	/* -v: every CPU's block, then the table as well (not for one CPU) */
	if (verbose || r->ncpus == 1)
		for (i = 0; i < r->ncpus; i++)
			tp_noise_cpu_text(r, &r->cpu[i], f);
	if (r->ncpus > 1)
		tp_noise_table_all(r, verbose, f);
	else
		tp_noise_smi_text(r, f);
	tp_noise_groups_text(r, verbose, f);
	tp_context_text(r, f);
	tp_verdict_text(v, r, verbose, f);
}

static void tp_noise_json_histogram(struct jw *j, const struct tp_cpu_res *c)
{
	uint64_t calls[65], cycles[65];
	unsigned int k;

	jw_arr(j, "histogram");
	if (tp_gap(c)->hist) {
		tp_hist_fold_log2(tp_gap(c)->hist, calls, cycles);
		for (k = 0; k < 65; k++) {
			if (!calls[k])
				continue;
			jw_obj(j, NULL);
			jw_u64(j, "lo_cycles", tp_log2_lo(k));
			jw_u64(j, "hi_cycles", tp_log2_hi(k));
			jw_u64(j, "calls", calls[k]);
			jw_u64(j, "cycles", cycles[k]);
			jw_obj_end(j);
		}
	}
	jw_arr_end(j);
}

static void tp_noise_json_events(struct jw *j, const struct tp_result *r,
				 const struct tp_cpu_res *c)
{
	struct tp_event_res ev[TSCPROBE_MAX_EVENTS];
	unsigned int i;

	memcpy(ev, c->events, c->nevents * sizeof(ev[0]));
	qsort(ev, c->nevents, sizeof(ev[0]), tp_event_by_tsc);
	jw_arr(j, "events");
	for (i = 0; i < c->nevents; i++) {
		jw_obj(j, NULL);
		jw_u64(j, "tsc", ev[i].tsc);
		jw_u64(j, "cycles", ev[i].cycles);
		tp_noise_event_json(r, &ev[i], j);
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

static void tp_noise_cpu_json(struct jw *j, const struct tp_result *r,
			      const struct tp_cpu_res *c)
{
	struct tp_noise_summary s;
	char key[32];
	unsigned int i;

	tp_noise_summarize(r, c, &s);
	jw_obj(j, NULL);
	jw_u64(j, "cpu", c->cpu);
	jw_u64(j, "node", c->node);
	jw_bool(j, "incomplete", c->flags & TSCPROBE_CPU_F_INCOMPLETE);
	jw_bool(j, "starved", c->flags & TSCPROBE_CPU_F_STARVED);
	jw_bool(j, "held", c->flags & TSCPROBE_CPU_F_HELD);
	jw_u64(j, "samples", s.samples);
	jw_u64(j, "windows", c->windows);
	jw_u64(j, "measured_cycles", c->measured_cycles);
	jw_u64(j, "wall_cycles", c->wall_cycles);
	jw_double(j, "coverage", s.coverage);
	for (i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "%s_cycles", tp_noise_keys[i]);
		jw_u64(j, key, s.pct[i]);
	}
	for (i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "%s_ns", tp_noise_keys[i]);
		jw_u64(j, key, tp_cycles_to_ns_round(s.pct[i], r->tsc_khz));
	}
	jw_u64(j, "events_total", c->events_total);
	jw_u64(j, "events_dropped", c->events_dropped);
	tp_noise_causes_json(r, c, j);
	tp_noise_sources_json(r, c, j);
	tp_json_counter(j, "smi_count", &c->smi);
	jw_str(j, "smi_source", tp_smi_source_name(tp_cpu_smi_source(c)));
	tp_json_counter(j, "nmi_count", &c->nmi);
	tp_json_counter(j, "irq_count", &c->irq);
	tp_json_counter(j, "tsc_steps_back", &c->steps_back);
	if (c->steps_back.ok)
		jw_u64(j, "tsc_step_back_max_cycles", c->step_back_max);
	else
		jw_null(j, "tsc_step_back_max_cycles");
	if (s.effective_khz)
		jw_double(j, "effective_mhz", s.effective_khz / 1000.0);
	else
		jw_null(j, "effective_mhz");
	tp_context_cpu_json(r, c, j);
	tp_noise_json_histogram(j, c);
	tp_noise_json_events(j, r, c);
	jw_obj_end(j);
}

static void tp_noise_json(const struct tp_result *r,
			  const struct tp_verdict *v, FILE *f)
{
	struct jw j;
	unsigned int i;

	jw_init(&j, f);
	tp_result_json_head(&j, r, "noise");
	jw_str(&j, "irqs", tp_irqs_name(r->p.irqs));
	jw_str(&j, "clock", tp_clock_name(r->p.clock));
	jw_u64(&j, "duration_ns", r->p.duration_ns);
	jw_u64(&j, "warm_up_ns", r->p.warm_up_ns);
	jw_u64(&j, "elapsed_ns", r->elapsed_ns);
	jw_u64(&j, "width_ns", r->p.width_ns);
	jw_u64(&j, "gap_ns", r->p.gap_ns);
	jw_u64(&j, "threshold_ns", r->p.threshold_ns);
	jw_u64(&j, "threshold_cycles", r->p.threshold_cycles);
	tp_noise_stop_json(r, &j);
	if (tp_result_smi_why(r) == TP_SMI_READABLE)
		jw_null(&j, "smi_count_unreadable");
	else
		jw_str(&j, "smi_count_unreadable",
		       tp_smi_why_key(tp_result_smi_why(r)));
	jw_arr(&j, "cpus");
	for (i = 0; i < r->ncpus; i++)
		tp_noise_cpu_json(&j, r, &r->cpu[i]);
	jw_arr_end(&j);
	tp_noise_groups_json(r, &j);
	tp_context_json(r, &j);
	if (tp_verdict_given(v)) {
		jw_obj(&j, "verdict");
		tp_verdict_json(v, r, &j);
		jw_obj_end(&j);
	}
	jw_obj_end(&j);
	jw_finish(&j);
}


static const char *const tp_noise_csv_cols[] = {
	"kind", "engine", "irqs", "run_id", "cpu", "node", "incomplete",
	"samples", "windows", "coverage", "min_cycles", "p50_cycles",
	"p99_cycles", "p999_cycles", "p9999_cycles", "max_cycles", "p50_ns",
	"p9999_ns", "max_ns", "events_total", "events_dropped", "smi_count",
	"nmi_count", "irq_count", "effective_mhz", "tsc_steps_back",
	"tsc_step_back_max_cycles",
};

static void tp_csv_counter(struct tp_csv *c, const struct tp_counter_res *k)
{
	if (k->ok)
		tp_csv_u64(c, k->v);
	else
		tp_csv_empty(c);
}

/*
 * One header row, then a row per CPU; unknown values are empty fields; the
 * columns added later after the first ones, so that they keep their
 * places; the verdict's columns last, with limits.
 */
static void tp_noise_csv(const struct tp_result *r,
			 const struct tp_verdict *v, FILE *f)
{
	struct tp_noise_summary s;
	struct tp_csv c = { f, 0 };
	unsigned int i, k;

	tp_csv_header(&c, tp_noise_csv_cols, TP_ARRAY_SIZE(tp_noise_csv_cols));
	tp_noise_sources_csv_head(&c);
	tp_csv_str(&c, "smi_source");
	tp_verdict_csv_head(v, &c);
	tp_csv_end(&c);
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *cpu = &r->cpu[i];

		tp_noise_summarize(r, cpu, &s);
		tp_csv_str(&c, "noise");
		tp_csv_str(&c, tp_result_engine(r));
		tp_csv_str(&c, tp_irqs_name(r->p.irqs));
		tp_csv_u64(&c, r->run_id);
		tp_csv_u64(&c, cpu->cpu);
		tp_csv_u64(&c, cpu->node);
		tp_csv_u64(&c, !!(cpu->flags & TSCPROBE_CPU_F_INCOMPLETE));
		tp_csv_u64(&c, s.samples);
		tp_csv_u64(&c, cpu->windows);
		tp_csv_double(&c, s.coverage);
		for (k = 0; k < 6; k++)
			tp_csv_u64(&c, s.pct[k]);
		tp_csv_u64(&c, tp_cycles_to_ns_round(s.pct[1], r->tsc_khz));
		tp_csv_u64(&c, tp_cycles_to_ns_round(s.pct[4], r->tsc_khz));
		tp_csv_u64(&c, tp_cycles_to_ns_round(s.pct[5], r->tsc_khz));
		tp_csv_u64(&c, cpu->events_total);
		tp_csv_u64(&c, cpu->events_dropped);
		tp_csv_counter(&c, &cpu->smi);
		tp_csv_counter(&c, &cpu->nmi);
		tp_csv_counter(&c, &cpu->irq);
		if (s.effective_khz)
			tp_csv_double(&c, s.effective_khz / 1000.0);
		else
			tp_csv_empty(&c);
		tp_csv_counter(&c, &cpu->steps_back);
		if (cpu->steps_back.ok)
			tp_csv_u64(&c, cpu->step_back_max);
		else
			tp_csv_empty(&c);
		tp_noise_sources_csv_row(r, cpu, &c);
		tp_csv_str(&c, tp_smi_source_name(tp_cpu_smi_source(cpu)));
		tp_verdict_csv_row(v, i, &c);
		tp_csv_end(&c);
	}
}

/* The quantiles of the gap summary, as labels and as percentile indexes. */
static const char *const tp_prom_quantiles[6] = {
	"0", "0.5", "0.99", "0.999", "0.9999", "1",
};

/**
 * tp_noise_labels() - the labels of a CPU's noise series
 * @buf: the output
 * @len: its size
 * @r: the run (engine, irqs)
 * @cpu: the CPU
 * @quantile: the quantile label's value, or NULL for a series without one
 */
static void tp_noise_labels(char *buf, size_t len, const struct tp_result *r,
			    unsigned int cpu, const char *quantile)
{
	char c[16];

	snprintf(c, sizeof(c), "%u", cpu);
	tp_prom_labels(buf, len, "cpu", c, "engine", tp_result_engine(r),
		       "irqs", tp_irqs_name(r->p.irqs),
		       quantile ? "quantile" : NULL, quantile, NULL);
}

static void tp_noise_prom_counter(FILE *f, const struct tp_result *r,
				  const char *name, const char *help,
				  size_t off)
{
	char labels[128];
	unsigned int i;
	bool any = false;

	for (i = 0; i < r->ncpus; i++)
		any |= ((const struct tp_counter_res *)((const char *)&r->cpu[i] + off))->ok;
	if (!any)
		return;
	tp_prom_family(f, name, "counter", help);
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_counter_res *k =
			(const void *)((const char *)&r->cpu[i] + off);

		if (!k->ok)
			continue;	/* unreadable: no sample, never a 0 */
		tp_noise_labels(labels, sizeof(labels), r, r->cpu[i].cpu, NULL);
		tp_prom_u64(f, name, labels, k->v);
	}
}

static void tp_noise_prom_gaps(const struct tp_result *r, FILE *f)
{
	struct tp_noise_summary s;
	char labels[160];
	unsigned int i, k;

	tp_prom_family(f, "tscprobe_noise_gap_cycles", "summary",
		       "Gap between consecutive TSC reads, in TSC cycles.");
	for (i = 0; i < r->ncpus; i++) {
		tp_noise_summarize(r, &r->cpu[i], &s);
		for (k = 0; k < 6; k++) {
			tp_noise_labels(labels, sizeof(labels), r, r->cpu[i].cpu,
					tp_prom_quantiles[k]);
			tp_prom_u64(f, "tscprobe_noise_gap_cycles", labels,
				    s.pct[k]);
		}
		tp_noise_labels(labels, sizeof(labels), r, r->cpu[i].cpu, NULL);
		tp_prom_u64(f, "tscprobe_noise_gap_cycles_sum", labels,
			    r->cpu[i].measured_cycles);
		tp_prom_u64(f, "tscprobe_noise_gap_cycles_count", labels,
			    s.samples);
	}
}

static void tp_noise_prom_gauges(const struct tp_result *r, FILE *f)
{
	struct tp_noise_summary s;
	char labels[160];
	unsigned int i;

	tp_prom_family(f, "tscprobe_noise_coverage_ratio", "gauge",
		       "Measured time over wall time, 0 to 1.");
	for (i = 0; i < r->ncpus; i++) {
		tp_noise_summarize(r, &r->cpu[i], &s);
		tp_noise_labels(labels, sizeof(labels), r, r->cpu[i].cpu, NULL);
		tp_prom_double(f, "tscprobe_noise_coverage_ratio", labels,
			       s.coverage);
	}
	tp_prom_family(f, "tscprobe_noise_events_total", "counter",
		       "Gaps at or above the event threshold.");
	for (i = 0; i < r->ncpus; i++) {
		tp_noise_labels(labels, sizeof(labels), r, r->cpu[i].cpu, NULL);
		tp_prom_u64(f, "tscprobe_noise_events_total", labels,
			    r->cpu[i].events_total);
	}
}

/* The largest step back of each CPU that reports its steps. */
static void tp_noise_prom_step_max(const struct tp_result *r, FILE *f)
{
	char labels[128];
	unsigned int i;
	bool any = false;

	for (i = 0; i < r->ncpus; i++)
		any |= r->cpu[i].steps_back.ok;
	if (!any)
		return;
	tp_prom_family(f, "tscprobe_noise_tsc_step_back_max_cycles", "gauge",
		       "The largest step back of the TSC, in TSC cycles (0: none).");
	for (i = 0; i < r->ncpus; i++) {
		if (!r->cpu[i].steps_back.ok)
			continue;
		tp_noise_labels(labels, sizeof(labels), r, r->cpu[i].cpu, NULL);
		tp_prom_u64(f, "tscprobe_noise_tsc_step_back_max_cycles", labels,
			    r->cpu[i].step_back_max);
	}
}

/* Prometheus text exposition, for node_exporter's textfile collector. */
static void tp_noise_prom(const struct tp_result *r, FILE *f)
{
	char labels[160];

	tp_prom_run(r, f);
	tp_prom_family(f, "tscprobe_noise_threshold_cycles", "gauge",
		       "Event threshold in TSC cycles.");
	tp_prom_labels(labels, sizeof(labels), "engine", tp_result_engine(r),
		       "irqs", tp_irqs_name(r->p.irqs), NULL);
	tp_prom_u64(f, "tscprobe_noise_threshold_cycles", labels,
		    r->p.threshold_cycles);
	tp_noise_prom_gaps(r, f);
	tp_noise_prom_gauges(r, f);
	tp_noise_prom_counter(f, r, "tscprobe_noise_smi_total",
			      "SMIs during the run (MSR_SMI_COUNT, or the PMU's on AMD).",
			      offsetof(struct tp_cpu_res, smi));
	tp_noise_prom_counter(f, r, "tscprobe_noise_nmi_total",
			      "NMIs during the run.",
			      offsetof(struct tp_cpu_res, nmi));
	tp_noise_prom_counter(f, r, "tscprobe_noise_irq_total",
			      "Interrupts during the run.",
			      offsetof(struct tp_cpu_res, irq));
	tp_noise_prom_counter(f, r, "tscprobe_noise_tsc_steps_back_total",
			      "Times the TSC went backwards between two reads (not noise).",
			      offsetof(struct tp_cpu_res, steps_back));
	tp_noise_prom_step_max(r, f);
	tp_noise_sources_prom(r, f);
}

#define TP_SVG_W	760.0
#define TP_SVG_PANEL	240.0

/* One CPU's fine histogram as bars on log2 x and log10 y axes. */
static void tp_noise_svg_cpu(struct tp_svg *s, const struct tp_result *r,
			     const struct tp_cpu_res *c, double top)
{
	const struct tp_hist *h = tp_gap(c)->hist;
	struct tp_plot p = { 70, top + 30, TP_SVG_W - 100, TP_SVG_PANEL - 80,
			     4, 8, 1 };
	struct tp_noise_summary sum;
	uint64_t most = tp_hist_most(h, 1);
	char line[256];

	tp_noise_summarize(r, c, &sum);
	p.xhi = ceil(log2((double)(sum.pct[5] > 256 ? sum.pct[5] : 256) + 1));
	p.yhi = ceil(log10((double)most + 1));
	tp_svg_text(s, p.x, top + 18, "start", 13,
		    "CPU %u: %llu samples, p50 %llu, p99.99 %llu, max %llu cycles, coverage %.2f%%",
		    c->cpu, (unsigned long long)sum.samples,
		    (unsigned long long)sum.pct[1], (unsigned long long)sum.pct[4],
		    (unsigned long long)sum.pct[5], 100.0 * sum.coverage);
	tp_plot_axes(s, &p, "gap between TSC reads (cycles, log2)",
		     "gaps (log10)");
	tp_plot_hist(s, &p, h, "#3b528b");
	if (r->p.threshold_cycles) {
		double x = tp_plot_x(&p, (double)r->p.threshold_cycles);

		tp_svg_line(s, x, p.y, x, p.y + p.h, "#d62728", 1.5, true);
		tp_svg_text(s, x + 4, p.y + 12, "start", 10, "event threshold");
	}
	/* Below the x axis' label: who took the CPU inside the windows. */
	if (tp_noise_sources_brief(r, c, line, sizeof(line)))
		tp_svg_text(s, p.x, top + TP_SVG_PANEL - 2, "start", 10, "%s",
			    line);
}

/* Beyond this many CPUs one heat strip replaces the per-CPU charts. */
#define TP_SVG_PANEL_CPUS	8

/* One CPU's row: a cell per log2 gap bucket, its p99.99 and max marked. */
static void tp_noise_strip_row(struct tp_svg *s, const struct tp_result *r,
			       const struct tp_cpu_res *c,
			       const struct tp_strip *st, double y)
{
	uint64_t calls[TP_LOG2_BUCKETS], cycles[TP_LOG2_BUCKETS];
	struct tp_noise_summary sum;

	tp_noise_summarize(r, c, &sum);
	if (!tp_gap(c)->hist)
		return;
	tp_hist_fold_log2(tp_gap(c)->hist, calls, cycles);
	tp_svg_group(s, "CPU %u: p50 %llu, p99.99 %llu, max %llu cycles",
		     c->cpu, (unsigned long long)sum.pct[1],
		     (unsigned long long)sum.pct[4],
		     (unsigned long long)sum.pct[5]);
	tp_strip_row(s, st, y, calls, (double)sum.pct[4], (double)sum.pct[5]);
	tp_svg_group_end(s);
}

/*
 * Many CPUs: one heat strip, a row per CPU and a column per log2 gap
 * bucket, the colour the log of the count; each row's p99.99 (black) and
 * max (red) marked on the same axis.
 */
static int tp_noise_svg_strip(const struct tp_result *r, const char *path)
{
	struct tp_strip st = { 70, 70, 0, 0, 0, 1 };
	uint64_t calls[TP_LOG2_BUCKETS], cycles[TP_LOG2_BUCKETS];
	double w = TP_SVG_W + 140, bottom;
	struct tp_noise_summary sum;
	struct tp_svg s;
	unsigned int i;

	for (i = 0; i < r->ncpus; i++) {
		if (!tp_gap(&r->cpu[i])->hist)
			continue;
		tp_noise_summarize(r, &r->cpu[i], &sum);
		tp_hist_fold_log2(tp_gap(&r->cpu[i])->hist, calls, cycles);
		tp_strip_extent(&st, calls, (double)sum.pct[5]);
	}
	tp_strip_layout(&st, r->ncpus, w - st.x - 40);
	bottom = st.y + st.row * r->ncpus;
	if (tp_svg_open(&s, path, w, bottom + 110, "tscprobe noise"))
		return TP_EXIT_FAIL;
	tp_svg_text(&s, 20, 26, "start", 15,
		    "tscprobe noise: %s engine, irqs %s, %u CPUs, tsc %u kHz",
		    tp_result_engine(r), tp_irqs_name(r->p.irqs), r->ncpus,
		    r->tsc_khz);
	tp_svg_text(&s, 20, 46, "start", 11,
		    "rows: CPUs; columns: gap between TSC reads (cycles, log2); colour: log10 of the count; black: p99.99, red: max");
	for (i = 0; i < r->ncpus; i++) {
		tp_strip_cpu_label(&s, &st, i, r->cpu[i].cpu);
		tp_noise_strip_row(&s, r, &r->cpu[i], &st, st.y + i * st.row);
	}
	tp_strip_xlabels(&s, &st, bottom + 16);
	tp_strip_legend(&s, st.x, bottom + 40, st.most, "gaps");
	return tp_svg_close(&s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
}

static int tp_noise_svg(const struct tp_result *r, const char *path)
{
	struct tp_svg s;
	unsigned int i;

	if (r->ncpus > TP_SVG_PANEL_CPUS)
		return tp_noise_svg_strip(r, path);

	if (tp_svg_open(&s, path, TP_SVG_W, 50 + TP_SVG_PANEL * r->ncpus,
			"tscprobe noise"))
		return TP_EXIT_FAIL;
	tp_svg_text(&s, 20, 26, "start", 15,
		    "tscprobe noise: %s engine, irqs %s, clock %s, tsc %u kHz",
		    tp_result_engine(r), tp_irqs_name(r->p.irqs),
		    tp_clock_name(r->p.clock), r->tsc_khz);
	for (i = 0; i < r->ncpus; i++)
		tp_noise_svg_cpu(&s, r, &r->cpu[i], 40 + TP_SVG_PANEL * i);
	return tp_svg_close(&s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
}

/* The figures of a CPU that a noise limit can name, by enum tp_limit_stat. */
static const unsigned int tp_noise_limit_pct[] = {
	[TP_LIMIT_MAX] = 5, [TP_LIMIT_P50] = 1, [TP_LIMIT_P99] = 2,
	[TP_LIMIT_P999] = 3, [TP_LIMIT_P9999] = 4,
};

/**
 * tp_noise_figure() - a CPU's figure for a noise limit (a tp_figure_fn)
 * @r: the result
 * @l: the limit: max or a percentile of the gaps
 * @i: the CPU's index in @r
 * @j: the judgement
 *
 * In time the figure is the report's own, rounded to the ns, so that a
 * figure the report prints at the limit passes.
 */
void tp_noise_figure(const struct tp_result *r, const struct tp_limit *l,
		     unsigned int i, struct tp_judgement *j)
{
	struct tp_noise_summary s;
	uint64_t cycles;

	tp_noise_summarize(r, &r->cpu[i], &s);
	if (!s.samples || l->stat >= TP_ARRAY_SIZE(tp_noise_limit_pct)) {
		tp_judge_none(j, "no samples");
		return;
	}
	cycles = s.pct[tp_noise_limit_pct[l->stat]];
	if (l->cycles)
		tp_judge(j, (double)cycles, (double)l->value);
	else if (!r->tsc_khz)
		tp_judge_none(j, "the TSC rate is unknown");
	else
		tp_judge(j, (double)tp_cycles_to_ns_round(cycles, r->tsc_khz),
			 (double)l->value);
}

/**
 * tp_noise_output() - print a noise result as asked
 * @r: the result
 * @o: the format, the SVG file if any, and the limits if any
 * @f: standard output's stream
 *
 * Return: TP_EXIT_OK, TP_EXIT_FAIL when the SVG cannot be written, or
 * TP_EXIT_OVER_LIMIT when the result fails its limits.
 */
int tp_noise_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f)
{
	struct tp_verdict v;
	int ret = tp_verdict_judge(&v, r, o->limits, tp_noise_figure);

	if (ret)
		return ret;
	switch (o->fmt) {
	case TP_FMT_JSON:
		tp_noise_json(r, &v, f);
		break;
	case TP_FMT_CSV:
		tp_noise_csv(r, &v, f);
		break;
	case TP_FMT_PROM:
		tp_noise_prom(r, f);
		tp_verdict_prom(&v, f);
		break;
	default:
		tp_noise_text(r, &v, o->verbose, f);
	}
	ret = o->svg ? tp_noise_svg(r, o->svg) : TP_EXIT_OK;
	ret = tp_verdict_exit(&v, ret);
	tp_verdict_free(&v);
	return ret;
}
