/* SPDX-License-Identifier: GPL-2.0 */
/* Text rows shared by the debugfs views and the CLI, so both print alike. */
#ifndef TSCPROBE_CORE_REPORT_H
#define TSCPROBE_CORE_REPORT_H

#include "host.h"
#include "stats.h"

struct tp_skew_stats;

uint64_t tp_cycles_to_ns_round(uint64_t cycles, uint32_t tsc_khz);
uint64_t tp_per10k(uint64_t part, uint64_t whole);
int tp_log2_row(char *buf, size_t len, unsigned int k, uint64_t calls,
		uint64_t cycles, uint64_t all_calls, uint64_t all_cycles,
		uint32_t tsc_khz);
const char *tp_skew_header(unsigned int line);
int tp_skew_row(char *buf, size_t len, unsigned int from, unsigned int to,
		unsigned int status, const struct tp_skew_stats *st);
int tp_skew_outliers_line(char *buf, size_t len, uint64_t kept,
			  uint64_t dropped, unsigned int unsound);
/* The Average lines of the cache report: overhead, uncached, cached. */
#define TP_CACHE_AVG_LINES	3
unsigned int tp_cache_avg_line_series(unsigned int line);

/* Below the overhead's median a load counts 0, never negative. */
static inline uint64_t tp_net_cycles(uint64_t gross, uint64_t overhead)
{
	return gross > overhead ? gross - overhead : 0;
}

int tp_cache_avg_line(char *buf, size_t len, unsigned int series,
		      const struct tp_stats *s,
		      const struct tp_stats *overhead);

#endif /* TSCPROBE_CORE_REPORT_H */
