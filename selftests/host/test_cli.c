// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the CLI's own code: CPU lists, durations, thresholds and
 * numbers, the JSON writer (its output parsed back by jq), the
 * /proc/interrupts reader (on a synthetic file), and the netlink
 * attribute names used in error messages.
 */
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "cli_path.h"
#include "user/lib/cli.h"
#include "user/lib/cpuset.h"
#include "user/lib/parse.h"
#include "user/lib/context.h"
#include "user/engines.h"
#include "user/lib/pinned.h"
#include "user/lib/json_write.h"
#include "core/names.h"

static void tp_cpus_round_trip(struct __test_metadata *_metadata,
			       const char *in, const char *canonical,
			       unsigned int count)
{
	struct tp_cpuset set;
	const char *why = NULL;
	char out[256];

	ASSERT_EQ(0, tp_parse_cpus(in, &set, &why)) TH_LOG("%s: %s", in, why);
	tp_cpuset_format(&set, out, sizeof(out));
	EXPECT_STREQ(canonical, out);
	EXPECT_EQ(count, tp_cpuset_count(&set));
}

TEST(cpu_lists)
{
	struct tp_cpuset set;
	const char *why;

	tp_cpus_round_trip(_metadata, "0", "0", 1);
	tp_cpus_round_trip(_metadata, "1,3,5-7", "1,3,5-7", 5);
	tp_cpus_round_trip(_metadata, "0-3,8", "0-3,8", 5);
	tp_cpus_round_trip(_metadata, "3,2,1,0", "0-3", 4);
	tp_cpus_round_trip(_metadata, "7-7", "7", 1);
	tp_cpus_round_trip(_metadata, "0-8191", "0-8191", 8192);
	EXPECT_TRUE(tp_parse_cpus("2-1", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("1,", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus(",1", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("1-", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("8192", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("a", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("1 2", &set, &why) < 0);
	EXPECT_TRUE(tp_parse_cpus("-1", &set, &why) < 0);
}

TEST(cpuset_bytes_are_the_contract_bitmap)
{
	struct tp_cpuset set;
	const char *why;

	ASSERT_EQ(0, tp_parse_cpus("0,9,15", &set, &why));
	EXPECT_EQ(2, set.nbytes);
	EXPECT_EQ(0x01, set.bits[0]);
	EXPECT_EQ(0x82, set.bits[1]);
	EXPECT_EQ(9, tp_cpuset_next(&set, 0));
	EXPECT_EQ(-1, tp_cpuset_next(&set, 15));
}

TEST(durations)
{
	static const struct { const char *s; uint64_t ns; } ok[] = {
		{ "500us", 500000 }, { "10s", 10000000000ULL },
		{ "2m", 120000000000ULL }, { "1h", 3600000000000ULL },
		{ "250ns", 250 }, { "100ms", 100000000 }, { "1.5s", 1500000000 },
		{ "0.1ms", 100000 }, { "0", 0 }, { "0.0", 0 },
		{ "1.000000001s", 1000000001 },
	};
	static const char *const bad[] = {
		"", "s", "10x", "1.s", ".5s", "10 s", "-1s", "1e3s", "1ss",
		"99999999999999999999s", "10", "1.5", "-0",
	};
	const char *why;
	uint64_t ns;
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		const char *s = ok[i].s ? ok[i].s : "";

		EXPECT_EQ(0, tp_parse_duration(s, &ns, &why)) TH_LOG("%s", s);
		EXPECT_EQ(ok[i].ns, ns) TH_LOG("%s", s);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *s = bad[i] ? bad[i] : "";

		EXPECT_EQ(-1, tp_parse_duration(s, &ns, &why)) TH_LOG("'%s'", s);
	}
}

TEST(thresholds)
{
	const char *why;
	uint64_t v;
	bool cycles;

	ASSERT_EQ(0, tp_parse_threshold("10us", &v, &cycles, &why));
	EXPECT_FALSE(cycles);
	EXPECT_EQ(10000, v);
	ASSERT_EQ(0, tp_parse_threshold("25000c", &v, &cycles, &why));
	EXPECT_TRUE(cycles);
	EXPECT_EQ(25000, v);
	ASSERT_EQ(0, tp_parse_threshold("7cycles", &v, &cycles, &why));
	EXPECT_TRUE(cycles);
	EXPECT_EQ(7, v);
	EXPECT_EQ(-1, tp_parse_threshold("0c", &v, &cycles, &why));
	EXPECT_EQ(-1, tp_parse_threshold("c", &v, &cycles, &why));
	EXPECT_EQ(-1, tp_parse_threshold("1.5c", &v, &cycles, &why));
}

/* A command line the CLI must refuse, and what its one line must say. */
struct tp_refusal {
	const char *args;
	const char *says;
};

/* Each of @n refusals: exit 2, one "tscprobe: " line that says its part. */
static void tp_expect_refusals(struct __test_metadata *_metadata,
			       const struct tp_refusal *cases, size_t n)
{
	char err[1024];
	size_t i;

	for (i = 0; i < n; i++) {
		EXPECT_EQ(1, tp_test_refused(cases[i].args, err, sizeof(err)))
			TH_LOG("%s: %s", cases[i].args, err);
		EXPECT_NE(NULL, strstr(err, cases[i].says))
			TH_LOG("%s: %s", cases[i].args, err);
	}
}

#define EXPECT_REFUSALS(cases)						\
	tp_expect_refusals(_metadata, cases, sizeof(cases) / sizeof((cases)[0]))

/*
 * A time takes its unit (only 0 goes without), and the reason for a bare
 * number offers it in units, cycles too where they are taken.
 */
TEST(a_time_needs_its_unit)
{
	const char *why = NULL;
	uint64_t v;
	bool cycles;

	ASSERT_EQ(-1, tp_parse_duration("10", &v, &why));
	EXPECT_NE(NULL, strstr(why, "needs a unit: 10us, 10ms or 10s")) TH_LOG("%s", why);
	ASSERT_EQ(-1, tp_parse_threshold("5000", &v, &cycles, &why));
	EXPECT_NE(NULL, strstr(why, "5000us")) TH_LOG("%s", why);
	EXPECT_NE(NULL, strstr(why, "5000c for TSC cycles")) TH_LOG("%s", why);
	ASSERT_EQ(-1, tp_parse_threshold("2.5", &v, &cycles, &why));
	EXPECT_EQ(NULL, strstr(why, "2.5c")) TH_LOG("%s", why);
	ASSERT_EQ(-1, tp_parse_duration("-1s", &v, &why));
	EXPECT_NE(NULL, strstr(why, "cannot be negative")) TH_LOG("%s", why);
	ASSERT_EQ(0, tp_parse_threshold("0", &v, &cycles, &why));
	EXPECT_EQ(0, v);
	EXPECT_FALSE(cycles);
}

/* Every option that takes a time refuses a bare number, in one line. */
TEST(time_options_refuse_bare_numbers)
{
	static const struct tp_refusal bare[] = {
		{ "noise -d 10", "needs a unit" },
		{ "noise --width 1", "needs a unit" },
		{ "noise --gap 100", "needs a unit" },
		{ "noise --threshold 5000", "needs a unit" },
		{ "noise --stop-at 5000", "needs a unit" },
		{ "noise --warm-up 1", "needs a unit" },
		{ "noise --fail-above 20", "needs a unit" },
		{ "noise --fail-above p99:20", "needs a unit" },
		{ "noise --dma-latency 20", "needs a unit" },
		{ "cache --dma-latency 20", "needs a unit" },
		{ "skew --dma-latency 20", "needs a unit" },
		{ "skew --fail-above 200", "needs a unit" },
		{ "noise -d -1s", "cannot be negative" },
	};

	EXPECT_REFUSALS(bare);
}

/* A refused number or time says the range it must be in. */
TEST(ranges_are_said)
{
	static const struct tp_refusal cases[] = {
		{ "skew -n 8", "must be 16 to 4096" },
		{ "skew -n x", "16 to 4096" },
		{ "skew -r 0", "must be 1 to 1000" },
		{ "cache -n 0", "must be 1 to 1000000000" },
		{ "cache --batch 2000000", "must be 1 to 1000000" },
		{ "noise --deepest-idle-state 16", "must be 0 to 15" },
		{ "noise --dma-latency 1500ns", "whole microseconds, 0 to 2000s" },
		{ "monitor --run 0", "must be at least 1" },
		{ "noise -d 25h", "must be 1ms to 24h" },
		{ "noise --width 5us", "must be 10us to 1s" },
		{ "noise --warm-up 2h", "to 1h" },
	};

	EXPECT_REFUSALS(cases);
}

/*
 * A CPU that is not there is refused alike by every command that takes
 * CPUs: one line naming it and the CPUs there are, exit 2.
 */
TEST(cpus_not_there_are_refused_alike)
{
	static const struct tp_refusal cases[] = {
		{ "noise -c 8191", "-c: CPU 8191 is not online (online: 0" },
		{ "cache -c 8191", "-c: CPU 8191 is not online (online: 0" },
		{ "skew -c 0,8191", "-c: CPU 8191 is not online (online: 0" },
		{ "env -c 8191", "-c: CPU 8191 is not present (present: 0" },
		{ "noise --load cpu --load-cpus 8191 -c 0",
		  "--load-cpus: CPU 8191 is not online (online: 0" },
		{ "cache --user --load cpu --load-cpus 8191 -c 0",
		  "--load-cpus: CPU 8191 is not online (online: 0" },
	};

	EXPECT_REFUSALS(cases);
}

TEST(nearest_name)
{
	static const struct option opts[] = {
		{ "threshold", required_argument, NULL, 1 },
		{ "duration", required_argument, NULL, 2 },
		{ "user", no_argument, NULL, 3 },
		{ NULL, 0, NULL, 0 },
	};
	const size_t n = sizeof(opts) / sizeof(opts[0]), w = sizeof(opts[0]);

	EXPECT_STREQ("threshold", tp_nearest("treshold", opts, n, w));
	EXPECT_STREQ("threshold", tp_nearest("threshhold=5us", opts, n, w));
	EXPECT_STREQ("duration", tp_nearest("duratoin", opts, n, w));
	EXPECT_STREQ("duration", tp_nearest("dur", opts, n, w));
	EXPECT_STREQ("user", tp_nearest("usr", opts, n, w));
	EXPECT_EQ(NULL, tp_nearest("u", opts, n, w));
	EXPECT_EQ(NULL, tp_nearest("xyzzy", opts, n, w));
	EXPECT_EQ(NULL, tp_nearest("us3r2", opts, n, w));
}

/* An unknown command or option is answered with the nearest one. */
TEST(unknown_words_get_the_nearest)
{
	static const struct tp_refusal cases[] = {
		{ "nosie", "unknown command 'nosie' (did you mean 'noise'?)" },
		{ "moniter", "(did you mean 'monitor'?)" },
		{ "sho", "(did you mean 'show'?)" },
		{ "noise --treshold 5us", "unknown option '--treshold' (did you mean '--threshold'?)" },
		{ "skew --sampels 20", "(did you mean '--samples'?)" },
		{ "noise --s", "option '--s' is ambiguous: --stop-at, --svg" },
		{ "noise --user=1", "option '--user' takes no value" },
	};
	char err[1024];

	EXPECT_REFUSALS(cases);
	EXPECT_EQ(1, tp_test_refused("xyzzy", err, sizeof(err)));
	EXPECT_EQ(NULL, strstr(err, "did you mean")) TH_LOG("%s", err);
	EXPECT_EQ(1, tp_test_refused("noise --bogus", err, sizeof(err)));
	EXPECT_EQ(NULL, strstr(err, "did you mean")) TH_LOG("%s", err);
}

/* The host has no module; where one is loaded, these are left out. */
static bool tp_test_no_module(void)
{
	char err[1024];

	return tp_test_run_cli("info", err, sizeof(err)) == TP_EXIT_NOMODULE;
}

/*
 * Without the module, a measuring command says how to load it and that
 * --user measures without it, in one line, exit 3.
 */
TEST(without_the_module_say_how_to_load_it)
{
	char err[1024];

	if (!tp_test_no_module())
		SKIP(return, "the module is loaded here");
	EXPECT_EQ(TP_EXIT_NOMODULE, tp_test_run_cli("noise -c 0 -d 1s", err, sizeof(err)));
	EXPECT_EQ(0, strncmp(err, "tscprobe module is not loaded: ", 31)) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "modprobe tscprobe")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "--user")) TH_LOG("%s", err);
	EXPECT_EQ(strlen(err) - 1, strcspn(err, "\n")) TH_LOG("%s", err);
}

/*
 * noise --compare without the module compares nothing: it says so before
 * it measures and exits 3, so that CI never takes one engine for a
 * comparison.
 */
TEST(compare_without_the_module_fails)
{
	struct timespec t0, t1;
	char err[1024];

	if (!tp_test_no_module())
		SKIP(return, "the module is loaded here");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(TP_EXIT_NOMODULE,
		  tp_test_run_cli("noise --compare -c 0 -d 3s -q", err, sizeof(err)));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_NE(NULL, strstr(err, "--compare")) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "--user")) TH_LOG("%s", err);
	EXPECT_EQ(strlen(err) - 1, strcspn(err, "\n")) TH_LOG("%s", err);
	EXPECT_GT(3, t1.tv_sec - t0.tv_sec) TH_LOG("it measured first");
}

