/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI the host tests run: the one built beside them, so that a test
 * never picks up an installed tscprobe.
 */
#ifndef TSCPROBE_TEST_CLI_PATH_H
#define TSCPROBE_TEST_CLI_PATH_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* $(BUILD)/host/test_x -> $(BUILD)/tscprobe; 0 when it is executable. */
static inline int tp_test_cli_path(char *cli, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;
	int i;

	if (n <= 0)
		return -1;
	self[n] = '\0';
	for (i = 0; i < 2; i++) {
		slash = strrchr(self, '/');
		if (!slash)
			return -1;
		*slash = '\0';
	}
	if ((size_t)snprintf(cli, len, "%s/tscprobe", self) >= len)
		return -1;
	return access(cli, X_OK);
}

#endif /* TSCPROBE_TEST_CLI_PATH_H */
