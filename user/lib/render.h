/* SPDX-License-Identifier: GPL-2.0 */
/* From a result to its report, in the format asked for (render.c). */
#ifndef TSCPROBE_USER_RENDER_H
#define TSCPROBE_USER_RENDER_H

#include <stdio.h>

struct tp_judgement;
struct tp_limit;
struct tp_model;
struct tp_output;
struct tp_result;

/**
 * struct tp_report_kind - what a measurement gives its reports
 * @figure: its figure for a limit (verdict.h's tp_figure_fn)
 * @build: builds its report's model (model.h)
 */
struct tp_report_kind {
	void (*figure)(const struct tp_result *r, const struct tp_limit *l,
		       unsigned int i, struct tp_judgement *j);
	void (*build)(struct tp_model *m);
};

int tp_report(const struct tp_result *r, const struct tp_output *o, FILE *f,
	      const struct tp_report_kind *kind);

#endif /* TSCPROBE_USER_RENDER_H */
