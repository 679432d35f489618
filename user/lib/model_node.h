/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report model's nodes, for its renderers (render_*.c); a report's
 * builder sees only model.h.  The nodes hold model.h's types by pointer
 * only, so this header stands below model.h and model.c includes both.
 */
#ifndef TSCPROBE_USER_MODEL_NODE_H
#define TSCPROBE_USER_MODEL_NODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct jw;
struct tp_column;
struct tp_cpuset;
struct tp_family;
struct tp_matrix;
struct tp_model;
struct tp_opts;
struct tp_picture;
struct tp_series;

enum tp_node_type {
	TP_N_OBJ,
	TP_N_ARR,
	TP_N_ROWS,
	TP_N_FIELD,
	TP_N_TEXT,
	TP_N_TABLE,
	TP_N_RAW,
	TP_N_SERIES,
	TP_N_MATRIX,
	TP_N_NOTE,
};

enum tp_value_type {
	TP_V_U64,
	TP_V_I64,
	TP_V_DBL,
	TP_V_STR,
	TP_V_BOOL,
};

/**
 * struct tp_node - one node of the tree
 * @next: the next node of its container
 * @key: its key (NULL in an array, and for text)
 * @o: a field's options (NULL: JSON only)
 * @type: enum tp_node_type
 * @vtype: a field's enum tp_value_type
 * @known: the field (object) has a value; else it is unknown
 * @not_in: the formats it stays out of (TP_IN_*)
 * @c: an object's or array's children, and an object's labels
 * @rows: a rows node's count and builder (model.h's tp_row_fn)
 * @v: a field's value
 * @text: a text node's text
 * @table: a table's rows (their key) and columns; a line's object (its
 *	path, NULL: the object it stands in) and columns
 * @raw: a raw part's writers (model.h's tp_raw_json_fn, tp_raw_text_fn)
 * @series: a series' histogram and marks
 * @matrix: a matrix: its spec, its CPUs and their cells, row by row
 * @note: a note's role (enum tp_note) and text
 */
struct tp_node {
	struct tp_node *next;
	const char *key;
	const struct tp_opts *o;
	unsigned char type;
	unsigned char vtype;
	bool known;
	unsigned char not_in;
	union {
		struct {
			struct tp_node *first;
			struct tp_node *last;
			const char *labels;
		} c;
		struct {
			unsigned int n;
			void (*fn)(struct tp_model *m, const void *ctx,
				   unsigned int i);
			const void *ctx;
		} rows;
		union {
			uint64_t u;
			int64_t i;
			double d;
			const char *s;
			bool b;
		} v;
		const char *text;
		struct {
			const char *rows;
			const struct tp_column *cols;
			unsigned int n;
			bool line;
		} table;
		struct {
			void (*json)(const void *ctx, struct jw *j);
			void (*text)(const void *ctx, FILE *f);
			const void *ctx;
		} raw;
		const struct tp_series *series;
		struct {
			const struct tp_matrix *spec;
			const struct tp_cpuset *cpus;
			struct tp_cell *cells;
		} matrix;
		struct {
			unsigned int role;
			const char *text;
		} note;
	};
};

/**
 * struct tp_iter - the children of an object or array, or the rows of a
 *	rows node, one at a time (tp_first(), tp_next())
 * @m: the model
 * @parent: whose
 * @n: the child (row) now
 * @i: a row's index
 * @block: where the arena was before the row, to drop it after
 * @used: the same
 */
struct tp_iter {
	struct tp_model *m;
	const struct tp_node *parent;
	const struct tp_node *n;
	unsigned int i;
	void *block;
	size_t used;
};

const struct tp_node *tp_model_root(const struct tp_model *m);
const struct tp_picture *tp_model_picture(const struct tp_model *m,
					  double *marker, const char **label);
unsigned int tp_model_family(struct tp_model *m, const struct tp_family *fam);
const struct tp_family *tp_model_family_at(const struct tp_model *m,
					   unsigned int i);
uint32_t tp_model_khz(const struct tp_model *m);
const struct tp_node *tp_first(struct tp_iter *it, struct tp_model *m,
			       const struct tp_node *parent);
const struct tp_node *tp_next(struct tp_iter *it);
const struct tp_node *tp_model_rows(const struct tp_model *m, const char *key);
const struct tp_node *tp_node_find(const struct tp_node *obj, const char *path);
bool tp_node_in(const struct tp_node *n, unsigned int format);
double tp_node_number(const struct tp_node *n);
void tp_node_cell(FILE *f, const struct tp_node *n,
		  const struct tp_column *col, uint32_t khz);

#endif /* TSCPROBE_USER_MODEL_NODE_H */
