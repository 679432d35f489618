// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON writer.  Keys are given with every value inside objects and are
 * NULL inside arrays; the output is indented two spaces per level.
 */
#include <math.h>

#include "json.h"

void tj_init(struct tj *j, FILE *f)
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
void tj_init_line(struct tj *j, FILE *f)
{
	tj_init(j, f);
	j->line = true;
}

/* Ends the document with a newline. */
void tj_finish(struct tj *j)
{
	fputc('\n', j->f);
	fflush(j->f);
}

static void tj_string(FILE *f, const char *s)
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
static void tj_prefix(struct tj *j, const char *key)
{
	if (j->count[j->depth]++)
		fputc(',', j->f);
	if (j->depth && !j->line)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	if (key) {
		tj_string(j->f, key);
		fputs(j->line ? ":" : ": ", j->f);
	}
}

static void tj_open(struct tj *j, const char *key, char c)
{
	tj_prefix(j, key);
	fputc(c, j->f);
	if (j->depth + 1 < TJ_MAX_DEPTH)
		j->depth++;
	j->count[j->depth] = 0;
}

static void tj_close(struct tj *j, char c)
{
	unsigned int n = j->count[j->depth];

	if (j->depth)
		j->depth--;
	if (n && !j->line)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(c, j->f);
}

void tj_obj(struct tj *j, const char *key)
{
	tj_open(j, key, '{');
}

void tj_obj_end(struct tj *j)
{
	tj_close(j, '}');
}

void tj_arr(struct tj *j, const char *key)
{
	tj_open(j, key, '[');
}

void tj_arr_end(struct tj *j)
{
	tj_close(j, ']');
}

void tj_u64(struct tj *j, const char *key, uint64_t v)
{
	tj_prefix(j, key);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void tj_i64(struct tj *j, const char *key, int64_t v)
{
	tj_prefix(j, key);
	fprintf(j->f, "%lld", (long long)v);
}

/* Non-finite values have no JSON form: they are written as null. */
void tj_double(struct tj *j, const char *key, double v)
{
	tj_prefix(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f);
}

/*
 * 15 significant digits: exact for integers and halves below 10^14, where
 * tj_double()'s 6 would round a TSC difference of millions of cycles.
 */
void tj_real(struct tj *j, const char *key, double v)
{
	tj_prefix(j, key);
	if (isfinite(v))
		fprintf(j->f, "%.15g", v);
	else
		fputs("null", j->f);
}

void tj_str(struct tj *j, const char *key, const char *s)
{
	tj_prefix(j, key);
	tj_string(j->f, s);
}

void tj_bool(struct tj *j, const char *key, bool v)
{
	tj_prefix(j, key);
	fputs(v ? "true" : "false", j->f);
}

void tj_null(struct tj *j, const char *key)
{
	tj_prefix(j, key);
	fputs("null", j->f);
}
