/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the tscprobe VM selftests: load and unload the module, run the
 * CLI and capture what it prints, ask jq about JSON, and talk netlink with
 * the CLI's own client (user/lib/nl.c) so that raw requests get their extended
 * acks decoded the same way.
 *
 * The tests run inside the QEMU guest as root; the harness scans the
 * guest's kernel log after the run, so a WARNING or a lockup caused by any
 * test fails the suite even when every assertion passed.
 */
#ifndef TSCPROBE_SELFTEST_H
#define TSCPROBE_SELFTEST_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "user/lib/cli.h"
#include "user/lib/cpuset.h"
#include "user/lib/nl.h"

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

/*
 * Whether the running kernel keeps formatted extended-ack messages (6.2
 * and later): before, the module sends fixed ones (kmod/compat.h,
 * TP_NL_SET_ERR_MSG_FMT).
 */
static inline bool tp_kernel_formats_extack(void)
{
	unsigned int major, minor;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return false;
	return major > 6 || (major == 6 && minor >= 2);
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

/* Set the module's parameter @name (a test hook) to @value; 0 once written. */
static inline int tp_param_set(const char *name, long value)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd),
		 "echo %ld > /sys/module/tscprobe/parameters/%s", value, name);
	return tp_sh(cmd, NULL);
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

/*
 * Every filter of @filters (@n of them) at once, in one jq run: jq starts
 * in about 0.3 s under TCG, and a report has a dozen identities.  Each
 * filter counts as it does alone with -e (its last output neither false
 * nor null, and at least one output).  The program goes to jq in a file:
 * it is longer than a command line should be.
 *
 * Return: 0 when every filter holds, non-zero when one does not, or jq
 * failed.
 */
static inline int tp_jq_all(const char *json, const char *const *filters,
			    size_t n)
{
	char prog[] = "/tmp/tp-jq-XXXXXX", cmd[128];
	const char *path;
	FILE *f;
	size_t i;
	int fd, ret;

	fd = mkstemp(prog);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(prog);
		return -1;
	}
	for (i = 0; i < n; i++)
		fprintf(f, "%s([%s] | length > 0 and (last | . != false and . != null))\n",
			i ? "and " : "", filters[i]);
	if (!n)
		fputs("true\n", f);
	ret = fclose(f) ? -1 : 0;
	path = tp_tmpfile(json);
	if (!ret && path) {
		snprintf(cmd, sizeof(cmd), "jq -e -f %s %s >/dev/null", prog, path);
		ret = tp_sh(cmd, NULL);
	} else {
		ret = -1;
	}
	if (path)
		unlink(path);
	unlink(prog);
	return ret;
}

/* One jq filter on a -j report; the filter is named when it fails. */
#define EXPECT_JQ(json, filter) do { \
	const char *__f = (filter); \
	EXPECT_EQ(0, tp_jq(json, __f)) TH_LOG("jq: %s", __f ? __f : "?"); \
} while (0)

/*
 * Every filter of an array on a -j report, in one jq run; only when they
 * do not all hold, one by one to name those that fail.
 */
#define EXPECT_JQ_ALL(json, filters, n) do { \
	const char *const *__fs = (filters); \
	size_t __n = (n), __i, __bad = 0; \
	if (tp_jq_all(json, __fs, __n)) { \
		for (__i = 0; __i < __n; __i++) \
			if (tp_jq(json, __fs[__i])) { \
				__bad++; \
				EXPECT_EQ(0, 1) TH_LOG("jq: %s", __fs[__i]); \
			} \
		EXPECT_NE(0, __bad) TH_LOG("jq: the filters fail together, each holds alone"); \
	} \
} while (0)

/* Every filter given, in one jq run (EXPECT_JQ_ALL). */
#define EXPECT_JQS(json, ...) do { \
	const char *const __jqs[] = { __VA_ARGS__ }; \
	EXPECT_JQ_ALL(json, __jqs, sizeof(__jqs) / sizeof(__jqs[0])); \
} while (0)

/*
 * The kind's invariants (an array) and the filters given for this report,
 * all in one jq run.
 */
