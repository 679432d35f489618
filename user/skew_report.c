// SPDX-License-Identifier: GPL-2.0
/*
 * The skew report, built once as a model (lib/model.h): a row per ordered
 * pair (status, relation, and the four statistics latij, latji, skew and
 * one-way as min/avg/max/sd), and the verdict on the TSCs' sync
 * (Documentation/skew.rst).  Text adds the pairs' table (the rows the
 * module's debugfs file prints, from core/report.c) and two matrices with
 * the CPUs as rows (i) and columns (j) -- one-way latency in ns and skew
 * in ns -- or, on many CPUs, a summary by topology and the worst pairs.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/context_report.h"
#include "user/lib/format.h"
#include "user/lib/render.h"
#include "user/lib/model.h"
#include "core/names.h"
#include "user/reports.h"
#include "core/report.h"
#include "user/lib/topology.h"
#include "user/lib/verdict.h"

/* The four statistics of a pair, in the order every format lists them. */
enum { TP_LATIJ, TP_LATJI, TP_SKEW, TP_ONE_WAY, TP_PAIR_STATS };

/* Each as value/divisor: skew and one-way are kept doubled. */
static const struct {
	const char *name;
	size_t off;
	unsigned int div;
} tp_pair_stats[TP_PAIR_STATS] = {
	[TP_LATIJ] = { "latij", offsetof(struct tp_skew_stats, latij), 1 },
	[TP_LATJI] = { "latji", offsetof(struct tp_skew_stats, latji), 1 },
	[TP_SKEW] = { "skew", offsetof(struct tp_skew_stats, skew2), 2 },
	[TP_ONE_WAY] = { "one_way", offsetof(struct tp_skew_stats, one_way2), 2 },
};

static const struct tp_sstats *tp_pair_stat(const struct tp_pair_res *p,
					    unsigned int k)
{
	return (const void *)((const char *)&p->st + tp_pair_stats[k].off);
}

/* The figures tp_pair_values() makes, in its order. */
enum { TP_MIN, TP_AVG, TP_MAX, TP_SD, TP_STAT_FIGS };
static const char *const tp_stat_names[TP_STAT_FIGS] = {
	"min", "avg", "max", "sd",
};

/**
 * tp_pair_values() - min, avg, max, sd of one statistic of an OK pair
 * @p: the pair
 * @k: the statistic: an index of tp_pair_stats
 * @v: the four figures, in cycles (the doubled ones halved)
 *
 * Every format prints these same four figures, so they are made here once.
 */
static void tp_pair_values(const struct tp_pair_res *p, unsigned int k,
			   double v[TP_STAT_FIGS])
{
	const struct tp_sstats *s = tp_pair_stat(p, k);
	double d = tp_pair_stats[k].div;

	v[TP_MIN] = (double)s->min / d;
	v[TP_AVG] = s->count ? (double)s->sum / ((double)s->count * d) : 0;
	v[TP_MAX] = (double)s->max / d;
	v[TP_SD] = (double)tp_sstats_sd_div(s, 1) / d;
}

/* @cycles in ns at the run's TSC rate; NaN (unknown) without the rate. */
static double tp_ns(const struct tp_result *r, double cycles)
{
	return r->tsc_khz ? cycles * 1e6 / r->tsc_khz : NAN;
}

/* A time in ns for text: "%.*f", or n/a where the TSC rate is unknown. */
static const char *tp_ns_text(double ns, int prec, char *buf, size_t len)
{
	if (isnan(ns))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", prec, ns);
	return buf;
}

/* avg one-way in ns. */
static double tp_pair_one_way_ns(const struct tp_result *r,
				 const struct tp_pair_res *p)
{
	double v[TP_STAT_FIGS];

	tp_pair_values(p, TP_ONE_WAY, v);
	return tp_ns(r, v[TP_AVG]);
}

static double tp_pair_skew(const struct tp_pair_res *p)
{
	double v[TP_STAT_FIGS];

	tp_pair_values(p, TP_SKEW, v);
	return v[TP_AVG];
}

