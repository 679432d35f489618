/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Limits a measurement is judged against (--fail-above, --limits FILE):
 * what a limit names, how it is written, and the file a lab keeps them in.
 * Judging a result against them is verdict.h's.
 */
#ifndef TSCPROBE_USER_LIMITS_H
#define TSCPROBE_USER_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * At most this many limits at once: there are 13 different ones (noise 5,
 * cache 6, skew 2), and one of them given twice is refused or replaced.
 */
#define TP_LIMITS_MAX	16

/** enum tp_limit_stat - the figure a limit holds down */
enum tp_limit_stat {
	TP_LIMIT_MAX,
	TP_LIMIT_P50,
	TP_LIMIT_P99,
	TP_LIMIT_P999,
	TP_LIMIT_P9999,
	TP_LIMIT_SYNC,		/* skew: every pair in sync; no value */
};

/** enum tp_limit_series - cache: the load a limit is on (else ANY) */
enum tp_limit_series {
	TP_LIMIT_ANY,
	TP_LIMIT_CACHED,
	TP_LIMIT_UNCACHED,
};

/**
 * struct tp_limit - one limit
 * @kind: the measurement, enum tscprobe_kind
 * @series: enum tp_limit_series
 * @stat: enum tp_limit_stat
 * @cycles: @value is in TSC cycles, else in nanoseconds
 * @value: the largest figure that passes (0 for TP_LIMIT_SYNC)
 * @file: the limits file it came from (NULL: the command line); the
 *	option's value, which lives as long as the program
 * @line: its line there
 */
struct tp_limit {
	uint32_t kind;
	uint32_t series;
	uint32_t stat;
	bool cycles;
	uint64_t value;
	const char *file;
	unsigned int line;
};

/**
 * struct tp_limits - the limits of one measurement
 * @n: entries in @l
 * @l: the limits, file first, in the order given
 */
struct tp_limits {
	unsigned int n;
	struct tp_limit l[TP_LIMITS_MAX];
};

/**
 * struct tp_limit_opts - the limit options as given, parsed once the
 *	measurement is known (show learns it after its options)
 * @file: --limits FILE (NULL: none)
 * @nargs: entries in @args
 * @args: every --fail-above, in order
 */
struct tp_limit_opts {
	const char *file;
	unsigned int nargs;
	const char *args[TP_LIMITS_MAX];
};

/* getopt values of the limit options, above every command's own. */
enum { TP_OPT_FAIL_ABOVE = 1200, TP_OPT_LIMITS };

/* The limit options, for a command's getopt_long table. */
#define TP_LIMIT_OPTIONS						\
	{ "fail-above", required_argument, NULL, TP_OPT_FAIL_ABOVE },	\
	{ "limits", required_argument, NULL, TP_OPT_LIMITS }

/*
 * The rules of limits, one text in the help of every command that takes
 * them; a command's --fail-above line names its own figures.
 */
#define TP_LIMIT_HELP							\
	"Limits: --fail-above [NAME:]VALUE (repeatable) or a line of --limits FILE,\n" \
	"'MEASUREMENT NAME VALUE'; VALUE a time with its unit (20us) or TSC cycles\n" \
	"(5000c).  At the limit passes; above it fails: exit 7 after the report.\n" \
	"Every NAME, and the file: man tscprobe.\n"

int tp_limit_parse(uint32_t kind, const char *s, struct tp_limit *l,
		   const char **why);
bool tp_limit_same(const struct tp_limit *a, const struct tp_limit *b);
void tp_limit_name(const struct tp_limit *l, char *buf, size_t len);
void tp_limit_text(const struct tp_limit *l, char *buf, size_t len);
void tp_limit_source(const struct tp_limit *l, char *buf, size_t len);
int tp_limits_read(const char *path, struct tp_limits *all, char *err,
		   size_t len);
int tp_limit_option(struct tp_limit_opts *o, const char *cmd, int c,
		    const char *arg, int *ret);
int tp_limits_settle(const struct tp_limit_opts *o, const char *cmd,
		     uint32_t kind, struct tp_limits *out);

#endif /* TSCPROBE_USER_LIMITS_H */
