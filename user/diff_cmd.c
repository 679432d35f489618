// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe diff: two saved reports (-j) of one kind side by side, as after
 * tuning a machine: what changed around the runs (the environment audit and
 * the run's parameters) at the top, then per CPU (skew: per pair) the
 * figures that matter, before and after, and for noise who took the CPU.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/commands.h"
#include "user/lib/cli.h"
#include "user/lib/event_report.h"
#include "user/lib/format.h"
#include "user/lib/json_read.h"
#include "user/lib/model.h"
#include "user/lib/options.h"

static const char tp_diff_usage[] =
	"usage: tscprobe diff A.json B.json [-j]\n"
	"\n"
	"Compare two reports of one kind saved with -j (noise, cache or skew):\n"
	"the environment and parameters that differ, then per CPU (skew: per\n"
	"pair) each key figure in A and in B and its change; noise: then what\n"
	"ran inside each CPU's windows (the module's sources; the userspace\n"
	"engine's: their counts over the run), A -> B.\n"
	"\n"
	"  -j, --json            print JSON\n"
	"  -h, --help            show this help\n";

/**
 * struct tp_diff_fig - one figure diff compares
 * @label: its name in the text and the JSON
 * @obj: the member of the CPU's (pair's) object holding it, or NULL
 * @key: the number's key (in @obj when given)
 * @abs: compare the magnitude (skew)
 */
struct tp_diff_fig {
	const char *label;
	const char *obj;
	const char *key;
	bool abs;
};

static const struct tp_diff_fig tp_noise_figs[] = {
	{ "p99.99_cycles", NULL, "p9999_cycles", false },
	{ "max_cycles", NULL, "max_cycles", false },
	{ "events_per_s", NULL, "events_total", false },
	{ "coverage", NULL, "coverage", false },
	{ NULL, NULL, NULL, false },
};

static const struct tp_diff_fig tp_cache_figs[] = {
	{ "overhead_p50", "overhead", "p50", false },
	{ "cached_avg", "cached", "avg", false },
	{ "cached_p50", "cached", "p50", false },
	{ "cached_p99", "cached", "p99", false },
	{ "uncached_avg", "uncached", "avg", false },
	{ "uncached_p50", "uncached", "p50", false },
	{ "uncached_p99", "uncached", "p99", false },
	{ NULL, NULL, NULL, false },
};

static const struct tp_diff_fig tp_skew_figs[] = {
	{ "one_way_ns", NULL, "one_way_ns", false },
	{ "abs_skew_cycles", "skew", "avg", true },
	{ NULL, NULL, NULL, false },
};

/**
 * struct tp_diff - the two reports
 * @path: their files
 * @doc: their documents
 * @kind: the reports' kind
 * @figs: the figures of that kind
 * @list: "cpus" or "pairs"
 * @json: -j
 */
struct tp_diff {
	const char *path[2];
	struct jr *doc[2];
	const char *kind;
	const struct tp_diff_fig *figs;
	const char *list;
	bool json;
};

/* A figure of one entry; NAN when the report does not have it. */
static double tp_diff_value(const struct tp_diff *d, unsigned int side,
			    const struct jr *e, const struct tp_diff_fig *fig)
{
	const struct jr *o = fig->obj ? jr_get(e, fig->obj) : e;
	double v = jr_num(o, fig->key, NAN), s;

	if (!strcmp(fig->label, "events_per_s")) {
		s = jr_num(d->doc[side], "elapsed_ns", 0) / 1e9;
		return s > 0 ? v / s : NAN;
	}
	return fig->abs ? fabs(v) : v;
}

/* The entry of @doc's list with the same CPU (or from and to) as @e. */
static const struct jr *tp_diff_match(const struct tp_diff *d,
				      const struct jr *doc, const struct jr *e)
{
	const struct jr *l = jr_get(doc, d->list);
	size_t i;

	for (i = 0; l && i < l->n; i++) {
		const struct jr *x = &l->v[i];

		if (!strcmp(d->list, "pairs") ?
		    jr_num(x, "from", -1) == jr_num(e, "from", -2) &&
		    jr_num(x, "to", -1) == jr_num(e, "to", -2) :
		    jr_num(x, "cpu", -1) == jr_num(e, "cpu", -2))
			return x;
	}
	return NULL;
}

static void tp_diff_name(const struct tp_diff *d, const struct jr *e,
			 char *buf, size_t len)
{
	if (!strcmp(d->list, "pairs"))
		snprintf(buf, len, "pair %.0f -> %.0f", jr_num(e, "from", -1),
			 jr_num(e, "to", -1));
	else
		snprintf(buf, len, "CPU %.0f", jr_num(e, "cpu", -1));
}

/* Every entry of one side must be on the other: else one line, exit 2. */
static int tp_diff_same_entries(const struct tp_diff *d)
{
	unsigned int side;
	char name[64];
	size_t i;

	for (side = 0; side < 2; side++) {
		const struct jr *l = jr_get(d->doc[side], d->list);

		for (i = 0; i < l->n; i++) {
			if (tp_diff_match(d, d->doc[!side], &l->v[i]))
				continue;
			tp_diff_name(d, &l->v[i], name, sizeof(name));
			return tp_usage_err("diff", "%s is in %s but not in %s",
					    name, d->path[side], d->path[!side]);
		}
	}
	return TP_EXIT_OK;
}

/* An idle state as "C6", or "C6(off)" when disabled; its length. */
static size_t tp_diff_cstate(const struct jr *c, char *buf, size_t len,
			     bool space)
{
	const struct jr *enabled = jr_get(c, "enabled");
	const char *name = jr_str(c, "name");
	int n;

	n = snprintf(buf, len, "%s%s%s", space ? " " : "", name ? name : "?",
		     enabled && enabled->type == JR_BOOL && !enabled->b ?
		     "(off)" : "");
	return n < 0 ? 0 : (size_t)n;
}

/* A JSON value as a short text: CPU lists as "0-3", booleans yes/no. */
static void tp_diff_text_of(const struct jr *v, char *buf, size_t len)
{
	struct tp_cpuset set;
	size_t i, n = 0;

	buf[0] = '\0';
	if (!v || v->type == JR_NULL) {
		snprintf(buf, len, "-");
	} else if (v->type == JR_BOOL) {
		snprintf(buf, len, "%s", v->b ? "yes" : "no");
	} else if (v->type == JR_NUM) {
		snprintf(buf, len, "%.10g", v->num);
	} else if (v->type == JR_STR) {
		snprintf(buf, len, "%s", v->str[0] ? v->str : "\"\"");
	} else if (v->type == JR_ARR && (!v->n || v->v[0].type == JR_NUM)) {
		memset(&set, 0, sizeof(set));
		for (i = 0; i < v->n; i++)
			if (v->v[i].type == JR_NUM && v->v[i].num >= 0 &&
			    v->v[i].num < TP_MAX_CPUS)
				tp_cpuset_add(&set, (unsigned int)v->v[i].num);
		tp_cpuset_format(&set, buf, len);
		if (!buf[0])
			snprintf(buf, len, "none");
	} else if (v->type == JR_ARR) {
		for (i = 0; i < v->n && n < len; i++)	/* idle states */
			n += tp_diff_cstate(&v->v[i], buf + n, len - n, n > 0);
	} else {
		snprintf(buf, len, "{...}");
	}
}

/**
 * struct tp_env_change - one difference around the runs
 * @what: the setting
 * @a: its value in A
 * @b: in B
 * @cpus: the CPUs it differs on the same way (none: the machine's)
 */
struct tp_env_change {
	char what[48];
	char a[160];
	char b[160];
	struct tp_cpuset cpus;
};

/**
 * struct tp_env_changes - the differences, merged over CPUs
 * @n: entries
 * @cap: allocated
 * @c: the entries
 */
struct tp_env_changes {
	size_t n;
	size_t cap;
	struct tp_env_change *c;
};

static void tp_env_change(struct tp_env_changes *l, const char *what,
			  const struct jr *a, const struct jr *b, int cpu)
{
	char ta[160], tb[160];
	struct tp_env_change *c;
	size_t i;

	tp_diff_text_of(a, ta, sizeof(ta));
	tp_diff_text_of(b, tb, sizeof(tb));
	if (!strcmp(ta, tb))
		return;
	for (i = 0; cpu >= 0 && i < l->n; i++) {
		c = &l->c[i];
		if (!strcmp(c->what, what) && !strcmp(c->a, ta) &&
		    !strcmp(c->b, tb) && c->cpus.nbytes) {
			tp_cpuset_add(&c->cpus, (unsigned int)cpu);
			return;
		}
	}
	if (l->n == l->cap) {
		c = realloc(l->c, (l->cap * 2 + 8) * sizeof(*c));
		if (!c)
			return;
		l->c = c;
		l->cap = l->cap * 2 + 8;
	}
	c = &l->c[l->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->what, sizeof(c->what), "%s", what);
	snprintf(c->a, sizeof(c->a), "%s", ta);
	snprintf(c->b, sizeof(c->b), "%s", tb);
	if (cpu >= 0)
		tp_cpuset_add(&c->cpus, (unsigned int)cpu);
}

/* Keys that differ from run to run by nature, not by tuning. */
static bool tp_diff_skip_key(const char *key)
{
	static const char *const skip[] = {
		"cpus", "pairs", "environment", "interrupts", "verdict",
		"run_id", "elapsed_ns", "state", "stop_reason", "pairs_done",
		"warnings", "cur_khz", "tsc_khz", "cli", "started",
	};
	size_t i;

	for (i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(key, skip[i]))
			return true;
	return false;
}

/* The scalar members of two objects that differ (@cpu: whose). */
static void tp_diff_members(struct tp_env_changes *l, const struct jr *a,
			    const struct jr *b, int cpu)
{
	size_t i;

	for (i = 0; a && a->type == JR_OBJ && i < a->n; i++)
		if (!tp_diff_skip_key(a->v[i].key) && strcmp(a->v[i].key, "cpu"))
			tp_env_change(l, a->v[i].key, &a->v[i],
				      jr_get(b, a->v[i].key), cpu);
}

/* The parameters of the runs and the environment audits, compared. */
static void tp_diff_env(const struct tp_diff *d, struct tp_env_changes *l)
{
	const struct jr *ea = jr_get(d->doc[0], "environment");
	const struct jr *eb = jr_get(d->doc[1], "environment");
	const struct jr *ca = jr_get(ea, "cpus");
	size_t i;

	tp_diff_members(l, d->doc[0], d->doc[1], -1);
	tp_diff_members(l, ea, eb, -1);
	for (i = 0; ca && ca->type == JR_ARR && i < ca->n; i++) {
		const struct jr *b = NULL, *cb = jr_get(eb, "cpus");
		size_t k;

		for (k = 0; cb && cb->type == JR_ARR && k < cb->n; k++)
			if (jr_num(&cb->v[k], "cpu", -1) ==
			    jr_num(&ca->v[i], "cpu", -2))
				b = &cb->v[k];
		if (b)
			tp_diff_members(l, &ca->v[i], b,
					(int)jr_num(&ca->v[i], "cpu", 0));
	}
}

static double tp_diff_change(double a, double b)
{
	return a ? (b - a) / fabs(a) * 100.0 : (b ? INFINITY : 0);
}

/* What differs around the runs: a line each in text, a list in JSON. */
static void tp_diff_env_model(struct tp_model *m, const struct tp_env_changes *l)
{
	char cpus[256];
	size_t i;

	tp_text(m, l->n ? "environment and parameters that differ:\n" :
		"environment and parameters: the same\n");
	tp_arr(m, "environment");
	for (i = 0; i < l->n; i++) {
		tp_cpuset_format(&l->c[i].cpus, cpus, sizeof(cpus));
		tp_text(m, "  %s: %s -> %s%s%s\n", l->c[i].what, l->c[i].a,
			l->c[i].b, !cpus[0] ? "" :
			tp_cpuset_count(&l->c[i].cpus) > 1 ? " on CPUs " : " on CPU ",
			cpus);
		tp_obj(m, NULL);
		tp_str(m, "what", l->c[i].what, NULL);
		tp_cpuset(m, "cpus", &l->c[i].cpus);
		tp_str(m, "a", l->c[i].a, NULL);
		tp_str(m, "b", l->c[i].b, NULL);
		tp_end(m);
	}
	tp_end(m);
}

/* The kinds of noise source diff compares, as JSON has them. */
static const char *const tp_diff_kinds[] = { "thread", "softirq", "irq", "nmi" };

/*
 * Whether a noise CPU's report has sources with their time (the module's,
 * its probes attached) or, @timed false, without (the userspace engine's
 * counts: "timed" false).
 */
static bool tp_diff_has_sources(const struct jr *cpu, bool timed)
{
	const struct jr *src = jr_get(cpu, "sources");
	const struct jr *t = jr_get(src, "timed");
	bool untimed = t && t->type == JR_BOOL && !t->b;

	return jr_get(src, "kinds") && untimed != timed;
}

/*
 * What diff compares of noise sources: the module's net time where either
 * report has it, else the userspace engine's counts over the run.
 * @timed: which; @head: the text's heading; @field: the figure's key
 */
struct tp_diff_src {
	bool timed;
	const char *head;
	const char *field;
};

static const struct tp_diff_src tp_diff_src_timed = {
	true, "sources (net time inside the windows), A -> B:", "ns",
};
static const struct tp_diff_src tp_diff_src_counted = {
	false, "sources (counts over the run, userspace engine), A -> B:", "count",
};

static const struct tp_diff_src *tp_diff_src_of(const struct tp_diff *d)
{
	unsigned int side;
	size_t i;

	for (side = 0; side < 2; side++) {
		const struct jr *l = jr_get(d->doc[side], d->list);

		for (i = 0; l && i < l->n; i++)
			if (tp_diff_has_sources(&l->v[i], true))
				return &tp_diff_src_timed;
	}
	return &tp_diff_src_counted;
}

/* A noise CPU's figure of one kind of source; NAN where not known. */
static double tp_diff_kind_figure(const struct jr *cpu, const char *kind,
				  const struct tp_diff_src *src)
{
	const struct jr *k = jr_get(jr_get(cpu, "sources"), "kinds");

	if (!tp_diff_has_sources(cpu, src->timed))
		return NAN;
	return jr_num(jr_get(k, kind), src->field, NAN);
}

/*
 * A noise CPU's largest source, "irq 24 virtio0-input" ("irq vector 236
 * local_timer" for a system vector, "irq 45 virtio0-requests (thread 812
 * irq/45-virtio0-r)" for an interrupt's thread, "irq LOC" where its id is
 * null, and what the module did not name as tp_source_label() says it);
 * NULL: not known.
 */
static const char *tp_diff_largest(const struct jr *cpu,
				   const struct tp_diff_src *src, char *buf,
				   size_t len)
{
	const struct jr *n = jr_get(jr_get(cpu, "sources"), "named");
	const struct jr *id, *vector, *thread, *pid, *withheld;
	const char *kind;
	bool unnamed;
	size_t at;

	if (!tp_diff_has_sources(cpu, src->timed))
		return NULL;
	if (!n || n->type != JR_ARR || !n->n)
		return "none";
	kind = jr_str(&n->v[0], "kind");
	withheld = jr_get(&n->v[0], "withheld");
	unnamed = withheld && withheld->type == JR_BOOL && withheld->b;
	if (kind && !strcmp(kind, "other"))
		return "other";
	if (unnamed && kind && !strcmp(kind, "thread"))
		return TP_THREADS_WITHHELD;
	id = jr_get(&n->v[0], "id");
	vector = jr_get(&n->v[0], "vector");
	if (id && id->type == JR_NUM)
		snprintf(buf, len, "%s %s%.0f %s", kind ? kind : "?",
			 vector && vector->type == JR_BOOL && vector->b ?
			 "vector " : "",
			 id->num, jr_str(&n->v[0], "name") ?: "");
	else
		snprintf(buf, len, "%s %s", kind ? kind : "?",
			 jr_str(&n->v[0], "name") ?: "");
	thread = jr_get(&n->v[0], "thread");
	pid = jr_get(thread, "pid");
	at = strlen(buf);
	if (pid && pid->type == JR_NUM && at < len)
		snprintf(buf + at, len - at, " (thread %.0f %s)", pid->num,
			 jr_str(thread, "name") ?: "");
	else if (unnamed && thread && thread->type == JR_OBJ && at < len)
		snprintf(buf + at, len - at, TP_THREAD_WITHHELD);
	return buf;
}

static void tp_diff_figure_text(double v, const struct tp_diff_src *src,
				char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (src->timed)
		tp_format_ns((uint64_t)v, buf, len);
	else
		snprintf(buf, len, "%.0f", v);
}

/* Whether either report has sources for entry @a (B's match @b). */
static bool tp_diff_sources_either(const struct tp_diff_src *src,
				   const struct jr *a, const struct jr *b)
{
	return tp_diff_has_sources(a, src->timed) ||
	       tp_diff_has_sources(b, src->timed);
}

/* One CPU's line: each kind A -> B, then the largest source. */
static void tp_diff_sources_line(struct tp_model *m, const struct jr *a,
				 const struct jr *b,
				 const struct tp_diff_src *src)
{
	char ta[32], tb[32], la_buf[96], lb_buf[96];
	const char *sa, *sb;
	size_t k;

	tp_text(m, "  CPU %.0f:", jr_num(a, "cpu", -1));
	for (k = 0; k < sizeof(tp_diff_kinds) / sizeof(tp_diff_kinds[0]); k++) {
		double va = tp_diff_kind_figure(a, tp_diff_kinds[k], src);
		double vb = tp_diff_kind_figure(b, tp_diff_kinds[k], src);

		tp_diff_figure_text(va, src, ta, sizeof(ta));
		tp_diff_figure_text(vb, src, tb, sizeof(tb));
		tp_text(m, "%s %s %s -> %s", k ? "," : "", tp_diff_kinds[k], ta, tb);
		if (!isnan(va) && !isnan(vb))
			tp_text(m, " (%+.0f%%)", tp_diff_change(va, vb));
	}
	sa = tp_diff_largest(a, src, la_buf, sizeof(la_buf));
	sb = tp_diff_largest(b, src, lb_buf, sizeof(lb_buf));
	tp_text(m, "; largest: %s -> %s\n", sa ?: "n/a", sb ?: "n/a");
}

/*
 * Noise, in text: per CPU, each kind's time inside the windows (or, where
 * neither report has the module's, count over the run) and the largest
 * source, A -> B; nothing where neither report has sources.
 */
static void tp_diff_sources_text(struct tp_model *m, const struct tp_diff *d)
{
	const struct tp_diff_src *src = tp_diff_src_of(d);
	const struct jr *la = jr_get(d->doc[0], d->list);
	bool head = false;
	size_t i;

	for (i = 0; i < la->n; i++) {
		const struct jr *a = &la->v[i];
		const struct jr *b = tp_diff_match(d, d->doc[1], a);

		if (!tp_diff_sources_either(src, a, b))
			continue;
		if (!head)
			tp_text(m, "%s\n", src->head);
		head = true;
		tp_diff_sources_line(m, a, b, src);
	}
}

/* A figure in A and B, and its change in per cent. */
static void tp_diff_pair(struct tp_model *m, const char *key, double va,
			 double vb)
{
	tp_obj(m, key);
	tp_dbl(m, "a", va, NULL);
	tp_dbl(m, "b", vb, NULL);
	tp_dbl(m, "change_pct", tp_diff_change(va, vb), NULL);
	tp_end(m);
}

/*
 * The same, in a noise CPU's JSON object: "sources" ("KIND_ns", or
 * "KIND_count" for the userspace engine's, and "largest"), null where
 * neither report has them.
 */
static void tp_diff_sources_model(struct tp_model *m, const struct tp_diff *d,
				  const struct jr *a, const struct jr *b)
{
	const struct tp_diff_src *src = tp_diff_src_of(d);
	char la_buf[96], lb_buf[96], key[32];
	const char *sa, *sb;
	size_t k;

	if (!tp_diff_sources_either(src, a, b)) {
		tp_null(m, "sources", NULL);
		return;
	}
	tp_obj(m, "sources");
	for (k = 0; k < sizeof(tp_diff_kinds) / sizeof(tp_diff_kinds[0]); k++) {
		snprintf(key, sizeof(key), "%s_%s", tp_diff_kinds[k], src->field);
		tp_diff_pair(m, key, tp_diff_kind_figure(a, tp_diff_kinds[k], src),
			     tp_diff_kind_figure(b, tp_diff_kinds[k], src));
	}
	sa = tp_diff_largest(a, src, la_buf, sizeof(la_buf));
	sb = tp_diff_largest(b, src, lb_buf, sizeof(lb_buf));
	tp_obj(m, "largest");
	tp_str(m, "a", sa, NULL);
	tp_str(m, "b", sb, NULL);
	tp_end(m);
	tp_end(m);
}

/* Whether any figure of entry @a differs from its match's. */
static bool tp_diff_entry_changed(const struct tp_diff *d, const struct jr *a)
{
	const struct jr *b = tp_diff_match(d, d->doc[1], a);
	const struct tp_diff_fig *f;

	for (f = d->figs; f->label; f++)
		if (tp_diff_value(d, 0, a, f) != tp_diff_value(d, 1, b, f))
			return true;
	return false;
}

/* Skew's text shows the pairs that changed, the first this many. */
#define TP_DIFF_PAIRS_SHOWN	20

/**
 * struct tp_diff_out - the comparison being reported
 * @d: the reports
 * @shown: per entry, whether text shows it
 * @changed: entries whose figures changed
 */
struct tp_diff_out {
	const struct tp_diff *d;
	bool *shown;
	unsigned int changed;
};

/* Row @i: entry @i of A against its match in B, each figure and its change. */
static void tp_diff_row(struct tp_model *m, const void *ctx, unsigned int i)
{
	const struct tp_diff_out *o = ctx;
	const struct tp_diff *d = o->d;
	const struct jr *a = &jr_get(d->doc[0], d->list)->v[i];
	const struct jr *b = tp_diff_match(d, d->doc[1], a);
	bool pairs = !strcmp(d->list, "pairs"), diff = false;
	const struct tp_diff_fig *f;
	char name[64];

	tp_diff_name(d, a, name, sizeof(name));
	tp_text_quiet(m, !o->shown[i]);
	tp_text(m, "%-16s", name + (pairs ? 5 : 4));
	if (pairs) {
		tp_u64(m, "from", (uint64_t)jr_num(a, "from", 0), NULL);
		tp_u64(m, "to", (uint64_t)jr_num(a, "to", 0), NULL);
	} else {
		tp_u64(m, "cpu", (uint64_t)jr_num(a, "cpu", 0), NULL);
	}
	for (f = d->figs; f->label; f++) {
		double va = tp_diff_value(d, 0, a, f);
		double vb = tp_diff_value(d, 1, b, f);

		diff |= va != vb;
		snprintf(name, sizeof(name), "%.4g -> %.4g (%+.0f%%)", va, vb,
			 tp_diff_change(va, vb));
		tp_text(m, " %28s", name);
		tp_diff_pair(m, f->label, va, vb);
	}
	tp_text(m, "%s\n", diff ? "  *" : "");
	tp_bool(m, "changed", diff, NULL);
	if (!strcmp(d->kind, "noise"))
		tp_diff_sources_model(m, d, a, b);
}

/*
 * Which entries text shows (skew: the changed pairs, at most
 * TP_DIFF_PAIRS_SHOWN; every CPU), and how many changed.
 */
static void tp_diff_choose(struct tp_diff_out *o, size_t n)
{
	const struct tp_diff *d = o->d;
	const struct jr *la = jr_get(d->doc[0], d->list);
	bool pairs = !strcmp(d->list, "pairs"), diff;
	unsigned int shown = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		diff = tp_diff_entry_changed(d, &la->v[i]);
		o->changed += diff;
		o->shown[i] = !pairs || (diff && ++shown <= TP_DIFF_PAIRS_SHOWN);
	}
}