/* A pair with numbers: measured, and with samples. */
static bool tp_pair_ok(const struct tp_pair_res *p)
{
	return p->status == TSCPROBE_PAIR_OK && p->st.nr;
}

/* A pair that is judged: with numbers, and a sound estimate. */
static bool tp_pair_judged(const struct tp_pair_res *p)
{
	return tp_pair_ok(p) && tp_skew_sound(&p->st);
}

/**
 * struct tp_skew_verdict - the skew report's last line
 * @ok: pairs with numbers
 * @unsound: of those, pairs whose estimate is not sound (tp_skew_sound()):
 *	not judged
 * @out: of the others, pairs not in sync (tp_skew_in_sync())
 * @kept: samples used, over the pairs with numbers
 * @dropped: samples dropped as outliers, over the same pairs
 * @max_abs: the largest |avg skew| of a judged pair, cycles
 * @worst: the pair it belongs to (NULL when no pair was judged)
 */
struct tp_skew_verdict {
	unsigned int ok;
	unsigned int unsound;
	unsigned int out;
	uint64_t kept;
	uint64_t dropped;
	double max_abs;
	const struct tp_pair_res *worst;
};

/**
 * tp_skew_verdict() - the largest |skew| and whether every pair is in sync
 * @r: the result
 * @v: the verdict
 *
 * Only OK pairs count, and of those only the sound ones are judged (an
 * estimate from a mostly disturbed pair can neither clear nor accuse);
 * the rule per pair is tp_skew_in_sync()'s.
 */
static void tp_skew_verdict(const struct tp_result *r,
			    struct tp_skew_verdict *v)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < r->npairs; i++) {
		const struct tp_pair_res *p = &r->pair[i];
		double skew, mag;

		if (!tp_pair_ok(p))
			continue;
		v->ok++;
		v->kept += p->st.nr;
		v->dropped += p->st.discarded;
		if (!tp_skew_sound(&p->st)) {
			v->unsound++;
			continue;
		}
		if (!tp_skew_in_sync(&p->st))
			v->out++;
		skew = tp_pair_skew(p);
		mag = skew < 0 ? -skew : skew;
		if (!v->worst || mag > v->max_abs) {
			v->max_abs = mag;
			v->worst = p;
		}
	}
}

/* What a matrix cell holds when the pair has no numbers. */
static const char *tp_cell_status(uint32_t status)
{
	switch (status) {
	case TSCPROBE_PAIR_TIMEOUT:
		return "tmo";
	case TSCPROBE_PAIR_OFFLINE:
		return "off";
	default:
		return "skip";
	}
}

/* How many CPUs of the run come before @cpu. */
static unsigned int tp_cpu_rank(const struct tp_result *r, unsigned int cpu)
{
	unsigned int n = 0;
	int c = -1;

	while ((c = tp_cpuset_next(&r->cpus, c)) >= 0 && (unsigned int)c < cpu)
		n++;
	return n;
}

/*
 * The pair (i, j).  Pairs arrive in (i, j) order, every ordered pair once,
 * so the pair is where that order puts it, unless some are missing: then
 * it is searched for (a 256-CPU matrix must not cost n^4).
 */
static const struct tp_pair_res *tp_find_pair(const struct tp_result *r,
					      unsigned int i, unsigned int j)
{
	unsigned int k, n = tp_cpuset_count(&r->cpus);
	unsigned int ri = tp_cpu_rank(r, i), rj = tp_cpu_rank(r, j);

	k = ri * (n - 1) + (rj < ri ? rj : rj - 1);
	if (i != j && k < r->npairs && r->pair[k].from == i &&
	    r->pair[k].to == j)
		return &r->pair[k];
	for (k = 0; k < r->npairs; k++)
		if (r->pair[k].from == i && r->pair[k].to == j)
			return &r->pair[k];
	return NULL;
}

