// SPDX-License-Identifier: GPL-2.0
/*
 * The one switch from a result to its report in the format asked for:
 * judged against its limits, its model built once, then one renderer
 * (render_*.c).  It sits above the model, which uses format.c's times.
 */
#include "core/report.h"
#include "user/lib/format.h"
#include "user/lib/model.h"
#include "user/lib/render.h"
#include "user/lib/verdict.h"

/**
 * tp_report() - a result's report, as asked
 * @r: the result
 * @o: the format, the SVG file if any, and the limits if any
 * @f: standard output's stream
 * @kind: the measurement's model and figures
 *
 * The result is judged against the limits, its model built once and
 * rendered in the format asked for.
 *
 * Return: TP_EXIT_OK, TP_EXIT_FAIL when the SVG cannot be written, or
 * TP_EXIT_OVER_LIMIT when the result fails its limits.
 */
int tp_report(const struct tp_result *r, const struct tp_output *o, FILE *f,
	      const struct tp_report_kind *kind)
{
	struct tp_model *m;
	struct tp_verdict v;
	int ret = tp_verdict_judge(&v, r, o->limits, kind->figure);

	if (ret)
		return ret;
	m = tp_model_new(r, o, &v);
	kind->build(m);
	switch (o->fmt) {
	case TP_FMT_JSON:
		tp_render_json(m, f);
		break;
	case TP_FMT_CSV:
		tp_render_csv(m, f);
		break;
	case TP_FMT_PROM:
		tp_render_prom(m, f);
		break;
	default:
		tp_render_text(m, f);
	}
	ret = o->svg ? tp_render_svg(m, o->svg) : TP_EXIT_OK;
	tp_model_free(m);
	ret = tp_verdict_exit(&v, ret);
	tp_verdict_free(&v);
	return ret;
}
