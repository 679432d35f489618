// SPDX-License-Identifier: GPL-2.0
/*
 * Report rows.  snprintf() is the one library function core/ uses: the
 * kernel and libc both provide it with the same meaning.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#else
#include <stdio.h>
#endif

#include <linux/tscprobe.h>
#include "report.h"
#include "hist.h"
#include "names.h"
#include "skew.h"

/*
 * Rounded; 0 when @tsc_khz is 0.  Split so that nothing overflows and no
 * 128-bit division is needed: the remainder part stays below 2^52.
 */
uint64_t tp_cycles_to_ns_round(uint64_t cycles, uint32_t tsc_khz)
{
	uint64_t q, r;

	if (!tsc_khz)
		return 0;
	q = cycles / tsc_khz;
	r = cycles % tsc_khz;
	return q * 1000000 + (r * 1000000 + tsc_khz / 2) / tsc_khz;
}

/*
 * Hundredths of a percent, rounded; @whole 0 gives 0.  Exact for @part
 * below 1.8e15; larger ones are scaled down, invisible at two decimals.
 */
uint64_t tp_per10k(uint64_t part, uint64_t whole)
{
	while (part > 1800000000000000ULL) {
		part >>= 1;
		whole >>= 1;
	}
	return whole ? (part * 10000 + whole / 2) / whole : 0;
}

/* Rows of the text tables are written without a newline. */
int tp_log2_row(char *buf, size_t len, unsigned int k, uint64_t calls,
		uint64_t cycles, uint64_t all_calls, uint64_t all_cycles,
		uint32_t tsc_khz)
{
	uint64_t avg = calls ? (cycles + calls / 2) / calls : 0;
	uint64_t fc = tp_per10k(calls, all_calls);
	uint64_t fy = tp_per10k(cycles, all_cycles);

	return snprintf(buf, len,
			"cycles=[%8llu..%8llu] ns=[%8llu..%8llu] cycles_avg=%8llu ns_avg=%8llu, calls=%llu, focus_calls=%llu.%02llu%%, cycles=%llu, focus_cycles=%llu.%02llu%%",
			(unsigned long long)tp_log2_lo(k),
			(unsigned long long)tp_log2_hi(k),
			(unsigned long long)tp_cycles_to_ns_round(tp_log2_lo(k), tsc_khz),
			(unsigned long long)tp_cycles_to_ns_round(tp_log2_hi(k), tsc_khz),
			(unsigned long long)avg,
			(unsigned long long)tp_cycles_to_ns_round(avg, tsc_khz),
			(unsigned long long)calls,
			(unsigned long long)(fc / 100), (unsigned long long)(fc % 100),
			(unsigned long long)cycles,
			(unsigned long long)(fy / 100), (unsigned long long)(fy % 100));
}

/* The skew table's head: a title, the column names and a rule. */
static const char *const tp_skew_head[] = {
	"(min/avg/max/sd, TSC cycles)",
	"| CPUs    | latij          | latji          | skew            | nr     |",
	"|---------+----------------+----------------+-----------------+--------|",
};

/* NULL past the last line. */
const char *tp_skew_header(unsigned int line)
{
	return line < TP_ARRAY_SIZE(tp_skew_head) ? tp_skew_head[line] : NULL;
}

/*
 * The original skew program's columns; @st is read only for an OK pair.
 * The skew's halves are rounded away from zero.
 */
int tp_skew_row(char *buf, size_t len, unsigned int from, unsigned int to,
		unsigned int status, const struct tp_skew_stats *st)
{
	if (status != TSCPROBE_PAIR_OK)
		return snprintf(buf, len, "%2u <-> %2u %s", from, to,
				tp_pair_status_name(status));
	return snprintf(buf, len,
			"%2u <-> %2u %3lld/%3lld/%3lld/%2llu %3lld/%3lld/%3lld/%2llu %4lld/%3lld/%3lld/%2llu %6u",
			from, to,
			(long long)st->latij.min,
			(long long)tp_sstats_mean_div(&st->latij, 1),
			(long long)st->latij.max,
			(unsigned long long)tp_sstats_sd_div(&st->latij, 1),
			(long long)st->latji.min,
			(long long)tp_sstats_mean_div(&st->latji, 1),
			(long long)st->latji.max,
			(unsigned long long)tp_sstats_sd_div(&st->latji, 1),
			(long long)tp_sdiv_round(st->skew2.min, 2),
			(long long)tp_sstats_mean_div(&st->skew2, 2),
			(long long)tp_sdiv_round(st->skew2.max, 2),
			(unsigned long long)tp_sstats_sd_div(&st->skew2, 2),
			st->nr);
}

int tp_skew_outliers_line(char *buf, size_t len, uint64_t kept,
			  uint64_t dropped, unsigned int unsound)
{
	return snprintf(buf, len,
			"outliers: %llu of %llu samples dropped (round trip over %ux the shortest + %u cycles or %ux the median); %u pair%s with more dropped than kept: not judged, no TSC offset",
			(unsigned long long)dropped,
			(unsigned long long)(kept + dropped),
			TP_SKEW_PREEMPT_FACTOR, TP_SKEW_PREEMPT_SLACK,
			TP_SKEW_MEDIAN_FACTOR, unsound, unsound == 1 ? "" : "s");
}

/* The original cache-timing program's order. */
unsigned int tp_cache_avg_line_series(unsigned int line)
{
	static const unsigned int order[TP_CACHE_AVG_LINES] = {
		TSCPROBE_SERIES_OVERHEAD, TSCPROBE_SERIES_UNCACHED,
		TSCPROBE_SERIES_CACHED,
	};

	return order[line < TP_CACHE_AVG_LINES ? line : 0];
}

/* As the original: mean minus the overhead's mean, so it may be negative. */
int tp_cache_avg_line(char *buf, size_t len, unsigned int series,
		      const struct tp_stats *s,
		      const struct tp_stats *overhead)
{
	int64_t ov = (int64_t)tp_stats_mean(overhead);

	if (series == TSCPROBE_SERIES_OVERHEAD)
		return snprintf(buf, len, "Average measurement overhead: %lld cycles",
				(long long)ov);
	return snprintf(buf, len, "Average %s memory access: %lld cycles",
			series == TSCPROBE_SERIES_CACHED ? "cached" : "uncached",
			(long long)((int64_t)tp_stats_mean(s) - ov));
}
