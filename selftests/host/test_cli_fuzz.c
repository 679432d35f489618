// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI against random command lines, on the host: every subcommand with
 * options, values and operands drawn from what it takes and from what it
 * should refuse (empty, huge and negative numbers, long strings, bytes
 * that are not text, options of other commands, missing and attached
 * values).  Whatever it gets, the CLI must not crash (no signal, no
 * AddressSanitizer/UBSan/LeakSanitizer report when built with them: make
 * host-test-asan), must answer in one line, and may only
 *
 *   exit 0  for --help and --version,
 *   exit 2  "tscprobe: ..." for a command line it refuses,
 *   exit 3  "tscprobe module is not loaded: ..." for one it accepts: the
 *           host has no module, so nothing is ever measured.
 *
 * --user would measure in userspace: the generator never produces it (nor
 * an abbreviation getopt would take for it).  The CLI is the one built
 * next to this program ($(BUILD)/tscprobe).  TP_ARGFUZZ_SEED repeats a run,
 * TP_ARGFUZZ_COUNT sets the number of command lines (default 600).
 *
 * LeakSanitizer's check at exit costs ~70 ms a run here, three times the
 * rest of a sanitized run: it is on for every eighth command line.
 */
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_path.h"
#include "kselftest_harness.h"
#include "prng.h"

extern char **environ;

#define AF_MAX_ARGS	12
#define AF_ERR_MAX	(64 * 1024)
#define AF_SHOWN	10

static const char *const af_values[] = {
	"0", "1", "3", "0-3", "3-0", "1,3", "0-8191", "8191", "8192", "65535",
	"4294967296", "18446744073709551615", "18446744073709551616",
	"99999999999999999999999999999", "-1", "-0", "+1", "1e3", "1e999",
	"0x10", "010", "nan", "inf", "-inf", "1.", ".5", "1..5", "1.5s", "10ms",
	"1us", "1ns", "0s", "24h", "25h", "86400s", "86400.000000001s", "1m",
	"2m30s", "1h1h", "60c", "0c", "c", "99999999999999999999c", "1cycles",
	"lfence", "rdtscp", "mfence", "plain", "LFENCE", "on", "off", "ON",
	"memmove", "stream", "cpu",
	"noise", "cache", "skew", "", " ", "\t", "\n", "%s%s%s%n", "-", "--",
	"=", ",", ",,", "1,", ",1", "1-", "-1-2", "0-", "1 2", "\xff\xfe",
	"\xc3\xa9t\xc3\xa9", "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0",
	"p99.99:20us", "max:5000c", "p99:", "sync", "cached.p99:40ns",
	":1us", "p50:0ns",
};

/*
 * Options each command takes; "=" marks one that takes a value.  -h and
 * --help (exit 0 at once) are drawn separately, and seldom.
 */
static const char *const af_info[] = { "-j", "--json", NULL };
static const char *const af_noise[] = {
	"-c=", "--cpus=", "-d=", "--duration=", "--irqs=", "--width=",
	"--gap=", "--threshold=", "--clock=", "-j", "--json", "-q", "--quiet",
	"--fail-above=", "--limits=", "--dma-latency=", "--load=",
	"--load-cpus=", "--priority=", NULL,
};
static const char *const af_status[] = { "-j", "--json", NULL };
static const char *const af_stop[] = { "-j", NULL };
static const char *const af_show[] = {
	"-j", "--json", "--fail-above=", "--limits=", NULL,
};

static const struct {
	const char *name;
	const char *const *opts;
} af_cmds[] = {
	{ "info", af_info }, { "noise", af_noise }, { "status", af_status },
	{ "stop", af_stop }, { "show", af_show },
};

#define AF_NCMDS	(sizeof(af_cmds) / sizeof(af_cmds[0]))

/**
 * struct af - one fuzzing session
 * @rng: the generator
 * @cli: path of the CLI
 * @argv: the command line being built (strings in @store)
 * @argc: its length
 * @store: the strings
 * @used: bytes of @store in use
 * @err: what the CLI wrote on stderr
 * @errlen: its length
 * @shown: failures printed so far
 */
struct af {
	uint64_t rng;
	char cli[PATH_MAX + 16];
	char *argv[AF_MAX_ARGS + 2];
	int argc;
	char store[64 * 1024];
	size_t used;
	char err[AF_ERR_MAX];
	size_t errlen;
	int shown;
};

static uint64_t af_r(struct af *a, uint64_t n)
{
	return tr_below(&a->rng, n);
}

/* Keep a copy of @len bytes of @s as the next argument. */
static void af_push(struct af *a, const char *s, size_t len)
{
	char *p;

	if (a->argc >= AF_MAX_ARGS + 1 || a->used + len + 1 > sizeof(a->store))
		return;
	p = a->store + a->used;
	memcpy(p, s, len);
	p[len] = '\0';
	a->used += len + 1;
	a->argv[a->argc++] = p;
}

