/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A streaming JSON writer: objects, arrays and scalars with commas, escaping
 * and indentation handled, so report code only says what to write.
 */
#ifndef TSCPROBE_USER_JSON_WRITE_H
#define TSCPROBE_USER_JSON_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH	16

struct tp_cpuset;

/**
 * struct jw - the writer's state
 * @f: where to write
 * @depth: nesting depth
 * @count: values written so far at each depth (for commas)
 * @line: the whole document on one line, without spaces (JSON Lines)
 */
struct jw {
	FILE *f;
	int depth;
	unsigned int count[JW_MAX_DEPTH];
	bool line;
};

void jw_init(struct jw *j, FILE *f);
void jw_init_line(struct jw *j, FILE *f);
void jw_finish(struct jw *j);
void jw_obj(struct jw *j, const char *key);
void jw_obj_end(struct jw *j);
void jw_arr(struct jw *j, const char *key);
void jw_arr_end(struct jw *j);
void jw_cpuset(struct jw *j, const char *key, const struct tp_cpuset *set);
void jw_u64(struct jw *j, const char *key, uint64_t v);
void jw_i64(struct jw *j, const char *key, int64_t v);
void jw_known(struct jw *j, const char *key, int64_t v);
void jw_double(struct jw *j, const char *key, double v);
void jw_str(struct jw *j, const char *key, const char *s);
void jw_bool(struct jw *j, const char *key, bool v);
void jw_null(struct jw *j, const char *key);

#endif /* TSCPROBE_USER_JSON_WRITE_H */
