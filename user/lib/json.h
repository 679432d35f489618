/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer: objects, arrays and scalars with commas, escaping
 * and indentation handled, so report code only says what to write.
 */
#ifndef TSCPROBE_USER_JSON_H
#define TSCPROBE_USER_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TJ_MAX_DEPTH	16

/**
 * struct tj - the writer's state
 * @f: where to write
 * @depth: nesting depth
 * @count: values written so far at each depth (for commas)
 * @line: the whole document on one line, without spaces (JSON Lines)
 */
struct tj {
	FILE *f;
	int depth;
	unsigned int count[TJ_MAX_DEPTH];
	bool line;
};

void tj_init(struct tj *j, FILE *f);
void tj_init_line(struct tj *j, FILE *f);
void tj_finish(struct tj *j);
void tj_obj(struct tj *j, const char *key);
void tj_obj_end(struct tj *j);
void tj_arr(struct tj *j, const char *key);
void tj_arr_end(struct tj *j);
void tj_u64(struct tj *j, const char *key, uint64_t v);
void tj_i64(struct tj *j, const char *key, int64_t v);
void tj_double(struct tj *j, const char *key, double v);
void tj_real(struct tj *j, const char *key, double v);
void tj_str(struct tj *j, const char *key, const char *s);
void tj_bool(struct tj *j, const char *key, bool v);
void tj_null(struct tj *j, const char *key);

#endif /* TSCPROBE_USER_JSON_H */
