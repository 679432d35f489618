// SPDX-License-Identifier: GPL-2.0
/*
 * The skew measurement, in the guest (4 vCPUs): every ordered pair with
 * sane, ordered statistics and a relation; skew(i, j) against -skew(j, i);
 * the debugfs table against the JSON; bad input refused at the netlink
 * level and by the CLI; a partner that cannot run (its CPU starved by a
 * real-time hog, or taken offline mid-run) times out or is reported
 * offline, never with numbers; STOP and rmmod mid-run.
 *
 * Under TCG the guest's TSCs are not synchronized ("Marking TSC unstable")
 * and a vCPU can be descheduled by the host at any instant: these tests
 * check behaviour and arithmetic, never speed or the size of the skew.
 */
#include <sched.h>
#include <signal.h>
#include <time.h>

#include "kselftest_harness.h"
#include "tp_test.h"
#include "user/lib/cli.h"
#include "user/lib/result.h"

/* What every OK pair of a skew report must satisfy (jq, on -j output). */
static const char *const tp_skew_invariants[] = {
	".kind == \"skew\" and .engine == \"kernel\"",
	"(.cpus | length) as $n | .pairs_total == $n * ($n - 1)"
	" and (.pairs | length) == .pairs_total",
	"all(.pairs[]; .from != .to)",
	"[.pairs[] | [.from, .to]] | unique | length == (. | length)",
	"all(.pairs[]; .relation as $r |"
	" [\"smt\", \"package\", \"other-package\", \"other-node\"] | index($r) != null)",
	"all(.pairs[] | select(.status == \"ok\"); .nr > 0 and"
	" all(.latij, .latji, .skew, .one_way; .min <= .avg and .avg <= .max"
	" and .sd >= 0))",
	/* one-way is half a round trip, read on one CPU: always positive */
	"all(.pairs[] | select(.status == \"ok\"); .one_way.min > 0)",
	/* the identities, on the averages: 2 skew = latij - latji, ... */
	"all(.pairs[] | select(.status == \"ok\");"
	" ((2 * .skew.avg - (.latij.avg - .latji.avg)) | fabs) < 1e-9 * (1 + (.latij.avg | fabs) + (.latji.avg | fabs))"
	" and ((2 * .one_way.avg - (.latij.avg + .latji.avg)) | fabs) < 1e-9 * (1 + (.latij.avg | fabs) + (.latji.avg | fabs)))",
	"all(.pairs[] | select(.status != \"ok\"); .latij == null and .skew == null"
	" and .one_way == null and .nr == 0)",
	/*
	 * Every sample is used or dropped as an outlier (a STOP may cut the
	 * last pair's repeats short); a pair is judged when sound.
	 */
	". as $r | ($r.samples * $r.repeats) as $n |"
	" all(.pairs[] | select(.status == \"ok\"); .nr + .discarded == $n or"
	" ($r.state == \"stopped\" and (.nr + .discarded) % $r.samples == 0"
	" and .nr + .discarded < $n))",
	"all(.pairs[] | select(.status == \"ok\"); .sound == (.discarded <= .nr)"
	" and ((.in_sync == null) == (.sound | not)))",
	".verdict.samples_kept == ([.pairs[] | select(.status == \"ok\") | .nr] | add // 0)"
	" and .verdict.samples_discarded == ([.pairs[] | select(.status == \"ok\") | .discarded] | add // 0)",
	"all(.pairs[]; .elapsed_cycles >= 0)",
};

static void tp_check_skew_json(struct __test_metadata *_metadata,
			       const char *json, unsigned int ncpus)
{
	char cpus[64];

	snprintf(cpus, sizeof(cpus), ".cpus | length == %u", ncpus);
	EXPECT_REPORT(json, tp_skew_invariants, cpus);
}

TP_RUN_FIXTURE(skew)

/*
 * Full matrices until every ordered pair has been OK at least once.  Under
 * TCG on a loaded host (other guests running) every hand-off may wait for
 * a host time slice, and a pair then passes the module's 1 s
 * interrupts-off cap and times out, as it should: that is the host's
 * doing, not what these tests are about.  So: up to five runs, each one's
 * timeouts logged; @check runs on every run (on its OK pairs); every
 * ordered pair must have been OK in some run.  Logs are kept short (few
 * samples, more repeats) for the same reason.  Returns the last run.
 */
