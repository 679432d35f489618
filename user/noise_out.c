// SPDX-License-Identifier: GPL-2.0
/*
 * The noise report: per CPU a summary (samples, coverage, percentiles in
 * cycles and ns, events, attribution), the seed's log2 table and the
 * largest events; or the same as JSON (schema in Documentation/).
 */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "json.h"
#include "names.h"
#include "output.h"
#include "report.h"

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

static void tp_noise_counter_text(FILE *f, const char *name,
				  const struct tp_counter_res *k)
{
	if (k->ok)
		fprintf(f, ", %s %llu", name, (unsigned long long)k->v);
	else
		fprintf(f, ", %s n/a", name);
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
	const struct tp_event *x = a, *y = b;

	return x->cycles < y->cycles ? 1 : x->cycles > y->cycles ? -1 : 0;
}

static int tp_event_by_tsc(const void *a, const void *b)
{
	const struct tp_event *x = a, *y = b;

	return x->tsc > y->tsc ? 1 : x->tsc < y->tsc ? -1 : 0;
}

/* The five largest events, with their time since the start of the run. */
static void tp_noise_largest(const struct tp_result *r,
			     const struct tp_cpu_res *c, FILE *f)
{
	struct tp_event ev[TSCPROBE_MAX_EVENTS];
	char at[32], len[32];
	unsigned int i, n = c->nevents;

	if (!n)
		return;
	memcpy(ev, c->events, n * sizeof(ev[0]));
	qsort(ev, n, sizeof(ev[0]), tp_event_by_cycles_desc);
	fprintf(f, "  largest events:\n");
	for (i = 0; i < n && i < 5; i++) {
		tp_format_ns(tp_cycles_to_ns_round(ev[i].tsc - r->start_tsc,
						   r->tsc_khz), at, sizeof(at));
		tp_format_ns(tp_cycles_to_ns_round(ev[i].cycles, r->tsc_khz),
			     len, sizeof(len));
		fprintf(f, "    at +%-10s %10llu cycles (%s)\n", at,
			(unsigned long long)ev[i].cycles, len);
	}
}

static void tp_noise_cpu_text(const struct tp_result *r,
			      const struct tp_cpu_res *c, FILE *f)
{
	struct tp_noise_summary s;
	char ns[32];
	unsigned int i;

	tp_noise_summarize(r, c, &s);
	fprintf(f, "cpu %u: %llu samples, coverage %.2f%%, %llu windows%s\n",
		c->cpu, (unsigned long long)s.samples, 100.0 * s.coverage,
		(unsigned long long)c->windows,
		c->flags & TSCPROBE_CPU_F_INCOMPLETE ?
		", INCOMPLETE (went offline)" : "");
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
		tp_format_ns(tp_cycles_to_ns_round(s.pct[i], r->tsc_khz), ns,
			     sizeof(ns));
		fprintf(f, " %9s", ns);
	}
	fprintf(f, "\n  events %llu, %llu not kept", (unsigned long long)c->events_total,
		(unsigned long long)c->events_dropped);
	tp_noise_counter_text(f, "smi", &c->smi);
	tp_noise_counter_text(f, "nmi", &c->nmi);
	tp_noise_counter_text(f, "irq", &c->irq);
	if (s.effective_khz)
		fprintf(f, ", clock %llu MHz", (unsigned long long)(s.effective_khz / 1000));
	else
		fprintf(f, ", clock n/a");
	fprintf(f, "\n");
	tp_context_cpu_text(r, c, f);
	tp_noise_table(r, c, f);
	tp_noise_largest(r, c, f);
}

static void tp_noise_text(const struct tp_result *r, FILE *f)
{
	char cpus[256], dur[32], thr[32];
	unsigned int i;

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	tp_format_ns(r->elapsed_ns, dur, sizeof(dur));
	tp_format_ns(r->p.threshold_ns, thr, sizeof(thr));
	fprintf(f, "noise: %s engine, irqs %s, clock %s, %s on CPUs %s, tsc %u kHz, threshold %s (%llu cycles)",
		r->user_engine ? "user" : "kernel", tp_irqs_name(r->p.irqs),
		tp_clock_name(r->p.clock), dur, cpus, r->tsc_khz, thr,
		(unsigned long long)r->p.threshold_cycles);
	if (!r->user_engine)
		fprintf(f, ", run %llu %s (%s)", (unsigned long long)r->run_id,
			tp_state_name(r->state), tp_stop_reason_name(r->reason));
	fprintf(f, "\n");
	for (i = 0; i < r->ncpus; i++)
		tp_noise_cpu_text(r, &r->cpu[i], f);
	tp_context_text(r, f);
}

static void tj_counter(struct tj *j, const char *key,
		       const struct tp_counter_res *k)
{
	if (k->ok)
		tj_u64(j, key, k->v);
	else
		tj_null(j, key);
}

