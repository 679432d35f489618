// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer.  Keys are given with every value inside objects and are
 * NULL inside arrays; the output is indented two spaces per level.
 */
#include "user/lib/cli.h"
#include "user/lib/json_write.h"
#include "user/lib/cpuset.h"
#include "user/lib/number.h"

void jw_init(struct jw *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->count[0] = 0;
	j->line = false;
}

/*
 * A document on one line, for streams of one object per line (monitor -j):
 * a reader can take each line as it comes.
 */
void jw_init_line(struct jw *j, FILE *f)
{
	jw_init(j, f);
	j->line = true;
}

/* Ends the document with a newline. */
void jw_finish(struct jw *j)
{
	fputc('\n', j->f);
	fflush(j->f);
}

static void jw_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Comma, newline and indentation before a value, then its key. */
static void jw_prefix(struct jw *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (j->depth && !j->line)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	if (key) {
		jw_string(j->f, key);
		fputs(j->line ? ":" : ": ", j->f);
	}
}

static void jw_open(struct jw *j, const char *key, char c)
{
	jw_prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < JW_MAX_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void jw_close(struct jw *j, char c)
{
	unsigned int n = j->count[j->depth];

	if (j->depth)
		j->depth--;
	if (n && !j->line)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(c, j->f);
}

void jw_obj(struct jw *j, const char *key)
{
	jw_open(j, key, '{');
}

void jw_obj_end(struct jw *j)
{
	jw_close(j, '}');
}

void jw_arr(struct jw *j, const char *key)
{
	jw_open(j, key, '[');
}

void jw_arr_end(struct jw *j)
{
	jw_close(j, ']');
}

/**
 * jw_cpuset() - a CPU set as an array of CPU numbers, lowest first
 * @j: the writer
 * @key: its key (NULL in an array)
 * @set: the set
 */
void jw_cpuset(struct jw *j, const char *key, const struct tp_cpuset *set)
{
	int cpu = -1;

	jw_arr(j, key);
	while ((cpu = tp_cpuset_next(set, cpu)) >= 0)
		jw_u64(j, NULL, (uint64_t)cpu);
	jw_arr_end(j);
}

void jw_u64(struct jw *j, const char *key, uint64_t v)
{
	jw_prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void jw_i64(struct jw *j, const char *key, int64_t v)
{
	jw_prefix(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

/**
 * jw_known() - a figure that may be unknown: null when @v is negative
 * @j: the writer
 * @key: its key
 * @v: the figure (negative: unknown)
 */
void jw_known(struct jw *j, const char *key, int64_t v)
{
	if (v < 0)
		jw_null(j, key);
	else
		jw_i64(j, key, v);
}

/*
 * Exact: the shortest text that reads back as @v (number.c).  Non-finite
 * values have no JSON form: they are written as null.
 */
void jw_double(struct jw *j, const char *key, double v)
{
	char text[TP_NUMBER_LEN];

	jw_prefix(j, key);
	fputs(tp_number(text, v) ? text : "null", j->f);
}

void jw_str(struct jw *j, const char *key, const char *s)
{
	jw_prefix(j, key);
	jw_string(j->f, s);
}

void jw_bool(struct jw *j, const char *key, bool v)
{
	jw_prefix(j, key);
	fputs(v ? "true" : "false", j->f);
}

void jw_null(struct jw *j, const char *key)
{
	jw_prefix(j, key);
	fputs("null", j->f);
}