/* The first @len bytes of @path, NUL-terminated; "" when it is absent. */
static void tp_test_slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/*
 * --svg FILE that cannot be written is refused before the run (not after
 * it), and the check leaves nothing behind: no empty file where there was
 * none, an existing file as it was.
 */
TEST(svg_is_checked_before_the_run)
{
	char dir[] = "/tmp/tp-svg-XXXXXX", args[256], path[128], err[1024];
	struct timespec t0, t1;
	FILE *f;

	ASSERT_NE(NULL, mkdtemp(dir));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	EXPECT_EQ(1, tp_test_refused("noise --user -c 0 -d 3s -q --svg /nonexistent/x.svg",
				     err, sizeof(err))) TH_LOG("%s", err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_GT(3, t1.tv_sec - t0.tv_sec) TH_LOG("it measured first");
	EXPECT_NE(NULL, strstr(err, "--svg '/nonexistent/x.svg': No such file"))
		TH_LOG("%s", err);
	snprintf(args, sizeof(args), "cache --user -c 0 -n 1e4 -q --svg %s", dir);
	EXPECT_EQ(1, tp_test_refused(args, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "Is a directory")) TH_LOG("%s", err);
	if (tp_test_no_module()) {
		/* Accepted, then the run fails: nothing may be left behind. */
		snprintf(path, sizeof(path), "%s/new.svg", dir);
		snprintf(args, sizeof(args), "noise -c 0 --svg %s", path);
		EXPECT_EQ(TP_EXIT_NOMODULE, tp_test_run_cli(args, err, sizeof(err)));
		EXPECT_NE(0, access(path, F_OK)) TH_LOG("%s was left behind", path);
		snprintf(path, sizeof(path), "%s/old.svg", dir);
		f = fopen(path, "w");
		ASSERT_NE(NULL, f);
		fputs("kept", f);
		fclose(f);
		snprintf(args, sizeof(args), "cache -c 0 --svg %s", path);
		EXPECT_EQ(TP_EXIT_NOMODULE, tp_test_run_cli(args, err, sizeof(err)));
		tp_test_slurp(path, err, sizeof(err));
		EXPECT_STREQ("kept", err);
		unlink(path);
	}
	rmdir(dir);
}

/* sh -c @cmd: its exit status, and its standard error in @err. */
static int tp_test_sh(const char *cmd, char *err, size_t len)
{
	char line[PATH_MAX + 1024];
	size_t n;
	FILE *p;
	int status;

	snprintf(line, sizeof(line), "%s 2>&1 >/dev/null", cmd);
	p = popen(line, "r");
	if (!p)
		return -1;
	n = fread(err, 1, len - 1, p);
	err[n] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/*
 * --priority N is the userspace engine's, 1 to 99, and refused without
 * the privilege before anything runs (exit 5).
 */
TEST(priority_is_refused_cleanly)
{
	static const char *const bad[] = {
		"noise --priority 50", "skew --priority 50 -c 0-1",
		"noise --user --priority 0", "cache --user --priority 100",
		"noise --user --priority x", "noise --compare --priority 5",
	};
	struct rlimit none = { 0, 0 };
	char cli[PATH_MAX], cmd[PATH_MAX + 256], err[1024];

	EXPECT_ALL_REFUSED(bad);
	if (geteuid() || system("command -v setpriv >/dev/null"))
		SKIP(return, "needs root and setpriv to drop CAP_SYS_NICE");
	ASSERT_EQ(0, tp_test_cli_path(cli, sizeof(cli)));
	/* Root without CAP_SYS_NICE, and no RLIMIT_RTPRIO: not permitted. */
	ASSERT_EQ(0, setrlimit(RLIMIT_RTPRIO, &none));
	snprintf(cmd, sizeof(cmd),
		 "setpriv --bounding-set=-sys_nice %s noise --user -c 0 -d 3s -q --priority 10",
		 cli);
	EXPECT_EQ(TP_EXIT_PERM, tp_test_sh(cmd, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "--priority 10: not permitted")) TH_LOG("%s", err);
	EXPECT_EQ(strlen(err) - 1, strcspn(err, "\n")) TH_LOG("%s", err);
}

/* What a measuring thread runs at, seen from inside it. */
static int tp_seen_policy = -1, tp_seen_priority = -1;

static void tp_record_sched(struct tp_pinned *t, bool left)
{
	struct sched_param sp;
	int policy;

	if (left || pthread_getschedparam(pthread_self(), &policy, &sp))
		return;
	__atomic_store_n(&tp_seen_policy, policy, __ATOMIC_RELAXED);
	__atomic_store_n(&tp_seen_priority, sp.sched_priority, __ATOMIC_RELAXED);
}

/* The userspace engine's threads measure at SCHED_FIFO --priority. */
TEST(priority_runs_the_threads_sched_fifo)
{
	struct tp_run_params p = {
		.duration_ns = 50000000, .width_ns = 10000000,
		.gap_ns = 100000, .threshold_ns = 10000,
		.clock = TSCPROBE_CLOCK_LFENCE, .priority = 10,
	};
	struct tp_cpuset cpus = { .nbytes = 0 };
	struct tp_result res;

	if (tp_fifo_allowed(10))
		SKIP(return, "SCHED_FIFO is not permitted here");
	tp_cpuset_add(&cpus, 0);
	tp_result_init(&res, TSCPROBE_KIND_NOISE);
	tp_pinned_end_hook = tp_record_sched;
	EXPECT_EQ(TP_EXIT_OK, tp_user_noise(&cpus, &p, true, &res));
	tp_pinned_end_hook = NULL;
	EXPECT_EQ(SCHED_FIFO, tp_seen_policy);
	EXPECT_EQ(10, tp_seen_priority);
	EXPECT_EQ(10, res.cli.priority);
	tp_result_free(&res);
}

/* The report says the priority: a text line, JSON's fifo_priority. */
TEST(priority_is_in_the_report)
{
	char cli[PATH_MAX], cmd[PATH_MAX + 256];

	if (tp_fifo_allowed(10))
		SKIP(return, "SCHED_FIFO is not permitted here");
	ASSERT_EQ(0, tp_test_cli_path(cli, sizeof(cli)));
	snprintf(cmd, sizeof(cmd),
		 "%s noise --user -c 0 -d 50ms -q --priority 10 | grep -qx 'threads: SCHED_FIFO priority 10 on the measured CPUs (--priority)'",
		 cli);
	EXPECT_EQ(0, system(cmd));
	snprintf(cmd, sizeof(cmd),
		 "%s cache --user -c 0 -n 1e4 -q -j --priority 10 | jq -e '.fifo_priority == 10' >/dev/null",
		 cli);
	EXPECT_EQ(0, system(cmd));
	snprintf(cmd, sizeof(cmd),
		 "%s noise --user -c 0 -d 50ms -q -j | jq -e '.fifo_priority == null' >/dev/null",
		 cli);
	EXPECT_EQ(0, system(cmd));
}

/*
 * The userspace engine's counts are per window: an event gets a cause
 * only from a window where none moved (and then its counters are 0); in
 * any other window it has none, and the moved counter is unknown for it.
 */
TEST(user_engine_causes_only_what_a_window_rules_out)
{
	static const struct {
		struct tp_cpu_window win;
		bool caused;
		uint16_t valid;
	} cases[] = {
		{ { true, 0, true, 0 }, true, TP_EVENT_IRQ | TP_EVENT_STEAL },
		{ { true, 25, true, 0 }, false, TP_EVENT_STEAL },
		{ { true, 0, true, 4000000 }, false, TP_EVENT_IRQ },
		{ { true, 1, true, 1 }, false, 0 },
		{ { false, 0, true, 0 }, true, TP_EVENT_STEAL },
		{ { false, 0, false, 0 }, true, 0 },
	};
	struct tp_event ev;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&ev, 0xff, sizeof(ev));
		EXPECT_EQ(cases[i].caused, tp_user_event_cause(&cases[i].win, &ev))
			TH_LOG("case %zu", i);
		EXPECT_EQ(cases[i].caused ? TSCPROBE_CAUSE_UNEXPLAINED :
			  TSCPROBE_CAUSE_NONE, ev.cause) TH_LOG("case %zu", i);
		EXPECT_EQ(cases[i].valid, ev.valid) TH_LOG("case %zu", i);
		EXPECT_EQ(0, ev.irq);
		EXPECT_EQ(0, ev.steal_ns);
	}
}

