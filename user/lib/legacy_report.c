// SPDX-License-Identifier: GPL-2.0
/*
 * TEMPORARY: the old writers, until cache and skew use the model.
 * How every report prints the machine around a run (context.c): per CPU
 * its interrupts and scheduling, then the environment audit.
 */
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "context_report.h"
#include "json_write.h"
#include "result.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include "core/names.h"
#include "verdict.h"
#include "format.h"

static void tp_context_irqs_line(const struct tp_context *x, unsigned int cpu,
				 FILE *f)
{
	unsigned int k;

	for (k = 0; k < TP_IRQ_CATS; k++)
		fprintf(f, " %s %llu%s", tp_irq_cat_name(k),
			(unsigned long long)tp_irq_delta(x, k, cpu),
			k + 1 < TP_IRQ_CATS ? "," : "");
	fprintf(f, "\n");
}

/**
 * tp_context_cpu_text() - one CPU's interrupts and scheduling, in a line
 * @r: the run
 * @c: the CPU
 * @f: where to
 */
void tp_context_cpu_text(const struct tp_result *r, const struct tp_cpu_res *c,
			 FILE *f)
{
	if (tp_irq_known(r->ctx, c->cpu)) {
		fprintf(f, "  interrupts:");
		tp_context_irqs_line(r->ctx, c->cpu, f);
	}
	if (c->ctx_vol.ok)
		fprintf(f, "  scheduler: %llu voluntary and %llu involuntary context switches, %llu migrations\n",
			(unsigned long long)c->ctx_vol.v,
			(unsigned long long)c->ctx_invol.v,
			(unsigned long long)c->migrations.v);
}

/**
 * tp_context_cpus_text() - the interrupts of every CPU of the run, a line
 *	each, for reports that are not per CPU (skew)
 * @r: the run
 * @f: where to
 */
void tp_context_cpus_text(const struct tp_result *r, FILE *f)
{
	int cpu = -1;

	if (!r->ctx || !r->ctx->have_irqs)
		return;
	fprintf(f, "interrupts during the run:\n");
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		fprintf(f, "  cpu %d:", cpu);
		if (tp_irq_known(r->ctx, (unsigned int)cpu))
			tp_context_irqs_line(r->ctx, (unsigned int)cpu, f);
		else
			fprintf(f, " unknown (not in both readings of /proc/interrupts)\n");
	}
}

/**
 * tp_context_cpus_json() - "interrupts": a list of {cpu, LOC, ...}
 * @r: the run
 * @j: the writer, inside the report's top-level object
 */
void tp_context_cpus_json(const struct tp_result *r, struct jw *j)
{
	unsigned int k;
	int cpu = -1;

	if (!r->ctx || !r->ctx->have_irqs) {
		jw_null(j, "interrupts");
		return;
	}
	jw_arr(j, "interrupts");
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		jw_obj(j, NULL);
		jw_u64(j, "cpu", (uint64_t)cpu);
		for (k = 0; k < TP_IRQ_CATS; k++)
			if (tp_irq_known(r->ctx, (unsigned int)cpu))
				jw_u64(j, tp_irq_cat_name(k),
				       tp_irq_delta(r->ctx, k, (unsigned int)cpu));
			else
				jw_null(j, tp_irq_cat_name(k));
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

/* A clock that moved by more than this over a CPU's run is warned of. */
#define TP_CLOCK_MOVED_PCT	5
/* The CPUs whose move is spelt out; -j has every one. */
#define TP_CLOCK_MOVED_LINES	8

/* Cache and skew read the clocks (noise has its own, per window). */
static bool tp_clock_reported(const struct tp_result *r)
{
	return r->kind != TSCPROBE_KIND_NOISE;
}

static bool tp_clock_read(const struct tp_cpu_res *c)
{
	return c->clock_before_khz && c->clock_after_khz;
}

static bool tp_clock_moved(const struct tp_cpu_res *c)
{
	uint64_t b = c->clock_before_khz, a = c->clock_after_khz;

	return tp_clock_read(c) &&
	       (a > b ? a - b : b - a) * 100 > TP_CLOCK_MOVED_PCT * b;
}

/**
 * struct tp_clock_span - the clocks of a run's CPUs, before and after
 * @lo: the lowest before [0] and after [1], kHz
 * @hi: the highest
 * @nread: CPUs with both clocks
 * @unread: CPUs without
 * @moved: CPUs whose clock moved (tp_clock_moved())
 */
struct tp_clock_span {
	uint32_t lo[2];
	uint32_t hi[2];
	unsigned int nread;
	struct tp_cpuset unread;
	struct tp_cpuset moved;
};

static void tp_clock_span(const struct tp_result *r, struct tp_clock_span *s)
{
	unsigned int i, k;

	memset(s, 0, sizeof(*s));
	s->lo[0] = s->lo[1] = UINT32_MAX;
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];
		const uint32_t khz[2] = { c->clock_before_khz, c->clock_after_khz };

		if (!tp_clock_read(c)) {
			tp_cpuset_add(&s->unread, c->cpu);
			continue;
		}
		s->nread++;
		for (k = 0; k < 2; k++) {
			s->lo[k] = khz[k] < s->lo[k] ? khz[k] : s->lo[k];
			s->hi[k] = khz[k] > s->hi[k] ? khz[k] : s->hi[k];
		}
		if (tp_clock_moved(c))
			tp_cpuset_add(&s->moved, c->cpu);
	}
}

