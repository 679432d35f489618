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

/**
 * tp_cycles_to_ns_round() - TSC cycles to nanoseconds, rounded to nearest
 * @cycles: TSC cycles
 * @tsc_khz: the TSC rate in kHz
 *
 * Split so that nothing overflows and no 128-bit division is needed: the
 * quotient part is exact, the remainder part is below 2^52 before dividing.
 *
 * Return: nanoseconds; 0 when @tsc_khz is 0.
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

/**
 * tp_per10k() - @part of @whole in hundredths of a percent, rounded
 * @part: the part
 * @whole: the whole (0 gives 0)
 *
 * Exact for @part below 1.8e15; larger values are scaled down first, which
 * costs nothing visible at two decimals.
 *
 * Return: 0..10000 when @part <= @whole.
 */
uint64_t tp_per10k(uint64_t part, uint64_t whole)
{
	while (part > 1800000000000000ULL) {
		part >>= 1;
		whole >>= 1;
	}
	return whole ? (part * 10000 + whole / 2) / whole : 0;
}

/**
 * tp_log2_row() - one row of the log2 noise table
 * @buf: where to write (NUL-terminated, no newline)
 * @len: size of @buf
 * @k: log2 bucket: values in [tp_log2_lo(k), tp_log2_hi(k)]
 * @calls: gaps in the bucket
 * @cycles: their sum
 * @all_calls: gaps in the whole table
 * @all_cycles: their sum
 * @tsc_khz: the TSC rate, for the ns columns
 *
 * Return: what snprintf() returns.
 */
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

/**
 * tp_skew_header() - a line of the skew table's header
 * @line: 0, 1 or 2
 *
 * Return: the line (no newline), or NULL past the last one.
 */
const char *tp_skew_header(unsigned int line)
{
	return line < TP_ARRAY_SIZE(tp_skew_head) ? tp_skew_head[line] : NULL;
}

/**
 * tp_skew_row() - one "i <-> j" row of the skew table
 * @buf: where to write (NUL-terminated, no newline)
 * @len: size of @buf
 * @from: CPU i
 * @to: CPU j
 * @status: enum tscprobe_pair_status; a pair that is not OK has no numbers
 * @st: the pair's statistics (only read when @status is OK)
 *
 * The columns are the original skew program's: min/avg/max/sd of latij, of
 * latji and of the skew, then nr.  The skew's figures are halves of integers
 * and are rounded, halves away from zero (the original truncated min and max).
 *
 * Return: what snprintf() returns.
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

/**
 * tp_skew_outliers_line() - the line under the skew table
 * @buf: where to write (NUL-terminated, no newline)
 * @len: size of @buf
 * @kept: samples used, over the OK pairs
 * @dropped: samples dropped as outliers (tp_skew_analyze())
 * @unsound: OK pairs whose estimate is not sound (tp_skew_sound())
 *
 * Return: what snprintf() returns.
 */
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

/**
 * tp_cache_avg_line_series() - which series an Average line gives
 * @line: 0 .. TP_CACHE_AVG_LINES - 1
 *
 * The original cache-timing program prints the overhead first, then the
 * uncached load, then the cached one; the module's debugfs file and the CLI's
 * text report keep that order, from here.
 *
 * Return: a TSCPROBE_SERIES_* value.
 */
unsigned int tp_cache_avg_line_series(unsigned int line)
{
	static const unsigned int order[TP_CACHE_AVG_LINES] = {
		TSCPROBE_SERIES_OVERHEAD, TSCPROBE_SERIES_UNCACHED,
		TSCPROBE_SERIES_CACHED,
	};

	return order[line < TP_CACHE_AVG_LINES ? line : 0];
}

/**
 * tp_cache_avg_line() - a cache series' Average line
 * @buf: where to write (NUL-terminated, no newline)
 * @len: size of @buf
 * @series: TSCPROBE_SERIES_OVERHEAD, _UNCACHED or _CACHED
 * @s: the series' statistics (gross cycles)
 * @overhead: the overhead series' statistics
 *
 * "Average measurement overhead: N cycles", "Average uncached memory access: N
 * cycles", "Average cached memory access: N cycles".  As in the original
 * cache-timing program, the loads are net of the overhead's average: both
 * means are rounded to whole cycles and subtracted, so N may be negative where
 * the overhead varies more than a cached load costs.
 *
 * Return: what snprintf() returns.
 */
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
