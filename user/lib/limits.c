// SPDX-License-Identifier: GPL-2.0
/*
 * Limits: "--fail-above [NAME:]VALUE" and the lines "KIND NAME VALUE" of a
 * limits file, parsed into struct tp_limit before anything is started, so
 * that a limit a result could not be judged against is refused (exit 2)
 * rather than discovered after a long run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/tscprobe.h>
#include "user/lib/cli.h"
#include "user/lib/format.h"
#include "core/names.h"
#include "user/lib/limits.h"
#include "user/lib/parse.h"

/* The figures a limit can name, and the measurements that have them. */
static const struct {
	const char *name;
	uint32_t stat;
	uint32_t kinds;		/* bit (1 << enum tscprobe_kind) */
} tp_limit_stats[] = {
	{ "max", TP_LIMIT_MAX, 1U << TSCPROBE_KIND_NOISE |
	  1U << TSCPROBE_KIND_CACHE | 1U << TSCPROBE_KIND_SKEW },
	{ "p50", TP_LIMIT_P50, 1U << TSCPROBE_KIND_NOISE | 1U << TSCPROBE_KIND_CACHE },
	{ "p99", TP_LIMIT_P99, 1U << TSCPROBE_KIND_NOISE | 1U << TSCPROBE_KIND_CACHE },
	{ "p99.9", TP_LIMIT_P999, 1U << TSCPROBE_KIND_NOISE },
	{ "p99.99", TP_LIMIT_P9999, 1U << TSCPROBE_KIND_NOISE },
	{ "sync", TP_LIMIT_SYNC, 1U << TSCPROBE_KIND_SKEW },
};

/* cache: the load a figure is of; a bare figure is the uncached load's. */
static const char *const tp_limit_series_prefix[] = {
	[TP_LIMIT_ANY] = "",
	[TP_LIMIT_CACHED] = "cached.",
	[TP_LIMIT_UNCACHED] = "uncached.",
};

/* A figure @kind has not, refused with the ones it has. */
static const char *tp_limit_unknown(uint32_t kind)
{
	switch (kind) {
	case TSCPROBE_KIND_NOISE:
		return "unknown figure: noise has max, p50, p99, p99.9 and p99.99";
	case TSCPROBE_KIND_CACHE:
		return "unknown figure: cache has p50, p99 and max, of the uncached load or (cached.p99) the cached one";
	default:
		return "unknown figure: skew has max and sync";
	}
}

/* Find @name among @kind's figures: its index, or -1. */
static int tp_limit_stat_lookup(uint32_t kind, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(tp_limit_stats); i++)
		if (strlen(tp_limit_stats[i].name) == len &&
		    !strncmp(tp_limit_stats[i].name, name, len) &&
		    (tp_limit_stats[i].kinds & 1U << kind))
			return (int)i;
	return -1;
}

/* cache: take "cached." or "uncached." off the front of @name. */
static void tp_limit_series_of(struct tp_limit *l, const char **name,
			       size_t *len)
{
	uint32_t s;
	size_t n;

	if (l->kind != TSCPROBE_KIND_CACHE)
		return;
	l->series = TP_LIMIT_UNCACHED;
	for (s = TP_LIMIT_CACHED; s <= TP_LIMIT_UNCACHED; s++) {
		n = strlen(tp_limit_series_prefix[s]);
		if (*len >= n && !strncmp(*name, tp_limit_series_prefix[s], n)) {
			l->series = s;
			*name += n;
			*len -= n;
			return;
		}
	}
}

/* A limit's value: a time with its unit or TSC cycles ("5000c"), above 0. */
static int tp_limit_value(const char *s, struct tp_limit *l, const char **why)
{
	if (tp_parse_threshold(s, &l->value, &l->cycles, why))
		return -1;
	if (!l->value) {
		*why = "a limit must be above 0";
		return -1;
	}
	return 0;
}

