// SPDX-License-Identifier: GPL-2.0
/*
 * The report model's tree (model.h): an arena of nodes, the builder's calls,
 * and the helpers every renderer shares (a row built and dropped, a field
 * found by its path, a field as a text cell).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/format.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"
#include "user/lib/result.h"

/* A report nests objects no deeper than this (JSON's writer alike). */
#define TP_MODEL_DEPTH		16
#define TP_ARENA_BLOCK		(64 * 1024)
#define TP_MODEL_FAMILIES	64

/* A block of the arena: the next one, bytes used, then the bytes. */
struct tp_block {
	struct tp_block *next;
	size_t size;
	size_t used;
	max_align_t data[];
};

/**
 * struct tp_model - a report being built or rendered
 * @r: the result
 * @o: the output asked for
 * @v: the verdict against the limits
 * @blocks: the arena, newest block first
 * @root: the report's object
 * @stack: the containers open, @root first
 * @depth: entries in @stack
 * @fams: the Prometheus families, in the order their samples print
 * @nfams: entries in @fams
 * @text: the text tp_text_open() gathers
 * @text_len: its length
 * @quiet: text fragments are left out (tp_text_quiet())
 * @picture: how the report is drawn (NULL: no picture)
 * @marker: a value the picture's panels mark (0: none)
 * @marker_label: its label
 */
struct tp_model {
	const struct tp_result *r;
	const struct tp_output *o;
	const struct tp_verdict *v;
	struct tp_block *blocks;
	struct tp_node root;
	struct tp_node *stack[TP_MODEL_DEPTH];
	unsigned int depth;
	const struct tp_family *fams[TP_MODEL_FAMILIES];
	unsigned int nfams;
	char *text;
	size_t text_len;
	bool quiet;
	const struct tp_picture *picture;
	double marker;
	const char *marker_label;
};

static void *tp_alloc(struct tp_model *m, size_t len)
{
	struct tp_block *b = m->blocks;
	size_t size;
	void *p;

	len = (len + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!b || b->used + len > b->size) {
		size = len > TP_ARENA_BLOCK ? len : TP_ARENA_BLOCK;
		b = malloc(sizeof(*b) + size);
		if (!b) {
			tp_err("out of memory for the report");
			exit(TP_EXIT_FAIL);
		}
		b->size = size;
		b->used = 0;
		b->next = m->blocks;
		m->blocks = b;
	}
	p = (char *)b->data + b->used;
	b->used += len;
	memset(p, 0, len);
	return p;
}

static const char *tp_strdup(struct tp_model *m, const char *s)
{
	size_t len;
	char *p;

	if (!s)
		return NULL;
	len = strlen(s) + 1;
	p = tp_alloc(m, len);
	memcpy(p, s, len);
	return p;
}

/**
 * tp_model_new() - an empty report, its object open
 * @r: the result it reports
 * @o: the output asked for (the builder reads -v from it)
 * @v: the result's verdict against its limits
 *
 * Return: the model (never NULL: without memory the CLI exits).
 */
struct tp_model *tp_model_new(const struct tp_result *r,
			      const struct tp_output *o,
			      const struct tp_verdict *v)
{
	struct tp_model *m = calloc(1, sizeof(*m));

	if (!m) {
		tp_err("out of memory for the report");
		exit(TP_EXIT_FAIL);
	}
	m->r = r;
	m->o = o;
	m->v = v;
	m->root.type = TP_N_OBJ;
	m->root.known = true;
	m->stack[m->depth++] = &m->root;
	return m;
}

