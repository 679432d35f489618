/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result judged against its limits: per limit and per CPU (per pair for
 * skew) pass, over (and by how much) or not judged, and overall pass or
 * fail; written into every report that has a verdict (text, JSON, CSV)
 * and turned into the exit code.  Each measurement's report says which
 * figure a limit names (its tp_figure_fn); the rule is here, once.
 */
#ifndef TSCPROBE_USER_VERDICT_H
#define TSCPROBE_USER_VERDICT_H

#include <stdbool.h>
#include <stdio.h>

#include "user/lib/format.h"
#include "user/lib/limits.h"
#include "user/lib/result.h"


/** enum tp_judged - one CPU's (pair's) standing against one limit */
enum tp_judged {
	TP_JUDGED_PASS,		/* the figure is at or below the limit */
	TP_JUDGED_OVER,		/* above it, or (sync) not in sync */
	TP_JUDGED_NONE,		/* no figure: fails the verdict too */
};

/**
 * struct tp_judgement - one CPU (pair) against one limit
 * @how: enum tp_judged
 * @figure: the figure, in the limit's unit (NaN when not judged)
 * @limit: what it was held to, in the same unit (sync: that pair's bound)
 * @excess: @figure - @limit, above 0, when over by a known amount; else NaN
 * @why: not judged, or over without an excess: the reason
 */
struct tp_judgement {
	enum tp_judged how;
	double figure;
	double limit;
	double excess;
	const char *why;
};

/*
 * A measurement's figure for limit @l on entry @i of @r (a CPU, or a pair
 * for skew), judged into @j with tp_judge() or tp_judge_none().
 */
typedef void (*tp_figure_fn)(const struct tp_result *r,
			     const struct tp_limit *l, unsigned int i,
			     struct tp_judgement *j);

/**
 * struct tp_verdict - a result against its limits
 * @limits: the limits (NULL: none given, no verdict)
 * @entries: CPUs (pairs) judged: the result's
 * @j: @limits->n rows of @entries judgements
 * @pass: every judgement passed
 */
struct tp_verdict {
	const struct tp_limits *limits;
	unsigned int entries;
	struct tp_judgement *j;
	bool pass;
};

void tp_judge(struct tp_judgement *j, double figure, double limit);
void tp_judge_none(struct tp_judgement *j, const char *why);
int tp_verdict_judge(struct tp_verdict *v, const struct tp_result *r,
		     const struct tp_limits *limits, tp_figure_fn figure);
void tp_verdict_free(struct tp_verdict *v);
const struct tp_judgement *tp_verdict_at(const struct tp_verdict *v,
					 unsigned int limit,
					 unsigned int entry);
int tp_verdict_exit(const struct tp_verdict *v, int ret);
struct tp_model;
void tp_verdict_keys_model(struct tp_model *m);
void tp_verdict_model(struct tp_model *m);
void tp_verdict_row_model(struct tp_model *m, unsigned int entry);

/* Whether @v has limits, and so a verdict in the reports. */
static inline bool tp_verdict_given(const struct tp_verdict *v)
{
	return v->limits && v->limits->n;
}

#endif /* TSCPROBE_USER_VERDICT_H */
