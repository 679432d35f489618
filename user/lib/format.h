/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output formats shared by every measurement: the command-line options
 * that choose them and times written for humans (the switch from a
 * result to its report: render.h).
 */
#ifndef TSCPROBE_USER_FORMAT_H
#define TSCPROBE_USER_FORMAT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/** enum tp_format - what a report prints on standard output */
enum tp_format {
	TP_FMT_TEXT,
	TP_FMT_JSON,
	TP_FMT_CSV,
	TP_FMT_PROM,
};

struct tp_limits;

/**
 * struct tp_output - how to report
 * @fmt: the standard-output format
 * @svg: also write an SVG picture to this file (NULL: no)
 * @verbose: -v: text reports print every CPU's full block before the
 *	table of one row per CPU (and skew its pairs table and matrices)
 * @limits: judge the result against these and report the verdict (NULL:
 *	no verdict, and the reports are as without limits)
 */
struct tp_output {
	enum tp_format fmt;
	const char *svg;
	bool verbose;
	const struct tp_limits *limits;
};

/* getopt values of the format options, above every command's own. */
enum { TP_OPT_CSV = 1000, TP_OPT_PROM, TP_OPT_SVG };

/* The format options, for a command's getopt_long table ("-j" is 'j'). */
#define TP_OUTPUT_OPTIONS						\
	{ "json", no_argument, NULL, 'j' },				\
	{ "csv", no_argument, NULL, TP_OPT_CSV },			\
	{ "prom", no_argument, NULL, TP_OPT_PROM },			\
	{ "svg", required_argument, NULL, TP_OPT_SVG },			\
	{ "verbose", no_argument, NULL, 'v' }

int tp_output_option(struct tp_output *o, int c, const char *arg,
		     const char *cmd, int *ret);

void tp_format_ns(uint64_t ns, char *buf, size_t len);
void tp_format_cycles(uint64_t cycles, uint32_t tsc_khz, char *buf, size_t len);
void tp_format_ns_exact(uint64_t ns, char *buf, size_t len);

#endif /* TSCPROBE_USER_FORMAT_H */