void tp_model_free(struct tp_model *m)
{
	struct tp_block *b, *next;

	if (!m)
		return;
	for (b = m->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(m);
}

const struct tp_result *tp_model_result(const struct tp_model *m)
{
	return m->r;
}

const struct tp_output *tp_model_output(const struct tp_model *m)
{
	return m->o;
}

const struct tp_verdict *tp_model_verdict(const struct tp_model *m)
{
	return m->v;
}

const struct tp_node *tp_model_root(const struct tp_model *m)
{
	return &m->root;
}

/* The TSC rate every cycles-to-time figure of the report uses. */
uint32_t tp_model_khz(const struct tp_model *m)
{
	return m->r ? m->r->tsc_khz : 0;
}

/* A node of @type under @key, appended to the open container. */
static struct tp_node *tp_add(struct tp_model *m, unsigned int type,
			      const char *key, const struct tp_opts *o)
{
	struct tp_node *parent = m->stack[m->depth - 1];
	struct tp_node *n = tp_alloc(m, sizeof(*n));
	struct tp_opts *copy;

	n->type = type;
	n->key = tp_strdup(m, key);
	n->known = true;
	if (o) {
		copy = tp_alloc(m, sizeof(*copy));
		*copy = *o;
		copy->col = tp_strdup(m, o->col);
		copy->labels = tp_strdup(m, o->labels);
		copy->text = tp_strdup(m, o->text);
		copy->svg = tp_strdup(m, o->svg);
		n->not_in = o->not_in;
		n->o = copy;
	}
	if (parent->c.last)
		parent->c.last->next = n;
	else
		parent->c.first = n;
	parent->c.last = n;
	return n;
}

static void tp_open(struct tp_model *m, struct tp_node *n)
{
	if (m->depth == TP_MODEL_DEPTH) {
		tp_err("a report nests deeper than %d", TP_MODEL_DEPTH);
		exit(TP_EXIT_FAIL);
	}
	m->stack[m->depth++] = n;
}

void tp_obj(struct tp_model *m, const char *key)
{
	tp_obj_known(m, key, true);
}

/* An object, known or not: unknown is null in JSON, its fields unknown. */
void tp_obj_known(struct tp_model *m, const char *key, bool known)
{
	struct tp_node *n = tp_add(m, TP_N_OBJ, key, NULL);

	n->known = known;
	tp_open(m, n);
}

void tp_arr(struct tp_model *m, const char *key)
{
	tp_open(m, tp_add(m, TP_N_ARR, key, NULL));
}

/* Close the object or array opened last. */
void tp_end(struct tp_model *m)
{
	if (m->depth > 1)
		m->depth--;
}

/**
 * tp_rows() - the report's rows, built when a renderer reaches them
 * @m: the model
 * @key: their array's key
 * @n: how many
 * @fn: builds row i inside an open object (and must leave it open)
 * @ctx: for @fn
 */
void tp_rows(struct tp_model *m, const char *key, unsigned int n,
	     tp_row_fn fn, const void *ctx)
{
	struct tp_node *r = tp_add(m, TP_N_ROWS, key, NULL);

	r->rows.n = n;
	r->rows.fn = fn;
	r->rows.ctx = ctx;
}

/* The node added last stays out of @formats (TP_IN_*) too. */
void tp_not_in(struct tp_model *m, unsigned int formats)
{
	struct tp_node *parent = m->stack[m->depth - 1];

	if (parent->c.last)
		parent->c.last->not_in |= formats;
}

/* Append one label, name="value", its value escaped; false when full. */
static bool tp_prom_label(char *buf, size_t len, size_t *used,
			  const char *name, const char *v)
{
	int w = snprintf(buf + *used, len - *used, "%s%s=\"", *used ? "," : "",
			 name);

	if (w < 0 || (size_t)w >= len - *used)
		return false;
	*used += (size_t)w;
	for (; *v; v++) {
		const char *esc = *v == '\\' ? "\\\\" : *v == '"' ? "\\\"" :
			*v == '\n' ? "\\n" : NULL;

		if (*used + 3 >= len)
			return false;
		if (esc) {
			memcpy(buf + *used, esc, 2);
			*used += 2;
		} else {
			buf[(*used)++] = *v;
		}
	}
	if (*used + 2 >= len)
		return false;
	buf[(*used)++] = '"';
	buf[*used] = '\0';
	return true;
}

static const char *tp_vlabels(struct tp_model *m, const char *name, va_list ap)
{
	char buf[512];
	size_t used = 0;

	buf[0] = '\0';
	for (; name; name = va_arg(ap, const char *))
		if (!tp_prom_label(buf, sizeof(buf), &used, name,
				   va_arg(ap, const char *)))
			break;
	return tp_strdup(m, buf);
}

/**
 * tp_labels() - Prometheus labels for a field's tp_opts
 * @m: the model (the string lives in it)
 * @name: the first label's name, then its value, then more pairs; a NULL
 *	name ends the list
 *
 * Return: name="value",... with the values escaped.
 */
const char *tp_labels(struct tp_model *m, const char *name, ...)
{
	const char *s;
	va_list ap;

	va_start(ap, name);
	s = tp_vlabels(m, name, ap);
	va_end(ap);
	return s;
}

/* The labels of every sample inside the open object (tp_labels()'s list). */
void tp_model_labels(struct tp_model *m, const char *name, ...)
{
	va_list ap;

	va_start(ap, name);
	m->stack[m->depth - 1]->c.labels = tp_vlabels(m, name, ap);
	va_end(ap);
}

/* @fam's samples print after those of the families given before it. */
void tp_family(struct tp_model *m, const struct tp_family *fam)
{
	unsigned int i;

	for (i = 0; i < m->nfams; i++)
		if (m->fams[i] == fam)
			return;
	if (m->nfams < TP_MODEL_FAMILIES)
		m->fams[m->nfams++] = fam;
}

/* The index of @fam among the families, given now if it was not. */
unsigned int tp_model_family(struct tp_model *m, const struct tp_family *fam)
{
	unsigned int i;

	tp_family(m, fam);
	for (i = 0; i < m->nfams; i++)
		if (m->fams[i] == fam)
			return i;
	return m->nfams;
}

const struct tp_family *tp_model_family_at(const struct tp_model *m,
					   unsigned int i)
{
	return i < m->nfams ? m->fams[i] : NULL;
}

static struct tp_node *tp_field(struct tp_model *m, const char *key,
				unsigned int vtype, const struct tp_opts *o)
{
	struct tp_node *n = tp_add(m, TP_N_FIELD, key, o);

	n->vtype = vtype;
	return n;
}

void tp_u64(struct tp_model *m, const char *key, uint64_t v,
	    const struct tp_opts *o)
{
	tp_field(m, key, TP_V_U64, o)->v.u = v;
}

void tp_i64(struct tp_model *m, const char *key, int64_t v,
	    const struct tp_opts *o)
{
	tp_field(m, key, TP_V_I64, o)->v.i = v;
}

/* A double; not a finite number (NaN: not known) is unknown. */
void tp_dbl(struct tp_model *m, const char *key, double v,
	    const struct tp_opts *o)
{
	struct tp_node *n = tp_field(m, key, TP_V_DBL, o);

	n->v.d = v;
	n->known = isfinite(v);
}

/* A string; NULL is unknown. */
void tp_str(struct tp_model *m, const char *key, const char *v,
	    const struct tp_opts *o)
{
	struct tp_node *n = tp_field(m, key, TP_V_STR, o);

	n->v.s = tp_strdup(m, v);
	n->known = v;
}

void tp_bool(struct tp_model *m, const char *key, bool v,
	     const struct tp_opts *o)
{
	tp_field(m, key, TP_V_BOOL, o)->v.b = v;
}

/* A field whose value is unknown. */
void tp_null(struct tp_model *m, const char *key, const struct tp_opts *o)
{
	tp_field(m, key, TP_V_U64, o)->known = false;
}

/* A counter: its value, or unknown where it could not be read. */
void tp_counter(struct tp_model *m, const char *key,
		const struct tp_counter_res *k, const struct tp_opts *o)
{
	struct tp_node *n = tp_field(m, key, TP_V_U64, o);

	n->v.u = k->v;
	n->known = k->ok;
}

/* A CPU set as an array of CPU numbers, lowest first. */
void tp_cpuset(struct tp_model *m, const char *key, const struct tp_cpuset *set)
{
	int cpu = -1;

	tp_arr(m, key);
	while ((cpu = tp_cpuset_next(set, cpu)) >= 0)
		tp_u64(m, NULL, (uint64_t)cpu, NULL);
	tp_end(m);
}

/*
 * Leave text fragments out until told otherwise: the rest of a row whose
 * text says all in its first line.  A row starts with text on.
 */
void tp_text_quiet(struct tp_model *m, bool quiet)
{
	m->quiet = quiet;
}

/* A fragment of text's layout. */
void tp_text(struct tp_model *m, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (m->quiet)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tp_add(m, TP_N_TEXT, NULL, NULL)->text = tp_strdup(m, buf);
}

/* @in, one or more lines, broken at spaces within TP_TEXT_COLUMNS. */
static void tp_text_wrapped(struct tp_model *m, const char *indent,
			    const char *in)
{
	size_t col = 0, o = 0, w, len = strlen(in) * 2 + 64;
	char *out = tp_alloc(m, len);
	const char *s = in;

	while (*s && o + strlen(indent) + 2 < len) {
		w = strcspn(s + 1, " \n") + 1;
		if (*s == '\n') {
			col = 0;
		} else if (col && *s == ' ' && col + w > TP_TEXT_COLUMNS) {
			o += (size_t)snprintf(out + o, len - o, "\n%s", indent);
			col = strlen(indent);
			s++;
			w--;
		}
		w = w < len - o - 1 ? w : len - o - 1;
		memcpy(out + o, s, w);
		o += w;
		col += w;
		s += w;
	}
	if (!m->quiet)
		tp_add(m, TP_N_TEXT, NULL, NULL)->text = out;
}

/**
 * tp_text_wrap() - a sentence of text's layout, in lines of at most
 *	TP_TEXT_COLUMNS columns
 * @m: the model
 * @indent: what each line it breaks starts with
 * @fmt: the sentence, ended by a newline
 *
 * Lines break at a space; a word longer than a line stays whole.
 */
void tp_text_wrap(struct tp_model *m, const char *indent, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tp_text_wrapped(m, indent, buf);
}

/**
 * tp_text_open() - a stream whose text becomes one fragment
 * @m: the model
 *
 * For the writers of text that print into a stream (an event's line, a
 * log2 row); one at a time, closed with tp_text_close().
 *
 * Return: the stream (never NULL: without memory the CLI exits).
 */
FILE *tp_text_open(struct tp_model *m)
{
	FILE *f = open_memstream(&m->text, &m->text_len);

	if (!f) {
		tp_err("out of memory for the report");
		exit(TP_EXIT_FAIL);
	}
	return f;
}

/* The stream's text as one fragment; lines broken as tp_text_wrap()'s
 * where @wrap gives their indent (NULL: as written). */
void tp_text_close(struct tp_model *m, FILE *f, const char *wrap)
{
	fclose(f);
	if (wrap)
		tp_text_wrapped(m, wrap, m->text ? m->text : "");
	else if (!m->quiet)
		tp_add(m, TP_N_TEXT, NULL, NULL)->text =
			tp_strdup(m, m->text ? m->text : "");
	free(m->text);
	m->text = NULL;
}

/**
 * tp_table() - text's table of the rows under @rows: a line per row
 * @m: the model
 * @rows: the rows' key
 * @cols: the columns (static: the model keeps the pointer)
 * @n: how many
 */
void tp_table(struct tp_model *m, const char *rows,
	      const struct tp_column *cols, unsigned int n)
{
	struct tp_node *t = tp_add(m, TP_N_TABLE, NULL, NULL);

	t->table.rows = tp_strdup(m, rows);
	t->table.cols = cols;
	t->table.n = n;
}

/**
 * tp_line() - text's line of one object's fields, as a table's row
 * @m: the model
 * @obj: the object (a path: "cached.gross"; NULL: the one it stands in)
 * @cols: the columns, their keys under @obj (copied: a builder may make
 *	them in a loop)
 * @n: how many
 *
 * The fields are found when text reaches the line, so that a field is
 * declared once, where the other formats want it, and text lays it out
 * where text wants it.
 */
void tp_line(struct tp_model *m, const char *obj,
	     const struct tp_column *cols, unsigned int n)
{
	struct tp_column *copy;
	unsigned int i;

	if (m->quiet)
		return;
	copy = tp_alloc(m, n * sizeof(*copy));
	for (i = 0; i < n; i++) {
		copy[i] = cols[i];
		copy[i].key = tp_strdup(m, cols[i].key);
		copy[i].fmt = tp_strdup(m, cols[i].fmt);
		copy[i].none = tp_strdup(m, cols[i].none);
	}
	tp_table(m, obj, copy, n);
	m->stack[m->depth - 1]->c.last->table.line = true;
}

/* A part written by its own JSON and text writers, in place. */
void tp_raw(struct tp_model *m, tp_raw_json_fn json, tp_raw_text_fn text,
	    const void *ctx)
{
	struct tp_node *n = tp_add(m, TP_N_RAW, NULL, NULL);

	n->raw.json = json;
	n->raw.text = text;
	n->raw.ctx = ctx;
}

/* How the report is drawn: its kind's layout (static). */
void tp_picture(struct tp_model *m, const struct tp_picture *p)
{
	m->picture = p;
}

const struct tp_picture *tp_model_picture(const struct tp_model *m,
					  double *marker, const char **label)
{
	*marker = m->marker;
	*label = m->marker_label;
	return m->picture;
}

/* A value every histogram panel marks with a dashed line, and its label. */
void tp_marker(struct tp_model *m, double x, const char *label)
{
	m->marker = x;
	m->marker_label = tp_strdup(m, label);
}

/* A line of the picture (enum tp_note says where it goes). */
void tp_note(struct tp_model *m, enum tp_note role, const char *fmt, ...)
{
	struct tp_node *n = tp_add(m, TP_N_NOTE, NULL, NULL);
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n->note.role = role;
	n->note.text = tp_strdup(m, buf);
}

/* A histogram of the open row, for the picture. */
void tp_series(struct tp_model *m, const struct tp_series *s)
{
	struct tp_series *copy = tp_alloc(m, sizeof(*copy));

	*copy = *s;
	copy->name = tp_strdup(m, s->name);
	copy->strip = tp_strdup(m, s->strip);
	copy->colour = tp_strdup(m, s->colour);
	tp_add(m, TP_N_SERIES, NULL, NULL)->series = copy;
}

/**
 * tp_matrix() - a value per ordered pair of the CPUs in @cpus
 * @m: the model
 * @spec: how it shows (static: the model keeps the pointer)
 * @cpus: the CPUs, its rows and columns (kept as long as the model)
 *
 * Return: its cells, row by row in CPU order, for the caller to fill.
 */
struct tp_cell *tp_matrix(struct tp_model *m, const struct tp_matrix *spec,
			  const struct tp_cpuset *cpus)
{
	struct tp_node *n = tp_add(m, TP_N_MATRIX, NULL, NULL);
	size_t k = tp_cpuset_count(cpus);

	n->matrix.spec = spec;
	n->matrix.cpus = cpus;
	n->matrix.cells = tp_alloc(m, (k * k + 1) * sizeof(*n->matrix.cells));
	return n->matrix.cells;
}

/* Build row @i of rows node @rows into a new object; see tp_first(). */
static const struct tp_node *tp_row_build(struct tp_model *m,
					  const struct tp_node *rows,
					  unsigned int i, struct tp_iter *it)
{
	struct tp_node *stack[TP_MODEL_DEPTH], *row;
	unsigned int depth = m->depth;

	it->block = m->blocks;
	it->used = m->blocks ? m->blocks->used : 0;
	memcpy(stack, m->stack, sizeof(stack));
	row = tp_alloc(m, sizeof(*row));
	row->type = TP_N_OBJ;
	row->known = true;
	m->stack[0] = row;
	m->depth = 1;
	rows->rows.fn(m, rows->rows.ctx, i);
	m->quiet = false;
	memcpy(m->stack, stack, sizeof(stack));
	m->depth = depth;
	return row;
}

/* Free what the arena took for the row @it built. */
static void tp_row_drop(struct tp_model *m, const struct tp_iter *it)
{
	struct tp_block *b;

	while (m->blocks && m->blocks != it->block) {
		b = m->blocks;
		m->blocks = b->next;
		free(b);
	}
	if (m->blocks)
		m->blocks->used = it->used;
}

/**
 * tp_first() - the first child of an object or array, or the first row of
 *	a rows node, built for the occasion
 * @it: the iteration
 * @m: the model
 * @parent: the object, array or rows node
 *
 * A row lives until tp_next() moves past it; the loop must run to its end
 * (the last tp_next()) for the last row to be dropped.
 *
 * Return: the child (NULL: none).
 */
const struct tp_node *tp_first(struct tp_iter *it, struct tp_model *m,
			       const struct tp_node *parent)
{
	it->m = m;
	it->parent = parent;
	it->i = 0;
	if (parent->type != TP_N_ROWS)
		it->n = parent->c.first;
	else
		it->n = parent->rows.n ? tp_row_build(m, parent, 0, it) : NULL;
	return it->n;
}

/* The next child (row) of tp_first()'s parent; NULL after the last. */
const struct tp_node *tp_next(struct tp_iter *it)
{
	if (it->parent->type != TP_N_ROWS)
		return it->n = it->n->next;
	tp_row_drop(it->m, it);
	if (++it->i >= it->parent->rows.n)
		return it->n = NULL;
	return it->n = tp_row_build(it->m, it->parent, it->i, it);
}

static const struct tp_node *tp_child(const struct tp_node *obj,
				      const char *key, size_t len)
{
	const struct tp_node *n;

	if (!obj || (obj->type != TP_N_OBJ && obj->type != TP_N_ARR))
		return NULL;
	for (n = obj->c.first; n; n = n->next)
		if (n->key && strlen(n->key) == len && !strncmp(n->key, key, len))
			return n;
	return NULL;
}

/* The node at @path ("sources.kinds.irq") under @obj; NULL: none. */
const struct tp_node *tp_node_find(const struct tp_node *obj, const char *path)
{
	const char *dot;

	for (; obj && (dot = strchr(path, '.')); path = dot + 1)
		obj = tp_child(obj, path, (size_t)(dot - path));
	return tp_child(obj, path, strlen(path));
}

/* The rows node under @key among the report's top nodes. */
const struct tp_node *tp_model_rows(const struct tp_model *m, const char *key)
{
	const struct tp_node *n = tp_node_find(&m->root, key);

	return n && n->type == TP_N_ROWS ? n : NULL;
}

/* Whether @n shows in @format (TP_IN_*). */
bool tp_node_in(const struct tp_node *n, unsigned int format)
{
	return !(n->not_in & format);
}

/* A known numeric field's value as a double. */
double tp_node_number(const struct tp_node *n)
{
	switch (n->vtype) {
	case TP_V_U64:
		return (double)n->v.u;
	case TP_V_I64:
		return (double)n->v.i;
	case TP_V_BOOL:
		return n->v.b;
	default:
		return n->v.d;
	}
}

/*
 * @fmt split around its one conversion: what comes before and after it,
 * and the conversion's flags, width and precision with its letter.
 */
struct tp_spec {
	char head[64];
	char flags[16];
	char conv;
	const char *tail;
};

static void tp_spec_parse(const char *fmt, struct tp_spec *s)
{
	size_t h = 0, k = 0;

	memset(s, 0, sizeof(*s));
	for (; *fmt && h + 1 < sizeof(s->head); fmt++) {
		if (*fmt == '%' && fmt[1] != '%')
			break;
		s->head[h++] = *fmt;
		fmt += *fmt == '%';
	}
	s->tail = fmt;
	if (*fmt != '%')
		return;
	for (fmt++; strchr("-+ #0123456789.", *fmt) && k + 1 < sizeof(s->flags);)
		s->flags[k++] = *fmt++;
	while (*fmt && strchr("hlLqjzt", *fmt))
		fmt++;
	s->conv = *fmt;
	s->tail = *fmt ? fmt + 1 : fmt;
}

/* The text after the conversion, "%%" written as "%". */
static void tp_spec_tail(FILE *f, const char *s)
{
	for (; *s; s++) {
		fputc(*s, f);
		s += s[0] == '%' && s[1] == '%';
	}
}

/* @s through the conversion's width, as a string. */
static void tp_spec_str(FILE *f, const struct tp_spec *s, const char *str)
{
	char fmt[32];
	const char *dot = strchr(s->flags, '.');

	snprintf(fmt, sizeof(fmt), "%%%.*ss", dot ? (int)(dot - s->flags) :
		 (int)strlen(s->flags), s->flags);
	fprintf(f, fmt, str);
}

static void tp_spec_value(FILE *f, const struct tp_spec *s,
			  const struct tp_node *n, enum tp_cell_as how,
			  uint32_t khz)
{
	char fmt[40], buf[64];
	bool real = strchr("fFeEgGaA", s->conv);

	if (how == TP_CELL_TIME) {
		tp_format_cycles(n->v.u, khz, buf, sizeof(buf));
		tp_spec_str(f, s, buf);
	} else if (how == TP_CELL_NET && !tp_node_number(n)) {
		tp_spec_str(f, s, "below");
	} else if (n->vtype == TP_V_STR) {
		tp_spec_str(f, s, n->v.s);
	} else if (n->vtype == TP_V_BOOL && s->conv == 's') {
		tp_spec_str(f, s, n->v.b ? "yes" : "no");
	} else if (real || how == TP_CELL_PCT) {
		snprintf(fmt, sizeof(fmt), "%%%s%c", s->flags, real ? s->conv : 'f');
		fprintf(f, fmt, tp_node_number(n) * (how == TP_CELL_PCT ? 100 : 1));
	} else if (n->vtype == TP_V_I64 || s->conv == 'd') {
		snprintf(fmt, sizeof(fmt), "%%%slld", s->flags);
		fprintf(f, fmt, n->vtype == TP_V_I64 ? (long long)n->v.i :
			(long long)tp_node_number(n));
	} else {
		snprintf(fmt, sizeof(fmt), "%%%sllu", s->flags);
		fprintf(f, fmt, n->vtype == TP_V_U64 ? (unsigned long long)n->v.u :
			(unsigned long long)tp_node_number(n));
	}
}

/**
 * tp_node_cell() - a field through a text format
 * @f: where to
 * @n: the field (NULL: none, as unknown)
 * @col: the format (its key is not read): one printf conversion and the
 *	text around it, whose letter says how to print the value ("llu",
 *	"d", ".2f", "s"), its flags and width kept; what an unknown field
 *	shows through the same width (NULL: "n/a"); and how a number shows
 * @khz: the TSC rate of a time cell
 */
void tp_node_cell(FILE *f, const struct tp_node *n,
		  const struct tp_column *col, uint32_t khz)
{
	struct tp_spec s;

	tp_spec_parse(col->fmt, &s);
	fputs(s.head, f);
	if (s.conv && (!n || !n->known))
		tp_spec_str(f, &s, col->none ? col->none : "n/a");
	else if (s.conv)
		tp_spec_value(f, &s, n, col->how, khz);
	tp_spec_tail(f, s.tail);
}
