// SPDX-License-Identifier: GPL-2.0
/*
 * The report model as text for people: the tree in order, each text
 * fragment as it is, each field that has a text format through it, each
 * table a line per row, each line its object's fields, each matrix as a
 * table of CPUs; JSON's structure itself prints nothing.
 */
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/cpuset.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"

/* Each column's field of @obj through its cell format. */
static void tp_text_cols(struct tp_model *m, const struct tp_node *t,
			 const struct tp_node *obj, FILE *f)
{
	const struct tp_column *col;

	for (col = t->table.cols; col < t->table.cols + t->table.n; col++)
		tp_node_cell(f, tp_node_find(obj, col->key), col,
			     tp_model_khz(m));
}

/* A line per row; a line's object is under @parent, the line's container. */
static void tp_text_table(struct tp_model *m, const struct tp_node *t,
			  const struct tp_node *parent, FILE *f)
{
	const struct tp_node *rows, *row;
	struct tp_iter it;

	if (t->table.line) {
		tp_text_cols(m, t, t->table.rows ?
			     tp_node_find(parent, t->table.rows) : parent, f);
		return;
	}
	rows = tp_model_rows(m, t->table.rows);
	for (row = rows ? tp_first(&it, m, rows) : NULL; row; row = tp_next(&it)) {
		tp_text_cols(m, t, row, f);
		fputc('\n', f);
	}
}

/* A matrix cell as text: its value, or why it has none; its length. */
static size_t tp_text_cell(const struct tp_node *mx, unsigned int k,
			   char *buf, size_t len)
{
	const struct tp_cell *c = &mx->matrix.cells[k];

	if (c->none)
		snprintf(buf, len, "%s", c->none);
	else
		snprintf(buf, len, mx->matrix.spec->fmt, c->v);
	return strlen(buf);
}

/* A matrix: its heading, then rows i and columns j, as wide as the widest. */
static void tp_text_matrix(const struct tp_node *mx, FILE *f)
{
	const struct tp_cpuset *cpus = mx->matrix.cpus;
	unsigned int i, k, n = tp_cpuset_count(cpus);
	size_t w = 4;
	char cell[48];
	int cpu = -1;

	for (k = 0; k < n * n; k++)
		if (tp_text_cell(mx, k, cell, sizeof(cell)) + 1 > w)
			w = strlen(cell) + 1;
	fprintf(f, "\n%s\n%5s", mx->matrix.spec->text, "i\\j");
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0)
		fprintf(f, " %*d", (int)w, cpu);
	fputc('\n', f);
	for (i = 0; (cpu = tp_cpuset_next(cpus, cpu)) >= 0; i++) {
		fprintf(f, "%5d", cpu);
		for (k = 0; k < n; k++) {
			tp_text_cell(mx, i * n + k, cell, sizeof(cell));
			fprintf(f, " %*s", (int)w, cell);
		}
		fputc('\n', f);
	}
}

static void tp_text_node(struct tp_model *m, const struct tp_node *n,
			 const struct tp_node *parent, FILE *f)
{
	const struct tp_node *c;
	struct tp_iter it;

	if (!tp_node_in(n, TP_IN_TEXT))
		return;
	if (n->type == TP_N_OBJ || n->type == TP_N_ARR || n->type == TP_N_ROWS)
		for (c = tp_first(&it, m, n); c; c = tp_next(&it))
			tp_text_node(m, c, n, f);
	else if (n->type == TP_N_FIELD && n->o && n->o->text)
		tp_node_cell(f, n, &(struct tp_column){ .fmt = n->o->text },
			     tp_model_khz(m));
	else if (n->type == TP_N_TEXT)
		fputs(n->text, f);
	else if (n->type == TP_N_TABLE)
		tp_text_table(m, n, parent, f);
	else if (n->type == TP_N_RAW && n->raw.text)
		n->raw.text(n->raw.ctx, f);
	else if (n->type == TP_N_MATRIX)
		tp_text_matrix(n, f);
}

void tp_render_text(struct tp_model *m, FILE *f)
{
	tp_text_node(m, tp_model_root(m), NULL, f);
}