static void tp_skew_verdict_text(const struct tp_result *r, FILE *f)
{
	struct tp_skew_verdict v;
	double skew[TP_STAT_FIGS], one_way[TP_STAT_FIGS];
	char line[256], s_ns[32], sd_ns[32], ow_ns[32];
	const struct tp_pair_res *p;
	unsigned int judged;

	tp_skew_verdict(r, &v);
	tp_skew_outliers_line(line, sizeof(line), v.kept, v.dropped, v.unsound);
	fprintf(f, "%s\n", line);
	if (!v.ok) {
		fprintf(f, "verdict: no pair was measured\n");
		return;
	}
	if (!v.worst) {
		fprintf(f, "verdict: none of the %u measured pairs can be judged: each had more samples dropped as outliers than kept\n",
			v.ok);
		return;
	}
	p = v.worst;
	tp_pair_values(p, TP_SKEW, skew);
	tp_pair_values(p, TP_ONE_WAY, one_way);
	fprintf(f, "verdict: largest |skew| %sns (%.1f cycles), %u -> %u (sd %sns, one-way %sns, %s);\n  ",
		tp_ns_text(tp_ns(r, v.max_abs), 1, s_ns, sizeof(s_ns)), v.max_abs,
		p->from, p->to,
		tp_ns_text(tp_ns(r, skew[TP_SD]), 1, sd_ns, sizeof(sd_ns)),
		tp_ns_text(tp_ns(r, one_way[TP_AVG]), 0, ow_ns, sizeof(ow_ns)),
		tp_relation_name(p->relation));
	judged = v.ok - v.unsound;
	if (!v.out)
		fprintf(f, "TSCs in sync within the noise: yes, all %u judged pairs",
			judged);
	else
		fprintf(f, "TSCs in sync within the noise: NO, %u of %u judged pairs out",
			v.out, judged);
	/* A verdict on some pairs must not read as one on every pair. */
	if (v.unsound)
		fprintf(f, ";\n  %u measured pair%s not judged (more samples dropped than kept)",
			v.unsound, v.unsound == 1 ? "" : "s");
	if (v.ok < r->npairs)
		fprintf(f, ";\n  %u of %u pairs not measured (timeout, offline or skipped)",
			r->npairs - v.ok, r->npairs);
	fputc('\n', f);
	fprintf(f, "  (a pair is in sync when min latij > 0, min latji > 0 and |avg skew| <= 3 sd + 1 cycle)\n");
}

/* Beyond this many CPUs the matrices no longer fit a terminal. */
#define TP_SKEW_MATRIX_CPUS	16
#define TP_SKEW_WORST		10

/**
 * struct tp_topo_sum - the pairs of one topology group
 * @n: pairs with numbers
 * @one_way: min, sum, max of the pairs' average one-way latency, ns
 * @skew: min, sum, max of the pairs' |average skew|, ns
 * @out: of @n, pairs not in sync
 */
struct tp_topo_sum {
	unsigned int n;
	double one_way[3];
	double skew[3];
	unsigned int out;
};

static void tp_topo_add(double v[3], double x, bool first)
{
	if (first || x < v[0])
		v[0] = x;
	v[1] += x;
	if (first || x > v[2])
		v[2] = x;
}

/*
 * The judged pairs' figures by topology group, into @t; returns how many
 * groups have pairs.
 */
static unsigned int tp_skew_topo_sums(const struct tp_result *r,
				      const struct tp_topo *topo,
				      struct tp_topo_sum t[TP_TOPO_GROUPS])
{
	unsigned int i, g, groups = 0;

	memset(t, 0, TP_TOPO_GROUPS * sizeof(*t));
	for (i = 0; i < r->npairs; i++) {
		const struct tp_pair_res *p = &r->pair[i];

		if (!tp_pair_judged(p))
			continue;
		g = tp_topo_group(topo, p->relation, p->from, p->to);
		groups += !t[g].n;
		tp_topo_add(t[g].one_way, tp_pair_one_way_ns(r, p), !t[g].n);
		tp_topo_add(t[g].skew, fabs(tp_ns(r, tp_pair_skew(p))), !t[g].n);
		t[g].out += !tp_skew_in_sync(&p->st);
		t[g].n++;
	}
	return groups;
}

