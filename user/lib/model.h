/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The report model: every report is built once, as a small document tree,
 * and one renderer per format turns the tree into text, JSON, CSV,
 * Prometheus or SVG.  The idea is iproute2's print_*(PRINT_ANY, key, fmt,
 * value): one call per figure carries its key, its value and where else it
 * goes, so that no format writes a figure of its own.
 *
 * The tree
 *   object, array    JSON's structure.  An object may carry the Prometheus
 *                    labels of the samples inside it (a CPU's, a pair's).
 *   rows             the report's rows (a CPU, a pair, a mode): an array
 *                    whose objects are built one at a time, by the kind's
 *                    row function, when a renderer reaches them, so that a
 *                    report of a million pairs never lives in memory at
 *                    once.  The rows are CSV's rows.
 *   field            a typed value (u64, i64, double, string, bool) or
 *                    unknown, under its key.  Options say where else it
 *                    goes: its CSV column (a place, for the columns keep
 *                    their places when one is added), its Prometheus
 *                    family, suffix, own labels and scale, its text format
 *                    (one printf conversion: text prints it where the
 *                    field stands), its format in the picture (its row's
 *                    tooltip), and the formats it stays out of.
 *   text             a fragment only text prints: the layout around the
 *                    figures (headings, lines, sentences).
 *   table            text's table of the rows: per column a field's key
 *                    and a cell format; each figure is the row's field.
 *   line             text's line of one object's fields, as a table's row:
 *                    the layout of fields declared elsewhere, for text.
 *   raw              a part written by a module that has no model of its
 *                    own (the environment audit, the load, the actions):
 *                    its JSON and text writers, called in place.
 *   series           a histogram a row measured, for the picture: a panel
 *                    of bars per row, or with many rows a heat strip.
 *   matrix           a value per pair of CPUs: text's table, the
 *                    picture's heatmap.
 *   note             a line of the picture: its title, a row's heading,
 *                    caption or tooltip.
 * How the picture is laid out is the kind's (struct tp_picture); a row's
 * curve is drawn from its own fields.
 *
 * Unknown stays unknown in every format: JSON null, an empty CSV cell, no
 * Prometheus sample, "n/a" in text (a table column may say "-"), nothing
 * drawn in SVG.  An object can be unknown too: JSON null, its fields (all
 * unknown) still CSV's empty cells.
 *
 * Every string given to the model is copied: a builder may pass its own
 * buffers.  The model lives in an arena; rows are built on it and dropped
 * after each use.
 */
#ifndef TSCPROBE_USER_MODEL_H
#define TSCPROBE_USER_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct jw;
struct tp_counter_res;
struct tp_cpuset;
struct tp_hist;
struct tp_model;
struct tp_output;
struct tp_result;
struct tp_verdict;

/* The formats, as the bits of a node's "not in" mask. */
enum {
	TP_IN_TEXT = 1 << 0,
	TP_IN_JSON = 1 << 1,
	TP_IN_CSV = 1 << 2,
	TP_IN_PROM = 1 << 3,
	TP_IN_SVG = 1 << 4,
};

/* Only in text: a fragment of layout that no other format has. */
#define TP_ONLY_TEXT	(TP_IN_JSON | TP_IN_CSV | TP_IN_PROM | TP_IN_SVG)
/* Not in JSON nor text: a CSV column or a sample made for that format. */
#define TP_NO_DOC	(TP_IN_JSON | TP_IN_TEXT)

/**
 * struct tp_family - a Prometheus metric family
 * @name: its name
 * @type: "gauge", "counter" or "summary"
 * @help: its HELP text
 * @bare: its samples take no labels from the objects around them (the
 *	run's own metrics)
 */
struct tp_family {
	const char *name;
	const char *type;
	const char *help;
	bool bare;
};

