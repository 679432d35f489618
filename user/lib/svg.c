// SPDX-License-Identifier: GPL-2.0
/*
 * SVG primitives: text (escaped), lines, rectangles, a perceptually even
 * colour scale for heatmaps, and panels with log2 x and log10 y axes for
 * histograms whose values span many orders of magnitude.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "user/lib/cli.h"
#include "core/hist.h"
#include "user/lib/svg.h"

static void tp_svg_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/**
 * tp_svg_open() - start a picture
 * @s: filled in
 * @path: the file to write
 * @w: width in pixels
 * @h: height in pixels
 * @title: the picture's title (shown by browsers as a tooltip)
 *
 * Return: 0, or -1 with a one-line error printed.
 */
int tp_svg_open(struct tp_svg *s, const char *path, double w, double h,
		const char *title)
{
	s->f = fopen(path, "w");
	if (!s->f) {
		tp_err("--svg %s: %s", path, strerror(errno));
		return -1;
	}
	s->w = w;
	s->h = h;
	fprintf(s->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n<title>",
		w, h, w, h);
	tp_svg_escaped(s->f, title);
	fprintf(s->f, "</title>\n<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		w, h);
	return 0;
}

/**
 * tp_svg_close() - finish the picture
 * @s: the picture
 * @path: its file, for the error message
 *
 * Return: 0, or -1 with a one-line error printed when the file could not
 * be written completely.
 */
int tp_svg_close(struct tp_svg *s, const char *path)
{
	fputs("</svg>\n", s->f);
	if (ferror(s->f) | fclose(s->f)) {
		tp_err("--svg %s: cannot write it", path);
		return -1;
	}
	return 0;
}

static void tp_svg_vtext(struct tp_svg *s, double x, double y,
			 const char *anchor, double size, const char *fill,
			 const char *fmt, va_list ap)
{
	char text[512];

	vsnprintf(text, sizeof(text), fmt, ap);
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\" fill=\"%s\">",
		x, y, anchor, size, fill);
	tp_svg_escaped(s->f, text);
	fputs("</text>\n", s->f);
}

void tp_svg_text(struct tp_svg *s, double x, double y, const char *anchor,
		 double size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_svg_vtext(s, x, y, anchor, size, "#000000", fmt, ap);
	va_end(ap);
}

/* Text in a colour, e.g. white on a dark heatmap cell. */
void tp_svg_text_fill(struct tp_svg *s, double x, double y,
		      const char *anchor, double size, const char *fill,
		      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_svg_vtext(s, x, y, anchor, size, fill, fmt, ap);
	va_end(ap);
}

void tp_svg_line(struct tp_svg *s, double x1, double y1, double x2, double y2,
		 const char *stroke, double width, bool dashed)
{
	fprintf(s->f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"%s/>\n",
		x1, y1, x2, y2, stroke, width,
		dashed ? " stroke-dasharray=\"4 3\"" : "");
}

void tp_svg_rect(struct tp_svg *s, double x, double y, double w, double h,
		 const char *fill)
{
	fprintf(s->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
		x, y, w, h, fill);
}

/**
 * tp_svg_color() - a colour for a value between 0 and 1
 * @v: the value (clamped)
 * @buf: "#rrggbb"
 * @len: its size (at least 8)
 *
 * Piecewise-linear through five stops of a perceptually even scale, dark
 * blue (low) to yellow (high), readable on white and in greyscale.
 */
