// SPDX-License-Identifier: GPL-2.0
/*
 * The report model as a picture (SVG), laid out as its kind says (struct
 * tp_picture): up to TP_PANEL_ROWS rows, a panel per row with its
 * histograms as bars on log axes (and a panel of its curve); beyond, a
 * heat strip per series with a row per row of the report, the colour the
 * log of the count, its tail and its largest value marked; the matrices as
 * heatmaps side by side.  What is unknown is not drawn.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/cpuset.h"
#include "core/hist.h"
#include "user/lib/model.h"
#include "user/lib/model_node.h"
#include "user/lib/svg.h"

/* The gap between two strips, and between the two heatmaps. */
#define TP_STRIP_GAP	40.0
#define TP_HEAT_CELL	34.0
#define TP_HEAT_GAP	60.0
/* The two heatmaps side by side stay within about this many pixels. */
#define TP_HEAT_SPAN	900.0
/* A row's series at most. */
#define TP_SERIES_MAX	4

/**
 * struct tp_draw - a picture being drawn
 * @m: the model
 * @p: its kind's layout
 * @s: the SVG
 * @rows: the report's rows
 * @marker: a value every histogram panel marks (0: none)
 * @label: its label
 */
struct tp_draw {
	struct tp_model *m;
	const struct tp_picture *p;
	struct tp_svg s;
	const struct tp_node *rows;
	double marker;
	const char *label;
};

/* The series of @row, and how many (up to @max). */
static unsigned int tp_row_series(const struct tp_node *row,
				  const struct tp_series **ser, unsigned int max)
{
	const struct tp_node *n;
	unsigned int k = 0;

	for (n = row->c.first; n && k < max; n = n->next)
		if (n->type == TP_N_SERIES)
			ser[k++] = n->series;
	return k;
}

/* The figures of @row the picture shows, after its tooltip note. */
static void tp_row_figures(FILE *f, const struct tp_node *n, uint32_t khz,
			   unsigned int *k)
{
	for (n = n->c.first; n; n = n->next) {
		if (n->type == TP_N_OBJ || n->type == TP_N_ARR)
			tp_row_figures(f, n, khz, k);
		if (n->type != TP_N_FIELD || !n->known || !n->o || !n->o->svg ||
		    !tp_node_in(n, TP_IN_SVG))
			continue;	/* unknown: not drawn */
		fputs((*k)++ ? ", " : ": ", f);
		tp_node_cell(f, n, &(struct tp_column){ .fmt = n->o->svg }, khz);
	}
}

/*
 * A row's tooltip: its note ("CPU 3"), then each figure the picture shows
 * ("p50 54, max 1046609 cycles"); NULL when it has neither.
 */
static char *tp_row_tooltip(const struct tp_draw *d, const struct tp_node *row)
{
	const struct tp_node *n;
	unsigned int k = 0;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (n = row->c.first; n; n = n->next)
		if (n->type == TP_N_NOTE && n->note.role == TP_NOTE_TOOLTIP)
			fputs(n->note.text, f);
	tp_row_figures(f, row, tp_model_khz(d->m), &k);
	fclose(f);
	if (text && !*text) {
		free(text);
		text = NULL;
	}
	return text;
}

/* The note of @role in @row (NULL: none). */
static const char *tp_row_note(const struct tp_node *row, unsigned int role)
{
	const struct tp_node *n;

	for (n = row->c.first; n; n = n->next)
		if (n->type == TP_N_NOTE && n->note.role == role)
			return n->note.text;
	return NULL;
}

/* The report's @k-th title line (NULL: none). */
static const char *tp_title(const struct tp_draw *d, unsigned int k)
{
	const struct tp_node *n;

	for (n = tp_model_root(d->m)->c.first; n; n = n->next)
		if (n->type == TP_N_NOTE && n->note.role == TP_NOTE_TITLE && !k--)
			return n->note.text;
	return NULL;
}

