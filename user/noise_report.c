// SPDX-License-Identifier: GPL-2.0
/*
 * The noise report, built once as a model (lib/model.h): the run's
 * parameters, then a row per CPU (samples, coverage, the gap's percentiles
 * in cycles and ns, events, counters, causes, sources, the histogram and
 * the events kept), the groups of events across CPUs, the machine around
 * the run and the verdict.  Text adds each CPU's block (-v, or one CPU),
 * the table of a row per CPU, and the worst CPU.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/context_report.h"
#include "user/lib/event_report.h"
#include "user/lib/format.h"
#include "user/lib/render.h"
#include "user/lib/model.h"
#include "core/names.h"
#include "user/reports.h"
#include "core/report.h"
#include "user/noise_events.h"
#include "user/noise_sources.h"
#include "user/lib/verdict.h"

static const uint32_t tp_noise_ppm[4] = { 500000, 990000, 999000, 999900 };
static const char *const tp_noise_keys[6] = {
	"min", "p50", "p99", "p999", "p9999", "max",
};
/* The quantiles of the gap summary, as Prometheus labels them. */
static const char *const tp_noise_quantiles[6] = {
	"0", "0.5", "0.99", "0.999", "0.9999", "1",
};

static const struct tp_family tp_noise_threshold = {
	"tscprobe_noise_threshold_cycles", "gauge",
	"Event threshold in TSC cycles.", false,
};
static const struct tp_family tp_noise_gap = {
	"tscprobe_noise_gap_cycles", "summary",
	"Gap between consecutive TSC reads, in TSC cycles.", false,
};
static const struct tp_family tp_noise_coverage = {
	"tscprobe_noise_coverage_ratio", "gauge",
	"Measured time over wall time, 0 to 1.", false,
};
static const struct tp_family tp_noise_events = {
	"tscprobe_noise_events_total", "counter",
	"Gaps at or above the event threshold.", false,
};
static const struct tp_family tp_noise_smi = {
	"tscprobe_noise_smi_total", "counter",
	"SMIs during the run (MSR_SMI_COUNT, or the PMU's on AMD).", false,
};
static const struct tp_family tp_noise_nmi = {
	"tscprobe_noise_nmi_total", "counter", "NMIs during the run.", false,
};
static const struct tp_family tp_noise_irq = {
	"tscprobe_noise_irq_total", "counter", "Interrupts during the run.", false,
};
static const struct tp_family tp_noise_steps = {
	"tscprobe_noise_tsc_steps_back_total", "counter",
	"Times the TSC went backwards between two reads (not noise).", false,
};
static const struct tp_family tp_noise_step_max = {
	"tscprobe_noise_tsc_step_back_max_cycles", "gauge",
	"The largest step back of the TSC, in TSC cycles (0: none).", false,
};

static const struct tp_picture tp_noise_picture = {
	.title = "tscprobe noise", .width = 760, .panel = 240, .xmin = 256,
	.xlabel = "gap between TSC reads (cycles, log2)",
	.ylabel = "gaps (log10)", .count = "gaps", .strip = 790,
};