#define EXPECT_REPORT(json, invariants, ...) do { \
	const char *const __extra[] = { __VA_ARGS__ }; \
	const size_t __ni = sizeof(invariants) / sizeof((invariants)[0]); \
	const char *__all[sizeof(invariants) / sizeof((invariants)[0]) + \
			  sizeof(__extra) / sizeof(__extra[0])]; \
	memcpy(__all, invariants, sizeof(invariants)); \
	memcpy(__all + __ni, __extra, sizeof(__extra)); \
	EXPECT_JQ_ALL(json, __all, sizeof(__all) / sizeof(__all[0])); \
} while (0)

/*
 * rmmod 2 s into a CLI run of @args (one that lasts well past that): the
 * module goes, and the CLI fails, saying the module was unloaded.  The
 * caller closes its sockets first and loads the module again after.
 */
static inline void tp_expect_cli_sees_rmmod(struct __test_metadata *_metadata,
					    const char *args)
{
	char cmd[256], *out = NULL;
	int cli;

	snprintf(cmd, sizeof(cmd),
		 "tscprobe %s -q > /dev/null 2>/tmp/rm.err & pid=$!;"
		 " sleep 2; rmmod tscprobe || exit 9; wait $pid", args);
	cli = tp_sh(cmd, NULL);
	EXPECT_FALSE(tp_module_loaded());
	/* The run did not complete: the CLI says why, and fails. */
	EXPECT_EQ(TP_EXIT_FAIL, cli);
	ASSERT_EQ(0, tp_sh("cat /tmp/rm.err", &out));
	EXPECT_NE(NULL, strstr(out, "module was unloaded")) TH_LOG("%s", out);
	free(out);
}

/*
 * The fixture of a measurement's tests: the module loaded; two sockets,
 * because requests are built in nl's buffer and the status checks made
 * around a request go through st; no run left behind for the next test.
 */
#define TP_RUN_FIXTURE(name) \
FIXTURE(name) { \
	struct tp_nl nl; \
	struct tp_nl st; \
}; \
FIXTURE_SETUP(name) \
{ \
	ASSERT_EQ(0, tp_module_load()); \
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl)); \
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->st)); \
} \
FIXTURE_TEARDOWN(name) \
{ \
	tp_nl_close(&self->nl); \
	tp_nl_close(&self->st); \
	tp_sh("tscprobe stop >/dev/null 2>&1", NULL); \
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

/* The tracefs root, mounting it where the guest has none yet. */
static inline const char *tp_tracefs(void)
{
	if (!access("/sys/kernel/tracing/trace", F_OK))
		return "/sys/kernel/tracing";
	if (!mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		return "/sys/kernel/tracing";
	if (!access("/sys/kernel/debug/tracing/trace", F_OK))
		return "/sys/kernel/debug/tracing";
	return NULL;
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

/* How many CPUs are online (0 if sysfs cannot tell). */
static inline unsigned int tp_online_count(void)
{
	struct tp_cpuset online;

	return tp_online_cpus(&online) ? 0 : tp_cpuset_count(&online);
}

#define TP_RT_RUNTIME	"/proc/sys/kernel/sched_rt_runtime_us"

/* The sched_rt_runtime_us knob: its value, after setting it to @set. */
static inline long tp_rt_runtime(long set)
{
	long was = LONG_MIN;
	FILE *f = fopen(TP_RT_RUNTIME, "r+");

	if (!f)
		return was;
	if (fscanf(f, "%ld", &was) != 1)
		was = LONG_MIN;
	rewind(f);
	fprintf(f, "%ld\n", set);
	if (fclose(f))
		was = LONG_MIN;
	return was;
}

#define TP_FAIR_SERVER	"/sys/kernel/debug/sched/fair_server/cpu%u/runtime"

/*
 * Turn off the fair server of @cpu (6.12 on: it gives ordinary threads 5 %
 * of a CPU that a real-time task owns), so that a real-time task starves
 * ordinary threads there as it does on older kernels.  @restore is set to
 * the command that puts it back, or "" where there is none.
 */
static inline int tp_fair_server_off(unsigned int cpu, char *restore, size_t len)
{
	char path[96], cmd[160], *was = NULL;

	restore[0] = '\0';
	snprintf(path, sizeof(path), TP_FAIR_SERVER, cpu);
	if (access(path, F_OK))
		return 0;
	if (tp_sh(strcat(strcpy(cmd, "cat "), path), &was))
		return -1;
	snprintf(restore, len, "echo %ld > %s", strtol(was, NULL, 10), path);
	free(was);
	snprintf(cmd, sizeof(cmd), "echo 0 > %s", path);
	return tp_sh(cmd, NULL);
}

/* The state and run id GET_STATUS reports (99: no answer). */
struct tp_status_reply {
	uint32_t state;
	uint64_t run_id;
};

static inline int tp_status_reply_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];
	struct tp_status_reply *r = data;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	r->state = tp_nl_u32(tb[TSCPROBE_A_STATE], 99);
	r->run_id = tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0);
	return MNL_CB_OK;
}

