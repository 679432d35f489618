// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON reader of json_read.h: recursive descent over the file's text,
 * bounded in depth, every value allocated on the heap and freed by
 * jr_free().
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/json_read.h"

#define JR_MAX_DEPTH	64

/**
 * struct jr_in - the text being read
 * @s: the next character
 * @depth: nesting depth
 * @why: the first error
 */
struct jr_in {
	const char *s;
	int depth;
	const char *why;
};

static int jr_value(struct jr_in *in, struct jr *out);

static void jr_ws(struct jr_in *in)
{
	while (*in->s == ' ' || *in->s == '\t' || *in->s == '\n' ||
	       *in->s == '\r')
		in->s++;
}

static int jr_fail(struct jr_in *in, const char *why)
{
	if (!in->why)
		in->why = why;
	return -1;
}

static int jr_string(struct jr_in *in, char **out)
{
	const char *p = ++in->s;
	size_t n = 0;
	char *buf;
	unsigned int u;

	buf = malloc(strlen(p) + 1);
	if (!buf)
		return jr_fail(in, "out of memory");
	for (; *p != '"'; p++) {
		if (!*p || (unsigned char)*p < 0x20) {
			free(buf);
			return jr_fail(in, "unterminated string");
		}
		if (*p != '\\') {
			buf[n++] = *p;
			continue;
		}
		switch (*++p) {
		case 'n': buf[n++] = '\n'; break;
		case 't': buf[n++] = '\t'; break;
		case 'r': buf[n++] = '\r'; break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case '"': case '\\': case '/': buf[n++] = *p; break;
		case 'u':
			if (!isxdigit((unsigned char)p[1]) ||
			    !isxdigit((unsigned char)p[2]) ||
			    !isxdigit((unsigned char)p[3]) ||
			    !isxdigit((unsigned char)p[4]) ||
			    sscanf(p + 1, "%4x", &u) != 1) {
				free(buf);
				return jr_fail(in, "bad \\u escape");
			}
			buf[n++] = u < 0x80 ? (char)u : '?';
			p += 4;
			break;
		default:
			free(buf);
			return jr_fail(in, "bad escape");
		}
	}
	buf[n] = '\0';
	in->s = p + 1;
	*out = buf;
	return 0;
}

/* Append a zeroed element to @c's list; NULL when out of memory. */
static struct jr *jr_push(struct jr *c)
{
	struct jr *v = realloc(c->v, (c->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	c->v = v;
	memset(&v[c->n], 0, sizeof(v[0]));
	return &v[c->n++];
}

static int jr_container(struct jr_in *in, struct jr *out, bool obj)
{
	char close = obj ? '}' : ']';
	struct jr *e;

	out->type = obj ? JR_OBJ : JR_ARR;
	if (++in->depth > JR_MAX_DEPTH)
		return jr_fail(in, "nested too deep");
	in->s++;
	jr_ws(in);
	if (*in->s == close) {
		in->s++;
		in->depth--;
		return 0;
	}
	for (;;) {
		e = jr_push(out);
		if (!e)
			return jr_fail(in, "out of memory");
		jr_ws(in);
		if (obj) {
			if (*in->s != '"' || jr_string(in, &e->key))
				return jr_fail(in, "expected a key");
			jr_ws(in);
			if (*in->s++ != ':')
				return jr_fail(in, "expected ':'");
		}
		if (jr_value(in, e))
			return -1;
		jr_ws(in);
		if (*in->s == ',') {
			in->s++;
			continue;
		}
		if (*in->s++ != close)
			return jr_fail(in, obj ? "expected ',' or '}'" : "expected ',' or ']'");
		in->depth--;
		return 0;
	}
}

static int jr_word(struct jr_in *in, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(in->s, word, n))
		return jr_fail(in, "unexpected character");
	in->s += n;
	return 0;
}

static int jr_value(struct jr_in *in, struct jr *out)
{
	char *end;

	jr_ws(in);
	switch (*in->s) {
	case '{':
		return jr_container(in, out, true);
	case '[':
		return jr_container(in, out, false);
	case '"':
		out->type = JR_STR;
		return jr_string(in, &out->str);
	case 't':
		out->type = JR_BOOL;
		out->b = true;
		return jr_word(in, "true");
	case 'f':
		out->type = JR_BOOL;
		return jr_word(in, "false");
	case 'n':
		out->type = JR_NULL;
		return jr_word(in, "null");
	default:
		if (*in->s != '-' && !isdigit((unsigned char)*in->s))
			return jr_fail(in, "unexpected character");
		out->type = JR_NUM;
		out->num = strtod(in->s, &end);
		if (end == in->s)
			return jr_fail(in, "bad number");
		in->s = end;
		return 0;
	}
}

static void jr_free_members(struct jr *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		jr_free_members(&j->v[i]);
	free(j->v);
	free(j->str);
	free(j->key);
}

/**
 * jr_free() - free a document from jr_parse_file()
 * @j: the document, or NULL
 */
void jr_free(struct jr *j)
{
	if (!j)
		return;
	jr_free_members(j);
	free(j);
}

static char *jr_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 &&
	    !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/**
 * jr_parse_file() - read and parse a JSON file
 * @path: the file
 * @why: set to what is wrong when it fails
 *
 * Return: the document (free with jr_free()), or NULL.
 */
struct jr *jr_parse_file(const char *path, const char **why)
{
	struct jr_in in = { NULL, 0, NULL };
	struct jr *j = calloc(1, sizeof(*j));
	char *text = jr_slurp(path);

	if (!text || !j) {
		*why = text ? "out of memory" : "cannot be read";
		free(text);
		free(j);
		return NULL;
	}
	in.s = text;
	if (!jr_value(&in, j)) {
		jr_ws(&in);
		if (*in.s)
			jr_fail(&in, "text after the JSON value");
	}
	free(text);
	if (in.why) {
		*why = in.why;
		jr_free(j);
		return NULL;
	}
	return j;
}

/**
 * jr_get() - an object's member
 * @obj: the object (anything else: no members)
 * @key: the key
 *
 * Return: the member's value, or NULL.
 */
const struct jr *jr_get(const struct jr *obj, const char *key)
{
	size_t i;

	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->v[i].key, key))
			return &obj->v[i];
	return NULL;
}

/* A number member, or @dflt when it is missing or not a number. */
double jr_num(const struct jr *obj, const char *key, double dflt)
{
	const struct jr *v = jr_get(obj, key);

	return v && v->type == JR_NUM ? v->num : dflt;
}

/* A string member, or NULL. */
const char *jr_str(const struct jr *obj, const char *key)
{
	const struct jr *v = jr_get(obj, key);

	return v && v->type == JR_STR ? v->str : NULL;
}
