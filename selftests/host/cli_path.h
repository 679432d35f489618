/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI the host tests run: the one built beside them, so that a test
 * never picks up an installed tscprobe; and running it.
 */
#ifndef TSCPROBE_TEST_CLI_PATH_H
#define TSCPROBE_TEST_CLI_PATH_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
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

/*
 * That CLI run with @args (words for the shell): its exit status, and
 * what it wrote on standard error in @err; -1 when it could not be run.
 */
static inline int tp_test_run_cli(const char *args, char *err, size_t len)
{
	char cli[PATH_MAX], cmd[PATH_MAX + 512];
	ssize_t n;
	FILE *p;
	int status;

	if (tp_test_cli_path(cli, sizeof(cli)))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 >/dev/null", cli, args);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = (ssize_t)fread(err, 1, len - 1, p);
	err[n > 0 ? n : 0] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * The CLI refuses @args as bad input: exit 2 and one line on standard
 * error, "tscprobe: ...", which @err gets.
 */
static inline int tp_test_refused(const char *args, char *err, size_t len)
{
	return tp_test_run_cli(args, err, len) == 2 &&
	       !strncmp(err, "tscprobe: ", 10) &&
	       strcspn(err, "\n") == strlen(err) - 1;
}

/*
 * Every command line of the array @bad is refused (tp_test_refused()); for
 * a test of kselftest_harness.h, which must be included first.
 */
#define EXPECT_ALL_REFUSED(bad)						\
	do {								\
		char __err[1024];					\
		size_t __i;						\
									\
		for (__i = 0; __i < sizeof(bad) / sizeof((bad)[0]); __i++) { \
			const char *__args = (bad)[__i];		\
									\
			EXPECT_EQ(1, tp_test_refused(__args, __err,	\
						     sizeof(__err)))	\
				TH_LOG("%s: %s", __args, __err);	\
		}							\
	} while (0)

#endif /* TSCPROBE_TEST_CLI_PATH_H */
