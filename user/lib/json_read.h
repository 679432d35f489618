/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader, for `tscprobe diff`: the whole document as a tree
 * of values, looked up by key or index.  Strict RFC 8259 but for what the
 * reports never write (\u escapes beyond Latin-1 are kept as '?').
 */
#ifndef TSCPROBE_USER_JSON_READ_H
#define TSCPROBE_USER_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>

/** enum jr_type - what a value is */
enum jr_type { JR_NULL, JR_BOOL, JR_NUM, JR_STR, JR_ARR, JR_OBJ };

/**
 * struct jr - one value
 * @type: what it is
 * @b: JR_BOOL's value
 * @num: JR_NUM's value
 * @str: JR_STR's value (NUL-terminated), or an object member's key
 * @key: the key of an object member (NULL elsewhere)
 * @n: JR_ARR, JR_OBJ: elements in @v
 * @v: the elements (an object's members in file order)
 */
struct jr {
	enum jr_type type;
	bool b;
	double num;
	char *str;
	char *key;
	size_t n;
	struct jr *v;
};

struct jr *jr_parse_file(const char *path, const char **why);
void jr_free(struct jr *j);
const struct jr *jr_get(const struct jr *obj, const char *key);
double jr_num(const struct jr *obj, const char *key, double dflt);
const char *jr_str(const struct jr *obj, const char *key);

#endif /* TSCPROBE_USER_JSON_READ_H */
