// SPDX-License-Identifier: GPL-2.0
/*
 * The report model as Prometheus text exposition, for node_exporter's
 * textfile collector: each family's HELP and TYPE, then its samples, the
 * families in the order the report gave them.  A sample is a known field
 * that names its family; its labels are those of the object it stands in
 * (a CPU's, a pair's; none for a bare family), then its own.  Within a row
 * a summary's quantiles come before its _sum and _count, as the format
 * lists them.  An unknown value has no sample, and a family without a
 * sample is left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"
#include "user/lib/number.h"

/**
 * struct tp_sample - one line of the output, with where it sorts
 * @family: its family's index
 * @row: the row it is in (0: none)
 * @suffix: 0 for the family's own name, 1 for _sum, 2 for _count
 * @seq: its place in the tree
 * @at: its text in the buffer
 */
struct tp_sample {
	unsigned int family;
	unsigned int row;
	unsigned int suffix;
	unsigned int seq;
	size_t at;
};

/**
 * struct tp_prom - the samples being gathered
 * @m: the model
 * @s: the samples
 * @n: entries in @s
 * @cap: allocated
 * @buf: their lines, each ended by a NUL
 * @len: bytes used
 * @size: allocated
 * @row: the row being walked (0: none)
 * @rows: rows walked so far
 */
struct tp_prom {
	struct tp_model *m;
	struct tp_sample *s;
	unsigned int n;
	unsigned int cap;
	char *buf;
	size_t len;
	size_t size;
	unsigned int row;
	unsigned int rows;
};

static void *tp_grow_or_die(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		tp_err("out of memory for the Prometheus output");
		exit(TP_EXIT_FAIL);
	}
	return p;
}

/* The sample's value, as the format writes a number. */
static void tp_prom_value(const struct tp_node *n, char *buf, size_t len)
{
	double scale = n->o->scale ? n->o->scale : 1, v;

	if ((n->vtype == TP_V_U64 || n->vtype == TP_V_BOOL) && !n->o->div &&
	    scale == floor(scale)) {
		snprintf(buf, len, "%llu", (unsigned long long)(n->vtype == TP_V_U64 ?
			 n->v.u : n->v.b) * (unsigned long long)scale);
		return;
	}
	v = tp_node_number(n) * scale / (n->o->div ? n->o->div : 1);
	if (!tp_number(buf, v))
		snprintf(buf, len, isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
}

static void tp_prom_sample(struct tp_prom *p, const struct tp_node *n,
			   const char *labels)
{
	const struct tp_opts *o = n->o;
	const char *own = o->labels ? o->labels : "";
	char value[TP_NUMBER_LEN], line[1024];
	struct tp_sample *s;
	int len;

	if (o->prom->bare)
		labels = "";
	tp_prom_value(n, value, sizeof(value));
	len = snprintf(line, sizeof(line), "%s%s%s%s%s%s%s %s", o->prom->name,
		       o->suffix ? o->suffix : "", *labels || *own ? "{" : "",
		       labels, *labels && *own ? "," : "", own,
		       *labels || *own ? "}" : "", value);
	if (len < 0 || (size_t)len >= sizeof(line))
		return;
	if (p->n == p->cap) {
		p->cap = p->cap * 2 + 64;
		p->s = tp_grow_or_die(p->s, p->cap * sizeof(*p->s));
	}
	if (p->len + (size_t)len + 1 > p->size) {
		p->size = (p->size + (size_t)len + 1) * 2;
		p->buf = tp_grow_or_die(p->buf, p->size);
	}
	s = &p->s[p->n];
	s->family = tp_model_family(p->m, o->prom);
	s->row = p->row;
	s->suffix = !o->suffix ? 0 : !strcmp(o->suffix, "_count") ? 2 : 1;
	s->seq = p->n++;
	s->at = p->len;
	memcpy(p->buf + p->len, line, (size_t)len + 1);
	p->len += (size_t)len + 1;
}

static void tp_prom_node(struct tp_prom *p, const struct tp_node *n,
			 const char *labels)
{
	const struct tp_node *c;
	struct tp_iter it;

	if (!tp_node_in(n, TP_IN_PROM))
		return;
	if (n->type == TP_N_FIELD && n->known && n->o && n->o->prom)
		tp_prom_sample(p, n, labels);
	if (n->type != TP_N_OBJ && n->type != TP_N_ARR && n->type != TP_N_ROWS)
		return;
	if (n->c.labels && n->type != TP_N_ROWS)
		labels = n->c.labels;
	for (c = tp_first(&it, p->m, n); c; c = tp_next(&it)) {
		if (n->type == TP_N_ROWS)
			p->row = ++p->rows;
		tp_prom_node(p, c, labels);
	}
	if (n->type == TP_N_ROWS)
		p->row = 0;
}

static int tp_sample_cmp(const void *a, const void *b)
{
	const struct tp_sample *x = a, *y = b;

	if (x->family != y->family)
		return x->family < y->family ? -1 : 1;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->suffix != y->suffix)
		return x->suffix < y->suffix ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void tp_render_prom(struct tp_model *m, FILE *f)
{
	struct tp_prom p = { m, NULL, 0, 0, NULL, 0, 0, 0, 0 };
	const struct tp_family *fam;
	unsigned int i;

	tp_prom_node(&p, tp_model_root(m), "");
	qsort(p.s, p.n, sizeof(*p.s), tp_sample_cmp);
	for (i = 0; i < p.n; i++) {
		fam = tp_model_family_at(m, p.s[i].family);
		if (!i || p.s[i].family != p.s[i - 1].family)
			fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fam->name,
				fam->help, fam->name, fam->type);
		fprintf(f, "%s\n", p.buf + p.s[i].at);
	}
	free(p.s);
	free(p.buf);
}
