/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: every measurement's results as text for people and as JSON for
 * scripts, written from a struct tp_result whichever engine measured it.
 */
#ifndef TSCPROBE_USER_REPORTS_H
#define TSCPROBE_USER_REPORTS_H

#include <stdio.h>

#include "user/lib/format.h"
#include "user/lib/render.h"
#include "user/lib/result.h"

struct tp_limit;
struct tp_judgement;

extern const struct tp_report_kind tp_noise_report;
extern const struct tp_report_kind tp_cache_report;
extern const struct tp_report_kind tp_skew_report;

/**
 * struct tp_noise_summary - the figures of one CPU's noise report
 * @samples: gaps measured
 * @coverage: measured / wall time, 0..1
 * @pct: min, p50, p99, p99.9, p99.99, max in cycles
 * @effective_khz: APERF/MPERF clock, 0 when unknown
 */
struct tp_noise_summary {
	uint64_t samples;
	double coverage;
	uint64_t pct[6];
	uint64_t effective_khz;
};

void tp_noise_summarize(const struct tp_result *r, const struct tp_cpu_res *c,
			struct tp_noise_summary *s);
int tp_noise_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f);
void tp_noise_figure(const struct tp_result *r, const struct tp_limit *l,
		     unsigned int i, struct tp_judgement *j);

int tp_skew_output(const struct tp_result *r, const struct tp_output *o,
		   FILE *f);
void tp_skew_figure(const struct tp_result *r, const struct tp_limit *l,
		    unsigned int i, struct tp_judgement *j);

/* min, avg, p50, p99, max, sd */
#define TP_FIGS	6

/**
 * struct tp_cache_summary - the figures of one CPU's cache report
 * @rounds: rounds measured
 * @rounds_per_s: rounds per second inside the windows
 * @overhead_avg: the overhead's mean (see @avg_minus_overhead_avg)
 * @overhead_p50: the overhead's median: every net figure is net of it
 * @gross: per series (TP_CACHE_IDX), cycles as measured
 * @net: the same minus @overhead_p50, a value below it counting 0 (the
 *	overhead itself: gross); avg is the mean of those net values
 * @below: per series, rounds below @overhead_p50, whose net counts 0
 * @avg_minus_overhead_avg: per series, the original cache-timing program's
 *	figure: mean minus the overhead's mean, JSON "seed_avg"
 *	(may be negative: one overhead outlier moves a mean)
 *
 * A standard deviation is the same gross or net.
 */
struct tp_cache_summary {
	uint64_t rounds;
	double rounds_per_s;
	double overhead_avg;
	double overhead_p50;
	double gross[TP_CACHE_SERIES][TP_FIGS];
	double net[TP_CACHE_SERIES][TP_FIGS];
	uint64_t below[TP_CACHE_SERIES];
	double avg_minus_overhead_avg[TP_CACHE_SERIES];
};

void tp_cache_summarize(const struct tp_result *r, const struct tp_cpu_res *c,
			struct tp_cache_summary *s);
int tp_cache_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f);
void tp_cache_figure(const struct tp_result *r, const struct tp_limit *l,
		     unsigned int i, struct tp_judgement *j);

#endif /* TSCPROBE_USER_REPORTS_H */