/* The families' order in the Prometheus output, after the run's. */
static const struct tp_family *const tp_noise_families[] = {
	&tp_noise_threshold, &tp_noise_gap, &tp_noise_coverage,
	&tp_noise_events, &tp_noise_smi, &tp_noise_nmi, &tp_noise_irq,
	&tp_noise_steps, &tp_noise_step_max,
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

/* A log2 bucket in -v's table: its range in cycles and ns, its shares. */
static void tp_noise_bucket_text(struct tp_model *m, const struct tp_series_res *g,
				 unsigned int k, uint64_t calls, uint64_t cycles)
{
	uint32_t khz = tp_model_result(m)->tsc_khz;
	char lo[32], hi[32], range[72];

	tp_format_cycles(tp_log2_lo(k), khz, lo, sizeof(lo));
	tp_format_cycles(tp_log2_hi(k), khz, hi, sizeof(hi));
	snprintf(range, sizeof(range), "%s-%s", lo, hi);
	tp_text(m, "    %10llu-%-10llu %17s %11llu %7.2f%% %7.2f%%\n",
		(unsigned long long)tp_log2_lo(k), (unsigned long long)tp_log2_hi(k),
		range, (unsigned long long)calls,
		g->stats.count ? 100.0 * calls / g->stats.count : 0,
		g->stats.sum ? 100.0 * cycles / g->stats.sum : 0);
}

/* The gap's histogram folded into log2 buckets: JSON's, and -v's table. */
static void tp_noise_histogram(struct tp_model *m, const struct tp_cpu_res *c)
{
	const struct tp_series_res *g = tp_gap(c);
	uint64_t calls[TP_LOG2_BUCKETS], cycles[TP_LOG2_BUCKETS];
	unsigned int k;

	memset(calls, 0, sizeof(calls));
	if (g->hist)
		tp_hist_fold_log2(g->hist, calls, cycles);
	tp_text(m, "  the gaps by length:     cycles              time       gaps   %%gaps   %%time\n");
	tp_arr(m, "histogram");
	for (k = 0; k < TP_LOG2_BUCKETS; k++) {
		if (!calls[k])
			continue;
		tp_noise_bucket_text(m, g, k, calls[k], cycles[k]);
		tp_obj(m, NULL);
		tp_u64(m, "lo_cycles", tp_log2_lo(k), NULL);
		tp_u64(m, "hi_cycles", tp_log2_hi(k), NULL);
		tp_u64(m, "calls", calls[k], NULL);
		tp_u64(m, "cycles", cycles[k], NULL);
		tp_end(m);
	}
	tp_end(m);
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

/* Text's five largest events, with their time since the run's start. */
static void tp_noise_largest(struct tp_model *m, const struct tp_cpu_res *c,
			     struct tp_event_res *ev)
{
	const struct tp_result *r = tp_model_result(m);
	char at[32], len[32];
	unsigned int i;
	FILE *f;

	if (!c->nevents)
		return;
	qsort(ev, c->nevents, sizeof(ev[0]), tp_event_by_cycles_desc);
	tp_text(m, "  largest events: since the start, length, cause [counters across the gap]\n");
	for (i = 0; i < c->nevents && i < 5; i++) {
		tp_format_cycles(ev[i].tsc - r->start_tsc, r->tsc_khz,
				 at, sizeof(at));
		tp_format_cycles(ev[i].cycles, r->tsc_khz, len, sizeof(len));
		f = tp_text_open(m);
		fprintf(f, "    +%-8s %8s (%llu cycles)", at, len,
			(unsigned long long)ev[i].cycles);
		tp_noise_event_text(r, &ev[i], f);
		fputc('\n', f);
		tp_text_close(m, f, "        ");
	}
}

/* The events kept, in time order; text's largest first. */
static void tp_noise_events_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	struct tp_event_res ev[TSCPROBE_MAX_EVENTS];
	unsigned int i;

	memcpy(ev, c->events, c->nevents * sizeof(ev[0]));
	qsort(ev, c->nevents, sizeof(ev[0]), tp_event_by_tsc);
	tp_arr(m, "events");
	for (i = 0; i < c->nevents; i++) {
		tp_obj(m, NULL);
		tp_noise_event_model(m, &ev[i]);
		tp_end(m);
	}
	tp_end(m);
	tp_noise_largest(m, c, ev);
}

/* Whether the TSC of @c stepped back during the run. */
static bool tp_noise_stepped(const struct tp_cpu_res *c)
{
	return c->steps_back.ok && c->steps_back.v;
}

/* A CPU block's first line (-v): what it measured. */
static const struct tp_column tp_noise_cpu_head[] = {
	{ "cpu", "cpu %llu: ", NULL, TP_CELL_PLAIN },
	{ "samples", "%llu gaps in ", NULL, TP_CELL_PLAIN },
	{ "windows", "%llu windows, ", NULL, TP_CELL_PLAIN },
	{ "coverage", "%.2f%% of the time measured", NULL, TP_CELL_PCT },
};

/* Its events, and the counters the CPU keeps over the run. */
static const struct tp_column tp_noise_cpu_events[] = {
	{ "events_total", "%llu, ", NULL, TP_CELL_PLAIN },
	{ "events_dropped", "%llu not kept\n", NULL, TP_CELL_PLAIN },
	{ "smi_count", "  the CPU's counters over the run: smi %llu", NULL,
	  TP_CELL_PLAIN },
};
static const struct tp_column tp_noise_cpu_counters[] = {
	{ "nmi_count", ", nmi %llu", NULL, TP_CELL_PLAIN },
	{ "irq_count", ", irq %llu", NULL, TP_CELL_PLAIN },
};

/* A CPU block's first line (-v): the row's fields; no samples: the last. */
static void tp_noise_cpu_head_text(struct tp_model *m,
				   const struct tp_cpu_res *c,
				   const struct tp_noise_summary *s)
{
	const char *why = tp_cpu_incomplete_why(c, s->samples);

	tp_line(m, NULL, tp_noise_cpu_head, TP_ARRAY_SIZE(tp_noise_cpu_head));
	tp_text(m, "%s%s%s\n", *why ? "; INCOMPLETE (" : "", why,
		*why ? ")" : "");
	tp_text_quiet(m, !s->samples);
}

/*
 * A CPU block's lines after the gaps (-v): its events, and the counters
 * the CPU keeps over the run; each figure once, with what it counts.
 */
static void tp_noise_cpu_text(struct tp_model *m, const struct tp_cpu_res *c,
			      const struct tp_noise_summary *s)
{
	const struct tp_result *r = tp_model_result(m);
	char ns[32];

	tp_format_ns(r->p.threshold_ns, ns, sizeof(ns));
	tp_text(m, "  events (gaps of %s or more): ", ns);
	tp_line(m, NULL, tp_noise_cpu_events,
		TP_ARRAY_SIZE(tp_noise_cpu_events));
	if (c->smi.ok)
		tp_line(m, NULL, &(struct tp_column){ "smi_source", " (%s)",
						      NULL, TP_CELL_PLAIN }, 1);
	tp_line(m, NULL, tp_noise_cpu_counters,
		TP_ARRAY_SIZE(tp_noise_cpu_counters));
	if (s->effective_khz)
		tp_text(m, "; clock %llu MHz\n",
			(unsigned long long)(s->effective_khz / 1000));
	else
		tp_text(m, "; clock n/a\n");
	if (!tp_noise_stepped(c))
		return;
	tp_format_cycles(c->step_back_max, r->tsc_khz, ns, sizeof(ns));
	tp_text_wrap(m, "    ", "  TSC stepped back %llu time%s, the largest by %llu cycles (%s): each ended its window; no gap, not noise\n",
		     (unsigned long long)c->steps_back.v,
		     c->steps_back.v == 1 ? "" : "s",
		     (unsigned long long)c->step_back_max, ns);
}

/*
 * The gap's percentiles in cycles, then in ns (p50, p99.99, max in CSV);
 * in text (-v) the cycles, then the same cycles as times.
 */
static void tp_noise_pct_model(struct tp_model *m,
			       const struct tp_noise_summary *s)
{
	/* p50, p99.99 and max first; the others (901...) added later */
	static const unsigned int ns_col[6] = { 901, 17, 902, 903, 18, 19 };
	/* the picture's figures: the median and the tail */
	static const char *const svg[6] = {
		NULL, "p50 %llu", NULL, NULL, "p99.99 %llu", "max %llu cycles",
	};
	struct tp_column cycles[6], time[6];
	char key[6][32];
	unsigned int i;

	for (i = 0; i < 6; i++) {
		snprintf(key[i], sizeof(key[i]), "%s_cycles", tp_noise_keys[i]);
		cycles[i] = (struct tp_column){ key[i], " %8llu", NULL,
						TP_CELL_PLAIN };
		time[i] = (struct tp_column){ key[i], " %8s", NULL, TP_CELL_TIME };
		tp_u64(m, key[i], s->pct[i], &(struct tp_opts){
			.csv = 11 + i, .prom = &tp_noise_gap, .svg = svg[i],
			.labels = tp_labels(m, "quantile", tp_noise_quantiles[i],
					    NULL) });
	}
	tp_text(m, "  gap between TSC reads       min      p50      p99    p99.9   p99.99      max\n    cycles              ");
	tp_line(m, NULL, cycles, 6);
	tp_text(m, "\n    time                ");
	tp_line(m, NULL, time, 6);
	tp_text(m, "\n");
	for (i = 0; i < 6; i++) {
		snprintf(key[i], sizeof(key[i]), "%s_ns", tp_noise_keys[i]);
		tp_u64(m, key[i], tp_cycles_to_ns_round(s->pct[i],
						       tp_model_result(m)->tsc_khz),
		       &(struct tp_opts){ .csv = ns_col[i] });
	}
}

/* The run's counters on the CPU, null where unreadable. */
static void tp_noise_counters_model(struct tp_model *m,
				    const struct tp_cpu_res *c,
				    const struct tp_noise_summary *s)
{
	tp_counter(m, "smi_count", &c->smi,
		   &(struct tp_opts){ .csv = 22, .prom = &tp_noise_smi });
	tp_str(m, "smi_source", tp_smi_source_name(tp_cpu_smi_source(c)),
	       &(struct tp_opts){ .csv = 39 });
	tp_counter(m, "nmi_count", &c->nmi,
		   &(struct tp_opts){ .csv = 23, .prom = &tp_noise_nmi });
	tp_counter(m, "irq_count", &c->irq,
		   &(struct tp_opts){ .csv = 24, .prom = &tp_noise_irq });
	tp_counter(m, "tsc_steps_back", &c->steps_back,
		   &(struct tp_opts){ .csv = 26, .prom = &tp_noise_steps });
	tp_counter(m, "tsc_step_back_max_cycles",
		   &(struct tp_counter_res){ c->steps_back.ok, c->step_back_max },
		   &(struct tp_opts){ .csv = 27, .prom = &tp_noise_step_max });
	if (s->effective_khz)
		tp_dbl(m, "effective_mhz", s->effective_khz / 1000.0,
		       &(struct tp_opts){ .csv = 25 });
	else
		tp_null(m, "effective_mhz", &(struct tp_opts){ .csv = 25 });
}

/*
 * The CPU in the picture: its gap's histogram, its figures as the panel's
 * heading, who took the CPU as the caption; "CPU 3" leads the tooltip of
 * the figures the picture shows (the fields' svg formats).
 */
static void tp_noise_picture_row(struct tp_model *m, const struct tp_cpu_res *c,
				 const struct tp_noise_summary *s)
{
	const struct tp_result *r = tp_model_result(m);
	char line[256];

	tp_series(m, &(struct tp_series){ .name = "gap", .colour = "#3b528b",
		  .h = tp_gap(c)->hist, .tail = (double)s->pct[4],
		  .max = (double)s->pct[5], .top = (double)s->pct[5] });
	tp_note(m, TP_NOTE_HEADING,
		"CPU %u: %llu samples, p50 %llu, p99.99 %llu, max %llu cycles, coverage %.2f%%",
		c->cpu, (unsigned long long)s->samples,
		(unsigned long long)s->pct[1], (unsigned long long)s->pct[4],
		(unsigned long long)s->pct[5], 100.0 * s->coverage);
	tp_note(m, TP_NOTE_TOOLTIP, "CPU %u", c->cpu);
	if (tp_noise_sources_brief(r, c, line, sizeof(line)))
		tp_note(m, TP_NOTE_CAPTION, "%s", line);
}

/* Row @i: one CPU. */
static void tp_noise_row(struct tp_model *m, const void *ctx, unsigned int i)
{
	const struct tp_result *r = ctx;
	const struct tp_cpu_res *c = &r->cpu[i];
	struct tp_noise_summary s;
	char cpu[16];

	tp_noise_summarize(r, c, &s);
	snprintf(cpu, sizeof(cpu), "%u", c->cpu);
	tp_model_labels(m, "cpu", cpu, "engine", tp_result_engine(r),
			"irqs", tp_irqs_name(r->p.irqs), NULL);
	tp_noise_cpu_head_text(m, c, &s);
	tp_report_cpu_model(m, c, 5);
	tp_u64(m, "samples", s.samples, &(struct tp_opts){
		.csv = 8, .prom = &tp_noise_gap, .suffix = "_count",
		.svg = "%llu samples" });
	tp_u64(m, "windows", c->windows, &(struct tp_opts){ .csv = 9 });
	tp_u64(m, "measured_cycles", c->measured_cycles, &(struct tp_opts){
		.prom = &tp_noise_gap, .suffix = "_sum" });
	tp_u64(m, "wall_cycles", c->wall_cycles, NULL);
	tp_dbl(m, "coverage", s.coverage, &(struct tp_opts){
		.csv = 10, .prom = &tp_noise_coverage });
	tp_noise_pct_model(m, &s);
	tp_u64(m, "events_total", c->events_total, &(struct tp_opts){
		.csv = 20, .prom = &tp_noise_events });
	tp_u64(m, "events_dropped", c->events_dropped,
	       &(struct tp_opts){ .csv = 21 });
	tp_noise_cpu_text(m, c, &s);
	tp_noise_causes_model(m, c);
	tp_noise_sources_model(m, c);
	tp_noise_counters_model(m, c, &s);
	tp_context_cpu_model(m, c);
	tp_noise_histogram(m, c);
	tp_noise_events_model(m, c);
	tp_report_cpu_note(m, c);
	tp_noise_picture_row(m, c, &s);
	tp_verdict_row_model(m, i);
}

/*
 * The table: a row per CPU, its gap's percentiles in time (the cycles are
 * -v's, JSON's and CSV's), its events and the CPU's counters over the run.
 */
static const struct tp_column tp_noise_table_cols[] = {
	{ "cpu", "%4llu", NULL, TP_CELL_PLAIN },
	{ "samples", " %11llu", NULL, TP_CELL_PLAIN },
	{ "coverage", " %6.2f%%", NULL, TP_CELL_PCT },
	{ "p50_cycles", " %8s", NULL, TP_CELL_TIME },
	{ "p99_cycles", " %8s", NULL, TP_CELL_TIME },
	{ "p9999_cycles", " %8s", NULL, TP_CELL_TIME },
	{ "max_cycles", " %8s", NULL, TP_CELL_TIME },
	{ "events_total", " %7llu", NULL, TP_CELL_PLAIN },
	{ "smi_count", " %5llu", NULL, TP_CELL_PLAIN },
	{ "nmi_count", " %5llu", NULL, TP_CELL_PLAIN },
	{ "irq_count", " %5llu", NULL, TP_CELL_PLAIN },
	{ "note", "%s", NULL, TP_CELL_PLAIN },
};

/*
 * The line under the table: the CPU with the largest gap, how large, and
 * what the run saw on it; the worst p99.99 too when another CPU has it.
 */
static void tp_noise_worst(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	const struct tp_cpu_res *w = NULL, *t = NULL;
	struct tp_noise_summary s, ws = { 0 }, ts = { 0 };
	char len[32];
	unsigned int i;
	FILE *f;

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
		tp_text(m, "worst: no CPU has samples\n");
		return;
	}
	f = tp_text_open(m);
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
	fputc('\n', f);
	tp_text_close(m, f, "  ");
}