/* A random string: digits, letters, punctuation or any byte but NUL. */
static size_t af_garbage(struct af *a, char *buf, size_t cap)
{
	static const char *const alphabets[] = {
		"0123456789", "abcdefghijklmnopqrstuvwxyz-,.=",
		"0123456789,-", "0123456789.smuhnc",
	};
	size_t len = (size_t)tr_log(&a->rng, 13) - 1, i;
	unsigned int kind = (unsigned int)af_r(a, 5);

	len = len >= cap ? cap - 1 : len;
	for (i = 0; i < len; i++) {
		if (kind == 4) {
			buf[i] = (char)(1 + af_r(a, 255));
		} else {
			const char *al = alphabets[kind];

			buf[i] = al[af_r(a, strlen(al))];
		}
	}
	buf[len] = '\0';
	return len;
}

static void af_value(struct af *a, char *buf, size_t cap)
{
	if (af_r(a, 3)) {
		snprintf(buf, cap, "%s", af_values[af_r(a, sizeof(af_values) /
							  sizeof(af_values[0]))]);
		return;
	}
	af_garbage(a, buf, cap);
}

/*
 * True for what getopt_long() could take for --user (the option and its
 * unambiguous abbreviations), which would start a real measurement.
 */
static bool af_is_user(const char *s)
{
	return !strncmp(s, "--u", 3);
}

/* One option of @opts, with or without its value, or a stray one. */
static void af_option(struct af *a, const char *const *opts)
{
	char opt[64], val[8192], both[8192 + 64];
	const char *o;
	size_t n = 0, len;
	bool takes;

	while (opts[n])
		n++;
	switch (af_r(a, 30)) {
	case 0: {
		const char *h = af_r(a, 2) ? "-h" : "--help";

		af_push(a, h, strlen(h));
		return;
	}
	case 1:
	case 2:
	case 3:
		/* An option of another command. */
		opts = af_cmds[af_r(a, AF_NCMDS)].opts;
		for (n = 0; opts[n]; n++)
			;
		break;
	case 4:
	case 5:
	case 6:
		/* A made-up one. */
		len = af_garbage(a, val, 32);
		snprintf(opt, sizeof(opt), "%s%.*s", af_r(a, 2) ? "--" : "-",
			 (int)len, val);
		if (!af_is_user(opt))
			af_push(a, opt, strlen(opt));
		return;
	default:
		break;
	}
	o = opts[af_r(a, n)];
	len = strlen(o);
	takes = o[len - 1] == '=';
	snprintf(opt, sizeof(opt), "%.*s", (int)(takes ? len - 1 : len), o);
	if (!takes) {
		af_push(a, opt, strlen(opt));
		return;
	}
	af_value(a, val, sizeof(val));
	switch (af_r(a, 7)) {
	case 0:
		/* Attached: -c0, --cpus=0. */
		snprintf(both, sizeof(both), "%s%s%s", opt,
			 opt[1] == '-' ? "=" : "", val);
		af_push(a, both, strlen(both));
		return;
	case 1:
		/* Missing: the option ends the command line. */
		af_push(a, opt, strlen(opt));
		return;
	default:
		af_push(a, opt, strlen(opt));
		af_push(a, val, strlen(val));
	}
}

/* A random command line in a->argv. */
static void af_generate(struct af *a)
{
	char buf[8192];
	unsigned int n, i, c;

	a->argc = 0;
	a->used = 0;
	af_push(a, "tscprobe", 8);
	c = (unsigned int)af_r(a, AF_NCMDS);
	switch (af_r(a, 20)) {
	case 0: {
		const char *g = af_r(a, 2) ? "--version" : "--help";

		af_push(a, g, strlen(g));
		break;
	}
	case 1:
		af_value(a, buf, sizeof(buf));
		if (!af_is_user(buf))
			af_push(a, buf, strlen(buf));
		break;
	default:
		af_push(a, af_cmds[c].name, strlen(af_cmds[c].name));
	}
	n = (unsigned int)af_r(a, 8);
	for (i = 0; i < n; i++) {
		if (af_r(a, 5)) {
			af_option(a, af_cmds[c].opts);
		} else {
			af_value(a, buf, sizeof(buf));
			if (!af_is_user(buf))
				af_push(a, buf, strlen(buf));
		}
	}
	a->argv[a->argc] = NULL;
}