static char *tp_full_matrix(struct __test_metadata *_metadata,
			    const char *args,
			    void (*check)(struct __test_metadata *, const char *))
{
	bool seen[8][8] = { { false } };
	unsigned int n = tp_online_count(), i, j, missing = 0;
	char cmd[128], *out = NULL, *ok, *p;
	int attempt;

	snprintf(cmd, sizeof(cmd), "tscprobe skew %s -q -j", args);
	for (attempt = 0; attempt < 5; attempt++) {
		free(out);
		out = NULL;
		if (tp_sh(cmd, &out)) {
			TH_LOG("run %d: '%s' failed", attempt + 1, cmd);
			continue;
		}
		if (check)
			check(_metadata, out);
		ok = tp_jq_str(out, "[.pairs[] | select(.status == \"ok\") |"
			       " \"\\(.from),\\(.to)\"] | join(\" \")");
		for (p = ok; p && sscanf(p, "%u,%u", &i, &j) == 2;) {
			if (i < 8 && j < 8)
				seen[i][j] = true;
			p = strchr(p, ' ');
			p = p ? p + 1 : NULL;
		}
		free(ok);
		missing = 0;
		for (i = 0; i < n && i < 8; i++)
			for (j = 0; j < n && j < 8; j++)
				missing += i != j && !seen[i][j];
		if (!missing)
			return out;
		TH_LOG("run %d: not ok: %s", attempt + 1,
		       tp_jq_str(out, "[.pairs[] | select(.status != \"ok\") |"
				 " \"\\(.from)->\\(.to) \\(.status)\"] | join(\", \")"));
	}
	EXPECT_EQ(0, missing) TH_LOG("ordered pairs never measured in 5 runs");
	return out;
}

static void tp_check_all(struct __test_metadata *_metadata, const char *json)
{
	tp_check_skew_json(_metadata, json, tp_online_count());
	EXPECT_JQS(json,
		   ".state == \"done\" and .stop_reason == \"completed\"",
		   "all(.pairs[]; .status == \"ok\" or .status == \"timeout\")",
		   ".pairs_done == .pairs_total");
	/* (i, j) order: i ascending, then j. */
	EXPECT_JQ(json, "[.pairs[] | [.from, .to]] == ([.pairs[] | [.from, .to]] | sort)");
}

static void tp_check_nr256(struct __test_metadata *_metadata, const char *json)
{
	tp_check_all(_metadata, json);
	EXPECT_JQS(json,
		   ".samples == 16 and .repeats == 16",
		   "all(.pairs[] | select(.status == \"ok\"); .nr + .discarded == 256)");
}

TEST_F_TIMEOUT(skew, every_ordered_pair, 300)
{
	unsigned int n = tp_online_count();
	char *out;

	if (n < 2)
		SKIP(return, "needs 2 CPUs");
	out = tp_full_matrix(_metadata, "-n 16 -r 16", tp_check_nr256);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(n * (n - 1), (unsigned int)tp_jq_num(out, ".pairs | length"));
	free(out);
}

#define TP_SKEW_INJECTED	100000000

/*
 * skew(i, j) estimates TSC_j - TSC_i, skew(j, i) the opposite.  The
 * guest's vCPUs share one TSC: their figures are noise of a few hundred
 * cycles either way, different from run to run, which tells neither the
 * sign nor the direction of a pair; on a busy host a vCPU kept off its
 * CPU mid-sample adds 1e5 cycles now and then.  So the module's test hook
 * puts 1e8 cycles onto the logs of the last CPU, as if its TSC ran that
 * far ahead: every pair to it must show +1e8, every pair from it -1e8,
 * and the others 0, each within a tenth of the offset.  A skew computed as the half sum, with the sign the wrong
 * way, or reported for the wrong pair fails it; so does a pair with the
 * offset judged "in sync".
 */
static const char tp_offset_shows[] =
	".cpus[-1] as $x | %d as $n |"
	" all(.pairs[] | select(.status == \"ok\");"
	"     ((if .to == $x then $n else 0 end) - (if .from == $x then $n else 0 end))"
	"     as $want | ((.skew.avg - $want) | fabs) < $n / 10 and"
	"     ($want == 0 or (.in_sync | not))) and"
	" any(.pairs[]; .status == \"ok\" and .from == $x) and"
	" any(.pairs[]; .status == \"ok\" and .to == $x) and"
	" .verdict.in_sync == false";

