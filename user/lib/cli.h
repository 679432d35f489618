/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's common words: the exit codes scripts rely on, and its one-line
 * error messages (cli.c).
 */
#ifndef TSCPROBE_USER_CLI_H
#define TSCPROBE_USER_CLI_H

#include <stddef.h>

struct option;

/* Exit codes scripts can rely on (documented in the man page). */
enum tp_exit {
	TP_EXIT_OK = 0,		/* done */
	TP_EXIT_FAIL = 1,	/* the kernel or the system refused */
	TP_EXIT_USAGE = 2,	/* bad command line; nothing was started */
	TP_EXIT_NOMODULE = 3,	/* the module is not loaded */
	TP_EXIT_BUSY = 4,	/* another run is in progress */
	TP_EXIT_PERM = 5,	/* not permitted: needs CAP_NET_ADMIN */
	TP_EXIT_NORESULT = 6,	/* no results, or no run to stop */
	TP_EXIT_OVER_LIMIT = 7,	/* measured; a limit failed (--fail-above) */
	TP_EXIT_INTERRUPTED = 130, /* stopped by Ctrl-C; results printed */
};

void tp_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int tp_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int tp_bad_option(const char *cmd, int c, char **argv);
int tp_bad_long_option(const char *cmd, int c, char **argv,
		       const struct option *opts);
const char *tp_nearest(const char *typed, const void *names, size_t n,
		       size_t stride);

#endif /* TSCPROBE_USER_CLI_H */