/* One line per topology group that has pairs: min/avg/max of each. */
static void tp_skew_topology(const struct tp_topo_sum t[TP_TOPO_GROUPS],
			     FILE *f)
{
	unsigned int g;

	fprintf(f, "by topology            pairs  one-way ns: min   avg   max  |skew| ns: min   avg   max  not in sync\n");
	for (g = 0; g < TP_TOPO_GROUPS; g++) {
		if (!t[g].n)
			continue;
		fprintf(f, "  %-18s %7u %17.0f %5.0f %5.0f %16.1f %5.1f %5.1f %12u\n",
			tp_topo_group_name(g), t[g].n, t[g].one_way[0],
			t[g].one_way[1] / t[g].n, t[g].one_way[2], t[g].skew[0],
			t[g].skew[1] / t[g].n, t[g].skew[2], t[g].out);
	}
}

/* Worse first: out of sync before in sync, then the larger |skew|. */
static int tp_pair_worse_first(const void *a, const void *b)
{
	const struct tp_pair_res *x = *(const struct tp_pair_res *const *)a;
	const struct tp_pair_res *y = *(const struct tp_pair_res *const *)b;
	bool ox = !tp_skew_in_sync(&x->st), oy = !tp_skew_in_sync(&y->st);
	double sx = fabs(tp_pair_skew(x)), sy = fabs(tp_pair_skew(y));

	if (ox != oy)
		return ox ? -1 : 1;
	if (sx != sy)
		return sx > sy ? -1 : 1;
	return x->from != y->from ? (x->from < y->from ? -1 : 1) :
	       (x->to < y->to ? -1 : x->to > y->to);
}

/* The ten pairs farthest from sync. */
static void tp_skew_worst(const struct tp_result *r,
			  const struct tp_topo *topo, FILE *f)
{
	const struct tp_pair_res **w = calloc(r->npairs + 1, sizeof(*w));
	double skew[TP_STAT_FIGS];
	unsigned int i, n = 0;

	if (!w)
		return;
	for (i = 0; i < r->npairs; i++)
		if (tp_pair_judged(&r->pair[i]))
			w[n++] = &r->pair[i];
	qsort(w, n, sizeof(*w), tp_pair_worse_first);
	fprintf(f, "\nworst pairs (|skew|)    relation             one-way ns   skew ns   sd ns  in sync\n");
	for (i = 0; i < n && i < TP_SKEW_WORST; i++) {
		tp_pair_values(w[i], TP_SKEW, skew);
		fprintf(f, "  %4u -> %-4u          %-20s %10.0f %9.1f %7.1f  %s\n",
			w[i]->from, w[i]->to,
			tp_topo_group_name(tp_topo_group(topo, w[i]->relation,
							 w[i]->from, w[i]->to)),
			tp_pair_one_way_ns(r, w[i]), tp_ns(r, skew[TP_AVG]),
			tp_ns(r, skew[TP_SD]),
			tp_skew_in_sync(&w[i]->st) ? "yes" : "NO");
	}
	free(w);
}

