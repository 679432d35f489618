/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command-line machinery every subcommand shares: the getopt_long()
 * loop with -h, the check that nothing follows the options, and -c.
 */
#ifndef TSCPROBE_USER_OPTIONS_H
#define TSCPROBE_USER_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

#include "user/lib/cli.h"
#include "user/lib/cpuset.h"
#include "user/lib/format.h"
#include "user/lib/hold.h"
#include "user/lib/limits.h"

/*
 * A command's handler of one option: @c as getopt_long() returned it
 * (optarg set), @ctx the command's parsed state.  Returns an enum tp_exit.
 */
typedef int (*tp_option_fn)(void *ctx, int c, char **argv);

int tp_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *opts, const char *usage,
	      tp_option_fn option, void *ctx);
int tp_no_more_args(const char *cmd, int argc, char **argv);
int tp_simple_opts(const char *cmd, const char *usage, int argc, char **argv,
		   bool *json);

/**
 * struct tp_measure_opts - the options every measuring command takes
 * @cpus: -c, the CPUs
 * @cpus_given: -c was given (else: every online CPU)
 * @user: --user, the userspace engine instead of the module
 * @priority: --priority, the userspace engine's SCHED_FIFO priority (0:
 *	none given)
 * @quiet: -q, no progress line
 * @out: the output format options (@out.limits: @limits once settled)
 * @lim: --fail-above and --limits as given
 * @limits: the limits they make, by tp_output_limits()
 * @hold: --dma-latency and --deepest-idle-state
 */
struct tp_measure_opts {
	struct tp_cpuset cpus;
	bool cpus_given;
	bool user;
	uint32_t priority;
	bool quiet;
	struct tp_output out;
	struct tp_limit_opts lim;
	struct tp_limits limits;
	struct tp_hold_opts hold;
};

/* getopt values of --user and --priority, above every command's own. */
enum { TP_OPT_USER = 1100, TP_OPT_PRIORITY };

/* The rest of a measuring command's getopt_long() table, its end too. */
#define TP_MEASURE_OPTIONS						\
	{ "cpus", required_argument, NULL, 'c' },			\
	{ "user", no_argument, NULL, TP_OPT_USER },			\
	{ "priority", required_argument, NULL, TP_OPT_PRIORITY },	\
	TP_OUTPUT_OPTIONS,						\
	TP_LIMIT_OPTIONS,						\
	TP_HOLD_OPTIONS,						\
	{ "quiet", no_argument, NULL, 'q' },				\
	{ "help", no_argument, NULL, 'h' },				\
	{ NULL, 0, NULL, 0 }

bool tp_measure_option(struct tp_measure_opts *m, const char *cmd, int c,
		       int *ret);
int tp_output_limits(struct tp_output *out, const struct tp_limit_opts *o,
		     const char *cmd, uint32_t kind, struct tp_limits *limits);

#endif /* TSCPROBE_USER_OPTIONS_H */