/* The report's title lines: the first large, the others under it. */
static void tp_draw_titles(struct tp_draw *d)
{
	const char *t;
	unsigned int k;

	for (k = 0; (t = tp_title(d, k)); k++)
		if (k)
			tp_svg_text(&d->s, 20, 30 + 16 * k, "start", 11, "%s", t);
		else
			tp_svg_text(&d->s, 20, 26, "start", 15, "%s", t);
}

/* The CPU a row is of. */
static unsigned int tp_row_cpu(const struct tp_node *row)
{
	const struct tp_node *cpu = tp_node_find(row, "cpu");

	return cpu && cpu->known ? (unsigned int)cpu->v.u : 0;
}

/* A row's curve, its points' (x, y); how many. */
static unsigned int tp_row_curve(const struct tp_draw *d,
				 const struct tp_node *row, double *x,
				 double *y, unsigned int max)
{
	const struct tp_node *arr = tp_node_find(row, d->p->curve), *pt, *a, *b;
	unsigned int n = 0;

	for (pt = arr ? arr->c.first : NULL; pt && n < max; pt = pt->next) {
		a = tp_node_find(pt, d->p->curve_x);
		b = tp_node_find(pt, d->p->curve_y);
		if (!a || !b || !a->known || !b->known)
			continue;
		x[n] = tp_node_number(a);
		y[n++] = tp_node_number(b);
	}
	return n;
}

#define TP_CURVE_POINTS	64

/*
 * The curve of @only (NULL: of every row, a line each) on one panel: y
 * against x, both on log axes; a single row's points marked.
 */
static void tp_draw_curves(struct tp_draw *d, const struct tp_node *only,
			   double top)
{
	struct tp_plot p = { 70, top + 30, d->p->width - 230, d->p->panel - 80,
			     40, 0, 1 };
	double x[TP_CURVE_POINTS], y[TP_CURVE_POINTS], most = 1, px = 0, py = 0;
	unsigned int k, np, pass, n = only ? 1 : d->rows->rows.n;
	const struct tp_node *row;
	struct tp_iter it;
	double cx, cy;

	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			p.yhi = ceil(log10(most + 1));
			if (only)
				tp_svg_text(&d->s, p.x, top + 18, "start", 13, "CPU %u: %s",
					    tp_row_cpu(only), d->p->curve_title);
			else
				tp_svg_text(&d->s, p.x, top + 18, "start", 13,
					    "%u CPUs: %s, a line per CPU", n,
					    d->p->curve_title);
			tp_plot_axes(&d->s, &p, d->p->curve_xlabel, d->p->curve_ylabel);
		}
		for (row = only ? only : tp_first(&it, d->m, d->rows); row;
		     row = only ? NULL : tp_next(&it)) {
			np = tp_row_curve(d, row, x, y, TP_CURVE_POINTS);
			for (k = 0; !pass && k < np; k++)
				most = fmax(most, y[k]);
			if (!pass && np > 1) {
				p.xlo = fmin(p.xlo, log2(x[0]));
				p.xhi = fmax(p.xhi, log2(x[np - 1]) + 0.5);
			}
			for (k = 0; pass && k < np; k++) {
				cx = tp_plot_x(&p, x[k]);
				cy = tp_plot_y(&p, y[k]);
				if (k)
					tp_svg_line(&d->s, px, py, cx, cy, "#1f77b4",
						    only ? 2 : 1, false);
				if (only)
					tp_svg_rect(&d->s, cx - 3, cy - 3, 6, 6, "#1f77b4");
				px = cx;
				py = cy;
			}
		}
	}
}