/* Why the SMI counts are n/a, when they are: never left to be read as 0. */
static void tp_noise_smi_text(struct tp_model *m)
{
	enum tp_smi_why why = tp_result_smi_why(tp_model_result(m));

	if (why != TP_SMI_READABLE)
		tp_text_wrap(m, "  ", "smi n/a: %s\n", tp_smi_why_text(why));
}

/* Why each incomplete CPU is: the table's note says only that it is. */
static void tp_noise_incomplete(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_noise_summary s;
	unsigned int i;

	for (i = 0; i < r->ncpus; i++) {
		if (!(r->cpu[i].flags & TSCPROBE_CPU_F_INCOMPLETE))
			continue;
		tp_noise_summarize(r, &r->cpu[i], &s);
		tp_text_wrap(m, "  ", "CPU %u: INCOMPLETE (%s)\n", r->cpu[i].cpu,
			     tp_cpu_incomplete_why(&r->cpu[i], s.samples));
	}
}

/* The CPUs whose TSC stepped back: "cpu 2 1x (largest N cycles)". */
static void tp_noise_steps_all(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	unsigned int i, n = 0;
	FILE *f = tp_text_open(m);

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
		fputc('\n', f);
	tp_text_close(m, f, "  ");
}

/*
 * The table of a row per CPU, whatever the CPUs (one reads like many),
 * then the worst CPU (of several); every CPU in full is -v's, after it.
 */
