// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's one-line error messages (cli.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "user/lib/cli.h"

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

/* Two edits at most: a typo, a letter left out or doubled, two swapped. */
#define TP_NEAR_EDITS	2
#define TP_NEAR_LEN	32

/*
 * The optimal string alignment distance of @a and @b (insertions,
 * deletions, substitutions and swaps of neighbours each count one), or
 * more than TP_NEAR_EDITS for words too long to be typos of each other.
 */
static unsigned int tp_edits(const char *a, const char *b)
{
	unsigned int d[TP_NEAR_LEN + 1][TP_NEAR_LEN + 1];
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int best;

	if (la > TP_NEAR_LEN || lb > TP_NEAR_LEN)
		return TP_NEAR_EDITS + 1;
	for (i = 0; i <= la; i++)
		d[i][0] = (unsigned int)i;
	for (j = 0; j <= lb; j++)
		d[0][j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/**
 * tp_nearest() - the name nearest to what was typed, for "did you mean"
 * @typed: the unknown word (up to a '=', which starts an option's value)
 * @names: the first of @n entries @stride bytes apart, each beginning with
 *	its name (as struct option does), a NULL name ending them early
 * @n: entries
 * @stride: their size
 *
 * A name is near when @typed starts it (two letters at least) or is at
 * most two edits from it, one for names of four letters or fewer.
 *
 * Return: the nearest name, or NULL when none is near.
 */
const char *tp_nearest(const char *typed, const void *names, size_t n,
		       size_t stride)
{
	char word[TP_NEAR_LEN + 1];
	unsigned int d, best = TP_NEAR_EDITS + 1;
	const char *name, *found = NULL;
	size_t i, len = strcspn(typed, "=");

	if (len > TP_NEAR_LEN)
		return NULL;
	memcpy(word, typed, len);
	word[len] = '\0';
	for (i = 0; i < n; i++) {
		name = *(const char *const *)((const char *)names + i * stride);
		if (!name)
			break;
		d = len >= 2 && !strncmp(name, word, len) ? 1 : tp_edits(word, name);
		if (d > (strlen(name) <= 4 ? 1u : TP_NEAR_EDITS) || d >= best)
			continue;
		best = d;
		found = name;
	}
	return found;
}

/**
 * tp_bad_long_option() - report what getopt_long() did not accept: an
 *	unknown long option with the nearest one, an ambiguous one as such
 * @cmd: the subcommand
 * @c: what getopt_long() returned: '?' (unknown) or ':' (missing value)
 * @argv: the arguments, for the option's text
 * @opts: the command's long options
 *
 * Return: TP_EXIT_USAGE.
 */
int tp_bad_long_option(const char *cmd, int c, char **argv,
		       const struct option *opts)
{
	const char *opt = argv[optind - 1], *near;
	const struct option *taken = NULL;
	size_t n, len = strcspn(opt, "="), starts = 0, used = 0;
	char which[128] = "";

	if (c != '?' || strncmp(opt, "--", 2) || len < 3)
		return tp_bad_option(cmd, c, argv);
	for (n = 0; opts[n].name; n++) {
		if (strncmp(opts[n].name, opt + 2, len - 2))
			continue;
		if (used < sizeof(which))
			used += (size_t)snprintf(which + used, sizeof(which) - used,
						 "%s--%s", starts ? ", " : "",
						 opts[n].name);
		starts++;
		taken = &opts[n];
	}
	/* getopt_long() takes a unique start of a name for the name. */
	if (starts == 1 && opt[len] && taken->has_arg == no_argument)
		return tp_usage_err(cmd, "option '--%s' takes no value",
				    taken->name);
	if (starts > 1)
		return tp_usage_err(cmd, "option '%.*s' is ambiguous: %s",
				    (int)len, opt, which);
	near = tp_nearest(opt + 2, opts, n, sizeof(*opts));
	if (!near)
		return tp_bad_option(cmd, c, argv);
	return tp_usage_err(cmd, "unknown option '%s' (did you mean '--%s'?)",
			    opt, near);
}