/* A row's panel: its series as bars, their legend, the marker, captions. */
static void tp_draw_panel(struct tp_draw *d, const struct tp_node *row,
			  double top)
{
	const struct tp_series *ser[TP_SERIES_MAX];
	unsigned int k, n = tp_row_series(row, ser, TP_SERIES_MAX);
	struct tp_plot p = { 70, top + 30, d->p->width - 100 - (n > 1 ? 130 : 0),
			     d->p->panel - 80, 4, 8, 1 };
	const char *heading = tp_row_note(row, TP_NOTE_HEADING);
	const char *caption = tp_row_note(row, TP_NOTE_CAPTION);
	uint32_t khz = tp_model_khz(d->m);
	double max = d->p->xmin, x;
	char xlabel[160];
	uint64_t most = 1;

	for (k = 0; k < n; k++) {
		max = fmax(max, ser[k]->top);
		most = tp_hist_most(ser[k]->h, most);
	}
	p.xhi = ceil(log2(max + 1));
	p.yhi = ceil(log10((double)most + 1));
	if (heading)
		tp_svg_text(&d->s, p.x, top + 18, "start", 13, "%s", heading);
	/* the axis in time too: cycles at the run's TSC rate */
	snprintf(xlabel, sizeof(xlabel), khz ? "%s, at %.2f cycles/ns" : "%s",
		 d->p->xlabel, khz / 1e6);
	tp_plot_axes(&d->s, &p, xlabel, d->p->ylabel);
	for (k = 0; k < n; k++) {
		tp_plot_hist(&d->s, &p, ser[k]->h, ser[k]->colour);
		if (n < 2)
			continue;
		tp_svg_rect(&d->s, p.x + p.w + 20, p.y + 10 + 18 * k, 12, 12,
			    ser[k]->colour);
		tp_svg_text(&d->s, p.x + p.w + 38, p.y + 21 + 18 * k, "start",
			    11, "%s", ser[k]->name);
	}
	if (d->marker) {
		x = tp_plot_x(&p, d->marker);
		tp_svg_line(&d->s, x, p.y, x, p.y + p.h, "#d62728", 1.5, true);
		tp_svg_text(&d->s, x + 4, p.y + 12, "start", 10, "%s", d->label);
	}
	if (caption)
		tp_svg_text(&d->s, p.x, top + d->p->panel - 2, "start", 10, "%s",
			    caption);
}

/* A row's curve panel is drawn when its curve has two points or more. */
static bool tp_row_has_curve(struct tp_draw *d, const struct tp_node *row)
{
	double x[TP_CURVE_POINTS], y[TP_CURVE_POINTS];

	return d->p->curve && tp_row_curve(d, row, x, y, TP_CURVE_POINTS) > 1;
}