static void tp_noise_json_histogram(struct tj *j, const struct tp_cpu_res *c)
{
	uint64_t calls[65], cycles[65];
	unsigned int k;

	tj_arr(j, "histogram");
	if (tp_gap(c)->hist) {
		tp_hist_fold_log2(tp_gap(c)->hist, calls, cycles);
		for (k = 0; k < 65; k++) {
			if (!calls[k])
				continue;
			tj_obj(j, NULL);
			tj_u64(j, "lo_cycles", tp_log2_lo(k));
			tj_u64(j, "hi_cycles", tp_log2_hi(k));
			tj_u64(j, "calls", calls[k]);
			tj_u64(j, "cycles", cycles[k]);
			tj_obj_end(j);
		}
	}
	tj_arr_end(j);
}

static void tp_noise_json_events(struct tj *j, const struct tp_cpu_res *c)
{
	struct tp_event ev[TSCPROBE_MAX_EVENTS];
	unsigned int i;

	memcpy(ev, c->events, c->nevents * sizeof(ev[0]));
	qsort(ev, c->nevents, sizeof(ev[0]), tp_event_by_tsc);
	tj_arr(j, "events");
	for (i = 0; i < c->nevents; i++) {
		tj_obj(j, NULL);
		tj_u64(j, "tsc", ev[i].tsc);
		tj_u64(j, "cycles", ev[i].cycles);
		tj_obj_end(j);
	}
	tj_arr_end(j);
}

static void tp_noise_cpu_json(struct tj *j, const struct tp_result *r,
			      const struct tp_cpu_res *c)
{
	struct tp_noise_summary s;
	char key[32];
	unsigned int i;

	tp_noise_summarize(r, c, &s);
	tj_obj(j, NULL);
	tj_u64(j, "cpu", c->cpu);
	tj_u64(j, "node", c->node);
	tj_bool(j, "incomplete", c->flags & TSCPROBE_CPU_F_INCOMPLETE);
	tj_u64(j, "samples", s.samples);
	tj_u64(j, "windows", c->windows);
	tj_u64(j, "measured_cycles", c->measured_cycles);
	tj_u64(j, "wall_cycles", c->wall_cycles);
	tj_double(j, "coverage", s.coverage);
	for (i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "%s_cycles", tp_noise_keys[i]);
		tj_u64(j, key, s.pct[i]);
	}
	for (i = 0; i < 6; i++) {
		snprintf(key, sizeof(key), "%s_ns", tp_noise_keys[i]);
		tj_u64(j, key, tp_cycles_to_ns_round(s.pct[i], r->tsc_khz));
	}
	tj_u64(j, "events_total", c->events_total);
	tj_u64(j, "events_dropped", c->events_dropped);
	tj_counter(j, "smi_count", &c->smi);
	tj_counter(j, "nmi_count", &c->nmi);
	tj_counter(j, "irq_count", &c->irq);
	if (s.effective_khz)
		tj_double(j, "effective_mhz", s.effective_khz / 1000.0);
	else
		tj_null(j, "effective_mhz");
	tp_context_cpu_json(r, c, j);
	tp_noise_json_histogram(j, c);
	tp_noise_json_events(j, c);
	tj_obj_end(j);
}

static void tp_noise_json(const struct tp_result *r, FILE *f)
{
	struct tj j;
	unsigned int i;

	tj_init(&j, f);
	tj_obj(&j, NULL);
	tj_str(&j, "kind", "noise");
	tj_str(&j, "engine", r->user_engine ? "user" : "kernel");
	tj_u64(&j, "run_id", r->run_id);
	tj_str(&j, "state", tp_state_name(r->state));
	tj_str(&j, "stop_reason", tp_stop_reason_name(r->reason));
	tj_u64(&j, "tsc_khz", r->tsc_khz);
	tj_str(&j, "irqs", tp_irqs_name(r->p.irqs));
	tj_str(&j, "clock", tp_clock_name(r->p.clock));
	tj_u64(&j, "duration_ns", r->p.duration_ns);
	tj_u64(&j, "elapsed_ns", r->elapsed_ns);
	tj_u64(&j, "width_ns", r->p.width_ns);
	tj_u64(&j, "gap_ns", r->p.gap_ns);
	tj_u64(&j, "threshold_ns", r->p.threshold_ns);
	tj_u64(&j, "threshold_cycles", r->p.threshold_cycles);
	tj_arr(&j, "cpus");
	for (i = 0; i < r->ncpus; i++)
		tp_noise_cpu_json(&j, r, &r->cpu[i]);
	tj_arr_end(&j);
	tp_context_json(r, &j);
	tj_obj_end(&j);
	tj_finish(&j);
}

/**
 * tp_noise_report() - print a noise result
 * @r: the result
 * @json: JSON instead of text
 * @f: where to
 */
void tp_noise_report(const struct tp_result *r, bool json, FILE *f)
{
	if (json)
		tp_noise_json(r, f);
	else
		tp_noise_text(r, f);
}