static const struct tp_family tp_skew_pair_ok = {
	"tscprobe_skew_pair_ok", "gauge",
	"1 when the pair completed, 0 on timeout, offline or skipped.", false,
};
/* A family per statistic, by TP_LATIJ...: a sample per pair and figure. */
static const struct tp_family tp_skew_stat_families[TP_PAIR_STATS] = {
	{ "tscprobe_skew_latij_cycles", "gauge",
	  "latij of an ordered CPU pair, in TSC cycles (stat: min, avg, max, sd).", false },
	{ "tscprobe_skew_latji_cycles", "gauge",
	  "latji of an ordered CPU pair, in TSC cycles (stat: min, avg, max, sd).", false },
	{ "tscprobe_skew_skew_cycles", "gauge",
	  "skew of an ordered CPU pair, in TSC cycles (stat: min, avg, max, sd).", false },
	{ "tscprobe_skew_one_way_cycles", "gauge",
	  "one_way of an ordered CPU pair, in TSC cycles (stat: min, avg, max, sd).", false },
};
static const struct tp_family tp_skew_discarded = {
	"tscprobe_skew_discarded_samples", "gauge",
	"Samples of the pair dropped as outliers (the others are in its figures).",
	false,
};
static const struct tp_family tp_skew_sound_family = {
	"tscprobe_skew_pair_sound", "gauge",
	"1 when at most as many samples were dropped as kept: the pair is judged.",
	false,
};
static const struct tp_family tp_skew_in_sync_family = {
	"tscprobe_skew_in_sync", "gauge",
	"1 when every judged pair is in sync within its noise (and one was).",
	true,
};

/* The CSV places of a pair's columns, after the report's own. */
enum {
	TP_SKEW_CSV_PAIR = 5,
	TP_SKEW_CSV_STATS = 11,		/* statistic x figure */
	TP_SKEW_CSV_AFTER = TP_SKEW_CSV_STATS + TP_PAIR_STATS * TP_STAT_FIGS,
	TP_SKEW_CSV_NS = 901,		/* added later: after the others */
};

/* Statistic @k of pair @p as {min, avg, max, sd}: null without numbers. */
static void tp_pair_stat_model(struct tp_model *m, const struct tp_pair_res *p,
			       unsigned int k)
{
	const char *name = tp_pair_stats[k].name;
	bool ok = tp_pair_ok(p);
	double v[TP_STAT_FIGS];
	struct tp_opts o = { .prom = &tp_skew_stat_families[k] };
	char col[32];
	unsigned int s;

	tp_pair_values(p, k, v);
	tp_obj_known(m, name, ok);
	for (s = 0; s < TP_STAT_FIGS; s++) {
		snprintf(col, sizeof(col), "%s_%s", name, tp_stat_names[s]);
		o.csv = TP_SKEW_CSV_STATS + TP_STAT_FIGS * k + s;
		o.col = col;
		o.labels = tp_labels(m, "stat", tp_stat_names[s], NULL);
		tp_dbl(m, tp_stat_names[s], ok ? v[s] : NAN, &o);
	}
	tp_end(m);
}

/* A pair's bool, null where @known is not. */
static void tp_pair_bool(struct tp_model *m, const char *key, bool known,
			 bool v, const struct tp_opts *o)
{
	if (known)
		tp_bool(m, key, v, o);
	else
		tp_null(m, key, o);
}