/*
 * Live: no event of the userspace engine is blamed on irq or steal (every
 * window of a CPU with a tick counts interrupts), and an event with a
 * cause has its counters at 0; the per-CPU irq and steal causes are
 * unknown.
 */
TEST(user_engine_blames_no_event_on_a_window)
{
	char cli[PATH_MAX], cmd[PATH_MAX + 512];

	ASSERT_EQ(0, tp_test_cli_path(cli, sizeof(cli)));
	snprintf(cmd, sizeof(cmd),
		 "%s noise --user -c 0 -d 300ms --threshold 1us -q -j | jq -e '"
		 "[.cpus[].events[]] as $e | ($e | length) > 0 and "
		 "all($e[]; .cause == null or (.cause == \"unexplained\" and "
		 "(.irq // 0) == 0 and (.steal_ns // 0) == 0)) and "
		 "all(.cpus[]; .causes.irq == null and .causes.steal == null)' >/dev/null",
		 cli);
	EXPECT_EQ(0, system(cmd));
}

TEST(bounded_numbers)
{
	const char *why;
	uint64_t v;

	EXPECT_EQ(0, tp_parse_u64("1000000", 1, 1000000000, &v, &why));
	EXPECT_EQ(1000000, v);
	EXPECT_EQ(0, tp_parse_u64("1e6", 1, 1000000000, &v, &why));
	EXPECT_EQ(1000000, v);
	EXPECT_EQ(-1, tp_parse_u64("0", 1, 10, &v, &why));
	EXPECT_EQ(-1, tp_parse_u64("11", 1, 10, &v, &why));
	EXPECT_EQ(-1, tp_parse_u64("1x", 1, 10, &v, &why));
	EXPECT_EQ(-1, tp_parse_u64("", 1, 10, &v, &why));
	EXPECT_EQ(-1, tp_parse_u64("18446744073709551616", 0, UINT64_MAX, &v, &why));
}

