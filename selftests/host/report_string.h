/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A measurement's report written into a string, as the CLI would print
 * it, for the tests that compare or parse reports.
 */
#ifndef TSCPROBE_TEST_REPORT_STRING_H
#define TSCPROBE_TEST_REPORT_STRING_H

#include <stdio.h>

#include "user/reports.h"

/*
 * The report of @r as @o asks (its SVG, if any, into its file); the
 * report's exit code into *@ret when @ret is given.  NULL without memory.
 */
static inline char *tp_test_report(const struct tp_result *r,
				   const struct tp_output *o, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int code;

	if (!f)
		return NULL;
	if (r->kind == TSCPROBE_KIND_NOISE)
		code = tp_noise_output(r, o, f);
	else if (r->kind == TSCPROBE_KIND_CACHE)
		code = tp_cache_output(r, o, f);
	else
		code = tp_skew_output(r, o, f);
	fclose(f);
	if (ret)
		*ret = code;
	return buf;
}

#endif /* TSCPROBE_TEST_REPORT_STRING_H */