/* Row @i: one ordered pair; no numbers for a pair that did not complete. */
static void tp_skew_pair_row(struct tp_model *m, const void *ctx, unsigned int i)
{
	const struct tp_result *r = ctx;
	const struct tp_pair_res *p = &r->pair[i];
	bool ok = tp_pair_ok(p);
	char from[16], to[16], row[192];
	unsigned int k;

	snprintf(from, sizeof(from), "%u", p->from);
	snprintf(to, sizeof(to), "%u", p->to);
	tp_model_labels(m, "from", from, "to", to, "relation",
			tp_relation_name(p->relation), "engine",
			tp_result_engine(r), NULL);
	tp_skew_row(row, sizeof(row), p->from, p->to, p->status, &p->st);
	tp_text(m, "%s\n", row);
	tp_u64(m, "from", p->from, &(struct tp_opts){ .csv = TP_SKEW_CSV_PAIR });
	tp_u64(m, "to", p->to, &(struct tp_opts){ .csv = TP_SKEW_CSV_PAIR + 1 });
	tp_str(m, "status", tp_pair_status_name(p->status),
	       &(struct tp_opts){ .csv = TP_SKEW_CSV_PAIR + 3 });
	tp_str(m, "relation", tp_relation_name(p->relation),
	       &(struct tp_opts){ .csv = TP_SKEW_CSV_PAIR + 2 });
	tp_bool(m, "ok", ok, &(struct tp_opts){ .prom = &tp_skew_pair_ok,
		.not_in = TP_NO_DOC });
	tp_u64(m, "elapsed_cycles", p->elapsed_cycles, NULL);
	tp_u64(m, "nr", ok ? p->st.nr : 0,
	       &(struct tp_opts){ .csv = TP_SKEW_CSV_PAIR + 4 });
	tp_counter(m, "discarded", &(struct tp_counter_res){ ok, p->st.discarded },
		   &(struct tp_opts){ .csv = TP_SKEW_CSV_PAIR + 5,
		   .prom = &tp_skew_discarded });
	for (k = 0; k < TP_PAIR_STATS; k++)
		tp_pair_stat_model(m, p, k);
	tp_dbl(m, "one_way_ns", ok ? tp_pair_one_way_ns(r, p) : NAN,
		&(struct tp_opts){ .csv = TP_SKEW_CSV_AFTER });
	tp_dbl(m, "skew_ns", ok ? tp_ns(r, tp_pair_skew(p)) : NAN,
		&(struct tp_opts){ .csv = TP_SKEW_CSV_NS });
	tp_pair_bool(m, "sound", ok, tp_skew_sound(&p->st), &(struct tp_opts){
		.csv = TP_SKEW_CSV_AFTER + 1, .prom = &tp_skew_sound_family });
	tp_pair_bool(m, "in_sync", tp_pair_judged(p), tp_skew_in_sync(&p->st),
		     &(struct tp_opts){ .csv = TP_SKEW_CSV_AFTER + 2 });
	tp_verdict_row_model(m, i);
}

/*
 * The sync verdict in JSON: "verdict", with the limits' verdict in the
 * same object, last as in every kind's report (its text lines stand under
 * the pairs); in Prometheus whether every judged pair is in sync.
 */
static void tp_skew_verdict_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_skew_verdict v;

	tp_skew_verdict(r, &v);
	tp_obj(m, "verdict");
	tp_u64(m, "pairs_ok", v.ok, NULL);
	tp_u64(m, "pairs_not_judged", v.unsound, NULL);
	tp_u64(m, "pairs_out_of_sync", v.out, NULL);
	tp_u64(m, "samples_kept", v.kept, NULL);
	tp_u64(m, "samples_discarded", v.dropped, NULL);
	tp_pair_bool(m, "in_sync", v.worst, !v.out, NULL);
	tp_bool(m, "in_sync_all", v.worst && !v.out, &(struct tp_opts){
		.prom = &tp_skew_in_sync_family, .not_in = TP_NO_DOC });
	if (v.worst) {
		tp_dbl(m, "max_abs_skew", v.max_abs, NULL);
		tp_dbl(m, "max_abs_skew_ns", tp_ns(r, v.max_abs), NULL);
		tp_u64(m, "from", v.worst->from, NULL);
		tp_u64(m, "to", v.worst->to, NULL);
	} else {
		tp_null(m, "max_abs_skew", NULL);
		tp_null(m, "max_abs_skew_ns", NULL);
	}
	tp_verdict_keys_model(m);
	tp_end(m);
}

static const struct tp_picture tp_skew_picture = { .title = "tscprobe skew" };

static const struct tp_matrix tp_skew_matrices[2] = {
	{ "one-way latency, ns (row: CPU i, column: CPU j)", "%.0f",
	  "one-way latency (ns)", false, "ns" },
	{ "skew, ns: TSC_j - TSC_i (row: CPU i, column: CPU j)", "%.1f",
	  "skew: TSC_j - TSC_i (ns)", true,
	  "ns (blue: TSC_j behind, red: ahead)" },
};