/* Write a document with every kind of value and awkward strings. */
static void tp_write_sample(FILE *f)
{
	struct jw j;

	jw_init(&j, f);
	jw_obj(&j, NULL);
	jw_str(&j, "text", "quote \" backslash \\ tab \t newline \n bell \a");
	jw_u64(&j, "big", UINT64_MAX);
	jw_i64(&j, "negative", -42);
	jw_double(&j, "ratio", 0.25);
	jw_double(&j, "nan", 0.0 / 0.0);
	jw_bool(&j, "yes", true);
	jw_null(&j, "nothing");
	jw_arr(&j, "empty");
	jw_arr_end(&j);
	jw_obj(&j, "empty_obj");
	jw_obj_end(&j);
	jw_arr(&j, "list");
	jw_u64(&j, NULL, 1);
	jw_obj(&j, NULL);
	jw_str(&j, "k", "v");
	jw_obj_end(&j);
	jw_arr_end(&j);
	jw_obj_end(&j);
	jw_finish(&j);
}

TEST(json_is_well_formed)
{
	char path[] = "/tmp/tp-json-XXXXXX";
	char cmd[512];
	FILE *f;
	int fd;

	fd = mkstemp(path);
	ASSERT_GE(fd, 0);
	f = fdopen(fd, "w");
	ASSERT_NE(NULL, f);
	tp_write_sample(f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 "jq -e '.text == \"quote \\\" backslash \\\\ tab \\t newline \\n bell \\u0007\""
		 " and .big == 18446744073709551615 and .negative == -42"
		 " and .ratio == 0.25 and .nan == null and .yes == true"
		 " and .nothing == null and .empty == [] and .empty_obj == {}"
		 " and .list == [1, {\"k\": \"v\"}]' %s >/dev/null", path);
	EXPECT_EQ(0, system(cmd));
	unlink(path);
}