static void tp_noise_table(struct tp_model *m)
{
	tp_text(m, "                             ------- gap between TSC reads -------          -- over the run --\n");
	tp_text(m, " cpu     samples   cover      p50      p99   p99.99      max  events   smi   nmi   irq\n");
	tp_table(m, "cpus", tp_noise_table_cols, TP_ARRAY_SIZE(tp_noise_table_cols));
	if (tp_model_result(m)->ncpus > 1)
		tp_noise_worst(m);
	tp_noise_incomplete(m);
	tp_noise_steps_all(m);
	tp_noise_smi_text(m);
	if (!tp_model_output(m)->verbose)
		tp_text(m, "(-v: every CPU in full: the gaps in cycles, events, causes, sources, interrupts)\n");
}

/* The text's first line: the run's parameters. */
static void tp_noise_heading(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	char cpus[256], dur[32], thr[32];

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	tp_format_ns(r->elapsed_ns, dur, sizeof(dur));
	tp_format_ns(r->p.threshold_ns, thr, sizeof(thr));
	tp_text(m, "noise: %s engine, %s on CPUs %s", tp_result_engine(r), dur,
		cpus);
	tp_report_run_text(m);
	tp_text(m, "  irqs %s, clock %s, threshold %s (%llu cycles), tsc %u kHz (%.2f cycles/ns)",
		tp_irqs_name(r->p.irqs), tp_clock_name(r->p.clock), thr,
		(unsigned long long)r->p.threshold_cycles, r->tsc_khz,
		r->tsc_khz / 1e6);
	if (r->p.warm_up_ns) {
		tp_format_ns(r->p.warm_up_ns, dur, sizeof(dur));
		tp_text(m, ", warm-up %s dropped", dur);
	}
	tp_text(m, "\n");
}

