// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's one-line error messages (cli.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

/*
 * Print "tscprobe: MESSAGE" and a newline on stderr, in one line whatever
 * the message quotes from the command line: control characters (a newline,
 * an escape sequence) are written as \xNN, and a message longer than a
 * screenful is cut with "...".
 */
static void tp_verr(const char *fmt, va_list ap, const char *tail)
{
	char msg[1024];
	const unsigned char *p;
	int n;

	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	if (n >= (int)sizeof(msg))
		memcpy(msg + sizeof(msg) - 4, "...", 4);
	fputs("tscprobe: ", stderr);
	for (p = (const unsigned char *)msg; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			fprintf(stderr, "\\x%02x", *p);
		else
			fputc(*p, stderr);
	}
	fputs(tail, stderr);
}

/**
 * tp_err() - print "tscprobe: MESSAGE" on stderr, in one line
 * @fmt: printf-style format
 */
void tp_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tp_verr(fmt, ap, "\n");
	va_end(ap);
}

/**
 * tp_usage_err() - report a bad command line in one line
 * @cmd: the subcommand, for the hint
 * @fmt: printf-style format of what is wrong
 *
 * Return: TP_EXIT_USAGE.
 */
int tp_usage_err(const char *cmd, const char *fmt, ...)
{
	char tail[64];
	va_list ap;

	snprintf(tail, sizeof(tail), " (see 'tscprobe %s --help')\n",
		 cmd ? cmd : "");
	va_start(ap, fmt);
	tp_verr(fmt, ap, tail);
	va_end(ap);
	return TP_EXIT_USAGE;
}

/**
 * tp_bad_option() - report what getopt_long() did not accept
 * @cmd: the subcommand
 * @c: what getopt_long() returned: '?' (unknown) or ':' (missing value)
 * @argv: the arguments, for the option's text
 *
 * The option strings start with ":" so that getopt reports missing values
 * as ':' and stays quiet: every message is the CLI's own, in one line.
 *
 * Return: TP_EXIT_USAGE.
 */
int tp_bad_option(const char *cmd, int c, char **argv)
{
	const char *opt = argv[optind - 1];

	if (c == ':')
		return tp_usage_err(cmd, "option '%s' needs a value", opt);
	if (optopt && strncmp(opt, "--", 2))
		return tp_usage_err(cmd, "unknown option '-%c'", optopt);
	return tp_usage_err(cmd, "unknown option '%s'", opt);
}
