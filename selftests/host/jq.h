/* SPDX-License-Identifier: GPL-2.0 */
/*
 * jq on text a test made: the CLI's JSON is checked by a real parser.
 */
#ifndef TSCPROBE_TEST_JQ_H
#define TSCPROBE_TEST_JQ_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * "jq -e @opts '@filter'" on @text (through a temporary file): 0 when the
 * filter holds, else jq's status, or -1 when the file cannot be written.
 */
static inline int tp_test_jq(const char *text, const char *opts,
			     const char *filter)
{
	char path[] = "/tmp/tp-jq-XXXXXX", cmd[4096];
	int fd = mkstemp(path), ret = -1;

	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) == (ssize_t)strlen(text) &&
	    (size_t)snprintf(cmd, sizeof(cmd), "jq -e %s '%s' %s >/dev/null",
			     opts, filter, path) < sizeof(cmd))
		ret = system(cmd);
	close(fd);
	unlink(path);
	return ret;
}

#endif /* TSCPROBE_TEST_JQ_H */
