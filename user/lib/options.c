// SPDX-License-Identifier: GPL-2.0
/*
 * The option loop of every subcommand.  getopt_long() prints nothing
 * (opterr is 0 and the short options start with ':'): every complaint is
 * the command's own one line, from tp_bad_option() or tp_usage_err().
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "user/lib/options.h"
#include "user/lib/parse.h"

/**
 * tp_getopt() - run a command's options through its handler
 * @argc: argument count (argv[0] is the subcommand)
 * @argv: arguments
 * @shortopts: getopt_long()'s short options, starting with ":" or "+:"
 * @opts: its long options
 * @usage: printed on standard output for -h
 * @option: takes every option but -h and what getopt_long() refused
 * @ctx: passed to @option
 *
 * Return: TP_EXIT_OK when every option was taken, -1 after printing the
 * help, else the first error @option returned.
 */
int tp_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *opts, const char *usage,
	      tp_option_fn option, void *ctx)
{
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return -1;
		}
		if (c == '?' || c == ':')
			return tp_bad_long_option(argv[0], c, argv, opts);
		ret = option(ctx, c, argv);
		if (ret)
			return ret;
	}
	return TP_EXIT_OK;
}

/**
 * tp_no_more_args() - refuse what follows a command's options
 * @cmd: the subcommand, for the error
 * @argc: argument count
 * @argv: arguments, optind past what the command took
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE naming the first extra argument.
 */
int tp_no_more_args(const char *cmd, int argc, char **argv)
{
	if (optind != argc)
		return tp_usage_err(cmd, "unexpected argument '%s'",
				    argv[optind]);
	return TP_EXIT_OK;
}

/* What tp_simple_opts() collects. */
struct tp_simple {
	const char *cmd;
	bool allow_json;
	bool json;
};

static int tp_simple_option(void *ctx, int c, char **argv)
{
	struct tp_simple *s = ctx;

	if (c == 'j' && s->allow_json) {
		s->json = true;
		return TP_EXIT_OK;
	}
	/* --json where it is not taken reads as any unknown option. */
	return tp_bad_option(s->cmd, c == 'j' ? '?' : c, argv);
}

/**
 * tp_simple_opts() - the whole command line of a command without options
 *	of its own: -h, -j when @json is not NULL, and no arguments
 * @cmd: the subcommand, for errors
 * @usage: printed for -h
 * @argc: argument count
 * @argv: arguments
 * @json: set when -j was given (NULL: the command has no -j)
 *
 * Return: TP_EXIT_OK, -1 after printing the help, or TP_EXIT_USAGE.
 */
int tp_simple_opts(const char *cmd, const char *usage, int argc, char **argv,
		   bool *json)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tp_simple s = { cmd, json != NULL, false };
	int ret;

	ret = tp_getopt(argc, argv, json ? "+:jh" : "+:h", opts, usage,
			tp_simple_option, &s);
	if (!ret)
		ret = tp_no_more_args(cmd, argc, argv);
	if (json)
		*json = s.json;
	return ret;
}

/* The SCHED_FIFO priorities --priority takes (Linux's, as chrt shows). */
#define TP_PRIORITY_MIN	1
#define TP_PRIORITY_MAX	99

/* --priority N: a SCHED_FIFO priority, as chrt and oslat -f take it. */
static int tp_priority_option(const char *cmd, const char *arg,
			      uint32_t *priority)
{
	const char *why;
	uint64_t v;

	if (tp_parse_u64(arg, TP_PRIORITY_MIN, TP_PRIORITY_MAX, &v, &why))
		return tp_usage_err(cmd, "--priority '%s': %s (a SCHED_FIFO priority)",
				    arg, why);
	*priority = (uint32_t)v;
	return TP_EXIT_OK;
}

/**
 * tp_measure_option() - take an option every measuring command shares
 * @m: the options, updated
 * @cmd: the subcommand, for errors
 * @c: what getopt_long() returned (optarg set)
 * @ret: set to the option's enum tp_exit when it was one of them
 *
 * Return: true when @c was -c, --user, --priority, -q, a format, a limit
 * or a condition to hold.
 */
bool tp_measure_option(struct tp_measure_opts *m, const char *cmd, int c,
		       int *ret)
{
	if (tp_output_option(&m->out, c, optarg, cmd, ret) ||
	    tp_limit_option(&m->lim, cmd, c, optarg, ret) ||
	    tp_hold_option(&m->hold, cmd, c, optarg, ret))
		return true;
	switch (c) {
	case 'c':
		m->cpus_given = true;
		*ret = tp_cpus_option(cmd, optarg, &m->cpus);
		return true;
	case TP_OPT_PRIORITY:
		*ret = tp_priority_option(cmd, optarg, &m->priority);
		return true;
	case TP_OPT_USER:
		m->user = true;
		break;
	case 'q':
		m->quiet = true;
		break;
	default:
		return false;
	}
	*ret = TP_EXIT_OK;
	return true;
}

/**
 * tp_output_limits() - settle a command's limits for its report
 * @out: the report's options; @out->limits set when there are limits
 * @o: the limit options as given
 * @cmd: the subcommand, for errors
 * @kind: the measurement judged
 * @limits: where the limits are kept (as long as @out is used)
 *
 * Called with the rest of the command line's checks, before anything is
 * started: a limit that cannot be judged is refused now.
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE (one line printed).
 */
int tp_output_limits(struct tp_output *out, const struct tp_limit_opts *o,
		     const char *cmd, uint32_t kind, struct tp_limits *limits)
{
	int ret = tp_limits_settle(o, cmd, kind, limits);

	if (!ret && limits->n)
		out->limits = limits;
	return ret;
}