/* The run's parameters, as the engine ran it. */
static void tp_noise_params(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);

	tp_str(m, "irqs", tp_irqs_name(r->p.irqs), &(struct tp_opts){ .csv = 3 });
	tp_str(m, "clock", tp_clock_name(r->p.clock), NULL);
	tp_u64(m, "duration_ns", r->p.duration_ns, NULL);
	tp_u64(m, "warm_up_ns", r->p.warm_up_ns, NULL);
	tp_u64(m, "elapsed_ns", r->elapsed_ns, &tp_elapsed_opts);
	tp_u64(m, "width_ns", r->p.width_ns, NULL);
	tp_u64(m, "gap_ns", r->p.gap_ns, NULL);
	tp_u64(m, "threshold_ns", r->p.threshold_ns, NULL);
	tp_u64(m, "threshold_cycles", r->p.threshold_cycles,
	       &(struct tp_opts){ .prom = &tp_noise_threshold });
}

/* The picture's title: a panel per CPU, or a heat strip of them all. */
static void tp_noise_picture_title(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);

	tp_picture(m, &tp_noise_picture);
	if (r->p.threshold_cycles)
		tp_marker(m, (double)r->p.threshold_cycles, "event threshold");
	if (r->ncpus <= TP_PANEL_ROWS) {
		tp_note(m, TP_NOTE_TITLE,
			"tscprobe noise: %s engine, irqs %s, clock %s, tsc %u kHz",
			tp_result_engine(r), tp_irqs_name(r->p.irqs),
			tp_clock_name(r->p.clock), r->tsc_khz);
		return;
	}
	tp_note(m, TP_NOTE_TITLE,
		"tscprobe noise: %s engine, irqs %s, %u CPUs, tsc %u kHz",
		tp_result_engine(r), tp_irqs_name(r->p.irqs), r->ncpus,
		r->tsc_khz);
	tp_note(m, TP_NOTE_TITLE,
		"rows: CPUs; columns: gap between TSC reads (cycles, log2); colour: log10 of the count; black: p99.99, red: max");
}