/* A few rows: a panel each, its tooltip the row's, and its curve's. */
static int tp_draw_panels(struct tp_draw *d, const char *path)
{
	const struct tp_node *row;
	unsigned int panels = 0;
	struct tp_iter it;
	double top = 40;
	char *tip;

	for (row = tp_first(&it, d->m, d->rows); row; row = tp_next(&it))
		panels += 1 + tp_row_has_curve(d, row);
	if (tp_svg_open(&d->s, path, d->p->width, 50 + d->p->panel * panels,
			d->p->title))
		return TP_EXIT_FAIL;
	tp_draw_titles(d);
	for (row = tp_first(&it, d->m, d->rows); row; row = tp_next(&it)) {
		tip = tp_row_tooltip(d, row);
		if (tip)
			tp_svg_group(&d->s, "%s", tip);
		tp_draw_panel(d, row, top);
		if (tip)
			tp_svg_group_end(&d->s);
		free(tip);
		top += d->p->panel;
		if (tp_row_has_curve(d, row)) {
			tp_draw_curves(d, row, top);
			top += d->p->panel;
		}
	}
	return tp_svg_close(&d->s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
}

/* A series folded into log2 buckets, net of its base. */
static void tp_series_fold(const struct tp_series *s, uint64_t *calls)
{
	uint64_t cycles[TP_LOG2_BUCKETS];

	memset(calls, 0, TP_LOG2_BUCKETS * sizeof(*calls));
	if (s->h)
		tp_hist_fold_log2_net(s->h, s->base, calls, cycles);
}

/* The strips' columns and colour scale, one for all; how many strips. */
static unsigned int tp_strips_extent(struct tp_draw *d, struct tp_strip *st)
{
	const struct tp_series *ser[TP_SERIES_MAX];
	uint64_t calls[TP_LOG2_BUCKETS];
	unsigned int k, n, nser = 1;
	const struct tp_node *row;
	struct tp_iter it;

	for (row = tp_first(&it, d->m, d->rows); row; row = tp_next(&it)) {
		n = tp_row_series(row, ser, TP_SERIES_MAX);
		for (k = 0; k < n; k++) {
			tp_series_fold(ser[k], calls);
			tp_strip_extent(st, calls, ser[k]->max);
		}
		nser = n > nser ? n : nser;
	}
	tp_strip_layout(st, d->rows->rows.n, d->p->strip);
	return nser;
}

/* Row @i's strips in one group, its tooltip the row's. */
static void tp_draw_strip_row(struct tp_draw *d, const struct tp_strip *st,
			      const struct tp_node *row, unsigned int i)
{
	const struct tp_series *ser[TP_SERIES_MAX];
	unsigned int k, n = tp_row_series(row, ser, TP_SERIES_MAX);
	char *tip = tp_row_tooltip(d, row);
	uint64_t calls[TP_LOG2_BUCKETS];
	struct tp_strip at = *st;

	tp_strip_cpu_label(&d->s, st, i, tp_row_cpu(row));
	tp_svg_group(&d->s, "%s", tip ? tip : "");
	free(tip);
	for (k = 0; k < n; k++) {
		if (!ser[k]->h)
			continue;	/* unknown: nothing drawn */
		at.x = st->x + k * (d->p->strip + TP_STRIP_GAP);
		tp_series_fold(ser[k], calls);
		tp_strip_row(&d->s, &at, st->y + i * st->row, calls,
			     ser[k]->tail, ser[k]->max);
	}
	tp_svg_group_end(&d->s);
}

/* The strips' titles (more than one series, @row's) and cycles axes. */
static void tp_draw_strip_axes(struct tp_draw *d, const struct tp_strip *st,
			       const struct tp_node *row, double bottom)
{
	const struct tp_series *ser[TP_SERIES_MAX];
	unsigned int k, n = tp_row_series(row, ser, TP_SERIES_MAX);
	struct tp_strip at = *st;

	for (k = 0; k < n; k++) {
		at.x = st->x + k * (d->p->strip + TP_STRIP_GAP);
		if (n > 1)
			tp_svg_text(&d->s, at.x, st->y - 8, "start", 12, "%s",
				    ser[k]->strip ? ser[k]->strip : ser[k]->name);
		tp_strip_xlabels(&d->s, &at, bottom + 16);
	}
}

/* Many rows: a heat strip per series, then every row's curve on a panel. */
static int tp_draw_strips(struct tp_draw *d, const char *path)
{
	unsigned int n = d->rows->rows.n, nser, subs = 0;
	struct tp_strip st = { 70, 54, 0, 0, 0, 1 };
	const struct tp_node *row;
	bool curves = false;
	struct tp_iter it;
	double w, bottom;

	while (tp_title(d, subs + 1))
		subs++;
	st.y += 16 * subs;
	nser = tp_strips_extent(d, &st);
	if (nser > 1)
		st.y += 10;	/* the strips' titles */
	for (row = tp_first(&it, d->m, d->rows); row; row = tp_next(&it))
		curves |= tp_row_has_curve(d, row);
	w = st.x + nser * d->p->strip + (nser - 1) * TP_STRIP_GAP + 40;
	bottom = st.y + st.row * n;
	if (tp_svg_open(&d->s, path, w, bottom + 110 + (curves ? d->p->panel : 0),
			d->p->title))
		return TP_EXIT_FAIL;
	tp_draw_titles(d);
	for (row = tp_first(&it, d->m, d->rows); row; row = tp_next(&it)) {
		tp_draw_strip_row(d, &st, row, it.i);
		if (it.i == n - 1)	/* every row has the same series */
			tp_draw_strip_axes(d, &st, row, bottom);
	}
	tp_strip_legend(&d->s, st.x, bottom + 40, st.most, d->p->count);
	if (curves)
		tp_draw_curves(d, NULL, bottom + 90);
	return tp_svg_close(&d->s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
}

/**
 * struct tp_heat - one heatmap being drawn
 * @x0: left edge of the cells
 * @y0: top edge
 * @cell: a cell's side
 * @lo: the colour scale's low end
 * @hi: its high end
 * @mx: the matrix
 * @n: CPUs
 */
struct tp_heat {
	double x0, y0, cell, lo, hi;
	const struct tp_node *mx;
	unsigned int n;
};

/* A cell's side: 34 px up to a few CPUs, smaller with many, at least 3. */
static double tp_heat_cell_size(unsigned int n)
{
	double c = TP_HEAT_SPAN / (n ? n : 1);

	return c > TP_HEAT_CELL ? TP_HEAT_CELL : c < 3 ? 3 : floor(c);
}

/* The colour scale's range: [lo, hi], symmetric around 0 when diverging. */
static void tp_heat_range(struct tp_heat *hm)
{
	const struct tp_cell *c = hm->mx->matrix.cells;
	bool any = false;
	unsigned int k;

	hm->lo = hm->hi = 0;
	for (k = 0; k < hm->n * hm->n; k++) {
		if (c[k].none)
			continue;
		if (!any || c[k].v < hm->lo)
			hm->lo = c[k].v;
		if (!any || c[k].v > hm->hi)
			hm->hi = c[k].v;
		any = true;
	}
	if (hm->mx->matrix.spec->diverging) {
		hm->hi = fmax(fabs(hm->lo), fabs(hm->hi));
		hm->lo = -hm->hi;
	}
	if (hm->hi <= hm->lo)
		hm->hi = hm->lo + 1;
}

/* A value's colour on the sequential scale, or the diverging one. */
static void tp_heat_colour(const struct tp_heat *hm, double v, char *buf,
			   size_t len)
{
	if (hm->mx->matrix.spec->diverging)
		tp_svg_color_diverging(v / hm->hi, buf, len);
	else
		tp_svg_color((v - hm->lo) / (hm->hi - hm->lo), buf, len);
}

/* Whether a value on its colour reads better in white. */
static bool tp_heat_dark(const struct tp_heat *hm, double v)
{
	if (hm->mx->matrix.spec->diverging)
		return fabs(v / hm->hi) > 0.6;
	return (v - hm->lo) / (hm->hi - hm->lo) < 0.5;
}

static void tp_heat_cell(struct tp_svg *s, const struct tp_heat *hm,
			 const struct tp_cell *cell, double x, double y)
{
	double c = hm->cell - (hm->cell > 6);
	char colour[8];

	if (cell->none && !strcmp(cell->none, "-")) {
		tp_svg_rect(s, x, y, c, c, "#d9d9d9");
		return;
	}
	if (cell->none) {
		tp_svg_rect(s, x, y, c, c, "#969696");
		if (hm->n <= 16)
			tp_svg_text(s, x + c / 2, y + c / 2 + 4, "middle", 9,
				    "%s", cell->none);
		return;
	}
	tp_heat_colour(hm, cell->v, colour, sizeof(colour));
	tp_svg_rect(s, x, y, c, c, colour);
	/* Values in the cells while they are big enough to read. */
	if (hm->n <= 16)
		tp_svg_text_fill(s, x + c / 2, y + c / 2 + 4, "middle", 9,
				 tp_heat_dark(hm, cell->v) ? "#ffffff" : "#000000",
				 "%.0f", cell->v);
}

/* The legend under a heatmap: the scale, its ends, 0 when diverging. */
static void tp_heat_legend(struct tp_svg *s, const struct tp_heat *hm)
{
	double size = hm->n * hm->cell, w = size < 200 ? 200 : size;
	double y = hm->y0 + size + 14;
	char colour[8];
	unsigned int k;

	for (k = 0; k < 50; k++) {
		tp_heat_colour(hm, hm->lo + (hm->hi - hm->lo) * k / 49.0, colour,
			       sizeof(colour));
		tp_svg_rect(s, hm->x0 + k * w / 50, y, w / 50 + 0.5, 10, colour);
	}
	tp_svg_text(s, hm->x0, y + 24, "start", 10, "%.1f", hm->lo);
	tp_svg_text(s, hm->x0 + w, y + 24, "end", 10, "%.1f", hm->hi);
	if (hm->mx->matrix.spec->diverging)
		tp_svg_text(s, hm->x0 + w / 2, y + 24, "middle", 10, "0");
	tp_svg_text(s, hm->x0 + w / 2, y + 40, "middle", 10, "%s",
		    hm->mx->matrix.spec->unit);
}

/* One matrix as a heatmap, rows i and columns j, its legend below. */
static void tp_heatmap(struct tp_svg *s, const struct tp_node *mx, double x0,
		       double y0)
{
	struct tp_heat hm = { x0, y0, 0, 0, 0, mx, 0 };
	unsigned int i, j, step = 1;
	int cpu = -1;

	hm.n = tp_cpuset_count(mx->matrix.cpus);
	hm.cell = tp_heat_cell_size(hm.n);
	while (step * hm.cell < 12)
		step *= 2;	/* labels at least 12 px apart */
	tp_heat_range(&hm);
	tp_svg_text(s, x0, y0 - 28, "start", 13, "%s", mx->matrix.spec->svg);
	for (i = 0; (cpu = tp_cpuset_next(mx->matrix.cpus, cpu)) >= 0; i++) {
		if (i % step == 0) {
			tp_svg_text(s, x0 - 4, y0 + i * hm.cell + hm.cell / 2 + 4,
				    "end", 10, "%d", cpu);
			tp_svg_text(s, x0 + i * hm.cell + hm.cell / 2, y0 - 6,
				    "middle", 10, "%d", cpu);
		}
		for (j = 0; j < hm.n; j++)
			tp_heat_cell(s, &hm, &mx->matrix.cells[i * hm.n + j],
				     x0 + j * hm.cell, y0 + i * hm.cell);
	}
	tp_heat_legend(s, &hm);
}

/* The matrices as heatmaps side by side. */
static int tp_draw_heatmaps(struct tp_draw *d, const char *path)
{
	const struct tp_node *n, *mx[2] = { NULL, NULL };
	unsigned int k = 0, cpus;
	double cell, size, w;

	for (n = tp_model_root(d->m)->c.first; n && k < 2; n = n->next)
		if (n->type == TP_N_MATRIX)
			mx[k++] = n;
	cpus = tp_cpuset_count(mx[0]->matrix.cpus);
	cell = tp_heat_cell_size(cpus);
	size = (cpus < 6 ? 6 : cpus) * cell;
	w = 2 * size + 3 * TP_HEAT_GAP + 40;
	if (tp_svg_open(&d->s, path, w < 560 ? 560 : w, size + 180, d->p->title))
		return TP_EXIT_FAIL;
	tp_svg_text(&d->s, 20, 24, "start", 15, "%s", tp_title(d, 0));
	for (k = 0; k < 2 && mx[k]; k++)
		tp_heatmap(&d->s, mx[k], TP_HEAT_GAP + k * (TP_HEAT_GAP + size + 20),
			   80);
	return tp_svg_close(&d->s, path) ? TP_EXIT_FAIL : TP_EXIT_OK;
}

/**
 * tp_render_svg() - the report's picture, into a file
 * @m: the model (a report without a picture draws nothing)
 * @path: the file
 *
 * Return: TP_EXIT_OK, or TP_EXIT_FAIL with one line printed when the
 * file cannot be written.
 */
int tp_render_svg(struct tp_model *m, const char *path)
{
	struct tp_draw d;
	const struct tp_node *n;

	memset(&d, 0, sizeof(d));
	d.m = m;
	d.p = tp_model_picture(m, &d.marker, &d.label);
	if (!d.p)
		return TP_EXIT_OK;
	for (n = tp_model_root(m)->c.first; n; n = n->next) {
		if (n->type == TP_N_MATRIX)
			return tp_draw_heatmaps(&d, path);
		if (n->type == TP_N_ROWS && !d.rows)
			d.rows = n;
	}
	if (!d.rows)
		return TP_EXIT_OK;
	if (d.rows->rows.n > TP_PANEL_ROWS)
		return tp_draw_strips(&d, path);
	return tp_draw_panels(&d, path);
}