/**
 * tp_limit_parse() - one limit as --fail-above takes it
 * @kind: the measurement it is for (enum tscprobe_kind)
 * @s: "[NAME:]VALUE" or "sync": "20us", "p99.99:5us", "cached.p99:40ns"
 * @l: the limit (from the command line, until its file is set)
 * @why: set to the reason on error
 *
 * Without a NAME the limit is on the largest figure (noise: the max gap,
 * skew: the largest |skew|); a cache limit names its figure.
 *
 * Return: 0, or -1 with @why set.
 */
int tp_limit_parse(uint32_t kind, const char *s, struct tp_limit *l,
		   const char **why)
{
	const char *colon = strchr(s, ':'), *name = s;
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	int i;

	memset(l, 0, sizeof(*l));
	l->kind = kind;
	tp_limit_series_of(l, &name, &len);
	i = tp_limit_stat_lookup(kind, name, len);
	if (!colon && i < 0 && kind != TSCPROBE_KIND_CACHE)
		i = 0;				/* a bare value: max */
	else if (!colon && i >= 0 && tp_limit_stats[i].stat != TP_LIMIT_SYNC)
		i = -2;				/* a name without its value */
	if (i == -2) {
		*why = "a figure needs its limit after a colon, like p99:20us";
		return -1;
	}
	if (i < 0) {
		*why = kind == TSCPROBE_KIND_CACHE && !colon ?
			"a cache limit names its figure, like p99:120ns" :
			tp_limit_unknown(kind);
		return -1;
	}
	l->stat = tp_limit_stats[i].stat;
	if (l->stat == TP_LIMIT_SYNC) {
		*why = "sync takes no value: it fails a pair not in sync";
		return colon ? -1 : 0;
	}
	return tp_limit_value(colon ? colon + 1 : s, l, why);
}

/* Whether @a and @b hold down the same figure (their values aside). */
bool tp_limit_same(const struct tp_limit *a, const struct tp_limit *b)
{
	return a->kind == b->kind && a->series == b->series &&
	       a->stat == b->stat;
}

/**
 * tp_limit_name() - the figure a limit holds down, as it is written
 * @l: the limit
 * @buf: "max", "p99.99", "uncached.p99", "sync"
 * @len: its size
 */
void tp_limit_name(const struct tp_limit *l, char *buf, size_t len)
{
	unsigned int i;

	for (i = 0; i < TP_ARRAY_SIZE(tp_limit_stats); i++)
		if (tp_limit_stats[i].stat == l->stat)
			break;
	snprintf(buf, len, "%s%s", tp_limit_series_prefix[l->series],
		 i < TP_ARRAY_SIZE(tp_limit_stats) ? tp_limit_stats[i].name : "?");
}

/**
 * tp_limit_text() - a limit as it would be written: "p99.99 5us",
 *	"max 5000c", "sync"
 * @l: the limit
 * @buf: the output
 * @len: its size
 */
void tp_limit_text(const struct tp_limit *l, char *buf, size_t len)
{
	char name[32], value[48];

	tp_limit_name(l, name, sizeof(name));
	if (l->stat == TP_LIMIT_SYNC) {
		snprintf(buf, len, "%s", name);
		return;
	}
	if (l->cycles)
		snprintf(value, sizeof(value), "%lluc",
			 (unsigned long long)l->value);
	else
		tp_format_ns_exact(l->value, value, sizeof(value));
	snprintf(buf, len, "%s %s", name, value);
}

/**
 * tp_limit_source() - where a limit was given
 * @l: the limit
 * @buf: "command line", or "FILE:LINE"
 * @len: its size
 */
void tp_limit_source(const struct tp_limit *l, char *buf, size_t len)
{
	if (l->file)
		snprintf(buf, len, "%s:%u", l->file, l->line);
	else
		snprintf(buf, len, "command line");
}

