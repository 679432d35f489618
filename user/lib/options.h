/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command-line machinery every subcommand shares: the getopt_long()
 * loop with -h, the check that nothing follows the options, and -c.
 */
#ifndef TSCPROBE_USER_OPTIONS_H
#define TSCPROBE_USER_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>

#include "cli.h"

/*
 * A command's handler of one option: @c as getopt_long() returned it
 * (optarg set), @ctx the command's parsed state.  Returns an enum tp_exit.
 */
typedef int (*tp_option_fn)(void *ctx, int c, char **argv);

int tp_getopt(int argc, char **argv, const char *shortopts,
	      const struct option *opts, const char *usage,
	      tp_option_fn option, void *ctx);
int tp_no_more_args(const char *cmd, int argc, char **argv);
int tp_cpus_option(const char *cmd, const char *arg, struct tp_cpuset *cpus);
int tp_simple_opts(const char *cmd, const char *usage, int argc, char **argv,
		   bool *json);

#endif /* TSCPROBE_USER_OPTIONS_H */