/**
 * struct tp_opts - where a field goes besides JSON
 * @csv: its CSV column's place, from 1 (0: not a column); the columns are
 *	sorted by it, so a column added later takes a place after the others
 * @col: the column's name (NULL: the key)
 * @prom: the Prometheus family it is a sample of (NULL: none)
 * @suffix: after the family's name ("_sum", "_count"; NULL: none)
 * @labels: the sample's own labels, after its object's (tp_model_labels())
 * @scale: the sample is the value times this (0: 1)
 * @div: and divided by this (0: 1): ns / 1e9 are seconds
 * @text: text prints the field where it stands with this format, one
 *	printf conversion for the value ("%s" for a string or a bool)
 * @svg: the picture shows the field in its row's tooltip with this
 *	format, as @text ("p50 %llu"); not where it is unknown
 * @not_in: the formats it stays out of (TP_IN_*)
 */
struct tp_opts {
	unsigned int csv;
	const char *col;
	const struct tp_family *prom;
	const char *suffix;
	const char *labels;
	double scale;
	double div;
	const char *text;
	const char *svg;
	unsigned int not_in;
};

/* How a table cell shows its field. */
enum tp_cell_as {
	TP_CELL_PLAIN,		/* the value through the format */
	TP_CELL_PCT,		/* a ratio as per cent */
	TP_CELL_TIME,		/* cycles as a duration ("197.1us") */
	TP_CELL_NET,		/* a net figure: 0, not resolved, as "below" */
};

/**
 * struct tp_column - one column of a text table
 * @key: the field in the row (a path: "sources.lost")
 * @fmt: the cell: one printf conversion, its leading spaces included
 * @none: the cell of an unknown value, through the same width ("-")
 * @how: enum tp_cell_as
 */
struct tp_column {
	const char *key;
	const char *fmt;
	const char *none;
	enum tp_cell_as how;
};

/* Up to this many rows a picture has a panel per row; beyond, strips. */
#define TP_PANEL_ROWS	8

/**
 * struct tp_picture - how a kind's report is drawn (SVG)
 * @title: the file's title
 * @width: the width of a picture of panels
 * @panel: a panel's height
 * @xmin: a histogram panel's x axis reaches at least this
 * @xlabel: its x axis' label
 * @ylabel: its y axis' label
 * @count: what a strip's colours count ("gaps")
 * @strip: a strip's width
 * @curve: the array of a row that is its curve ("levels"; NULL: none)
 * @curve_x: a point's x key in it
 * @curve_y: its y key
 * @curve_title: a curve panel's title, after "CPU 3: "
 * @curve_xlabel: its x axis' label
 * @curve_ylabel: its y axis' label
 */
struct tp_picture {
	const char *title;
	double width;
	double panel;
	double xmin;
	const char *xlabel;
	const char *ylabel;
	const char *count;
	double strip;
	const char *curve;
	const char *curve_x;
	const char *curve_y;
	const char *curve_title;
	const char *curve_xlabel;
	const char *curve_ylabel;
};

/* The lines a picture writes: where each goes. */
enum tp_note {
	TP_NOTE_TITLE,		/* the picture's: the first large, then smaller */
	TP_NOTE_HEADING,	/* above a row's panel */
	TP_NOTE_CAPTION,	/* under it */
	TP_NOTE_TOOLTIP,	/* a row's strips' tooltip */
};

/**
 * struct tp_series - a histogram a row measured, for the picture
 * @name: its name in a panel's legend
 * @strip: its strip's title (NULL: @name)
 * @colour: its bars' colour in a panel
 * @h: the histogram
 * @base: a strip counts each bucket minus this (net), 0 at or below it
 * @tail: a strip marks this high percentile (black), in the same units
 * @max: and the largest value (red)
 * @top: a panel's x axis reaches this (the gross largest value)
 */
struct tp_series {
	const char *name;
	const char *strip;
	const char *colour;
	const struct tp_hist *h;
	uint64_t base;
	double tail;
	double max;
	double top;
};

/**
 * struct tp_matrix - a value per ordered pair of CPUs
 * @text: its heading in text
 * @fmt: a value in text, one printf conversion of a double
 * @svg: its heading in the picture
 * @diverging: signed around 0 (a skew): blue below, red above
 * @unit: under the picture's colour scale
 */
struct tp_matrix {
	const char *text;
	const char *fmt;
	const char *svg;
	bool diverging;
	const char *unit;
};