TEST_F_TIMEOUT(skew, an_offset_shows_with_its_sign_both_ways, 300)
{
	unsigned int n = tp_online_count();
	char filter[sizeof(tp_offset_shows) + 16], *out, *skews;

	if (n < 2)
		SKIP(return, "needs 2 CPUs");
	ASSERT_EQ(0, tp_param_set("test_skew_cpu", n - 1));
	ASSERT_EQ(0, tp_param_set("test_skew_cycles", TP_SKEW_INJECTED));
	out = tp_full_matrix(_metadata, "-n 16 -r 16", tp_check_nr256);
	tp_param_set("test_skew_cpu", -1);
	tp_param_set("test_skew_cycles", 0);
	ASSERT_NE(NULL, out);
	skews = tp_jq_str(out, "[.pairs[] | select(.status == \"ok\") |"
			  " \"\\(.from)->\\(.to): \\(.skew.avg | floor)\"] | join(\" \")");
	TH_LOG("CPU %u %d cycles ahead; skew(i, j): %s", n - 1, TP_SKEW_INJECTED, skews);
	free(skews);
	snprintf(filter, sizeof(filter), tp_offset_shows, TP_SKEW_INJECTED);
	EXPECT_JQ(out, filter);
	free(out);
}

TEST_F_TIMEOUT(skew, repeats_add_up_and_show_matches, 180)
{
	char *out = NULL, *shown = NULL, *st = NULL, *a, *b;

	ASSERT_EQ(0, tp_sh("tscprobe skew -c 0,1 -n 16 -r 7 -q -j", &out));
	tp_check_skew_json(_metadata, out, 2);
	EXPECT_JQ(out, ".repeats == 7 and all(.pairs[] | select(.status == \"ok\");"
		  " .nr + .discarded == 112)");
	ASSERT_EQ(0, tp_sh("tscprobe show skew -j", &shown));
	/*
	 * The results are the same; the machine around them is read again
	 * by show (the environment now, no interrupts of the run), and only
	 * the CLI that ran the measurement knows where it ran, when it
	 * started it, what it held and what load it ran beside it.
	 */
	a = tp_jq_str(out, "del(.interrupts, .environment, .cli, .conditions, .load, .started) | tojson");
	b = tp_jq_str(shown, "del(.interrupts, .environment, .cli, .conditions, .load, .started) | tojson");
	EXPECT_STREQ(a, b);
	free(a);
	free(b);
	EXPECT_JQ(out, "(.started | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$\"))");
	EXPECT_JQ(shown, ".started == null");
	/* The run states that it held nothing; show cannot know. */
	EXPECT_JQ(out, "(.conditions | type) == \"object\" and"
		  " .conditions.dma_latency_us == null and"
		  " .conditions.deepest_idle_state == null and .load == null");
	EXPECT_JQ(shown, ".conditions == null and .load == null");
	EXPECT_JQ(shown, ".interrupts == null and (.environment.cpus | length) == 2");
	EXPECT_JQ(shown, ".cli == null");
	EXPECT_JQ(out, ".cli.apart == true and (.cli.cpus | index(0) == null and index(1) == null)");
	ASSERT_EQ(0, tp_sh("tscprobe status -j", &st));
	EXPECT_JQ(st, ".kind == \"skew\" and .pairs_done == 2 and .pairs_total == 2");
	free(st);
	free(shown);
	/* The last run was skew: "show noise" has nothing. */
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe show noise 2>/dev/null", NULL));
	free(out);
}

TEST_F_TIMEOUT(skew, text_report, 120)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe skew -c 0-2 -n 32 -q", &out));
	EXPECT_NE(NULL, strstr(out, "| CPUs    | latij          | latji          | skew            | nr     |"));
	EXPECT_NE(NULL, strstr(out, " 0 <->  1 "));
	EXPECT_NE(NULL, strstr(out, " 2 <->  1 "));
	EXPECT_NE(NULL, strstr(out, "one-way latency, ns"));
	EXPECT_NE(NULL, strstr(out, "skew, ns"));
	EXPECT_NE(NULL, strstr(out, "verdict: largest |skew| "));
	EXPECT_NE(NULL, strstr(out, "TSCs in sync within the noise: "));
	free(out);
}

