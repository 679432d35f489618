// SPDX-License-Identifier: GPL-2.0
/*
 * The report model as JSON: objects, arrays (and rows) and fields as they
 * stand in the tree, an unknown value null; text, tables and what stays
 * out of JSON left out.
 */
#include "user/lib/json_write.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"

static void tp_json_field(const struct tp_node *n, struct jw *j)
{
	if (!n->known) {
		jw_null(j, n->key);
		return;
	}
	switch (n->vtype) {
	case TP_V_U64:
		jw_u64(j, n->key, n->v.u);
		break;
	case TP_V_I64:
		jw_i64(j, n->key, n->v.i);
		break;
	case TP_V_DBL:
		jw_double(j, n->key, n->v.d);
		break;
	case TP_V_STR:
		jw_str(j, n->key, n->v.s);
		break;
	default:
		jw_bool(j, n->key, n->v.b);
	}
}

static void tp_json_node(struct tp_model *m, const struct tp_node *n,
			 struct jw *j)
{
	const struct tp_node *c;
	struct tp_iter it;

	if (!tp_node_in(n, TP_IN_JSON))
		return;
	if (n->type == TP_N_FIELD) {
		tp_json_field(n, j);
	} else if (n->type == TP_N_RAW && n->raw.json) {
		n->raw.json(n->raw.ctx, j);
	} else if (n->type == TP_N_OBJ && !n->known) {
		jw_null(j, n->key);
	} else if (n->type == TP_N_OBJ || n->type == TP_N_ARR ||
		   n->type == TP_N_ROWS) {
		(n->type == TP_N_OBJ ? jw_obj : jw_arr)(j, n->key);
		for (c = tp_first(&it, m, n); c; c = tp_next(&it))
			tp_json_node(m, c, j);
		(n->type == TP_N_OBJ ? jw_obj_end : jw_arr_end)(j);
	}
}

/* The report as one JSON document, a newline after it. */
void tp_render_json(struct tp_model *m, FILE *f)
{
	struct jw j;

	jw_init(&j, f);
	tp_json_node(m, tp_model_root(m), &j);
	jw_finish(&j);
}

/* The same on one line, for a stream of one document per line. */
void tp_render_json_line(struct tp_model *m, FILE *f)
{
	struct jw j;

	jw_init_line(&j, f);
	tp_json_node(m, tp_model_root(m), &j);
	jw_finish(&j);
}