/**
 * struct tp_cell - one cell of a matrix
 * @v: its value
 * @none: why it has none ("-" on the diagonal, "tmo"...); NULL: @v
 */
struct tp_cell {
	double v;
	const char *none;
};

/* Builds row @i of a rows node, inside the object tp_rows() opened. */
typedef void (*tp_row_fn)(struct tp_model *m, const void *ctx, unsigned int i);
/* A raw part's writers (either may be NULL: not in that format). */
typedef void (*tp_raw_json_fn)(const void *ctx, struct jw *j);
typedef void (*tp_raw_text_fn)(const void *ctx, FILE *f);

struct tp_model *tp_model_new(const struct tp_result *r,
			      const struct tp_output *o,
			      const struct tp_verdict *v);
void tp_model_free(struct tp_model *m);
const struct tp_result *tp_model_result(const struct tp_model *m);
const struct tp_output *tp_model_output(const struct tp_model *m);
const struct tp_verdict *tp_model_verdict(const struct tp_model *m);

void tp_obj(struct tp_model *m, const char *key);
void tp_obj_known(struct tp_model *m, const char *key, bool known);
void tp_arr(struct tp_model *m, const char *key);
void tp_end(struct tp_model *m);
void tp_rows(struct tp_model *m, const char *key, unsigned int n,
	     tp_row_fn fn, const void *ctx);
void tp_not_in(struct tp_model *m, unsigned int formats);
void tp_model_labels(struct tp_model *m, const char *name, ...)
	__attribute__((sentinel));
const char *tp_labels(struct tp_model *m, const char *name, ...)
	__attribute__((sentinel));
void tp_family(struct tp_model *m, const struct tp_family *fam);

void tp_u64(struct tp_model *m, const char *key, uint64_t v,
	    const struct tp_opts *o);
void tp_i64(struct tp_model *m, const char *key, int64_t v,
	    const struct tp_opts *o);
void tp_dbl(struct tp_model *m, const char *key, double v,
	    const struct tp_opts *o);
void tp_str(struct tp_model *m, const char *key, const char *v,
	    const struct tp_opts *o);
void tp_bool(struct tp_model *m, const char *key, bool v,
	     const struct tp_opts *o);
void tp_null(struct tp_model *m, const char *key, const struct tp_opts *o);
void tp_counter(struct tp_model *m, const char *key,
		const struct tp_counter_res *k, const struct tp_opts *o);
void tp_cpuset(struct tp_model *m, const char *key,
	       const struct tp_cpuset *set);

void tp_text(struct tp_model *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text's lines stay within this many columns where tp_text_wrap() writes. */
#define TP_TEXT_COLUMNS	100

void tp_text_wrap(struct tp_model *m, const char *indent, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tp_text_quiet(struct tp_model *m, bool quiet);
FILE *tp_text_open(struct tp_model *m);
void tp_text_close(struct tp_model *m, FILE *f, const char *wrap);
void tp_table(struct tp_model *m, const char *rows,
	      const struct tp_column *cols, unsigned int n);
void tp_line(struct tp_model *m, const char *obj,
	     const struct tp_column *cols, unsigned int n);
void tp_raw(struct tp_model *m, tp_raw_json_fn json, tp_raw_text_fn text,
	    const void *ctx);

void tp_picture(struct tp_model *m, const struct tp_picture *p);
void tp_marker(struct tp_model *m, double x, const char *label);
void tp_note(struct tp_model *m, enum tp_note role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tp_series(struct tp_model *m, const struct tp_series *s);
struct tp_cell *tp_matrix(struct tp_model *m, const struct tp_matrix *spec,
			  const struct tp_cpuset *cpus);

void tp_render_json(struct tp_model *m, FILE *f);
void tp_render_json_line(struct tp_model *m, FILE *f);
void tp_render_text(struct tp_model *m, FILE *f);
void tp_render_csv(struct tp_model *m, FILE *f);
void tp_render_prom(struct tp_model *m, FILE *f);
int tp_render_svg(struct tp_model *m, const char *path);

#endif /* TSCPROBE_USER_MODEL_H */