/* The limit @l already in @ls, or -1. */
static int tp_limits_find(const struct tp_limits *ls, const struct tp_limit *l)
{
	unsigned int i;

	for (i = 0; i < ls->n; i++)
		if (tp_limit_same(&ls->l[i], l))
			return (int)i;
	return -1;
}

/* Split @line (its comment cut) into at most @max words; their number. */
static unsigned int tp_limits_words(char *line, char **word, unsigned int max)
{
	unsigned int n = 0;
	char *save, *w;

	line[strcspn(line, "#\n")] = '\0';
	for (w = strtok_r(line, " \t\r\v\f", &save); w;
	     w = strtok_r(NULL, " \t\r\v\f", &save)) {
		if (n == max)
			return max + 1;
		word[n++] = w;
	}
	return n;
}

/*
 * Line @no of limits file @path into @all: "KIND NAME VALUE", "skew sync",
 * or "KIND LIMIT" with LIMIT as --fail-above takes it.  Every line is
 * checked, whichever measurement it is for: one file serves every command.
 */
static int tp_limits_line(char *line, const char *path, unsigned int no,
			  struct tp_limits *all, char *err, size_t len)
{
	char *word[3], spec[256];
	struct tp_limit l;
	const char *why;
	unsigned int n = tp_limits_words(line, word, 3);
	int kind, dup;

	if (!n)
		return 0;
	if (n == 1 || n > 3) {
		snprintf(err, len, "%s:%u: expected MEASUREMENT NAME VALUE, like 'noise max 20us' or 'skew sync'",
			 path, no);
		return -1;
	}
	kind = tp_name_lookup(tp_kind_name, TSCPROBE_KIND_MAX, word[0]);
	if (kind <= 0) {
		snprintf(err, len, "%s:%u: unknown measurement '%s': noise, cache or skew",
			 path, no, word[0]);
		return -1;
	}
	snprintf(spec, sizeof(spec), "%s%s%s", word[1], n == 3 ? ":" : "",
		 n == 3 ? word[2] : "");
	if (tp_limit_parse((uint32_t)kind, spec, &l, &why)) {
		snprintf(err, len, "%s:%u: %s %s%s%s: %s", path, no, word[0],
			 word[1], n == 3 ? " " : "", n == 3 ? word[2] : "", why);
		return -1;
	}
	dup = tp_limits_find(all, &l);
	if (dup >= 0) {
		tp_limit_name(&l, spec, sizeof(spec));
		snprintf(err, len, "%s:%u: %s %s is given twice (also on line %u)",
			 path, no, word[0], spec, all->l[dup].line);
		return -1;
	}
	l.file = path;
	l.line = no;
	all->l[all->n++] = l;
	return 0;
}

/**
 * tp_limits_read() - every limit of a limits file
 * @path: the file
 * @all: its limits, of every measurement, in file order
 * @err: the reason on error, naming the file and line: "lab.limits:3: ..."
 * @len: its size
 *
 * Lines are "MEASUREMENT NAME VALUE" ("noise p99.99 5us", "cache p99
 * 120ns") or "skew sync"; "#" starts a comment, blank lines are skipped.
 * The same limit twice is refused: a spec says each once.
 *
 * Return: 0, or -1 with @err set.
 */
int tp_limits_read(const char *path, struct tp_limits *all, char *err,
		   size_t len)
{
	unsigned int no = 0;
	char line[512];
	FILE *f = fopen(path, "r");
	int ret = 0;

	all->n = 0;
	if (!f) {
		snprintf(err, len, "--limits '%s': %s", path, strerror(errno));
		return -1;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, len, "%s:%u: line longer than %zu bytes",
				 path, ++no, sizeof(line) - 2);
			ret = -1;
		} else if (all->n == TP_LIMITS_MAX) {
			snprintf(err, len, "%s:%u: more than %d limits", path,
				 ++no, TP_LIMITS_MAX);
			ret = -1;
		} else {
			ret = tp_limits_line(line, path, ++no, all, err, len);
		}
	}
	if (!ret && ferror(f)) {
		snprintf(err, len, "--limits '%s': cannot read it", path);
		ret = -1;
	}
	fclose(f);
	return ret;
}