/* The debugfs skew table says what the JSON says. */
TEST_F_TIMEOUT(skew, debugfs_table_matches_results, 120)
{
	char *json = NULL, *text = NULL, *line, f[256];
	unsigned int from, to, nr, rows = 0;
	long long a[4], b[4], c[4];

	ASSERT_EQ(0, tp_sh("tscprobe skew -n 16 -r 2 -q -j", &json));
	ASSERT_EQ(0, tp_sh("cat /sys/kernel/debug/tscprobe/skew", &text));
	EXPECT_NE(NULL, strstr(text, "| CPUs    | latij"));
	EXPECT_NE(NULL, strstr(text, "cycles_hz="));
	/* Before strtok() cuts the text into lines. */
	EXPECT_NE(NULL, strstr(text, " 0 <->  1 "));
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "%u <-> %u %lld/%lld/%lld/%lld %lld/%lld/%lld/%lld"
			   " %lld/%lld/%lld/%lld %u", &from, &to, &a[0], &a[1],
			   &a[2], &a[3], &b[0], &b[1], &b[2], &b[3], &c[0], &c[1],
			   &c[2], &c[3], &nr) != 15)
			continue;
		rows++;
		snprintf(f, sizeof(f),
			 ".pairs[] | select(.from == %u and .to == %u) |"
			 " .nr == %u and .latij.min == %lld and .latij.max == %lld"
			 " and .latji.min == %lld and .latji.max == %lld"
			 " and ((.latij.avg - %lld) | fabs) <= 0.5",
			 from, to, nr, a[0], a[2], b[0], b[2], a[1]);
		if (strstr(line, "timeout"))
			continue;
		EXPECT_JQ(json, f);
		EXPECT_LE(a[0], a[1]);
		EXPECT_LE(a[1], a[2]);
		EXPECT_LE(c[0], c[2]);
	}
	EXPECT_EQ((unsigned int)tp_jq_num(json, "[.pairs[] | select(.status == \"ok\")] | length"),
		  rows);
	free(json);
	free(text);
}

static struct nlmsghdr *tp_start_skew(struct tp_nl *nl)
{
	struct nlmsghdr *nlh = tp_nl_request(nl, TSCPROBE_CMD_START, false);

	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, TSCPROBE_KIND_SKEW);
	return nlh;
}

static void tp_put_cpus(struct nlmsghdr *nlh, const char *list)
{
	struct tp_cpuset set;
	const char *why;

	tp_parse_cpus(list, &set, &why);
	mnl_attr_put(nlh, TSCPROBE_A_CPUS, set.nbytes, set.bits);
}

TEST_F(skew, bad_netlink_input_starts_nothing)
{
	struct tp_nl *nl = &self->nl, *st = &self->st;
	struct nlmsghdr *nlh;

	nlh = tp_start_skew(nl);
	tp_put_cpus(nlh, "1");
	tp_expect_refused(_metadata, nl, st, nlh, -EINVAL, TSCPROBE_A_CPUS,
			  "one CPU");

	nlh = tp_start_skew(nl);
	mnl_attr_put_u32(nlh, TSCPROBE_A_SAMPLES, TSCPROBE_MIN_SAMPLES - 1);
	tp_expect_refused(_metadata, nl, st, nlh, -ERANGE, TSCPROBE_A_SAMPLES,
			  "samples below 16");

	nlh = tp_start_skew(nl);
	mnl_attr_put_u32(nlh, TSCPROBE_A_SAMPLES, TSCPROBE_MAX_SAMPLES + 1);
	tp_expect_refused(_metadata, nl, st, nlh, -ERANGE, TSCPROBE_A_SAMPLES,
			  "samples above 4096");

	nlh = tp_start_skew(nl);
	mnl_attr_put_u32(nlh, TSCPROBE_A_REPEATS, 0);
	tp_expect_refused(_metadata, nl, st, nlh, -ERANGE, TSCPROBE_A_REPEATS,
			  "repeats 0");

	nlh = tp_start_skew(nl);
	mnl_attr_put_u32(nlh, TSCPROBE_A_REPEATS, TSCPROBE_MAX_REPEATS + 1);
	tp_expect_refused(_metadata, nl, st, nlh, -ERANGE, TSCPROBE_A_REPEATS,
			  "repeats above 1000");

	nlh = tp_start_skew(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, 1000000000);
	tp_expect_refused(_metadata, nl, st, nlh, -EINVAL,
			  TSCPROBE_A_DURATION_NS, "a noise parameter");

	nlh = tp_start_skew(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_ROUNDS, 1000);
	tp_expect_refused(_metadata, nl, st, nlh, -EINVAL, TSCPROBE_A_ROUNDS,
			  "a cache parameter");

	/* SAMPLES is a u32. */
	nlh = tp_start_skew(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_SAMPLES, 256);
	tp_expect_refused(_metadata, nl, st, nlh, -EINVAL, TSCPROBE_A_SAMPLES,
			  "samples as u64");
}