TEST(proc_interrupts)
{
	static const char text[] =
		"           CPU0       CPU1       CPU3\n"
		"  0:         10          0          5   IO-APIC    2-edge      timer\n"
		"  8:          1          2          3   IO-APIC    8-edge      rtc0\n"
		"NMI:          4          0          7   Non-maskable interrupts\n"
		"LOC:        100        200        300   Local timer interrupts\n"
		"RES:          1          1          1   Rescheduling interrupts\n"
		"ERR:          9\n"
		"MIS:          0\n";
	char path[] = "/tmp/tp-irq-XXXXXX";
	struct tp_irq_counts *k = calloc(1, sizeof(*k));
	int fd = mkstemp(path);

	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)strlen(text), write(fd, text, strlen(text)));
	close(fd);
	ASSERT_EQ(0, tp_read_proc_interrupts(path, k));
	EXPECT_TRUE(k->seen[0] && k->seen[1] && k->seen[3]);
	EXPECT_FALSE(k->seen[2]);
	EXPECT_EQ(10 + 1, k->cat[TP_IRQ_DEV][0]);
	EXPECT_EQ(0 + 2, k->cat[TP_IRQ_DEV][1]);
	EXPECT_EQ(5 + 3, k->cat[TP_IRQ_DEV][3]);
	EXPECT_EQ(100, k->cat[TP_IRQ_LOC][0]);
	EXPECT_EQ(300, k->cat[TP_IRQ_LOC][3]);
	EXPECT_EQ(1, k->cat[TP_IRQ_RES][1]);
	EXPECT_EQ(4, k->cat[TP_IRQ_NMI][0]);
	EXPECT_EQ(7, k->cat[TP_IRQ_NMI][3]);
	EXPECT_EQ(0, k->cat[TP_IRQ_OTHER][0]);
	EXPECT_EQ(-1, tp_read_proc_interrupts("/nonexistent", k));
	unlink(path);
	free(k);
}

