// SPDX-License-Identifier: GPL-2.0
/*
 * Judging a result against its limits, and the verdict in the reports.
 *
 * A figure passes at its limit and fails above it ("fail above"), so the
 * excess of a failure is always above 0.  A CPU (pair) without the figure
 * -- no samples, a pair that timed out or is not sound, a time limit
 * without the TSC rate -- cannot show the machine within the limit: it
 * fails the verdict too, "not judged", with the reason and no excess.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "user/lib/model.h"
#include "user/lib/verdict.h"

/* Beyond this many failing CPUs (pairs) per limit, text lists them with -v. */
#define TP_VERDICT_SHOWN	10

/**
 * tp_judge() - judge a figure against its limit
 * @j: the judgement
 * @figure: the figure, in the limit's unit
 * @limit: the limit
 *
 * At the limit passes; above it is over, by @figure - @limit.  A figure
 * that is not a number (or a limit that is not) is not judged: a NaN
 * compares false and would otherwise pass.
 */
void tp_judge(struct tp_judgement *j, double figure, double limit)
{
	if (!isfinite(figure) || !isfinite(limit)) {
		tp_judge_none(j, "no figure");
		return;
	}
	j->figure = figure;
	j->limit = limit;
	j->excess = NAN;
	j->why = NULL;
	j->how = TP_JUDGED_PASS;
	if (figure > limit) {
		j->how = TP_JUDGED_OVER;
		j->excess = figure - limit;
	}
}

/**
 * tp_judge_none() - a CPU (pair) that has no figure for the limit
 * @j: the judgement
 * @why: the reason, a string that lives as long as the program
 */
void tp_judge_none(struct tp_judgement *j, const char *why)
{
	j->how = TP_JUDGED_NONE;
	j->figure = j->limit = j->excess = NAN;
	j->why = why;
}

static unsigned int tp_verdict_entries(const struct tp_result *r)
{
	return r->kind == TSCPROBE_KIND_SKEW ? r->npairs : r->ncpus;
}

/**
 * tp_verdict_judge() - judge every CPU (pair) of a result against limits
 * @v: the verdict
 * @r: the result
 * @limits: the limits (NULL or none: no verdict, @v passes)
 * @figure: the measurement's figures
 *
 * A result without a CPU (pair) does not pass: nothing was shown within
 * the limits.
 *
 * Return: TP_EXIT_OK, or TP_EXIT_FAIL (one line printed) without memory.
 */
int tp_verdict_judge(struct tp_verdict *v, const struct tp_result *r,
		     const struct tp_limits *limits, tp_figure_fn figure)
{
	unsigned int k, i;
	struct tp_judgement *j;

	memset(v, 0, sizeof(*v));
	v->pass = true;
	if (!limits || !limits->n)
		return TP_EXIT_OK;
	v->entries = tp_verdict_entries(r);
	v->j = calloc((size_t)limits->n * v->entries + 1, sizeof(*v->j));
	if (!v->j) {
		tp_err("out of memory for the verdict");
		return TP_EXIT_FAIL;
	}
	v->limits = limits;
	v->pass = v->entries > 0;
	for (k = 0; k < limits->n; k++)
		for (i = 0; i < v->entries; i++) {
			j = &v->j[k * v->entries + i];
			figure(r, &limits->l[k], i, j);
			if (j->how != TP_JUDGED_PASS)
				v->pass = false;
		}
	return TP_EXIT_OK;
}

void tp_verdict_free(struct tp_verdict *v)
{
	free(v->j);
	v->j = NULL;
}

/* The judgement of CPU (pair) @entry against limit @limit. */
const struct tp_judgement *tp_verdict_at(const struct tp_verdict *v,
					 unsigned int limit,
					 unsigned int entry)
{
	return &v->j[limit * v->entries + entry];
}

