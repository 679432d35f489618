// SPDX-License-Identifier: GPL-2.0
/*
 * The report model as CSV (RFC 4180): a header row, then a row per row of
 * the report; the columns are the fields that have a CSV place, the
 * report's own (kind, engine...) and the row's, in the order of their
 * places.  A field with commas, quotes or line breaks is quoted, its quotes
 * doubled; an unknown value is an empty cell; a bool is 1 or 0; a number
 * exact (number.c).
 */
#include <stdlib.h>
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"
#include "user/lib/number.h"

/**
 * struct tp_cols - the CSV fields of one row
 * @n: entries
 * @cap: allocated
 * @f: the fields, sorted by their places
 */
struct tp_cols {
	unsigned int n;
	unsigned int cap;
	const struct tp_node **f;
};

static void tp_cols_add(struct tp_cols *c, const struct tp_node *n)
{
	const struct tp_node **f;

	if (c->n == c->cap) {
		f = realloc(c->f, (c->cap * 2 + 32) * sizeof(*f));
		if (!f) {
			tp_err("out of memory for the CSV");
			exit(TP_EXIT_FAIL);
		}
		c->f = f;
		c->cap = c->cap * 2 + 32;
	}
	c->f[c->n++] = n;
}

/* The CSV fields under @n, as deep as they stand. */
static void tp_cols_collect(struct tp_cols *c, const struct tp_node *n,
			    bool deep)
{
	for (n = n->c.first; n; n = n->next) {
		if (!tp_node_in(n, TP_IN_CSV))
			continue;
		if (n->type == TP_N_FIELD && n->o && n->o->csv)
			tp_cols_add(c, n);
		else if (deep && (n->type == TP_N_OBJ || n->type == TP_N_ARR))
			tp_cols_collect(c, n, deep);
	}
}

/* Sort by place; fields of one place keep the tree's order. */
static void tp_cols_sort(struct tp_cols *c)
{
	const struct tp_node *n;
	unsigned int i, k;

	for (i = 1; i < c->n; i++) {
		n = c->f[i];
		for (k = i; k && c->f[k - 1]->o->csv > n->o->csv; k--)
			c->f[k] = c->f[k - 1];
		c->f[k] = n;
	}
}

static void tp_csv_str(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void tp_csv_cell(FILE *f, const struct tp_node *n)
{
	char text[TP_NUMBER_LEN];

	if (!n->known)
		return;
	switch (n->vtype) {
	case TP_V_U64:
		fprintf(f, "%llu", (unsigned long long)n->v.u);
		break;
	case TP_V_I64:
		fprintf(f, "%lld", (long long)n->v.i);
		break;
	case TP_V_STR:
		tp_csv_str(f, n->v.s);
		break;
	case TP_V_BOOL:
		fputc(n->v.b ? '1' : '0', f);
		break;
	default:
		if (tp_number(text, n->v.d))
			fputs(text, f);
	}
}

/* A row's fields after the report's own, in their places' order. */
static void tp_csv_row(struct tp_model *m, const struct tp_node *row,
		       bool head, FILE *f)
{
	struct tp_cols c = { 0, 0, NULL };
	unsigned int k;

	tp_cols_collect(&c, tp_model_root(m), false);
	tp_cols_collect(&c, row, true);
	tp_cols_sort(&c);
	for (k = 0; k < c.n; k++) {
		if (k)
			fputc(',', f);
		if (head)
			tp_csv_str(f, c.f[k]->o->col ? c.f[k]->o->col : c.f[k]->key);
		else
			tp_csv_cell(f, c.f[k]);
	}
	fputs("\r\n", f);
	free(c.f);
}

/* The header from the first row, then a line per row. */
void tp_render_csv(struct tp_model *m, FILE *f)
{
	const struct tp_node *rows, *row;
	struct tp_iter it;

	for (rows = tp_model_root(m)->c.first; rows; rows = rows->next)
		if (rows->type == TP_N_ROWS)
			break;
	for (row = rows ? tp_first(&it, m, rows) : NULL; row; row = tp_next(&it)) {
		if (!it.i)
			tp_csv_row(m, row, true, f);
		tp_csv_row(m, row, false, f);
	}
}
