// SPDX-License-Identifier: GPL-2.0
/*
 * The skew report: the seed's table (the rows the module's debugfs file
 * prints, from core/report.c), two matrices with the CPUs as rows (i) and
 * columns (j) -- one-way latency in ns and skew in cycles -- and a verdict;
 * or the same as JSON (schema in Documentation/skew.rst).
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "names.h"
#include "output.h"
#include "report.h"

/* avg one-way in ns; the one-way is kept doubled. */
static double tp_pair_one_way_ns(const struct tp_result *r,
				 const struct tp_pair_res *p)
{
	const struct tp_sstats *s = &p->st.one_way2;

	if (!s->count || !r->tsc_khz)
		return 0;
	return (double)s->sum / (2.0 * (double)s->count) * 1e6 / r->tsc_khz;
}

static double tp_pair_skew(const struct tp_pair_res *p)
{
	const struct tp_sstats *s = &p->st.skew2;

	return s->count ? (double)s->sum / (2.0 * (double)s->count) : 0;
}

/**
 * tp_skew_verdict() - the largest |skew| and whether every pair is in sync
 * @r: the result
 * @v: the verdict
 *
 * Only OK pairs count; the rule per pair is tp_skew_in_sync()'s.
 */
void tp_skew_verdict(const struct tp_result *r, struct tp_skew_verdict *v)
{
	unsigned int i;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < r->npairs; i++) {
		const struct tp_pair_res *p = &r->pair[i];
		double mag;

		if (p->status != TSCPROBE_PAIR_OK || !p->st.nr)
			continue;
		v->ok++;
		if (!tp_skew_in_sync(&p->st))
			v->out++;
		mag = tp_pair_skew(p) < 0 ? -tp_pair_skew(p) : tp_pair_skew(p);
		if (v->ok == 1 || mag > v->max_abs) {
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

static const struct tp_pair_res *tp_find_pair(const struct tp_result *r,
					      unsigned int i, unsigned int j)
{
	unsigned int k;

	for (k = 0; k < r->npairs; k++)
		if (r->pair[k].from == i && r->pair[k].to == j)
			return &r->pair[k];
	return NULL;
}

static void tp_matrix_cell(const struct tp_result *r, unsigned int i,
			   unsigned int j, bool skew, char *buf, size_t len)
{
	const struct tp_pair_res *p = tp_find_pair(r, i, j);

	if (i == j)
		snprintf(buf, len, "-");
	else if (!p)
		snprintf(buf, len, "?");
	else if (p->status != TSCPROBE_PAIR_OK || !p->st.nr)
		snprintf(buf, len, "%s", tp_cell_status(p->status));
	else if (skew)
		snprintf(buf, len, "%.1f", tp_pair_skew(p));
	else
		snprintf(buf, len, "%.0f", tp_pair_one_way_ns(r, p));
}

/* Rows: CPU i (the side that starts); columns: CPU j. */
static void tp_matrix(const struct tp_result *r, bool skew, FILE *f)
{
	char cell[48];
	int i, j, w = 4;

	for (i = -1; (i = tp_cpuset_next(&r->cpus, i)) >= 0;)
		for (j = -1; (j = tp_cpuset_next(&r->cpus, j)) >= 0;) {
			tp_matrix_cell(r, i, j, skew, cell, sizeof(cell));
			if ((int)strlen(cell) + 1 > w)
				w = (int)strlen(cell) + 1;
		}
	fprintf(f, "%5s", "i\\j");
	for (j = -1; (j = tp_cpuset_next(&r->cpus, j)) >= 0;)
		fprintf(f, " %*d", w, j);
	fprintf(f, "\n");
	for (i = -1; (i = tp_cpuset_next(&r->cpus, i)) >= 0;) {
		fprintf(f, "%5d", i);
		for (j = -1; (j = tp_cpuset_next(&r->cpus, j)) >= 0;) {
			tp_matrix_cell(r, i, j, skew, cell, sizeof(cell));
			fprintf(f, " %*s", w, cell);
		}
		fprintf(f, "\n");
	}
}

static void tp_skew_verdict_text(const struct tp_result *r, FILE *f)
{
	struct tp_skew_verdict v;
	const struct tp_pair_res *p;

	tp_skew_verdict(r, &v);
	if (!v.ok) {
		fprintf(f, "verdict: no pair was measured\n");
		return;
	}
	p = v.worst;
	fprintf(f, "verdict: largest |skew| %.1f cycles, %u -> %u (sd %.1f, one-way %.0f cycles, %s); ",
		v.max_abs, p->from, p->to,
		tp_sstats_sd_div(&p->st.skew2, 1) / 2.0,
		(double)p->st.one_way2.sum / (2.0 * p->st.one_way2.count),
		tp_relation_name(p->relation));
	if (!v.out)
		fprintf(f, "TSCs in sync within the noise: yes, all %u pairs\n",
			v.ok);
	else
		fprintf(f, "TSCs in sync within the noise: NO, %u of %u pairs out\n",
			v.out, v.ok);
	fprintf(f, "  (a pair is in sync when min latij > 0, min latji > 0 and |avg skew| <= 3 sd + 1 cycle)\n");
}

static void tp_skew_text(const struct tp_result *r, FILE *f)
{
	const char *head;
	char cpus[256], row[192];
	unsigned int i, line;

	tp_cpuset_format(&r->cpus, cpus, sizeof(cpus));
	fprintf(f, "skew: %s engine, CPUs %s, samples %u, repeats %u, tsc %u kHz, pairs %u/%u",
		r->user_engine ? "user" : "kernel", cpus, r->p.samples,
		r->p.repeats, r->tsc_khz, r->pairs_done, r->pairs_total);
	if (!r->user_engine)
		fprintf(f, ", run %llu %s (%s)", (unsigned long long)r->run_id,
			tp_state_name(r->state), tp_stop_reason_name(r->reason));
	fprintf(f, "\n");
	for (line = 0; (head = tp_skew_header(line)); line++)
		fprintf(f, "%s\n", head);
	for (i = 0; i < r->npairs; i++) {
		const struct tp_pair_res *p = &r->pair[i];

		tp_skew_row(row, sizeof(row), p->from, p->to, p->status, &p->st);
		fprintf(f, "%s\n", row);
	}
	fprintf(f, "\none-way latency, ns (row: CPU i, column: CPU j)\n");
	tp_matrix(r, false, f);
	fprintf(f, "\nskew, cycles: TSC_j - TSC_i (row: CPU i, column: CPU j)\n");
	tp_matrix(r, true, f);
	fprintf(f, "\n");
	tp_skew_verdict_text(r, f);
}

/* {min, avg, max, sd}, divided by @k (2 for the doubled quantities). */
static void tp_stat_json(struct tj *j, const char *key,
			 const struct tp_sstats *s, unsigned int k)
{
	tj_obj(j, key);
	tj_real(j, "min", (double)s->min / k);
	tj_real(j, "avg", s->count ? (double)s->sum / ((double)s->count * k) : 0);
	tj_real(j, "max", (double)s->max / k);
	tj_real(j, "sd", (double)tp_sstats_sd_div(s, 1) / k);
	tj_obj_end(j);
}

static void tp_pair_json(struct tj *j, const struct tp_result *r,
			 const struct tp_pair_res *p)
{
	bool ok = p->status == TSCPROBE_PAIR_OK && p->st.nr;

	tj_obj(j, NULL);
	tj_u64(j, "from", p->from);
	tj_u64(j, "to", p->to);
	tj_str(j, "status", tp_pair_status_name(p->status));
	tj_str(j, "relation", tp_relation_name(p->relation));
	tj_u64(j, "elapsed_cycles", p->elapsed_cycles);
	if (ok) {
		tj_u64(j, "nr", p->st.nr);
		if (r->user_engine)
			tj_u64(j, "discarded", p->st.discarded);
		tp_stat_json(j, "latij", &p->st.latij, 1);
		tp_stat_json(j, "latji", &p->st.latji, 1);
		tp_stat_json(j, "skew", &p->st.skew2, 2);
		tp_stat_json(j, "one_way", &p->st.one_way2, 2);
		tj_real(j, "one_way_ns", tp_pair_one_way_ns(r, p));
		tj_bool(j, "in_sync", tp_skew_in_sync(&p->st));
	} else {
		/* No numbers for a pair that did not complete. */
		tj_u64(j, "nr", 0);
		tj_null(j, "latij");
		tj_null(j, "latji");
		tj_null(j, "skew");
		tj_null(j, "one_way");
		tj_null(j, "one_way_ns");
		tj_null(j, "in_sync");
	}
	tj_obj_end(j);
}

static void tp_skew_json(const struct tp_result *r, FILE *f)
{
	struct tp_skew_verdict v;
	unsigned int i;
	struct tj j;
	int cpu = -1;

	tp_skew_verdict(r, &v);
	tj_init(&j, f);
	tj_obj(&j, NULL);
	tj_str(&j, "kind", "skew");
	tj_str(&j, "engine", r->user_engine ? "user" : "kernel");
	tj_u64(&j, "run_id", r->run_id);
	tj_str(&j, "state", tp_state_name(r->state));
	tj_str(&j, "stop_reason", tp_stop_reason_name(r->reason));
	tj_u64(&j, "tsc_khz", r->tsc_khz);
	tj_u64(&j, "samples", r->p.samples);
	tj_u64(&j, "repeats", r->p.repeats);
	tj_u64(&j, "elapsed_ns", r->elapsed_ns);
	tj_u64(&j, "pairs_done", r->pairs_done);
	tj_u64(&j, "pairs_total", r->pairs_total);
	tj_arr(&j, "cpus");
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0)
		tj_u64(&j, NULL, (uint64_t)cpu);
	tj_arr_end(&j);
	tj_arr(&j, "pairs");
	for (i = 0; i < r->npairs; i++)
		tp_pair_json(&j, r, &r->pair[i]);
	tj_arr_end(&j);
	tj_obj(&j, "verdict");
	tj_u64(&j, "pairs_ok", v.ok);
	tj_u64(&j, "pairs_out_of_sync", v.out);
	tj_bool(&j, "in_sync", v.ok && !v.out);
	if (v.worst) {
		tj_real(&j, "max_abs_skew", v.max_abs);
		tj_u64(&j, "from", v.worst->from);
		tj_u64(&j, "to", v.worst->to);
	} else {
		tj_null(&j, "max_abs_skew");
	}
	tj_obj_end(&j);
	tj_obj_end(&j);
	tj_finish(&j);
}

/**
 * tp_skew_report() - print a skew result
 * @r: the result
 * @json: JSON instead of text
 * @f: where to
 */
void tp_skew_report(const struct tp_result *r, bool json, FILE *f)
{
	if (json)
		tp_skew_json(r, f);
	else
		tp_skew_text(r, f);
}
