/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line values (parse.c): durations, thresholds in time or TSC
 * cycles, bounded integers, files to write.  Each parser says why it refused, for the
 * command's one-line error.
 */
#ifndef TSCPROBE_USER_PARSE_H
#define TSCPROBE_USER_PARSE_H

#include <stdbool.h>
#include <stdint.h>

int tp_parse_duration(const char *s, uint64_t *ns, const char **why);
int tp_parse_threshold(const char *s, uint64_t *value, bool *cycles,
		       const char **why);
int tp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v,
		 const char **why);
int tp_check_creatable(const char *path);

#endif /* TSCPROBE_USER_PARSE_H */