/*
 * The two matrices, rows i and columns j: one-way latency and skew in ns;
 * a cell without numbers says why ("-" on the diagonal, "?" for a pair
 * not reported, "n/a" without the TSC rate).
 */
static void tp_skew_matrices_model(struct tp_model *m, bool text)
{
	const struct tp_result *r = tp_model_result(m);
	const struct tp_pair_res *p;
	struct tp_cell *c[2];
	unsigned int k = 0, x;
	int i = -1, j;

	for (x = 0; x < 2; x++) {
		c[x] = tp_matrix(m, &tp_skew_matrices[x], &r->cpus);
		if (!text)
			tp_not_in(m, TP_IN_TEXT);
	}
	while ((i = tp_cpuset_next(&r->cpus, i)) >= 0)
		for (j = -1; (j = tp_cpuset_next(&r->cpus, j)) >= 0; k++) {
			p = tp_find_pair(r, i, j);
			c[0][k].none = c[1][k].none = i == j ? "-" : !p ? "?" :
				!tp_pair_ok(p) ? tp_cell_status(p->status) :
				!r->tsc_khz ? "n/a" : NULL;
			if (c[0][k].none)
				continue;
			c[0][k].v = tp_pair_one_way_ns(r, p);
			c[1][k].v = tp_ns(r, tp_pair_skew(p));
		}
	if (text)
		tp_text(m, "\n");
}

/*
 * The pairs by topology wherever they sit two ways or more, and on many
 * CPUs (@big), where the matrices go, always and with the worst pairs.
 */
static void tp_skew_summary(struct tp_model *m, bool big)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_topo *topo = tp_topo_read(&r->cpus);
	struct tp_topo_sum t[TP_TOPO_GROUPS];
	FILE *f;

	if (tp_skew_topo_sums(r, topo, t) >= 2 || big) {
		f = tp_text_open(m);
		tp_skew_topology(t, f);
		if (big)
			tp_skew_worst(r, topo, f);
		fprintf(f, "\n");
		tp_text_close(m, f, NULL);
	}
	free(topo);
}

static void tp_skew_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	bool big = tp_cpuset_count(&r->cpus) > TP_SKEW_MATRIX_CPUS;
	bool verbose = tp_model_output(m)->verbose;
	const char *head;
	char cpus[256];
	unsigned int k, line;
	FILE *f;

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	tp_text(m, "skew: %s engine, CPUs %s, pairs %u/%u", tp_result_engine(r),
		cpus, r->pairs_done, r->pairs_total);
	tp_report_run_text(m);
	tp_text(m, "  samples %u, repeats %u, tsc %u kHz (%.2f cycles/ns)\n",
		r->p.samples, r->p.repeats, r->tsc_khz, r->tsc_khz / 1e6);
	tp_picture(m, &tp_skew_picture);
	tp_note(m, TP_NOTE_TITLE, "tscprobe skew: %s engine, %u CPUs, rows i, columns j",
		tp_result_engine(r), tp_cpuset_count(&r->cpus));
	tp_report_head(m, "skew");
	tp_family(m, &tp_skew_pair_ok);
	for (k = 0; k < TP_PAIR_STATS; k++)
		tp_family(m, &tp_skew_stat_families[k]);
	tp_family(m, &tp_skew_discarded);
	tp_family(m, &tp_skew_sound_family);
	tp_family(m, &tp_skew_in_sync_family);
	tp_u64(m, "samples", r->p.samples, NULL);
	tp_u64(m, "repeats", r->p.repeats, NULL);
	tp_u64(m, "elapsed_ns", r->elapsed_ns, &tp_elapsed_opts);
	tp_u64(m, "pairs_done", r->pairs_done, NULL);
	tp_u64(m, "pairs_total", r->pairs_total, NULL);
	tp_cpuset(m, "cpus", &r->cpus);
	for (line = 0; (!big || verbose) && (head = tp_skew_header(line)); line++)
		tp_text(m, "%s\n", head);
	tp_rows(m, "pairs", r->npairs, tp_skew_pair_row, r);
	if (big && !verbose)
		tp_not_in(m, TP_IN_TEXT);
	tp_skew_matrices_model(m, !big || verbose);
	tp_skew_summary(m, big);
	f = tp_text_open(m);
	tp_skew_verdict_text(r, f);
	tp_text_close(m, f, "  ");
	if (big && !verbose)
		tp_text(m, "(-v: every pair, the two matrices and each CPU's interrupts; -j and --csv: every pair)\n");
	tp_context_cpus_model(m, !big || verbose);
	tp_context_model(m);
	tp_skew_verdict_model(m);
}