/* Run the CLI; its stderr in a->err; -1 on a hang (it is killed). */
static int af_run(struct af *a, int *status)
{
	posix_spawn_file_actions_t fa;
	struct pollfd pfd;
	int fds[2], ret = 0;
	ssize_t n;
	pid_t pid;
	time_t end = time(NULL) + 20;

	a->errlen = 0;
	if (pipe2(fds, O_CLOEXEC))
		return -2;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	if (posix_spawn(&pid, a->cli, &fa, NULL, a->argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return -2;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	for (;;) {
		if (time(NULL) > end) {
			kill(pid, SIGKILL);
			ret = -1;
			break;
		}
		if (poll(&pfd, 1, 1000) <= 0)
			continue;
		n = read(fds[0], a->err + a->errlen, sizeof(a->err) - 1 - a->errlen);
		if (n <= 0)
			break;
		a->errlen += (size_t)n;
		if (a->errlen == sizeof(a->err) - 1)
			break;
	}
	a->err[a->errlen] = '\0';
	close(fds[0]);
	waitpid(pid, status, 0);
	return ret;
}

static void af_show_argv(struct af *a, const char *why)
{
	int i;

	if (a->shown++ >= AF_SHOWN)
		return;
	fprintf(stderr, "# argfuzz: %s:", why);
	for (i = 1; i < a->argc; i++) {
		const unsigned char *p = (const unsigned char *)a->argv[i];

		fputs(" '", stderr);
		for (; *p && p - (const unsigned char *)a->argv[i] < 80; p++)
			if (*p >= 32 && *p < 127 && *p != '\'')
				fputc(*p, stderr);
			else
				fprintf(stderr, "\\x%02x", *p);
		fputc('\'', stderr);
	}
	fprintf(stderr, "\n#   stderr: %.300s\n", a->err);
}

static int af_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Judge one run; true when it behaved. */
static bool af_judge(struct af *a, int hang, int status)
{
	int code;

	if (hang) {
		af_show_argv(a, hang == -1 ? "no exit within 20 s" : "cannot run the CLI");
		return false;
	}
	if (WIFSIGNALED(status)) {
		af_show_argv(a, strsignal(WTERMSIG(status)));
		return false;
	}
	if (strstr(a->err, "Sanitizer") || strstr(a->err, "runtime error")) {
		af_show_argv(a, "sanitizer report");
		return false;
	}
	code = WEXITSTATUS(status);
	switch (code) {
	case 0:
		if (a->errlen) {
			af_show_argv(a, "exit 0 with a message");
			return false;
		}
		return true;
	case 2:
		if (strncmp(a->err, "tscprobe: ", 10) || af_lines(a->err) != 1 ||
		    a->err[a->errlen - 1] != '\n') {
			af_show_argv(a, "exit 2 without one 'tscprobe: ' line");
			return false;
		}
		return true;
	case 3:
		if (strncmp(a->err, "tscprobe module is not loaded", 29) ||
		    af_lines(a->err) != 1) {
			af_show_argv(a, "exit 3 without one line");
			return false;
		}
		return true;
	default:
		af_show_argv(a, "unexpected exit status");
		fprintf(stderr, "#   (exit %d)\n", code);
		return false;
	}
}

FIXTURE(argfuzz) {
	struct af *a;
};

FIXTURE_SETUP(argfuzz)
{
	self->a = calloc(1, sizeof(*self->a));
	ASSERT_NE(NULL, self->a);
	ASSERT_EQ(0, tp_test_cli_path(self->a->cli, sizeof(self->a->cli))) TH_LOG("no CLI next to the tests");
}

FIXTURE_TEARDOWN(argfuzz)
{
	free(self->a);
}

TEST_F_TIMEOUT(argfuzz, random_command_lines, 900)
{
	const char *s = getenv("TP_ARGFUZZ_SEED");
	const char *c = getenv("TP_ARGFUZZ_COUNT");
	unsigned long count = c && *c ? strtoul(c, NULL, 0) : 600, i, bad = 0;
	unsigned long by_exit[4] = { 0 };
	struct af *a = self->a;
	struct timespec t0, t1;
	uint64_t seed;
	int status, hang;

	if (!access("/sys/module/tscprobe", F_OK))
		SKIP(return, "the module is loaded here: accepted command lines would measure");
	seed = s && *s ? strtoull(s, NULL, 0) :
		(uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	a->rng = seed ? seed : 1;
	fprintf(stderr, "# argfuzz: seed 0x%llx (TP_ARGFUZZ_SEED), %lu command lines against %s\n",
		(unsigned long long)seed, count, a->cli);
	/* A sanitizer's report ends the process with a status of its own. */
	setenv("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:exitcode=98", 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < count; i++) {
		setenv("ASAN_OPTIONS", i % 8 ? "detect_leaks=0:exitcode=97" :
		       "detect_leaks=1:exitcode=97", 1);
		af_generate(a);
		hang = af_run(a, &status);
		if (!af_judge(a, hang, status))
			bad++;
		else if (WEXITSTATUS(status) < 4)
			by_exit[WEXITSTATUS(status)]++;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "# argfuzz: %lu runs in %.1f s: %lu exit 0, %lu exit 2, %lu exit 3, %lu misbehaved\n",
		count, (double)(t1.tv_sec - t0.tv_sec) +
		(t1.tv_nsec - t0.tv_nsec) / 1e9, by_exit[0], by_exit[2],
		by_exit[3], bad);
	EXPECT_EQ(0, bad);
	/* Both refusals and accepted command lines were tried. */
	EXPECT_GT(by_exit[2], count / 10);
	EXPECT_GT(by_exit[3], count / 50);
}

TEST_HARNESS_MAIN
