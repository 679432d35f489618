// SPDX-License-Identifier: GPL-2.0
/*
 * The output formats every report shares: the options that choose them,
 * and times written for humans.  The switch from a result to its report
 * is render.c's, above the model and its renderers.
 */
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/format.h"
#include "user/lib/parse.h"
#include "core/report.h"

/**
 * tp_output_option() - take a format option from getopt_long()
 * @o: the output choice, updated
 * @c: what getopt_long() returned
 * @arg: its optarg
 * @cmd: the subcommand, for errors
 * @ret: set to TP_EXIT_USAGE when two stdout formats are asked for, or
 *	an SVG file that cannot be written (checked now, before any run)
 *
 * Return: true when @c was a format option.
 */
int tp_output_option(struct tp_output *o, int c, const char *arg,
		     const char *cmd, int *ret)
{
	enum tp_format want;
	int err;

	switch (c) {
	case 'j':
		want = TP_FMT_JSON;
		break;
	case TP_OPT_CSV:
		want = TP_FMT_CSV;
		break;
	case TP_OPT_PROM:
		want = TP_FMT_PROM;
		break;
	case TP_OPT_SVG:
		o->svg = arg;
		err = tp_check_creatable(arg);
		*ret = err ? tp_usage_err(cmd, "--svg '%s': %s", arg,
					  strerror(err)) : TP_EXIT_OK;
		return 1;
	case 'v':
		o->verbose = true;
		*ret = TP_EXIT_OK;
		return 1;
	default:
		return 0;
	}
	*ret = TP_EXIT_OK;
	if (o->fmt != TP_FMT_TEXT && o->fmt != want)
		*ret = tp_usage_err(cmd, "give one of -j, --csv and --prom");
	o->fmt = want;
	return 1;
}

/**
 * tp_format_ns() - a duration for humans: "850ns", "12.5us", "1.20s"
 * @ns: nanoseconds
 * @buf: the output
 * @len: its size
 */
void tp_format_ns(uint64_t ns, char *buf, size_t len)
{
	if (ns < 1000)
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.1fus", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.1fms", ns / 1e6);
	else
		snprintf(buf, len, "%.2fs", ns / 1e9);
}

/**
 * tp_format_cycles() - a TSC interval for humans, as tp_format_ns() writes
 *	its duration at @tsc_khz, or "N cycles" where the rate is unknown
 * @cycles: TSC cycles
 * @tsc_khz: the TSC's frequency (0: unknown)
 * @buf: the output
 * @len: its size
 */
void tp_format_cycles(uint64_t cycles, uint32_t tsc_khz, char *buf, size_t len)
{
	if (!tsc_khz)
		snprintf(buf, len, "%llu cycles", (unsigned long long)cycles);
	else
		tp_format_ns(tp_cycles_to_ns_round(cycles, tsc_khz), buf, len);
}

/**
 * tp_format_ns_exact() - a time as the command line takes it: in the
 *	largest unit that shows it exactly in at most three decimals
 * @ns: nanoseconds
 * @buf: "20us", "1.5ms", "1234.5us", "750ns", "1h"
 * @len: its size
 */
void tp_format_ns_exact(uint64_t ns, char *buf, size_t len)
{
	static const struct { const char *unit; uint64_t ns; } u[] = {
		{ "h", 3600000000000ULL }, { "m", 60000000000ULL },
		{ "s", 1000000000ULL }, { "ms", 1000000 }, { "us", 1000 },
	};
	unsigned int i;
	char frac[8];
	int n;

	for (i = 0; i < TP_ARRAY_SIZE(u); i++) {
		if (ns < u[i].ns || ns % (u[i].ns / 1000))
			continue;
		n = snprintf(frac, sizeof(frac), ".%03llu",
			     (unsigned long long)(ns % u[i].ns / (u[i].ns / 1000)));
		while (n > 0 && (frac[n - 1] == '0' || frac[n - 1] == '.'))
			frac[--n] = '\0';
		snprintf(buf, len, "%llu%s%s",
			 (unsigned long long)(ns / u[i].ns), frac, u[i].unit);
		return;
	}
	snprintf(buf, len, "%lluns", (unsigned long long)ns);
}
