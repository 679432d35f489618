/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the tscprobe VM selftests: load and unload the module, run the
 * CLI and capture what it prints, ask jq about JSON, and talk netlink with
 * the CLI's own client (user/nl.c) so that raw requests get their extended
 * acks decoded the same way.
 *
 * The tests run inside the QEMU guest as root; the harness scans the
 * guest's kernel log after the run, so a WARNING or a lockup caused by any
 * test fails the suite even when every assertion passed.
 */
#ifndef TSCPROBE_SELFTEST_H
#define TSCPROBE_SELFTEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nl.h"

#define TP_MODULE_PATH	"/lib/tscprobe/tscprobe.ko"
#define TP_OUT_MAX	(1 << 22)

static inline bool tp_module_loaded(void)
{
	struct stat st;

	return stat("/sys/module/tscprobe", &st) == 0;
}

/* Load the module unless it is loaded; 0 on success. */
static inline int tp_module_load(void)
{
	if (tp_module_loaded())
		return 0;
	return system("insmod " TP_MODULE_PATH);
}

/* Unload the module if it is loaded; 0 on success. */
static inline int tp_module_unload(void)
{
	if (!tp_module_loaded())
		return 0;
	return system("rmmod tscprobe");
}

/**
 * tp_sh() - run a shell command and capture its standard output
 * @cmd: the command (run with /bin/sh -c)
 * @out: set to a malloc'ed NUL-terminated copy of stdout (may be NULL)
 *
 * Return: the command's exit status, or -1 if it did not exit normally.
 */
static inline int tp_sh(const char *cmd, char **out)
{
	FILE *f = popen(cmd, "r");
	size_t n = 0;
	char *buf;
	int status;

	if (!f)
		return -1;
	buf = malloc(TP_OUT_MAX);
	if (buf) {
		n = fread(buf, 1, TP_OUT_MAX - 1, f);
		buf[n] = '\0';
	}
	status = pclose(f);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Write @text to a fresh temporary file; returns its path (static). */
static inline const char *tp_tmpfile(const char *text)
{
	static char path[64];
	int fd;

	snprintf(path, sizeof(path), "/tmp/tp-test-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return NULL;
	}
	close(fd);
	return path;
}

/**
 * tp_jq() - evaluate a jq filter on a JSON document
 * @json: the document
 * @filter: a jq filter; with -e, the exit status is 0 when its last output
 *	is neither false nor null
 *
 * Return: jq's exit status (0: true; 1: false/null; 2+: error).
 */
static inline int tp_jq(const char *json, const char *filter)
{
	const char *path = tp_tmpfile(json);
	char cmd[4096];
	int ret;

	if (!path)
		return -1;
	snprintf(cmd, sizeof(cmd), "jq -e '%s' %s >/dev/null", filter, path);
	ret = tp_sh(cmd, NULL);
	unlink(path);
	return ret;
}

/* jq -r output of a filter, malloc'ed, trailing newline removed. */
static inline char *tp_jq_str(const char *json, const char *filter)
{
	const char *path = tp_tmpfile(json);
	char cmd[4096];
	char *out = NULL;

	if (!path)
		return NULL;
	snprintf(cmd, sizeof(cmd), "jq -r '%s' %s", filter, path);
	tp_sh(cmd, &out);
	unlink(path);
	if (out)
		out[strcspn(out, "\n")] = '\0';
	return out;
}

static inline long long tp_jq_num(const char *json, const char *filter)
{
	char *s = tp_jq_str(json, filter);
	long long v = s && *s ? strtoll(s, NULL, 10) : -1;

	free(s);
	return v;
}

/* Read a small file into a static buffer; "" when it cannot be read. */
static inline const char *tp_read_file(const char *path)
{
	static char buf[1 << 16];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static inline int tp_cpu_set_online(unsigned int cpu, bool online)
{
	char path[96];
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online",
		 cpu);
	f = fopen(path, "w");
	if (!f)
		return -1;
	ret = fprintf(f, "%d\n", online) < 0 ? -1 : 0;
	return fclose(f) ? -1 : ret;
}

/* A request of the tscprobe family, answered with error decoded. */
static inline int tp_talk(struct tp_nl *nl, struct nlmsghdr *req,
			  struct tp_nl_error *e)
{
	return tp_nl_talk(nl, req, NULL, NULL, e);
}

#endif /* TSCPROBE_SELFTEST_H */