/*
 * The userspace engine's "irq": every row but NMI, PMI (the performance-
 * monitoring interrupt, delivered as an NMI and counted in NMI too), TLB
 * (counted in CAL too) and the rows that are no interrupts, modulo 2^32
 * across a count that wrapped between the two readings.
 */
TEST(interrupts_taken_skip_tlb_and_wrap)
{
	static const char before[] =
		"           CPU0\n"
		"  1:  4294967290   IO-APIC    1-edge      i8042\n"
		"LOC:        100   Local timer interrupts\n"
		"TLB:         50   TLB shootdowns\n"
		"CAL:         60   Function call interrupts\n"
		"RTR:          7   APIC ICR read retries\n"
		"MCP:          9   Machine check polls\n"
		"NMI:          1   Non-maskable interrupts\n"
		"PMI:          0   Performance monitoring interrupts\n";
	static const char after[] =
		"           CPU0\n"
		"  1:          4   IO-APIC    1-edge      i8042\n"
		"LOC:        110   Local timer interrupts\n"
		"TLB:         53   TLB shootdowns\n"
		"CAL:         63   Function call interrupts\n"
		"RTR:         17   APIC ICR read retries\n"
		"MCP:         19   Machine check polls\n"
		"NMI:          5   Non-maskable interrupts\n"
		"PMI:          3   Performance monitoring interrupts\n";
	const char *text[2] = { before, after };
	struct tp_context *x = calloc(1, sizeof(*x));
	struct tp_irq_counts *k[2] = { &x->before, &x->after };
	int i;

	for (i = 0; i < 2; i++) {
		char path[] = "/tmp/tp-irq-XXXXXX";
		int fd = mkstemp(path);

		ASSERT_GE(fd, 0);
		ASSERT_EQ((ssize_t)strlen(text[i]), write(fd, text[i], strlen(text[i])));
		close(fd);
		ASSERT_EQ(0, tp_read_proc_interrupts(path, k[i]));
		unlink(path);
	}
	x->have_irqs = true;
	EXPECT_EQ(0, tp_irq_delta(x, TP_IRQ_OTHER, 0));
	EXPECT_EQ(10, tp_irq_delta(x, TP_IRQ_DEV, 0));
	EXPECT_EQ(3, tp_irq_delta(x, TP_IRQ_TLB, 0));
	/* 3 of the 4 NMIs were PMIs: once, as NMIs */
	EXPECT_EQ(4, tp_irq_delta(x, TP_IRQ_NMI, 0));
	/* devices 10 (one wrapped), LOC 10, CAL 3; not TLB, RTR, MCP, NMI, PMI */
	EXPECT_EQ(10 + 10 + 3, tp_irq_delta_all(x, 0));
	free(x);
}