TEST_F(skew, offline_cpu_is_refused)
{
	struct nlmsghdr *nlh;
	char *out = NULL;

	if (tp_online_count() < 4)
		SKIP(return, "needs 4 CPUs");
	ASSERT_EQ(0, tp_cpu_set_online(3, false));
	nlh = tp_start_skew(&self->nl);
	tp_put_cpus(nlh, "0,3");
	tp_expect_refused(_metadata, &self->nl, &self->st, nlh, -EINVAL,
			  TSCPROBE_A_CPUS, "offline CPU");
	EXPECT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe skew -c 0,3 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "CPU 3 is not online"));
	free(out);
	ASSERT_EQ(0, tp_cpu_set_online(3, true));
}

TEST_F_TIMEOUT(skew, bad_cli_input, 120)
{
	static const char *const bad[] = {
		"-c 0", "-c 99", "-c 2-1", "-c x", "-n 15", "-n 4097", "-n x",
		"-r 0", "-r 1001", "-d 1s", "--irqs off", "--bogus", "-n",
		"extra",
	};
	char cmd[160];
	char *out = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "tscprobe skew %s 2>&1 >/dev/null",
			 bad[i]);
		EXPECT_EQ(TP_EXIT_USAGE, tp_sh(cmd, &out)) TH_LOG("%s", bad[i]);
		EXPECT_EQ(0, strncmp(out, "tscprobe: ", 10)) TH_LOG("%s", bad[i]);
		EXPECT_EQ(strlen(out) - 1, strcspn(out, "\n")) TH_LOG("%s", bad[i]);
		free(out);
	}
	EXPECT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe skew -c 1 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "at least two CPUs"));
	free(out);
	EXPECT_EQ(TP_EXIT_OK, tp_sh("tscprobe skew --help", &out));
	EXPECT_EQ(0, strncmp(out, "usage: tscprobe skew", 20));
	free(out);
}

/*
 * A partner that never runs: CPU 3 is taken by a SCHED_FIFO hog (RT
 * throttling off and, from 6.12 on, CPU 3's fair server too, which would
 * otherwise give its other threads 5 % of the time), so its worker thread
 * cannot get there.  The side on CPU 2 gives up after its arrival limit,
 * the controller takes back CPU 3's side; both pairs are TIMEOUT, without
 * numbers, and the run ends once the hog is gone.  The CLI runs on CPU 0.
 */
TEST_F_TIMEOUT(skew, starved_partner_times_out, 120)
{
	char *out = NULL, fair[160];
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec t0, t;
	cpu_set_t set;
	pid_t hog;
	long rt;
	int status;

	if (tp_online_count() < 4)
		SKIP(return, "needs 4 CPUs");
	rt = tp_rt_runtime(-1);
	ASSERT_NE(LONG_MIN, rt);
	ASSERT_EQ(0, tp_fair_server_off(3, fair, sizeof(fair)));
	hog = fork();
	ASSERT_GE(hog, 0);
	if (!hog) {
		CPU_ZERO(&set);
		CPU_SET(3, &set);
		if (sched_setaffinity(0, sizeof(set), &set) ||
		    sched_setscheduler(0, SCHED_FIFO, &sp))
			_exit(9);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while (t.tv_sec - t0.tv_sec < 8);
		_exit(0);
	}
	usleep(200000);
	EXPECT_EQ(0, tp_sh("taskset -c 0 tscprobe skew -c 2,3 -n 16 -q -j", &out));
	waitpid(hog, &status, 0);
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tp_check_skew_json(_metadata, out, 2);
	EXPECT_JQS(out,
		   "all(.pairs[]; .status == \"timeout\")",
		   ".state == \"done\"");
	free(out);
	EXPECT_EQ(-1, tp_rt_runtime(rt));
	if (fair[0])
		EXPECT_EQ(0, tp_sh(fair, NULL));
	/* Once the CPU is free again, the same pairs measure (host permitting). */
	ASSERT_EQ(0, tp_sh("tscprobe skew -c 2,3 -n 16 -q -j", &out));
	EXPECT_JQ(out, "all(.pairs[]; .status == \"ok\" or .status == \"timeout\")");
	free(out);
}