static void tp_noise_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	const struct tp_output *o = tp_model_output(m);
	enum tp_smi_why why = tp_result_smi_why(r);
	unsigned int i;

	tp_noise_heading(m);
	tp_noise_picture_title(m);
	tp_report_head(m, "noise");
	for (i = 0; i < TP_ARRAY_SIZE(tp_noise_families); i++)
		tp_family(m, tp_noise_families[i]);
	tp_noise_sources_families(m);
	tp_model_labels(m, "engine", tp_result_engine(r),
			"irqs", tp_irqs_name(r->p.irqs), NULL);
	tp_noise_params(m);
	tp_noise_stop_model(m);
	tp_str(m, "smi_count_unreadable",
	       why == TP_SMI_READABLE ? NULL : tp_smi_why_key(why), NULL);
	tp_noise_table(m);
	/* -v: every CPU in full, after the table */
	tp_rows(m, "cpus", r->ncpus, tp_noise_row, r);
	if (!o->verbose)
		tp_not_in(m, TP_IN_TEXT);
	tp_noise_groups_model(m);
	tp_context_model(m);
	tp_verdict_model(m);
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

/* The noise report: its figures for limits, its model. */
const struct tp_report_kind tp_noise_report = {
	tp_noise_figure, tp_noise_model,
};

/* A noise result's report, as @o asks (tp_report()). */
int tp_noise_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f)
{
	return tp_report(r, o, f, &tp_noise_report);
}
