/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file a test made (a report, a command's output), read back whole.
 */
#ifndef TSCPROBE_TEST_SLURP_H
#define TSCPROBE_TEST_SLURP_H

#include <stdio.h>

/*
 * The contents of @path as a string (free() it); "" when it cannot be
 * read, so that a comparison fails rather than the test crashing.  NULL
 * only without memory.
 */
static inline char *tp_test_slurp(const char *path)
{
	FILE *f = fopen(path, "r"), *m;
	char *buf = NULL, chunk[4096];
	size_t len = 0, n;

	m = open_memstream(&buf, &len);
	if (!m) {
		if (f)
			fclose(f);
		return NULL;
	}
	while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	if (f)
		fclose(f);
	fclose(m);
	return buf;
}

#endif /* TSCPROBE_TEST_SLURP_H */
