/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reports: every measurement's results as text for people and as JSON for
 * scripts, written from a struct tp_result whichever engine measured it.
 */
#ifndef TSCPROBE_USER_OUTPUT_H
#define TSCPROBE_USER_OUTPUT_H

#include <stdio.h>

#include "format.h"
#include "result.h"

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
void tp_noise_report(const struct tp_result *r, bool json, FILE *f);
int tp_noise_output(const struct tp_result *r, const struct tp_output *o,
		    FILE *f);
void tp_noise_progress_line(char *buf, size_t len, const char *engine,
			    uint64_t elapsed_ns, uint64_t total_ns,
			    unsigned int ncpus, uint64_t worst,
			    uint32_t tsc_khz);

/**
 * struct tp_skew_verdict - the skew report's last line
 * @ok: pairs with numbers
 * @out: of those, pairs not in sync (tp_skew_in_sync())
 * @max_abs: the largest |avg skew|, cycles
 * @worst: the pair it belongs to (NULL when @ok is 0)
 */
struct tp_skew_verdict {
	unsigned int ok;
	unsigned int out;
	double max_abs;
	const struct tp_pair_res *worst;
};

void tp_skew_verdict(const struct tp_result *r, struct tp_skew_verdict *v);
int tp_skew_output(const struct tp_result *r, const struct tp_output *o,
		   FILE *f);
void tp_skew_report(const struct tp_result *r, bool json, FILE *f);

#endif /* TSCPROBE_USER_OUTPUT_H */
