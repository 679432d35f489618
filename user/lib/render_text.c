// SPDX-License-Identifier: GPL-2.0
/*
 * The report model as text for people: the tree in order, each text
 * fragment as it is, each field that has a text format through it, each
 * table a line per row; JSON's structure itself prints nothing.
 */
#include "model_node.h"

static void tp_text_node(struct tp_model *m, const struct tp_node *n, FILE *f);

static void tp_text_children(struct tp_model *m, const struct tp_node *n,
			     FILE *f)
{
	for (n = n->c.first; n; n = n->next)
		tp_text_node(m, n, f);
}

static void tp_text_rows(struct tp_model *m, const struct tp_node *n, FILE *f)
{
	struct tp_arena_mark mark;
	unsigned int i;

	for (i = 0; i < n->rows.n; i++) {
		tp_text_children(m, tp_row_build(m, n, i, &mark), f);
		tp_row_drop(m, &mark);
	}
}

/* A line per row: each column's field through its cell format. */
static void tp_text_table(struct tp_model *m, const struct tp_node *t, FILE *f)
{
	const struct tp_node *rows = tp_model_rows(m, t->table.rows), *row;
	const struct tp_column *col;
	struct tp_arena_mark mark;
	unsigned int i, k;

	for (i = 0; rows && i < rows->rows.n; i++) {
		row = tp_row_build(m, rows, i, &mark);
		for (k = 0; k < t->table.n; k++) {
			col = &t->table.cols[k];
			tp_node_cell(f, tp_node_find(row, col->key), col->fmt,
				     col->none, col->how, tp_model_khz(m));
		}
		fputc('\n', f);
		tp_row_drop(m, &mark);
	}
}

static void tp_text_node(struct tp_model *m, const struct tp_node *n, FILE *f)
{
	if (!tp_node_in(n, TP_IN_TEXT))
		return;
	switch (n->type) {
	case TP_N_OBJ:
	case TP_N_ARR:
		tp_text_children(m, n, f);
		break;
	case TP_N_ROWS:
		tp_text_rows(m, n, f);
		break;
	case TP_N_FIELD:
		if (n->o && n->o->text)
			tp_node_cell(f, n, n->o->text, NULL, TP_CELL_PLAIN,
				     tp_model_khz(m));
		break;
	case TP_N_TEXT:
		fputs(n->text, f);
		break;
	case TP_N_TABLE:
		tp_text_table(m, n, f);
		break;
	case TP_N_RAW:
		if (n->raw.text)
			n->raw.text(n->raw.ctx, f);
		break;
	}
}

void tp_render_text(struct tp_model *m, FILE *f)
{
	tp_text_node(m, tp_model_root(m), f);
}