static void tp_mhz_range_text(uint32_t lo, uint32_t hi, FILE *f)
{
	if (lo / 1000 == hi / 1000)
		fprintf(f, "%u", lo / 1000);
	else
		fprintf(f, "%u-%u", lo / 1000, hi / 1000);
}

/* Each CPU whose clock moved, up to TP_CLOCK_MOVED_LINES of them. */
static void tp_clock_moved_text(const struct tp_result *r,
				const struct tp_clock_span *s, FILE *f)
{
	unsigned int i, n = 0, total = tp_cpuset_count(&s->moved);

	for (i = 0; i < r->ncpus && n < TP_CLOCK_MOVED_LINES; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		if (!tp_clock_moved(c))
			continue;
		n++;
		fprintf(f, "warning: CPU %u: the clock moved %+.1f %% during its run (%u -> %u MHz): its cycle figures mix two clocks\n",
			c->cpu,
			100.0 * ((double)c->clock_after_khz - c->clock_before_khz) /
			c->clock_before_khz,
			c->clock_before_khz / 1000, c->clock_after_khz / 1000);
	}
	if (total > n)
		fprintf(f, "warning: and on %u more CPUs (-j lists each)\n", total - n);
}

/*
 * Cache and skew: the effective clock before and after each CPU's run,
 * as ranges over the CPUs, and a warning for each CPU where it moved.
 */
static void tp_clock_text(const struct tp_result *r, FILE *f)
{
	struct tp_clock_span s;
	char cpus[256];

	if (!tp_clock_reported(r))
		return;
	if (r->user_engine) {
		fprintf(f, "effective clock: not read (the userspace engine reads no MSR)\n");
		return;
	}
	tp_clock_span(r, &s);
	if (!s.nread) {
		fprintf(f, "effective clock: not read (no APERF/MPERF on these CPUs)\n");
		return;
	}
	fprintf(f, "effective clock (APERF/MPERF) before -> after the run: ");
	tp_mhz_range_text(s.lo[0], s.hi[0], f);
	fprintf(f, " -> ");
	tp_mhz_range_text(s.lo[1], s.hi[1], f);
	fprintf(f, " MHz");
	if (tp_cpuset_count(&s.unread)) {
		tp_cpuset_who(&s.unread, cpus, sizeof(cpus));
		fprintf(f, "; not read on %s", cpus);
	}
	fprintf(f, "\n");
	tp_clock_moved_text(r, &s, f);
}

static void tp_json_khz_as_mhz(struct jw *j, const char *key, uint32_t khz)
{
	if (khz)
		jw_double(j, key, khz / 1000.0);
	else
		jw_null(j, key);
}