static inline struct tp_status_reply tp_get_status(struct tp_nl *nl)
{
	struct tp_status_reply r = { 99, 0 };

	tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_GET_STATUS, false),
		   tp_status_reply_cb, &r, NULL);
	return r;
}

/* A request of the tscprobe family, answered with error decoded. */
static inline int tp_talk(struct tp_nl *nl, struct nlmsghdr *req,
			  struct tp_nl_error *e)
{
	return tp_nl_talk(nl, req, NULL, NULL, e);
}

/*
 * A count from debugfs' info ("attaches:", "runs_alive:"), -1 when it
 * cannot be read.
 */
static inline long tp_debugfs_info_count(const char *key)
{
	FILE *f = fopen("/sys/kernel/debug/tscprobe/info", "r");
	size_t len = strlen(key);
	char line[256];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			v = strtol(line + len + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

/**
 * tp_expect_refused_as() - a START with bad attributes is refused and
 *	changes nothing
 * @_metadata: the test
 * @nl: the socket the request goes on
 * @st: a second socket, for GET_STATUS before and after
 * @nlh: the request
 * @err: the errno expected
 * @attr: the attribute the extended ack must name
 * @missing: @attr is reported missing (NLMSGERR_ATTR_MISS_TYPE) rather
 *	than offending (NLMSGERR_ATTR_OFFS): the kernel reports one or the
 *	other, and which one is part of the contract
 * @what: the case, for the log
 *
 * Nothing may have started: the run id is the one before, and no run is
 * in progress.  Nor may kernel text have been patched: debugfs' count of
 * source probe attaches is the one before.
 */
static inline void tp_expect_refused_as(struct __test_metadata *_metadata,
					struct tp_nl *nl, struct tp_nl *st,
					struct nlmsghdr *nlh, int err,
					unsigned int attr, bool missing,
					const char *what)
{
	struct tp_status_reply before = tp_get_status(st), after;
	long attaches = tp_debugfs_info_count("attaches");
	struct tp_nl_error e;

	memset(&e, 0, sizeof(e));
	EXPECT_EQ(err, tp_talk(nl, nlh, &e)) TH_LOG("%s", what);
	EXPECT_STRNE("", e.msg) TH_LOG("%s: no extended-ack message", what);
	EXPECT_EQ(missing ? 0 : attr, e.attr) TH_LOG("%s: %s", what, e.msg);
	if (missing)
		EXPECT_EQ(attr, e.missing) TH_LOG("%s: %s", what, e.msg);
	after = tp_get_status(st);
	EXPECT_EQ(before.run_id, after.run_id) TH_LOG("%s started a run", what);
	EXPECT_NE(TSCPROBE_STATE_RUNNING, after.state) TH_LOG("%s", what);
	EXPECT_EQ(attaches, tp_debugfs_info_count("attaches"))
		TH_LOG("%s attached the source probes: kernel text patched", what);
}

/* A bad START naming the offending @attr; see tp_expect_refused_as(). */
#define tp_expect_refused(_metadata, nl, st, nlh, err, attr, what) \
	tp_expect_refused_as(_metadata, nl, st, nlh, err, attr, false, what)

/**
 * tp_small_dump() - a GET_RESULT dump read with 4 KiB reads
 * @nl: a socket of the family (for its id)
 * @cb: called for every message
 * @data: passed to @cb
 *
 * On a fresh socket that never read more: the kernel sizes dump messages
 * by the largest read, so a CPU's results must continue across messages.
 *
 * Return: 0 at the end of the dump, -1 on an error.
 */
static inline int tp_small_dump(struct tp_nl *nl, mnl_cb_t cb, void *data)
{
	struct mnl_socket *sock = mnl_socket_open(NETLINK_GENERIC);
	char buf[4096];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	unsigned int portid;
	ssize_t n;
	int ret;

	if (!sock || mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0)
		return -1;
	portid = mnl_socket_get_portid(sock);
	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = 7;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = TSCPROBE_CMD_GET_RESULT;
	g->version = TSCPROBE_GENL_VERSION;
	ret = mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ? -1 : 1;
	while (ret > MNL_CB_STOP) {
		n = mnl_socket_recvfrom(sock, buf, sizeof(buf));
		if (n <= 0) {
			ret = -1;
			break;
		}
		ret = mnl_cb_run(buf, n, 7, portid, cb, data);
	}
	mnl_socket_close(sock);
	return ret;
}

/*
 * Whether the guest runs a kernel with the bug finders on (the project's
 * debug kernel: lockdep gives /proc/lockdep).  Tests that measure the
 * module's own cost say there what they mean on such a kernel.
 */
static inline int tp_debug_kernel(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

/*
 * Whether the guest says it is a virtual machine: run.sh --cpu
 * EPYC,-hypervisor gives one that does not, with QEMU's MSR_SMI_COUNT.
 */
static inline bool tp_guest_is_vm(void)
{
	return tp_sh("grep -qw hypervisor /proc/cpuinfo", NULL) == 0;
}

/* ---- which tests run ------------------------------------------------------- */

/* Whether test @name is among @argv's names, each marked in @matched. */
static inline bool tp_named(const char *name, int argc, char **argv,
			    bool *matched)
{
	bool found = false;
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i][0] == '-' ? argv[i] + 1 : argv[i];

		if (!strcmp(arg, name))
			found = matched[i] = true;
	}
	return found;
}

/*
 * The tests a program's arguments choose: those they name, or all but
 * those named "-NAME" (the 6.1 harness the tests build with takes no
 * options).  Each name must be a test's: a typo would run nothing, or
 * everything, and pass.  Returns 0, or 2 after saying what is wrong.
 */
static inline int tp_choose_tests(int argc, char **argv)
{
	bool matched[argc], exclude = argc > 1 && argv[1][0] == '-';
	struct __fixture_metadata *f;
	struct __test_metadata *t, *next;
	int i;

	memset(matched, 0, sizeof(matched));
	for (i = 1; i < argc; i++)
		if ((argv[i][0] == '-') != exclude) {
			fprintf(stderr, "%s: name tests to run or to leave out, not both\n",
				argv[0]);
			return 2;
		}
	for (f = __fixture_list; f; f = f->next) {
		t = f->tests;
		f->tests = NULL;
		for (; t; t = next) {
			next = t->next;
			if (argc > 1 &&
			    tp_named(t->name, argc, argv, matched) == exclude)
				continue;
			t->next = NULL;
			if (!f->tests) {
				f->tests = t;
				t->prev = t;
				continue;
			}
			t->prev = f->tests->prev;
			t->prev->next = t;
			f->tests->prev = t;
		}
	}
	for (i = 1; i < argc; i++)
		if (!matched[i]) {
			fprintf(stderr, "%s: no test named %s\n", argv[0], argv[i]);
			return 2;
		}
	return 0;
}

/* The harness's main, running the tests the arguments choose. */
#define TP_HARNESS_MAIN \
	int main(int argc, char **argv) \
	{ \
		int err = tp_choose_tests(argc, argv); \
		return err ?: test_harness_run(argc, argv); \
	}

#endif /* TSCPROBE_SELFTEST_H */