/* CPU 2 goes offline mid-run: its pairs end OFFLINE (or TIMEOUT), the rest OK. */
TEST_F_TIMEOUT(skew, hotplug_mid_run, 180)
{
	char *out = NULL;

	if (tp_online_count() < 4)
		SKIP(return, "needs 4 CPUs");
	ASSERT_EQ(0, tp_sh("tscprobe skew -n 16 -r 1000 -q -j > /tmp/hp.json & pid=$!;"
			   " sleep 2; echo 0 > /sys/devices/system/cpu/cpu2/online"
			   " || exit 9; wait $pid", NULL));
	EXPECT_EQ(0, tp_cpu_set_online(2, true));
	ASSERT_EQ(0, tp_sh("cat /tmp/hp.json", &out));
	tp_check_skew_json(_metadata, out, 4);
	EXPECT_JQ(out, ".state == \"done\"");
	/* Pairs without CPU 2 are unaffected (a loaded host may time them out). */
	EXPECT_JQ(out, "all(.pairs[] | select(.from != 2 and .to != 2);"
		  " .status == \"ok\" or .status == \"timeout\")");
	TH_LOG("pairs without CPU 2: %s",
	       tp_jq_str(out, "[.pairs[] | select(.from != 2 and .to != 2) |"
			 " \"\\(.from)->\\(.to) \\(.status)\"] | join(\", \")"));
	/* Pairs with CPU 2: measured before, offline after; no numbers then. */
	EXPECT_JQS(out,
		   "all(.pairs[] | select(.from == 2 or .to == 2);"
		   " .status == \"ok\" or .status == \"offline\" or .status == \"timeout\")",
		   "any(.pairs[]; .status == \"offline\")");
	TH_LOG("pairs with CPU 2: %s",
	       tp_jq_str(out, "[.pairs[] | select(.from == 2 or .to == 2) |"
			 " \"\\(.from)->\\(.to) \\(.status)\"] | join(\", \")"));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe status -j", &out));
	EXPECT_JQ(out, ".kind == \"skew\" and .state == \"done\"");
	free(out);
}

TEST_F_TIMEOUT(skew, stop_mid_run, 120)
{
	struct timespec a, b;
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe skew -n 4096 -r 200 -q -j > /tmp/stop.json &"
			   " echo $! > /tmp/stop.pid; sleep 2", NULL));
	clock_gettime(CLOCK_MONOTONIC, &a);
	EXPECT_EQ(0, tp_sh("tscprobe stop", NULL));
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* Within one pair: a repeat takes well under a second here. */
	EXPECT_LT(b.tv_sec - a.tv_sec, 5);
	ASSERT_EQ(0, tp_sh("wait $(cat /tmp/stop.pid) 2>/dev/null;"
			   " while kill -0 $(cat /tmp/stop.pid) 2>/dev/null; do sleep 0.1; done;"
			   " cat /tmp/stop.json", &out));
	tp_check_skew_json(_metadata, out, tp_online_count());
	EXPECT_JQS(out,
		   ".state == \"stopped\" and .stop_reason == \"stop requested\"",
		   "any(.pairs[]; .status == \"skipped\")",
		   ".pairs_done < .pairs_total");
	free(out);
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe stop 2>/dev/null", NULL));
}

TEST_F_TIMEOUT(skew, rmmod_mid_run, 120)
{
	tp_nl_close(&self->nl);
	tp_nl_close(&self->st);
	tp_expect_cli_sees_rmmod(_metadata, "skew -n 4096 -r 200");
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->st));
}

TEST_F_TIMEOUT(skew, show_in_every_format, 120)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe skew -c 0-1 -n 16 -q >/dev/null", NULL));
	ASSERT_EQ(0, tp_sh("tscprobe show skew --csv", &out));
	EXPECT_EQ(0, strncmp(out, "kind,engine,run_id,from,to,relation,status,nr,", 46));
	EXPECT_NE(NULL, strstr(out, "\r\nskew,kernel,"));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show skew --prom", &out));
	EXPECT_NE(NULL, strstr(out, "# TYPE tscprobe_skew_pair_ok gauge\n"));
	EXPECT_NE(NULL, strstr(out, "tscprobe_skew_in_sync "));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show --svg /tmp/skew.svg >/dev/null && head -c 300 /tmp/skew.svg", &out));
	EXPECT_NE(NULL, strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	free(out);
}

TP_HARNESS_MAIN
