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

#include "commands.h"
#include "lib/cli.h"
#include "lib/json_read.h"
#include "lib/json_write.h"
#include "lib/options.h"
#include "lib/format.h"

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
		"warnings", "cur_khz", "tsc_khz", "cli",
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

static void tp_diff_env_text(const struct tp_env_changes *l)
{
	char cpus[256];
	size_t i;

	if (!l->n) {
		printf("environment and parameters: the same\n");
		return;
	}
	printf("environment and parameters that differ:\n");
	for (i = 0; i < l->n; i++) {
		tp_cpuset_format(&l->c[i].cpus, cpus, sizeof(cpus));
		printf("  %s: %s -> %s%s%s\n", l->c[i].what, l->c[i].a,
		       l->c[i].b, !cpus[0] ? "" :
		       tp_cpuset_count(&l->c[i].cpus) > 1 ? " on CPUs " : " on CPU ",
		       cpus);
	}
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
 * null); NULL: not known.
 */
static const char *tp_diff_largest(const struct jr *cpu,
				   const struct tp_diff_src *src, char *buf,
				   size_t len)
{
	const struct jr *n = jr_get(jr_get(cpu, "sources"), "named");
	const struct jr *id, *vector, *thread, *pid;
	const char *kind;
	size_t at;

	if (!tp_diff_has_sources(cpu, src->timed))
		return NULL;
	if (!n || n->type != JR_ARR || !n->n)
		return "none";
	kind = jr_str(&n->v[0], "kind");
	if (kind && !strcmp(kind, "other"))
		return "other";
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

/* One CPU's line: each kind A -> B, then the largest source. */
static void tp_diff_sources_line(const struct jr *a, const struct jr *b,
				 const struct tp_diff_src *src)
{
	char ta[32], tb[32], la_buf[96], lb_buf[96];
	const char *sa, *sb;
	size_t k;

	printf("  CPU %.0f:", jr_num(a, "cpu", -1));
	for (k = 0; k < sizeof(tp_diff_kinds) / sizeof(tp_diff_kinds[0]); k++) {
		double va = tp_diff_kind_figure(a, tp_diff_kinds[k], src);
		double vb = tp_diff_kind_figure(b, tp_diff_kinds[k], src);

		tp_diff_figure_text(va, src, ta, sizeof(ta));
		tp_diff_figure_text(vb, src, tb, sizeof(tb));
		printf("%s %s %s -> %s", k ? "," : "", tp_diff_kinds[k], ta, tb);
		if (!isnan(va) && !isnan(vb))
			printf(" (%+.0f%%)", tp_diff_change(va, vb));
	}
	sa = tp_diff_largest(a, src, la_buf, sizeof(la_buf));
	sb = tp_diff_largest(b, src, lb_buf, sizeof(lb_buf));
	printf("; largest: %s -> %s\n", sa ?: "n/a", sb ?: "n/a");
}

/*
 * Noise: per CPU, each kind's time inside the windows (or, where neither
 * report has the module's, count over the run) and the largest source,
 * A -> B; nothing where neither report has sources.
 */
static void tp_diff_sources_text(const struct tp_diff *d)
{
	const struct tp_diff_src *src = tp_diff_src_of(d);
	const struct jr *la = jr_get(d->doc[0], d->list);
	bool head = false;
	size_t i;

	for (i = 0; i < la->n; i++) {
		const struct jr *a = &la->v[i];
		const struct jr *b = tp_diff_match(d, d->doc[1], a);

		if (!tp_diff_has_sources(a, src->timed) &&
		    !tp_diff_has_sources(b, src->timed))
			continue;
		if (!head)
			printf("%s\n", src->head);
		head = true;
		tp_diff_sources_line(a, b, src);
	}
}

/*
 * The same, in a noise CPU's JSON object: "sources" ("KIND_ns", or
 * "KIND_count" for the userspace engine's, and "largest"), null where
 * neither report has them.
 */
static void tp_diff_sources_json(const struct tp_diff *d, struct jw *j,
				 const struct jr *a, const struct jr *b)
{
	const struct tp_diff_src *src = tp_diff_src_of(d);
	char la_buf[96], lb_buf[96], key[32];
	const char *sa, *sb;
	size_t k;

	if (!tp_diff_has_sources(a, src->timed) &&
	    !tp_diff_has_sources(b, src->timed)) {
		jw_null(j, "sources");
		return;
	}
	jw_obj(j, "sources");
	for (k = 0; k < sizeof(tp_diff_kinds) / sizeof(tp_diff_kinds[0]); k++) {
		double va = tp_diff_kind_figure(a, tp_diff_kinds[k], src);
		double vb = tp_diff_kind_figure(b, tp_diff_kinds[k], src);

		snprintf(key, sizeof(key), "%s_%s", tp_diff_kinds[k], src->field);
		jw_obj(j, key);
		jw_double(j, "a", va);
		jw_double(j, "b", vb);
		jw_double(j, "change_pct", tp_diff_change(va, vb));
		jw_obj_end(j);
	}
	sa = tp_diff_largest(a, src, la_buf, sizeof(la_buf));
	sb = tp_diff_largest(b, src, lb_buf, sizeof(lb_buf));
	jw_obj(j, "largest");
	if (sa)
		jw_str(j, "a", sa);
	else
		jw_null(j, "a");
	if (sb)
		jw_str(j, "b", sb);
	else
		jw_null(j, "b");
	jw_obj_end(j);
	jw_obj_end(j);
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

static unsigned int tp_diff_count_changed(const struct tp_diff *d)
{
	const struct jr *la = jr_get(d->doc[0], d->list);
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < la->n; i++)
		n += tp_diff_entry_changed(d, &la->v[i]);
	return n;
}

/* Per entry: each figure "A -> B (+x%)"; the changed ones listed last. */
static void tp_diff_text(const struct tp_diff *d, const struct tp_env_changes *l)
{
	const struct jr *la = jr_get(d->doc[0], d->list);
	const struct tp_diff_fig *f;
	unsigned int changed = 0, shown = 0;
	bool pairs = !strcmp(d->list, "pairs");
	char name[64], cell[64];
	size_t i;

	printf("diff: %s, %s -> %s\n", d->kind, d->path[0], d->path[1]);
	tp_diff_env_text(l);
	if (!pairs || tp_diff_count_changed(d)) {
		printf("%-16s", pairs ? "pair" : "cpu");
		for (f = d->figs; f->label; f++)
			printf(" %28s", f->label);
		printf("\n");
	}
	for (i = 0; i < la->n; i++) {
		const struct jr *a = &la->v[i];
		const struct jr *b = tp_diff_match(d, d->doc[1], a);
		bool diff = tp_diff_entry_changed(d, a);

		changed += diff;
		/* skew: only the pairs that changed, at most 20 */
		if (pairs && (!diff || ++shown > 20))
			continue;
		tp_diff_name(d, a, name, sizeof(name));
		printf("%-16s", name + (pairs ? 5 : 4));
		for (f = d->figs; f->label; f++) {
			double va = tp_diff_value(d, 0, a, f);
			double vb = tp_diff_value(d, 1, b, f);

			snprintf(cell, sizeof(cell), "%.4g -> %.4g (%+.0f%%)",
				 va, vb, tp_diff_change(va, vb));
			printf(" %28s", cell);
		}
		printf("%s\n", diff ? "  *" : "");
	}
	if (!changed)
		printf("no change: every figure is the same in both reports\n");
	else
		printf("changed (*): %u of %zu %s%s\n", changed, la->n,
		       pairs ? "pairs" : "CPUs",
		       pairs && changed > 20 ? " (the first 20 shown; -j: every pair)" : "");
	if (!strcmp(d->kind, "noise"))
		tp_diff_sources_text(d);
}

static void tp_diff_json(const struct tp_diff *d, const struct tp_env_changes *l)
{
	const struct jr *la = jr_get(d->doc[0], d->list);
	const struct tp_diff_fig *f;
	struct jw j;
	size_t i;
	int cpu;

	jw_init(&j, stdout);
	jw_obj(&j, NULL);
	jw_str(&j, "kind", d->kind);
	jw_str(&j, "a", d->path[0]);
	jw_str(&j, "b", d->path[1]);
	jw_arr(&j, "environment");
	for (i = 0; i < l->n; i++) {
		jw_obj(&j, NULL);
		jw_str(&j, "what", l->c[i].what);
		jw_arr(&j, "cpus");
		for (cpu = -1; (cpu = tp_cpuset_next(&l->c[i].cpus, cpu)) >= 0;)
			jw_u64(&j, NULL, (uint64_t)cpu);
		jw_arr_end(&j);
		jw_str(&j, "a", l->c[i].a);
		jw_str(&j, "b", l->c[i].b);
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_arr(&j, d->list);
	for (i = 0; i < la->n; i++) {
		const struct jr *a = &la->v[i];
		const struct jr *b = tp_diff_match(d, d->doc[1], a);
		bool diff = false;

		jw_obj(&j, NULL);
		if (!strcmp(d->list, "pairs")) {
			jw_u64(&j, "from", (uint64_t)jr_num(a, "from", 0));
			jw_u64(&j, "to", (uint64_t)jr_num(a, "to", 0));
		} else {
			jw_u64(&j, "cpu", (uint64_t)jr_num(a, "cpu", 0));
		}
		for (f = d->figs; f->label; f++) {
			double va = tp_diff_value(d, 0, a, f);
			double vb = tp_diff_value(d, 1, b, f);

			diff |= va != vb;
			jw_obj(&j, f->label);
			jw_double(&j, "a", va);
			jw_double(&j, "b", vb);
			jw_double(&j, "change_pct", tp_diff_change(va, vb));
			jw_obj_end(&j);
		}
		jw_bool(&j, "changed", diff);
		if (!strcmp(d->kind, "noise"))
			tp_diff_sources_json(d, &j, a, b);
		jw_obj_end(&j);
	}
	jw_arr_end(&j);
	jw_obj_end(&j);
	jw_finish(&j);
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
	if (d->json)
		tp_diff_json(d, &l);
	else
		tp_diff_text(d, &l);
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