/* Cache and skew: "clock", null from the userspace engine. */
static void tp_clock_json(const struct tp_result *r, struct jw *j)
{
	struct tp_clock_span s;
	unsigned int i;

	if (!tp_clock_reported(r))
		return;
	if (r->user_engine) {
		jw_null(j, "clock");
		return;
	}
	tp_clock_span(r, &s);
	jw_obj(j, "clock");
	jw_u64(j, "moved_above_pct", TP_CLOCK_MOVED_PCT);
	jw_cpuset(j, "moved_cpus", &s.moved);
	jw_arr(j, "cpus");
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		jw_obj(j, NULL);
		jw_u64(j, "cpu", c->cpu);
		tp_json_khz_as_mhz(j, "before_mhz", c->clock_before_khz);
		tp_json_khz_as_mhz(j, "after_mhz", c->clock_after_khz);
		jw_bool(j, "moved", tp_clock_moved(c));
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

/**
 * tp_context_text() - where the CLI ran, and the environment warnings of
 *	the run's CPUs
 * @r: the run
 * @f: where to
 */
void tp_context_text(const struct tp_result *r, FILE *f)
{
	tp_placement_text(&r->cli, f);
	tp_conditions_text(&r->held, f);
	tp_clock_text(r, f);
	tp_load_text(&r->load, f);
	tp_actions_text(&r->actions, f);
	if (!r->ctx || !r->ctx->have_env || !r->ctx->env.nwarn)
		return;
	fprintf(f, "environment (tscprobe env):\n");
	tp_env_warnings_text(&r->ctx->env, f);
}

/**
 * tp_context_cpu_json() - a CPU's "interrupts" and "scheduler" objects
 * @r: the run
 * @c: the CPU
 * @j: the writer, inside the CPU's object
 */
void tp_context_cpu_json(const struct tp_result *r, const struct tp_cpu_res *c,
			 struct jw *j)
{
	unsigned int k;

	if (tp_irq_known(r->ctx, c->cpu)) {
		jw_obj(j, "interrupts");
		for (k = 0; k < TP_IRQ_CATS; k++)
			jw_u64(j, tp_irq_cat_name(k),
			       tp_irq_delta(r->ctx, k, c->cpu));
		jw_obj_end(j);
	} else {
		jw_null(j, "interrupts");
	}
	jw_obj(j, "scheduler");
	tp_json_counter(j, "voluntary_switches", &c->ctx_vol);
	tp_json_counter(j, "involuntary_switches", &c->ctx_invol);
	tp_json_counter(j, "migrations", &c->migrations);
	jw_obj_end(j);
}

/**
 * tp_context_json() - the run's "cli", "conditions", "clock" (cache and
 *	skew), "load", "actions" and "environment" objects
 * @r: the run
 * @j: the writer, inside the report's top-level object
 */
void tp_context_json(const struct tp_result *r, struct jw *j)
{
	tp_placement_json(&r->cli, j);
	tp_conditions_json(&r->held, j);
	tp_clock_json(r, j);
	tp_load_json(&r->load, j);
	tp_actions_json(&r->actions, j);
	if (r->ctx && r->ctx->have_env)
		tp_env_json(&r->ctx->env, j, "environment");
	else
		jw_null(j, "environment");
}

/**
 * tp_result_json_head() - open a report's JSON object with what every kind
 * starts with: kind, engine, run_id, state, stop_reason and tsc_khz
 * @j: the writer
 * @r: the result reported
 * @kind: the kind's name
 */
void tp_result_json_head(struct jw *j, const struct tp_result *r,
			 const char *kind)
{
	jw_obj(j, NULL);
	jw_str(j, "kind", kind);
	jw_str(j, "engine", tp_result_engine(r));
	jw_u64(j, "run_id", r->run_id);
	jw_str(j, "state", tp_state_name(r->state));
	jw_str(j, "stop_reason", tp_stop_reason_name(r->reason));
	jw_u64(j, "tsc_khz", r->tsc_khz);
}


#define TP_VERDICT_SHOWN 10
/**
 * struct tp_limit_tally - one limit over every CPU (pair)
 * @over: over the limit
 * @none: not judged
 * @highest: the CPU (pair) with the highest figure judged (-1: none)
 */
struct tp_limit_tally {
	unsigned int over;
	unsigned int none;
	int highest;
};

static void tp_verdict_tally(const struct tp_verdict *v, unsigned int k,
			     struct tp_limit_tally *t)
{
	const struct tp_judgement *j;
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->highest = -1;
	for (i = 0; i < v->entries; i++) {
		j = tp_verdict_at(v, k, i);
		t->over += j->how == TP_JUDGED_OVER;
		t->none += j->how == TP_JUDGED_NONE;
		if (j->how != TP_JUDGED_NONE &&
		    (t->highest < 0 ||
		     j->figure > tp_verdict_at(v, k, (unsigned int)t->highest)->figure))
			t->highest = (int)i;
	}
}

static bool tp_limit_passed(const struct tp_verdict *v,
			    const struct tp_limit_tally *t)
{
	return v->entries && !t->over && !t->none;
}

/* "cpu 3", or for skew "0 -> 1". */
static void tp_verdict_label(const struct tp_result *r, unsigned int i,
			     char *buf, size_t len)
{
	if (r->kind == TSCPROBE_KIND_SKEW)
		snprintf(buf, len, "%u -> %u", r->pair[i].from, r->pair[i].to);
	else
		snprintf(buf, len, "cpu %u", r->cpu[i].cpu);
}

/* "CPU", "CPUs", "pair" or "pairs", as @n asks. */
static const char *tp_verdict_things(const struct tp_result *r, unsigned int n)
{
	if (r->kind == TSCPROBE_KIND_SKEW)
		return n == 1 ? "pair" : "pairs";
	return n == 1 ? "CPU" : "CPUs";
}

/*
 * A figure in its limit's unit: "45.21us", "250ns", "7300 cycles",
 * "12.5 cycles"; six digits (cycles: every digit of a whole number), so
 * that a small excess never reads as 0.
 */
static void tp_verdict_figure_text(double v, bool cycles, char *buf,
				   size_t len)
{
	if (cycles && v == floor(v) && v < 1e15)
		snprintf(buf, len, "%.0f cycles", v);
	else if (cycles)
		snprintf(buf, len, "%.6g cycles", v);
	else if (v < 1e3)
		snprintf(buf, len, "%.6gns", v);
	else if (v < 1e6)
		snprintf(buf, len, "%.6gus", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, len, "%.6gms", v / 1e6);
	else
		snprintf(buf, len, "%.6gs", v / 1e9);
}

/* A sync limit is in cycles: the pair's own noise is its bound. */
static bool tp_limit_in_cycles(const struct tp_limit *l)
{
	return l->cycles || l->stat == TP_LIMIT_SYNC;
}

/* One failing CPU (pair) of limit @k: its figure and by how much. */
static void tp_verdict_failure_text(const struct tp_verdict *v,
				    const struct tp_result *r, unsigned int k,
				    unsigned int i, FILE *f)
{
	const struct tp_limit *l = &v->limits->l[k];
	const struct tp_judgement *j = tp_verdict_at(v, k, i);
	bool cycles = tp_limit_in_cycles(l);
	char label[48], fig[48], exc[48], lim[48];

	tp_verdict_label(r, i, label, sizeof(label));
	if (j->how == TP_JUDGED_NONE) {
		fprintf(f, "    %s: not judged: %s\n", label, j->why);
		return;
	}
	tp_verdict_figure_text(j->figure, cycles, fig, sizeof(fig));
	tp_verdict_figure_text(j->limit, cycles, lim, sizeof(lim));
	tp_verdict_figure_text(j->excess, cycles, exc, sizeof(exc));
	if (l->stat == TP_LIMIT_SYNC && isfinite(j->excess))
		fprintf(f, "    %s: |skew| %s, %s over its 3 sd + 1 (%s)\n",
			label, fig, exc, lim);
	else if (l->stat == TP_LIMIT_SYNC)
		fprintf(f, "    %s: |skew| %s, within its 3 sd + 1 (%s), but %s\n",
			label, fig, lim, j->why);
	else if (isfinite(j->excess))
		fprintf(f, "    %s: %s, %s over\n", label, fig, exc);
	else
		fprintf(f, "    %s: %s: %s\n", label, fig, j->why);
}

/* The failing CPUs (pairs) of limit @k, the first ten unless -v. */
static void tp_verdict_failures_text(const struct tp_verdict *v,
				     const struct tp_result *r, unsigned int k,
				     unsigned int bad, bool verbose, FILE *f)
{
	unsigned int i, shown = 0;

	for (i = 0; i < v->entries; i++) {
		if (tp_verdict_at(v, k, i)->how == TP_JUDGED_PASS)
			continue;
		if (!verbose && shown == TP_VERDICT_SHOWN) {
			fprintf(f, "    and %u more (-v: every one)\n",
				bad - shown);
			return;
		}
		tp_verdict_failure_text(v, r, k, i, f);
		shown++;
	}
}

static void tp_verdict_limit_text(const struct tp_verdict *v,
				  const struct tp_result *r, unsigned int k,
				  bool verbose, FILE *f)
{
	const struct tp_limit *l = &v->limits->l[k];
	char text[64], fig[48], label[48], from[PATH_MAX + 16];
	struct tp_limit_tally t;

	tp_verdict_tally(v, k, &t);
	tp_limit_text(l, text, sizeof(text));
	tp_limit_source(l, from, sizeof(from));
	fprintf(f, "  %s %s (%s): ", tp_kind_name(l->kind), text, from);
	if (!v->entries) {
		fprintf(f, "FAIL: no %s measured\n", tp_verdict_things(r, 2));
	} else if (!tp_limit_passed(v, &t)) {
		fprintf(f, "FAIL on %u of %u %s\n", t.over + t.none, v->entries,
			tp_verdict_things(r, v->entries));
		tp_verdict_failures_text(v, r, k, t.over + t.none, verbose, f);
	} else if (l->stat == TP_LIMIT_SYNC) {
		fprintf(f, "pass: %u %s in sync\n", v->entries,
			tp_verdict_things(r, v->entries));
	} else {
		tp_verdict_label(r, (unsigned int)t.highest, label, sizeof(label));
		tp_verdict_figure_text(tp_verdict_at(v, k, (unsigned int)t.highest)->figure,
				       l->cycles, fig, sizeof(fig));
		fprintf(f, "pass on %u %s, the highest %s (%s)\n", v->entries,
			tp_verdict_things(r, v->entries), fig, label);
	}
}

/* CPUs (pairs) that fail at least one limit. */
static unsigned int tp_verdict_failing(const struct tp_verdict *v)
{
	unsigned int i, k, n = 0;

	for (i = 0; i < v->entries; i++)
		for (k = 0; k < v->limits->n; k++)
			if (tp_verdict_at(v, k, i)->how != TP_JUDGED_PASS) {
				n++;
				break;
			}
	return n;
}

/**
 * tp_verdict_text() - the verdict as the text report's last lines
 * @v: the verdict (nothing is printed without limits)
 * @r: the result
 * @verbose: -v: every failing CPU (pair), not only the first ten per limit
 * @f: the stream
 */
void tp_verdict_text(const struct tp_verdict *v, const struct tp_result *r,
		     bool verbose, FILE *f)
{
	struct tp_limit_tally t;
	unsigned int k, failed = 0;

	if (!tp_verdict_given(v))
		return;
	for (k = 0; k < v->limits->n; k++) {
		tp_verdict_tally(v, k, &t);
		failed += !tp_limit_passed(v, &t);
	}
	if (v->pass)
		fprintf(f, "limits: pass: %u of %u met, on %u %s\n",
			v->limits->n, v->limits->n, v->entries,
			tp_verdict_things(r, v->entries));
	else
		fprintf(f, "limits: FAIL: %u of %u not met, on %u of %u %s\n",
			failed, v->limits->n, tp_verdict_failing(v), v->entries,
			tp_verdict_things(r, v->entries));
	for (k = 0; k < v->limits->n; k++)
		tp_verdict_limit_text(v, r, k, verbose, f);
}

/* The keys that name CPU (pair) @i in JSON. */
static void tp_verdict_entry_json(const struct tp_result *r, unsigned int i,
				  struct jw *j)
{
	if (r->kind == TSCPROBE_KIND_SKEW) {
		jw_u64(j, "from", r->pair[i].from);
		jw_u64(j, "to", r->pair[i].to);
	} else {
		jw_u64(j, "cpu", r->cpu[i].cpu);
	}
}

/* Every failing CPU (pair) of limit @k; NaN (no figure) is written null. */
static void tp_verdict_failures_json(const struct tp_verdict *v,
				     const struct tp_result *r, unsigned int k,
				     struct jw *j)
{
	const struct tp_judgement *x;
	unsigned int i;

	jw_arr(j, "failures");
	for (i = 0; i < v->entries; i++) {
		x = tp_verdict_at(v, k, i);
		if (x->how == TP_JUDGED_PASS)
			continue;
		jw_obj(j, NULL);
		tp_verdict_entry_json(r, i, j);
		jw_bool(j, "judged", x->how == TP_JUDGED_OVER);
		jw_double(j, "figure", x->figure);
		jw_double(j, "limit", x->limit);
		jw_double(j, "excess", x->excess);
		if (x->why)
			jw_str(j, "why", x->why);
		else
			jw_null(j, "why");
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

static void tp_verdict_limit_json(const struct tp_verdict *v,
				  const struct tp_result *r, unsigned int k,
				  struct jw *j)
{
	const struct tp_limit *l = &v->limits->l[k];
	char buf[PATH_MAX + 16];
	struct tp_limit_tally t;

	tp_verdict_tally(v, k, &t);
	jw_obj(j, NULL);
	jw_str(j, "measurement", tp_kind_name(l->kind));
	tp_limit_name(l, buf, sizeof(buf));
	jw_str(j, "name", buf);
	tp_limit_text(l, buf, sizeof(buf));
	jw_str(j, "text", buf);
	if (l->stat == TP_LIMIT_SYNC)
		jw_null(j, "limit");
	else
		jw_u64(j, "limit", l->value);
	jw_str(j, "unit", tp_limit_in_cycles(l) ? "cycles" : "ns");
	tp_limit_source(l, buf, sizeof(buf));
	jw_str(j, "source", buf);
	jw_bool(j, "pass", tp_limit_passed(v, &t));
	jw_u64(j, r->kind == TSCPROBE_KIND_SKEW ? "pairs" : "cpus", v->entries);
	jw_u64(j, "over", t.over);
	jw_u64(j, "not_judged", t.none);
	if (t.highest >= 0) {
		jw_obj(j, "highest");
		tp_verdict_entry_json(r, (unsigned int)t.highest, j);
		jw_double(j, "figure",
			tp_verdict_at(v, k, (unsigned int)t.highest)->figure);
		jw_obj_end(j);
	} else {
		jw_null(j, "highest");
	}
	tp_verdict_failures_json(v, r, k, j);
	jw_obj_end(j);
}

/**
 * tp_verdict_json() - the verdict's keys, in the object that is open
 * @v: the verdict (nothing is written without limits)
 * @r: the result
 * @j: the writer
 *
 * "pass", and "limits": per limit what it is, where it came from, whether
 * it passed, and every failing CPU (pair) with its figure, the limit and
 * the excess (null when not judged, with "why").
 */
void tp_verdict_json(const struct tp_verdict *v, const struct tp_result *r,
		     struct jw *j)
{
	unsigned int k;

	if (!tp_verdict_given(v))
		return;
	jw_bool(j, "pass", v->pass);
	jw_arr(j, "limits");
	for (k = 0; k < v->limits->n; k++)
		tp_verdict_limit_json(v, r, k, j);
	jw_arr_end(j);
}

/**
 * tp_verdict_prom() - the verdict as Prometheus families (none without
 *	limits)
 * @v: the verdict
 * @f: where to
 *
 * tscprobe_verdict_pass (1 or 0) and, per limit, how many CPUs (pairs)
 * fail it: over it, or not judged.  A limit's labels are its name and
 * its text, a set as small as the limits file.
 */
void tp_verdict_prom(const struct tp_verdict *v, FILE *f)
{
	char name[32], text[64], labels[256];
	struct tp_limit_tally t;
	unsigned int k;

	if (!tp_verdict_given(v))
		return;
	tp_prom_family(f, "tscprobe_verdict_pass", "gauge",
		       "1 when the result passed every limit, 0 when it failed one.");
	tp_prom_u64(f, "tscprobe_verdict_pass", NULL, v->pass);
	tp_prom_family(f, "tscprobe_limit_failing", "gauge",
		       "CPUs (skew: pairs) over a limit or not judged against it.");
	for (k = 0; k < v->limits->n; k++) {
		tp_verdict_tally(v, k, &t);
		tp_limit_name(&v->limits->l[k], name, sizeof(name));
		tp_limit_text(&v->limits->l[k], text, sizeof(text));
		tp_prom_labels(labels, sizeof(labels), "limit", name, "text",
			       text, NULL);
		tp_prom_u64(f, "tscprobe_limit_failing", labels, t.over + t.none);
	}
}

/* The CSV columns of a verdict: none without limits. */
void tp_verdict_csv_head(const struct tp_verdict *v, struct tp_csv *c)
{
	if (!tp_verdict_given(v))
		return;
	tp_csv_str(c, "verdict");
	tp_csv_str(c, "failed_limits");
}

/*
 * A row's verdict: "pass" or "fail", and the limits it failed as written
 * ("max 20us;p99.99 5us").
 */
void tp_verdict_csv_row(const struct tp_verdict *v, unsigned int entry,
			struct tp_csv *c)
{
	char failed[TP_LIMITS_MAX * 64] = "", text[48];
	size_t used = 0;
	unsigned int k;

	if (!tp_verdict_given(v))
		return;
	for (k = 0; k < v->limits->n; k++) {
		if (tp_verdict_at(v, k, entry)->how == TP_JUDGED_PASS)
			continue;
		tp_limit_text(&v->limits->l[k], text, sizeof(text));
		used += (size_t)snprintf(failed + used, sizeof(failed) - used,
					 "%s%s", used ? ";" : "", text);
	}
	tp_csv_str(c, used ? "fail" : "pass");
	tp_csv_str(c, failed);
}