TEST(names_round_trip)
{
	unsigned int v;

	for (v = 0; v <= TSCPROBE_CLOCK_MAX; v++)
		EXPECT_EQ((int)v, tp_name_lookup(tp_clock_name, TSCPROBE_CLOCK_MAX,
						 tp_clock_name(v)));
	for (v = 1; v <= TSCPROBE_A_MAX; v++)
		EXPECT_STRNE("?", tp_attr_name(v)) TH_LOG("attribute %u", v);
	for (v = 0; v < TP_FEATURE_BITS; v++)
		EXPECT_STRNE("?", tp_feature_name(v));
	for (v = 0; v <= TSCPROBE_SMI_SOURCE_MAX; v++)
		EXPECT_EQ((int)v, tp_name_lookup(tp_smi_source_name,
						 TSCPROBE_SMI_SOURCE_MAX,
						 tp_smi_source_name(v)));
	EXPECT_STREQ("perf", tp_smi_source_name(TSCPROBE_SMI_SOURCE_PERF));
	EXPECT_STREQ("?", tp_smi_source_name(TSCPROBE_SMI_SOURCE_MAX + 1));
	EXPECT_STREQ("smi_pmu",
		     tp_feature_name(__builtin_ctz(TSCPROBE_FEAT_SMI_PMU)));
	EXPECT_STREQ("?", tp_feature_name(TP_FEATURE_BITS));
	EXPECT_STREQ("?", tp_kind_name(TSCPROBE_KIND_MAX + 1));
	EXPECT_EQ(-1, tp_name_lookup(tp_irqs_name, TSCPROBE_IRQS_MAX, "maybe"));
}

TEST_HARNESS_MAIN