/* The comparison: what differs around the runs, then per entry A -> B. */
static void tp_diff_output(const struct tp_diff *d,
			   const struct tp_env_changes *l)
{
	const struct jr *la = jr_get(d->doc[0], d->list);
	struct tp_diff_out o = { d, calloc(la->n + 1, sizeof(bool)), 0 };
	struct tp_output out = { .fmt = d->json ? TP_FMT_JSON : TP_FMT_TEXT };
	bool pairs = !strcmp(d->list, "pairs");
	struct tp_model *m = tp_model_new(NULL, &out, NULL);
	const struct tp_diff_fig *f;

	if (!o.shown) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	tp_diff_choose(&o, la->n);
	tp_text(m, "diff: %s, %s -> %s\n", d->kind, d->path[0], d->path[1]);
	tp_str(m, "kind", d->kind, NULL);
	tp_str(m, "a", d->path[0], NULL);
	tp_str(m, "b", d->path[1], NULL);
	tp_diff_env_model(m, l);
	if (!pairs || o.changed) {
		tp_text(m, "%-16s", pairs ? "pair" : "cpu");
		for (f = d->figs; f->label; f++)
			tp_text(m, " %28s", f->label);
		tp_text(m, "\n");
	}
	tp_rows(m, d->list, (unsigned int)la->n, tp_diff_row, &o);
	if (!o.changed)
		tp_text(m, "no change: every figure is the same in both reports\n");
	else
		tp_text(m, "changed (*): %u of %zu %s%s\n", o.changed, la->n,
			pairs ? "pairs" : "CPUs",
			pairs && o.changed > TP_DIFF_PAIRS_SHOWN ?
			" (the first 20 shown; -j: every pair)" : "");
	if (!strcmp(d->kind, "noise"))
		tp_diff_sources_text(m, d);
	if (d->json)
		tp_render_json(m, stdout);
	else
		tp_render_text(m, stdout);
	tp_model_free(m);
	free(o.shown);
}