/* Why a pair without numbers has no figure. */
static const char *tp_pair_none_why(const struct tp_pair_res *p)
{
	switch (p->status) {
	case TSCPROBE_PAIR_OK:
		return "no samples";
	case TSCPROBE_PAIR_TIMEOUT:
		return "timed out";
	case TSCPROBE_PAIR_OFFLINE:
		return "a CPU went offline";
	default:
		return "not measured";
	}
}

/*
 * A judged pair against "sync": tp_skew_in_sync() decides.  The figure is
 * the |avg skew| and the limit the 3 sd + 1 cycle that rule compares it
 * with, computed as it does (doubled, whole cycles), so that an excess is
 * the rule's own.  Out of sync with the skew within that bound, a hand-off
 * took no time: over, with no excess to give.
 */
static void tp_skew_sync_figure(const struct tp_pair_res *p,
				struct tp_judgement *j)
{
	int64_t avg = tp_sstats_mean_div(&p->st.skew2, 1);
	uint64_t mag = avg < 0 ? -(uint64_t)avg : (uint64_t)avg;
	uint64_t bound = 3 * tp_sstats_sd_div(&p->st.skew2, 1) + 2;

	tp_judge(j, (double)mag / 2, (double)bound / 2);
	if (tp_skew_in_sync(&p->st)) {
		j->how = TP_JUDGED_PASS;
		j->excess = NAN;
	} else if (j->how == TP_JUDGED_PASS) {
		j->how = TP_JUDGED_OVER;
		j->why = "a hand-off of 0 cycles or less: a TSC is behind by more than a hand-off";
	}
}

/**
 * tp_skew_figure() - a pair's figure for a skew limit (a tp_figure_fn)
 * @r: the result
 * @l: the limit: max (the pair's |avg skew|) or sync
 * @i: the pair's index in @r
 * @j: the judgement
 *
 * Only the pairs the sync verdict judges have a figure: a pair with more
 * samples dropped than kept can neither clear nor accuse the machine.
 */
void tp_skew_figure(const struct tp_result *r, const struct tp_limit *l,
		    unsigned int i, struct tp_judgement *j)
{
	const struct tp_pair_res *p = &r->pair[i];
	double mag;

	if (!tp_pair_ok(p)) {
		tp_judge_none(j, tp_pair_none_why(p));
		return;
	}
	if (!tp_pair_judged(p)) {
		tp_judge_none(j, "not sound: more samples dropped than kept");
		return;
	}
	if (l->stat == TP_LIMIT_SYNC) {
		tp_skew_sync_figure(p, j);
		return;
	}
	mag = fabs(tp_pair_skew(p));
	if (l->cycles)
		tp_judge(j, mag, (double)l->value);
	else if (!r->tsc_khz)
		tp_judge_none(j, "the TSC rate is unknown");
	else
		tp_judge(j, tp_ns(r, mag), (double)l->value);
}

/* The skew report: its figures for limits, its model. */
const struct tp_report_kind tp_skew_report = {
	tp_skew_figure, tp_skew_model,
};

/* A skew result's report, as @o asks (tp_report()). */
int tp_skew_output(const struct tp_result *r, const struct tp_output *o,
		   FILE *f)
{
	return tp_report(r, o, f, &tp_skew_report);
}