/**
 * tp_limit_option() - take --fail-above or --limits
 * @o: the options so far
 * @cmd: the subcommand, for errors
 * @c: what getopt_long() returned
 * @arg: its optarg
 * @ret: set to the option's enum tp_exit when it was one of them
 *
 * Only kept here: they are parsed by tp_limits_settle(), once every option
 * is in and the measurement is known.
 *
 * Return: true when @c was a limit option.
 */
int tp_limit_option(struct tp_limit_opts *o, const char *cmd, int c,
		    const char *arg, int *ret)
{
	*ret = TP_EXIT_OK;
	switch (c) {
	case TP_OPT_FAIL_ABOVE:
		if (o->nargs == TP_LIMITS_MAX)
			*ret = tp_usage_err(cmd, "--fail-above: at most %d limits",
					    TP_LIMITS_MAX);
		else
			o->args[o->nargs++] = arg;
		return 1;
	case TP_OPT_LIMITS:
		if (o->file)
			*ret = tp_usage_err(cmd, "--limits: one file of limits, not two");
		o->file = arg;
		return 1;
	default:
		return 0;
	}
}

/* The limits of @kind in @o's file into @out (none without a file). */
static int tp_limits_from_file(const struct tp_limit_opts *o, const char *cmd,
			       uint32_t kind, struct tp_limits *out)
{
	struct tp_limits all;
	char err[1024];
	unsigned int i;

	out->n = 0;
	if (!o->file)
		return TP_EXIT_OK;
	if (tp_limits_read(o->file, &all, err, sizeof(err)))
		return tp_usage_err(cmd, "%s", err);
	for (i = 0; i < all.n; i++)
		if (all.l[i].kind == kind)
			out->l[out->n++] = all.l[i];
	if (!out->n && !o->nargs)
		return tp_usage_err(cmd, "--limits '%s' has no %s limits (lines '%s NAME VALUE')",
				    o->file, tp_kind_name(kind), tp_kind_name(kind));
	return TP_EXIT_OK;
}

/**
 * tp_limits_settle() - the limits a command judges its result against
 * @o: the options as given
 * @cmd: the subcommand, for errors
 * @kind: its measurement
 * @out: the file's lines for @kind, then every --fail-above
 *
 * A --fail-above replaces the file's limit of the same figure (so one run
 * can loosen or tighten one limit of the lab's spec) and adds the others;
 * the same figure twice on the command line is refused.  A file without a
 * limit for @kind is refused too, unless --fail-above gives one: a spec
 * that judges nothing must not pass silently.
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE (one line printed).
 */
int tp_limits_settle(const struct tp_limit_opts *o, const char *cmd,
		     uint32_t kind, struct tp_limits *out)
{
	struct tp_limit l;
	const char *why;
	unsigned int i;
	char name[32];
	int ret, at;

	ret = tp_limits_from_file(o, cmd, kind, out);
	for (i = 0; !ret && i < o->nargs; i++) {
		if (tp_limit_parse(kind, o->args[i], &l, &why))
			return tp_usage_err(cmd, "--fail-above '%s': %s",
					    o->args[i], why);
		at = tp_limits_find(out, &l);
		tp_limit_name(&l, name, sizeof(name));
		if (at >= 0 && !out->l[at].file)
			return tp_usage_err(cmd, "--fail-above: %s is given twice",
					    name);
		if (at < 0 && out->n == TP_LIMITS_MAX)
			return tp_usage_err(cmd, "--fail-above: at most %d limits",
					    TP_LIMITS_MAX);
		out->l[at >= 0 ? (unsigned int)at : out->n++] = l;
	}
	return ret;
}