void tp_svg_color(double v, char *buf, size_t len)
{
	static const double stop[5][3] = {
		{ 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 },
		{ 94, 201, 98 }, { 253, 231, 37 },
	};
	double t;
	int i, k;
	int rgb[3];

	if (!(v > 0))
		v = 0;
	if (v > 1)
		v = 1;
	t = v * 4;
	i = t >= 4 ? 3 : (int)t;
	t -= i;
	for (k = 0; k < 3; k++)
		rgb[k] = (int)lround(stop[i][k] + t * (stop[i + 1][k] - stop[i][k]));
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/**
 * tp_svg_color_diverging() - a colour for a signed value between -1 and 1
 * @v: the value (clamped); 0 is white
 * @buf: "#rrggbb"
 * @len: its size (at least 8)
 *
 * Blue below 0, white at 0, red above: for a quantity whose sign matters
 * and whose 0 is "nothing" (a skew), where a sequential scale would make 0
 * look like a value.
 */
void tp_svg_color_diverging(double v, char *buf, size_t len)
{
	static const double neg[3] = { 33, 102, 172 };
	static const double mid[3] = { 247, 247, 247 };
	static const double pos[3] = { 178, 24, 43 };
	const double *end;
	double t;
	int k, rgb[3];

	if (!(v == v))
		v = 0;
	if (v > 1)
		v = 1;
	if (v < -1)
		v = -1;
	end = v < 0 ? neg : pos;
	t = fabs(v);
	for (k = 0; k < 3; k++)
		rgb[k] = (int)lround(mid[k] + t * (end[k] - mid[k]));
	snprintf(buf, len, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* The pixel x of a value on the panel's log2 axis. */
double tp_plot_x(const struct tp_plot *p, double v)
{
	double lv = v > 0 ? log2(v) : p->xlo;

	if (lv < p->xlo)
		lv = p->xlo;
	return p->x + (lv - p->xlo) / (p->xhi - p->xlo) * p->w;
}

/* The pixel y of a count on the panel's log10 axis (1 at the bottom). */
double tp_plot_y(const struct tp_plot *p, double v)
{
	double lv = v > 1 ? log10(v) : 0;

	return p->y + p->h - lv / p->yhi * p->h;
}

/**
 * tp_hist_most() - the most calls in a bucket of @h, or @most if more
 * @h: a histogram (NULL: none)
 * @most: the largest count so far
 *
 * Return: the larger of the two, for a log10 count axis.
 */
uint64_t tp_hist_most(const struct tp_hist *h, uint64_t most)
{
	unsigned int b;

	for (b = 0; h && b < TSCPROBE_HIST_BUCKETS; b++)
		if (h->b[b].calls > most)
			most = h->b[b].calls;
	return most;
}

/**
 * tp_plot_hist() - a histogram's non-empty buckets as bars
 * @s: the SVG
 * @p: the plot: x log2 cycles, y log10 calls
 * @h: the histogram (NULL: nothing drawn)
 * @fill: the bars' colour
 *
 * A bar spans its bucket's cycles and stands on the x axis; it is at
 * least 1.5 px wide, so that the narrow low buckets stay visible.
 */
void tp_plot_hist(struct tp_svg *s, const struct tp_plot *p,
		  const struct tp_hist *h, const char *fill)
{
	unsigned int b;

	for (b = 0; h && b < TSCPROBE_HIST_BUCKETS; b++) {
		double x0, x1, y;

		if (!h->b[b].calls)
			continue;
		x0 = tp_plot_x(p, (double)tp_hist_bucket_lo(b));
		x1 = tp_plot_x(p, (double)tp_hist_bucket_hi(b) + 1);
		y = tp_plot_y(p, (double)h->b[b].calls + 1);
		tp_svg_rect(s, x0, y, x1 - x0 > 1.5 ? x1 - x0 : 1.5,
			    p->y + p->h - y, fill);
	}
}

static void tp_plot_xticks(struct tp_svg *s, const struct tp_plot *p)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T" };
	int e;

	for (e = (int)ceil(p->xlo); e <= (int)floor(p->xhi); e++) {
		double x = tp_plot_x(p, ldexp(1, e));

		tp_svg_line(s, x, p->y + p->h, x, p->y + p->h + 4, "#333333", 1,
			    false);
		if ((e - (int)ceil(p->xlo)) % 2)
			continue;
		tp_svg_text(s, x, p->y + p->h + 16, "middle", 10, "%.0f%s",
			    ldexp(1, e % 10), suffix[e / 10 < 5 ? e / 10 : 4]);
	}
}

static void tp_plot_yticks(struct tp_svg *s, const struct tp_plot *p)
{
	int e;

	for (e = 0; e <= (int)p->yhi; e++) {
		double y = tp_plot_y(p, pow(10, e));

		tp_svg_line(s, p->x - 4, y, p->x, y, "#333333", 1, false);
		tp_svg_line(s, p->x, y, p->x + p->w, y, "#e5e5e5", 1, false);
		tp_svg_text(s, p->x - 6, y + 4, "end", 10, "1e%d", e);
	}
}

/**
 * tp_plot_axes() - draw a panel's frame, ticks and axis labels
 * @s: the picture
 * @p: the panel
 * @xlabel: the x axis' label
 * @ylabel: the y axis' label
 */
void tp_plot_axes(struct tp_svg *s, const struct tp_plot *p,
		  const char *xlabel, const char *ylabel)
{
	tp_plot_yticks(s, p);
	tp_plot_xticks(s, p);
	tp_svg_line(s, p->x, p->y + p->h, p->x + p->w, p->y + p->h, "#333333", 1,
		    false);
	tp_svg_line(s, p->x, p->y, p->x, p->y + p->h, "#333333", 1, false);
	tp_svg_text(s, p->x + p->w / 2, p->y + p->h + 32, "middle", 11, "%s",
		    xlabel);
	fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n",
		p->x - 44, p->y + p->h / 2, p->x - 44, p->y + p->h / 2, ylabel);
}

/**
 * tp_svg_group() - start a group of elements with a tooltip
 * @s: the picture
 * @fmt: the tooltip (browsers show it over any element of the group)
 *
 * End it with tp_svg_group_end().
 */
void tp_svg_group(struct tp_svg *s, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	fputs("<g><title>", s->f);
	tp_svg_escaped(s->f, text);
	fputs("</title>\n", s->f);
}

void tp_svg_group_end(struct tp_svg *s)
{
	fputs("</g>\n", s->f);
}

/**
 * tp_strip_extent() - make a heat strip wide and deep enough for a row
 * @st: the strip (@ncols and @most grow)
 * @calls: the row's counts per log2 bucket (TP_LOG2_BUCKETS of them)
 * @max: the largest value the row marks, which may lie a column further
 *	than its bucket's mean
 */
void tp_strip_extent(struct tp_strip *st, const uint64_t *calls, double max)
{
	unsigned int k;

	for (k = 0; k < TP_LOG2_BUCKETS; k++) {
		if (calls[k] > st->most)
			st->most = calls[k];
		if (calls[k] && k + 1 > st->ncols)
			st->ncols = k + 1;
	}
	if (max >= 1 && max < 0x1p63) {
		k = (unsigned int)floor(log2(max)) + 2;
		if (k > st->ncols)
			st->ncols = k;
	}
}

/**
 * tp_strip_layout() - the cells' sizes, once every row's extent is known
 * @st: the strip
 * @nrows: its rows (CPUs)
 * @w: the width of its cells together
 *
 * At least 12 columns; rows 3 to 16 pixels high, about 900 in all, so that
 * 256 CPUs fit a screen and 8 do not look like bars.
 */
void tp_strip_layout(struct tp_strip *st, unsigned int nrows, double w)
{
	if (st->ncols < 12)
		st->ncols = 12;
	st->col = w / st->ncols;
	st->row = 900.0 / (nrows ? nrows : 1);
	st->row = st->row > 16 ? 16 : st->row < 3 ? 3 : floor(st->row);
}

/* The x of a value inside the strip: its log2 bucket, linear within. */
double tp_strip_x(const struct tp_strip *st, double v)
{
	double l = v >= 1 ? log2(v) + 1 : v > 0 ? v : 0;

	if (l > st->ncols)
		l = st->ncols;
	return st->x + l * st->col;
}

/**
 * tp_strip_row() - one row: a cell per log2 bucket, two values marked
 * @s: the picture
 * @st: the strip
 * @y: the row's top
 * @calls: its counts per log2 bucket; a cell's colour is the log of its
 *	count against the strip's @most
 * @tail: a high percentile, marked in black
 * @max: the largest value, marked in red
 */
void tp_strip_row(struct tp_svg *s, const struct tp_strip *st, double y,
		  const uint64_t *calls, double tail, double max)
{
	double h = st->row - (st->row > 5), lmost = log10((double)st->most + 1);
	char colour[8];
	unsigned int k;

	for (k = 0; k < st->ncols && k < TP_LOG2_BUCKETS; k++) {
		if (!calls[k])
			continue;
		tp_svg_color(log10((double)calls[k] + 1) / lmost, colour,
			     sizeof(colour));
		tp_svg_rect(s, st->x + k * st->col, y, st->col, h, colour);
	}
	tp_svg_rect(s, tp_strip_x(st, tail) - 1, y, 2, h, "#000000");
	tp_svg_rect(s, tp_strip_x(st, max) - 1.5, y, 3, h, "#d62728");
}

/*
 * Row @i's CPU number left of the strip; when rows are too thin for a
 * label each, every second, fourth... row is labelled.
 */
void tp_strip_cpu_label(struct tp_svg *s, const struct tp_strip *st,
			unsigned int i, unsigned int cpu)
{
	unsigned int step = 1;

	while (step * st->row < 12)
		step *= 2;
	if (i % step == 0)
		tp_svg_text(s, st->x - 4, st->y + i * st->row + st->row / 2 + 4,
			    "end", 10, "%u", cpu);
}

/**
 * tp_strip_xlabels() - the cycles under the strip's columns
 * @s: the picture
 * @st: the strip
 * @y: the labels' baseline
 *
 * "0" under column 0, then the value where a column starts (1, 16, 256,
 * 4K...), every few columns so that the labels do not touch.
 */
void tp_strip_xlabels(struct tp_svg *s, const struct tp_strip *st, double y)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T", "P", "E" };
	unsigned int k, step = 1;

	while (step * st->col < 34)
		step *= 2;
	tp_svg_text(s, st->x + st->col / 2, y, "middle", 10, "0");
	/* 1 would crowd the 0 when columns are narrow: start at 2^step */
	for (k = step > 1 ? step + 1 : 1; k < st->ncols; k += step) {
		unsigned int e = k - 1;

		tp_svg_line(s, st->x + k * st->col, y - 14, st->x + k * st->col,
			    y - 10, "#333333", 1, false);
		tp_svg_text(s, st->x + k * st->col, y, "middle", 10, "%.0f%s",
			    ldexp(1, (int)(e % 10)), suffix[e / 10]);
	}
}

/**
 * tp_strip_legend() - the colour scale: 1 to @most, log10
 * @s: the picture
 * @x: its left edge
 * @y: its top
 * @most: the count at its top
 * @unit: what is counted ("gaps", "rounds")
 */
void tp_strip_legend(struct tp_svg *s, double x, double y, uint64_t most,
		     const char *unit)
{
	char colour[8];
	unsigned int k;

	for (k = 0; k < 50; k++) {
		tp_svg_color(k / 49.0, colour, sizeof(colour));
		tp_svg_rect(s, x + k * 4, y, 4.5, 10, colour);
	}
	tp_svg_text(s, x, y + 24, "start", 10, "1");
	tp_svg_text(s, x + 200, y + 24, "end", 10, "%llu %s",
		    (unsigned long long)most, unit);
}