/* Read one report; NULL after one line saying why it is not one. */
static struct jr *tp_diff_read(const char *path, const char **kind)
{
	const char *why = NULL;
	struct jr *doc = jr_parse_file(path, &why);

	if (!doc) {
		tp_usage_err("diff", "%s is not a tscprobe report (%s)", path, why);
		return NULL;
	}
	*kind = jr_str(doc, "kind");
	if (!*kind || (strcmp(*kind, "noise") && strcmp(*kind, "cache") &&
		       strcmp(*kind, "skew")) ||
	    !jr_get(doc, "cpus") || jr_get(doc, "cpus")->type != JR_ARR ||
	    (!strcmp(*kind, "skew") && (!jr_get(doc, "pairs") ||
					jr_get(doc, "pairs")->type != JR_ARR))) {
		tp_usage_err("diff", "%s is not a tscprobe report (no noise, cache or skew \"kind\" and its list)",
			     path);
		jr_free(doc);
		return NULL;
	}
	return doc;
}

static int tp_diff_option(void *ctx, int c, char **argv)
{
	struct tp_diff *d = ctx;

	if (c == 'j') {
		d->json = true;
		return TP_EXIT_OK;
	}
	return tp_bad_option("diff", c, argv);
}

static int tp_diff_run(struct tp_diff *d)
{
	struct tp_env_changes l = { 0, 0, NULL };
	const char *kb;
	int ret;

	d->doc[0] = tp_diff_read(d->path[0], &d->kind);
	if (!d->doc[0])
		return TP_EXIT_USAGE;
	d->doc[1] = tp_diff_read(d->path[1], &kb);
	if (!d->doc[1])
		return TP_EXIT_USAGE;
	if (strcmp(d->kind, kb))
		return tp_usage_err("diff", "%s is a %s report, %s a %s report: compare reports of one kind",
				    d->path[0], d->kind, d->path[1], kb);
	d->list = strcmp(d->kind, "skew") ? "cpus" : "pairs";
	d->figs = !strcmp(d->kind, "noise") ? tp_noise_figs :
		  !strcmp(d->kind, "cache") ? tp_cache_figs : tp_skew_figs;
	ret = tp_diff_same_entries(d);
	if (ret)
		return ret;
	tp_diff_env(d, &l);
	tp_diff_output(d, &l);
	free(l.c);
	return TP_EXIT_OK;
}

/**
 * tp_cmd_diff() - the "diff" subcommand
 * @argc: argument count
 * @argv: arguments: two report files, -j
 *
 * Return: an enum tp_exit; TP_EXIT_USAGE for anything but two saved
 * reports of one kind with the same CPUs (pairs).
 */
int tp_cmd_diff(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tp_diff d = { { NULL, NULL }, { NULL, NULL }, NULL, NULL, NULL,
			     false };
	int ret;

	ret = tp_getopt(argc, argv, ":jh", opts, tp_diff_usage, tp_diff_option,
			&d);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	if (argc - optind != 2)
		return tp_usage_err("diff", "give two reports: tscprobe diff A.json B.json");
	d.path[0] = argv[optind];
	d.path[1] = argv[optind + 1];
	ret = tp_diff_run(&d);
	jr_free(d.doc[0]);
	jr_free(d.doc[1]);
	return ret;
}