/**
 * tp_verdict_exit() - the exit code once the report is out
 * @v: the verdict
 * @ret: the report's own (TP_EXIT_FAIL when it could not be written)
 *
 * Return: @ret when it is an error or there is no verdict, else
 * TP_EXIT_OVER_LIMIT when the verdict is fail, else TP_EXIT_OK.
 */
int tp_verdict_exit(const struct tp_verdict *v, int ret)
{
	if (ret || !tp_verdict_given(v) || v->pass)
		return ret;
	return TP_EXIT_OVER_LIMIT;
}

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
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	unsigned int k = 0;

	if (cycles) {
		snprintf(buf, len, v == floor(v) && v < 1e15 ? "%.0f cycles" :
			 "%.6g cycles", v);
		return;
	}
	/* ns up to 1e3, then each unit a thousand times the one before */
	for (; k < 3 && v >= 1e3; k++)
		v /= 1e3;
	snprintf(buf, len, "%.6g%s", v, unit[k]);
}

/* A sync limit is in cycles: the pair's own noise is its bound. */
static bool tp_limit_in_cycles(const struct tp_limit *l)
{
	return l->cycles || l->stat == TP_LIMIT_SYNC;
}

/* One failing CPU (pair) of limit @k: its figure and by how much. */
static void tp_verdict_failure_text(struct tp_model *m, unsigned int k,
				    unsigned int i)
{
	const struct tp_verdict *v = tp_model_verdict(m);
	const struct tp_limit *l = &v->limits->l[k];
	const struct tp_judgement *j = tp_verdict_at(v, k, i);
	bool cycles = tp_limit_in_cycles(l);
	char label[48], fig[48], exc[48], lim[48];

	tp_verdict_label(tp_model_result(m), i, label, sizeof(label));
	if (j->how == TP_JUDGED_NONE) {
		tp_text(m, "    %s: not judged: %s\n", label, j->why);
		return;
	}
	tp_verdict_figure_text(j->figure, cycles, fig, sizeof(fig));
	tp_verdict_figure_text(j->limit, cycles, lim, sizeof(lim));
	tp_verdict_figure_text(j->excess, cycles, exc, sizeof(exc));
	if (l->stat == TP_LIMIT_SYNC && isfinite(j->excess))
		tp_text(m, "    %s: |skew| %s, %s over its 3 sd + 1 (%s)\n",
			label, fig, exc, lim);
	else if (l->stat == TP_LIMIT_SYNC)
		tp_text(m, "    %s: |skew| %s, within its 3 sd + 1 (%s), but %s\n",
			label, fig, lim, j->why);
	else if (isfinite(j->excess))
		tp_text(m, "    %s: %s, %s over\n", label, fig, exc);
	else
		tp_text(m, "    %s: %s: %s\n", label, fig, j->why);
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

/* The keys that name CPU (pair) @i. */
static void tp_verdict_entry(struct tp_model *m, unsigned int i)
{
	const struct tp_result *r = tp_model_result(m);

	if (r->kind == TSCPROBE_KIND_SKEW) {
		tp_u64(m, "from", r->pair[i].from, NULL);
		tp_u64(m, "to", r->pair[i].to, NULL);
	} else {
		tp_u64(m, "cpu", r->cpu[i].cpu, NULL);
	}
}

/*
 * Every failing CPU (pair) of limit @k, of @bad; NaN (no figure) is null.
 * Text has a line each, the first ten unless -v.
 */
static void tp_verdict_failures(struct tp_model *m, unsigned int k,
				unsigned int bad)
{
	const struct tp_verdict *v = tp_model_verdict(m);
	bool all = tp_model_output(m)->verbose;
	const struct tp_judgement *x;
	unsigned int i, shown = 0;

	tp_arr(m, "failures");
	for (i = 0; i < v->entries; i++) {
		x = tp_verdict_at(v, k, i);
		if (x->how == TP_JUDGED_PASS)
			continue;
		if (all || shown < TP_VERDICT_SHOWN)
			tp_verdict_failure_text(m, k, i);
		else if (shown == TP_VERDICT_SHOWN)
			tp_text(m, "    and %u more (-v: every one)\n", bad - shown);
		shown++;
		tp_obj(m, NULL);
		tp_verdict_entry(m, i);
		tp_bool(m, "judged", x->how == TP_JUDGED_OVER, NULL);
		tp_dbl(m, "figure", x->figure, NULL);
		tp_dbl(m, "limit", x->limit, NULL);
		tp_dbl(m, "excess", x->excess, NULL);
		tp_str(m, "why", x->why, NULL);
		tp_end(m);
	}
	tp_end(m);
}

static const struct tp_family tp_verdict_pass_family = {
	"tscprobe_verdict_pass", "gauge",
	"1 when the result passed every limit, 0 when it failed one.", true,
};
static const struct tp_family tp_limit_failing = {
	"tscprobe_limit_failing", "gauge",
	"CPUs (skew: pairs) over a limit or not judged against it.", true,
};

/* Limit @k's line in text: what it is, where from, and how it went. */
static void tp_verdict_limit_text(struct tp_model *m, unsigned int k,
				  const struct tp_limit_tally *t,
				  const char *text, const char *from)
{
	const struct tp_verdict *v = tp_model_verdict(m);
	const struct tp_result *r = tp_model_result(m);
	const struct tp_limit *l = &v->limits->l[k];
	char fig[48], label[48];

	tp_text(m, "  %s %s (%s): ", tp_kind_name(l->kind), text, from);
	if (!v->entries) {
		tp_text(m, "FAIL: no %s measured\n", tp_verdict_things(r, 2));
	} else if (!tp_limit_passed(v, t)) {
		tp_text(m, "FAIL on %u of %u %s\n", t->over + t->none, v->entries,
			tp_verdict_things(r, v->entries));
	} else if (l->stat == TP_LIMIT_SYNC) {
		tp_text(m, "pass: %u %s in sync\n", v->entries,
			tp_verdict_things(r, v->entries));
	} else {
		tp_verdict_label(r, (unsigned int)t->highest, label, sizeof(label));
		tp_verdict_figure_text(tp_verdict_at(v, k, (unsigned int)t->highest)->figure,
				       l->cycles, fig, sizeof(fig));
		tp_text(m, "pass on %u %s, the highest %s (%s)\n", v->entries,
			tp_verdict_things(r, v->entries), fig, label);
	}
}

/*
 * Limit @k: what it is, where it came from, whether it passed, and every
 * failing CPU (pair); its line in text, with the failures under it; in
 * Prometheus how many fail it, labelled with its name and text (a set as
 * small as the limits file).
 */
static void tp_verdict_limit(struct tp_model *m, unsigned int k)
{
	const struct tp_verdict *v = tp_model_verdict(m);
	const struct tp_limit *l = &v->limits->l[k];
	char name[PATH_MAX + 16], text[64], from[PATH_MAX + 16];
	struct tp_limit_tally t;

	tp_verdict_tally(v, k, &t);
	tp_limit_name(l, name, sizeof(name));
	tp_limit_text(l, text, sizeof(text));
	tp_limit_source(l, from, sizeof(from));
	tp_verdict_limit_text(m, k, &t, text, from);
	tp_obj(m, NULL);
	tp_str(m, "measurement", tp_kind_name(l->kind), NULL);
	tp_str(m, "name", name, NULL);
	tp_str(m, "text", text, NULL);
	tp_u64(m, "failing", t.over + t.none, &(struct tp_opts){
		.prom = &tp_limit_failing, .not_in = TP_NO_DOC,
		.labels = tp_labels(m, "limit", name, "text", text, NULL) });
	tp_counter(m, "limit", &(struct tp_counter_res){
		   l->stat != TP_LIMIT_SYNC, l->value }, NULL);
	tp_str(m, "unit", tp_limit_in_cycles(l) ? "cycles" : "ns", NULL);
	tp_str(m, "source", from, NULL);
	tp_bool(m, "pass", tp_limit_passed(v, &t), NULL);
	tp_u64(m, tp_model_result(m)->kind == TSCPROBE_KIND_SKEW ? "pairs" :
	       "cpus", v->entries, NULL);
	tp_u64(m, "over", t.over, NULL);
	tp_u64(m, "not_judged", t.none, NULL);
	tp_obj_known(m, "highest", t.highest >= 0);
	if (t.highest >= 0) {
		tp_verdict_entry(m, (unsigned int)t.highest);
		tp_dbl(m, "figure",
			tp_verdict_at(v, k, (unsigned int)t.highest)->figure, NULL);
	}
	tp_end(m);
	tp_verdict_failures(m, k, t.over + t.none);
	tp_end(m);
}

/*
 * The verdict's first line in text: overall, and on how many CPUs
 * (pairs); each limit's line follows it (tp_verdict_limit()).
 */
static void tp_verdict_text(struct tp_model *m)
{
	const struct tp_verdict *v = tp_model_verdict(m);
	const struct tp_result *r = tp_model_result(m);
	struct tp_limit_tally t;
	unsigned int k, failed = 0;

	for (k = 0; k < v->limits->n; k++) {
		tp_verdict_tally(v, k, &t);
		failed += !tp_limit_passed(v, &t);
	}
	if (v->pass)
		tp_text(m, "limits: pass: %u of %u met, on %u %s\n",
			v->limits->n, v->limits->n, v->entries,
			tp_verdict_things(r, v->entries));
	else
		tp_text(m, "limits: FAIL: %u of %u not met, on %u of %u %s\n",
			failed, v->limits->n, tp_verdict_failing(v), v->entries,
			tp_verdict_things(r, v->entries));
}

/**
 * tp_verdict_keys_model() - the verdict's keys, in the object that is open
 * @m: the model (nothing without limits)
 *
 * "pass" (in Prometheus tscprobe_verdict_pass), and "limits": per limit
 * what it is, where it came from, whether it passed, and every failing
 * CPU (pair) with its figure, the limit and the excess (null when not
 * judged, with "why").  In text: overall, then per limit, with its
 * failing CPUs (pairs), the first ten unless -v.
 */
void tp_verdict_keys_model(struct tp_model *m)
{
	const struct tp_verdict *v = tp_model_verdict(m);
	unsigned int k;

	if (!tp_verdict_given(v))
		return;
	tp_verdict_text(m);
	tp_bool(m, "pass", v->pass, &(struct tp_opts){
		.prom = &tp_verdict_pass_family });
	tp_arr(m, "limits");
	for (k = 0; k < v->limits->n; k++)
		tp_verdict_limit(m, k);
	tp_end(m);
}

/* The verdict of a report that has no verdict of its own: "verdict". */
void tp_verdict_model(struct tp_model *m)
{
	if (!tp_verdict_given(tp_model_verdict(m)))
		return;
	tp_obj(m, "verdict");
	tp_verdict_keys_model(m);
	tp_end(m);
}

/**
 * tp_verdict_row_model() - a row's verdict in CSV, last: "pass" or
 *	"fail", and the limits it failed as written ("max 20us;p99.99 5us")
 * @m: the model, row @entry open (nothing without limits)
 * @entry: the CPU (pair)
 */
void tp_verdict_row_model(struct tp_model *m, unsigned int entry)
{
	const struct tp_verdict *v = tp_model_verdict(m);
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
	tp_str(m, "verdict", used ? "fail" : "pass", &(struct tp_opts){
		.csv = 1000, .not_in = TP_NO_DOC });
	tp_str(m, "failed_limits", failed, &(struct tp_opts){
		.csv = 1001, .not_in = TP_NO_DOC });
}
