/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Self-contained SVG pictures: no scripts, no external fonts or images, so
 * that the file opens in any browser and can be attached to a ticket.
 */
#ifndef TSCPROBE_USER_SVG_H
#define TSCPROBE_USER_SVG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/**
 * struct tp_svg - a picture being written
 * @f: the file
 * @w: width
 * @h: height
 */
struct tp_svg {
	FILE *f;
	double w;
	double h;
};

/**
 * struct tp_plot - a panel with logarithmic axes
 * @x: left edge of the plotting area
 * @y: top edge
 * @w: width
 * @h: height
 * @xlo: log2 of the smallest x value shown
 * @xhi: log2 of the largest
 * @yhi: log10 of the largest y value shown (the smallest is 1)
 */
struct tp_plot {
	double x, y, w, h;
	double xlo, xhi;
	double yhi;
};

/**
 * struct tp_strip - a heat strip: a row per CPU, a column per log2 bucket
 *	of cycles (the log2 table's: column k holds [2^(k-1), 2^k - 1], 0
 *	holds 0)
 * @x: left edge of the cells
 * @y: top edge
 * @col: a column's width
 * @row: a row's height
 * @ncols: log2 buckets shown, from 0
 * @most: the largest count of a cell, the top of the colour scale
 */
struct tp_strip {
	double x, y, col, row;
	unsigned int ncols;
	uint64_t most;
};

int tp_svg_open(struct tp_svg *s, const char *path, double w, double h,
		const char *title);
int tp_svg_close(struct tp_svg *s, const char *path);
void tp_svg_text(struct tp_svg *s, double x, double y, const char *anchor,
		 double size, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void tp_svg_text_fill(struct tp_svg *s, double x, double y,
		      const char *anchor, double size, const char *fill,
		      const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
void tp_svg_line(struct tp_svg *s, double x1, double y1, double x2, double y2,
		 const char *stroke, double width, bool dashed);
void tp_svg_rect(struct tp_svg *s, double x, double y, double w, double h,
		 const char *fill);
void tp_svg_color(double v, char *buf, size_t len);
void tp_svg_color_diverging(double v, char *buf, size_t len);
void tp_plot_axes(struct tp_svg *s, const struct tp_plot *p,
		  const char *xlabel, const char *ylabel);
double tp_plot_x(const struct tp_plot *p, double v);
double tp_plot_y(const struct tp_plot *p, double v);
struct tp_hist;
uint64_t tp_hist_most(const struct tp_hist *h, uint64_t most);
void tp_plot_hist(struct tp_svg *s, const struct tp_plot *p,
		  const struct tp_hist *h, const char *fill);

void tp_svg_group(struct tp_svg *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void tp_svg_group_end(struct tp_svg *s);
void tp_strip_extent(struct tp_strip *st, const uint64_t *calls, double max);
void tp_strip_layout(struct tp_strip *st, unsigned int nrows, double w);
double tp_strip_x(const struct tp_strip *st, double v);
void tp_strip_row(struct tp_svg *s, const struct tp_strip *st, double y,
		  const uint64_t *calls, double tail, double max);
void tp_strip_cpu_label(struct tp_svg *s, const struct tp_strip *st,
			unsigned int i, unsigned int cpu);
void tp_strip_xlabels(struct tp_svg *s, const struct tp_strip *st,
		      double y);
void tp_strip_legend(struct tp_svg *s, double x, double y, uint64_t most,
		     const char *unit);

#endif /* TSCPROBE_USER_SVG_H */
