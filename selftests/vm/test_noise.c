// SPDX-License-Identifier: GPL-2.0
/*
 * The noise measurement, in the guest: runs on one and on all CPUs with
 * interrupts off and on, the report's arithmetic (histogram totals,
 * ordered percentiles, events), coverage, a 30 s all-CPU interrupts-off
 * run, STOP, hotplug and rmmod mid-run, Ctrl-C, every bad input at the
 * netlink level and through the CLI, privileges, debugfs, and a dump whose
 * histograms span several messages.
 *
 * Timings under TCG are emulated: these tests check behaviour, never speed.
 */
#include <poll.h>
#include <signal.h>

#include "kselftest_harness.h"
#include "tp_test.h"
#include "user/lib/cli.h"
#include "user/lib/decode.h"
#include "user/lib/result.h"
#include "user/lib/module_run.h"

/* Every per-CPU identity a noise report must satisfy (jq, on -j output). */
static const char *const tp_noise_invariants[] = {
	".kind == \"noise\"",
	"all(.cpus[]; .samples > 0 and .windows > 0)",
	"all(.cpus[]; (.histogram | map(.calls) | add) == .samples)",
	"all(.cpus[]; (.histogram | map(.cycles) | add) == .measured_cycles)",
	"all(.cpus[]; .min_cycles <= .p50_cycles and .p50_cycles <= .p99_cycles"
	" and .p99_cycles <= .p999_cycles and .p999_cycles <= .p9999_cycles"
	" and .p9999_cycles <= .max_cycles)",
	"all(.cpus[]; .measured_cycles <= .wall_cycles and .coverage > 0"
	" and .coverage <= 1)",
	"all(.cpus[]; .events_total == (.events | length) + .events_dropped)",
	". as $r | all(.cpus[].events[]; .cycles >= $r.threshold_cycles)",
	"all(.cpus[].histogram[]; .lo_cycles <= .hi_cycles and .calls > 0)",
	"all(.cpus[]; (.events | map(.tsc)) == (.events | map(.tsc) | sort))",
	"all(.cpus[]; .max_cycles == 0 or .events_total == 0 or"
	" .max_cycles == (.events | map(.cycles) | max))",
};

static void tp_check_noise_json(struct __test_metadata *_metadata,
				const char *json, unsigned int ncpus,
				const char *irqs)
{
	char cpus[64], irq[64];

	snprintf(cpus, sizeof(cpus), ".cpus | length == %u", ncpus);
	snprintf(irq, sizeof(irq), ".irqs == \"%s\"", irqs);
	EXPECT_REPORT(json, tp_noise_invariants, cpus, irq);
}

TP_RUN_FIXTURE(noise)

TEST_F_TIMEOUT(noise, one_cpu_irqs_off, 60)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 1 -d 1s -j", &out));
	tp_check_noise_json(_metadata, out, 1, "off");
	EXPECT_JQS(out,
		   ".engine == \"kernel\" and .state == \"done\"",
		   ".cpus[0].cpu == 1 and .cpus[0].incomplete == false",
		   ".duration_ns == 1000000000 and .width_ns == 100000000");
	/* The machine around the run: interrupts, scheduler, environment. */
	EXPECT_JQS(out,
		   ".cpus[0].interrupts | keys == [\"CAL\", \"LOC\", \"NMI\", \"RES\", \"TLB\", \"devices\", \"other\"]",
		   ".cpus[0].interrupts.LOC > 0");
	/* The thread sleeps once between windows: at most one voluntary
	 * switch each (none when the timer fired before it could switch).
	 */
	EXPECT_JQS(out,
		   ".cpus[0] | .scheduler.voluntary_switches <= .windows",
		   ".cpus[0].scheduler.involuntary_switches | type == \"number\"",
		   ".cpus[0].scheduler.migrations == 0",
		   ".environment.cpus[0].cpu == 1 and (.environment.warnings | length) > 0");
	free(out);
}

/*
 * The CLI keeps off the CPUs the module measures: while a run on CPU 1
 * goes on, every thread of the CLI may run anywhere but there, and the
 * report says where it ran.
 */
TEST_F_TIMEOUT(noise, cli_runs_off_the_measured_cpus, 60)
{
	char *out = NULL, *line, *save = NULL;
	struct tp_cpuset set;
	const char *why;
	unsigned int tasks = 0;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 1 -d 2s -q -j > /tmp/pl.json & pid=$!;"
			   " sleep 1; cat /proc/$pid/task/*/status |"
			   " sed -n 's/^Cpus_allowed_list:[[:space:]]*//p'; wait $pid",
			   &out));
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		ASSERT_EQ(0, tp_parse_cpus(line, &set, &why)) TH_LOG("%s", line);
		EXPECT_FALSE(tp_cpuset_has(&set, 1)) TH_LOG("a thread on %s", line);
		tasks++;
	}
	EXPECT_GT(tasks, 0);
	free(out);
	ASSERT_EQ(0, tp_sh("cat /tmp/pl.json", &out));
	EXPECT_JQ(out, ".cli.apart == true and .cli.why == null and"
		  " (.cli.cpus | index(1) == null and length > 0)");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe noise -d 200ms -q", &out));
	EXPECT_NE(NULL, strstr(out, "among the measured CPUs: no other CPU is online"))
		TH_LOG("%s", out);
	free(out);
}

TEST_F_TIMEOUT(noise, all_cpus_irqs_off_and_on, 90)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise -d 1s -j", &out));
	tp_check_noise_json(_metadata, out, tp_online_count(), "off");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe noise --irqs on -d 1s -j", &out));
	tp_check_noise_json(_metadata, out, tp_online_count(), "on");
	/* With interrupts on the tick lands inside the windows. */
	EXPECT_JQ(out, "any(.cpus[]; .irq_count > 0)");
	free(out);
}

TEST_F_TIMEOUT(noise, every_clock, 90)
{
	static const char *const clocks[] = { "lfence", "rdtscp", "mfence",
					      "plain" };
	char cmd[128], f[64];
	char *out = NULL;
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(cmd, sizeof(cmd),
			 "tscprobe noise -c 0 -d 300ms --clock %s -j", clocks[i]);
		ASSERT_EQ(0, tp_sh(cmd, &out));
		tp_check_noise_json(_metadata, out, 1, "off");
		snprintf(f, sizeof(f), ".clock == \"%s\"", clocks[i]);
		EXPECT_JQ(out, f);
		free(out);
	}
}

TEST_F_TIMEOUT(noise, coverage_with_defaults, 90)
{
	const char *bound;
	char *out = NULL;
	int attempt, ok = 1;

	/*
	 * One CPU measured, the others idle.  What is lost is the path
	 * between two windows: the pause, the wake-up, publishing the
	 * snapshot.  Under emulation the wake-up waits for the host to run
	 * the vCPU's thread, so a host busy beside the guest costs coverage
	 * that no change of the module's made: three tries, one must reach
	 * the bound.  90 %: a generic kernel gave 91-93 % with the host
	 * compiling beside it; a path that costs 10 ms more a window fails.
	 *
	 * On a debug kernel lockdep, KASAN and kmemleak check every lock,
	 * allocation and memory access of that path, which costs it several
	 * times over: 91-94 % on a quiet host, 83-86 % on a busy one.  There
	 * the bound is 80 %: a path four times as costly (28 % lost) fails.
	 */
	bound = tp_debug_kernel() ? ".cpus[0].coverage >= 0.80"
				  : ".cpus[0].coverage >= 0.90";
	for (attempt = 0; attempt < 3 && ok; attempt++) {
		ASSERT_EQ(0, tp_sh("tscprobe noise -c 1 -d 2s -j", &out));
		ok = tp_jq(out, bound);
		if (ok)
			TH_LOG("coverage %lld/10000 on try %d (want %s)",
			       tp_jq_num(out, ".cpus[0].coverage * 10000 | floor"),
			       attempt + 1, bound);
		free(out);
	}
	EXPECT_EQ(0, ok);
}

TEST_F_TIMEOUT(noise, events_are_the_largest_gaps, 60)
{
	char *out = NULL;

	/* A low threshold: far more events than the ring keeps. */
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 500ms --threshold 60c -j",
			   &out));
	tp_check_noise_json(_metadata, out, 1, "off");
	EXPECT_JQS(out,
		   ".threshold_cycles == 60",
		   ".cpus[0].events | length == 256",
		   ".cpus[0].events_dropped > 0");
	/* Kept: the largest; nothing dropped is larger than the smallest kept. */
	EXPECT_JQ(out, ".cpus[0] | (.events | map(.cycles) | min) as $m |"
		  " [.histogram[] | select(.lo_cycles > $m) | .calls] | add // 0"
		  " <= 256");
	free(out);
}

TEST_F_TIMEOUT(noise, long_all_cpu_irqs_off_run, 120)
{
	char *out = NULL;

	/* The kernel log of this run is scanned by the harness afterwards. */
	ASSERT_EQ(0, tp_sh("tscprobe noise -d 30s -q -j", &out));
	tp_check_noise_json(_metadata, out, tp_online_count(), "off");
	EXPECT_JQ(out, ".state == \"done\" and .stop_reason == \"completed\"");
	/*
	 * Windows are 100 ms of TSC time, so at most 301 fit in 30 s; how many
	 * do depends on how fast the emulator wakes a vCPU after each gap.
	 */
	EXPECT_JQ(out, "all(.cpus[]; .incomplete == false and .windows >= 10 and .windows <= 301)");
	/*
	 * No check of elapsed_ns against 30 s: the guest's TSC rate is
	 * calibrated under emulation and its clocksource is not the TSC.
	 */
	free(out);
}

TEST_F_TIMEOUT(noise, stop_mid_run, 90)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise -d 60s -q -j > /tmp/stop.json &"
			   " pid=$!; sleep 2; tscprobe stop || exit 9;"
			   " wait $pid", NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/stop.json", &out));
	EXPECT_JQS(out,
		   ".state == \"stopped\" and .stop_reason == \"stop requested\"",
		   ".elapsed_ns < 30000000000");
	tp_check_noise_json(_metadata, out, tp_online_count(), "off");
	free(out);
	/* Nothing runs any more: a second stop finds nothing. */
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe stop 2>/dev/null", NULL));
}

TEST_F_TIMEOUT(noise, ctrl_c_prints_what_was_measured, 90)
{
	char *out = NULL;

	ASSERT_EQ(TP_EXIT_INTERRUPTED,
		  tp_sh("tscprobe noise -d 60s -q -j > /tmp/int.json & pid=$!;"
			" sleep 2; kill -INT $pid; wait $pid", NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/int.json", &out));
	EXPECT_JQ(out, ".state == \"stopped\" and .elapsed_ns < 30000000000");
	tp_check_noise_json(_metadata, out, tp_online_count(), "off");
	free(out);
}

TEST_F_TIMEOUT(noise, hotplug_mid_run, 90)
{
	char *out = NULL;

	if (tp_online_count() < 3)
		SKIP(return, "needs 3 CPUs");
	ASSERT_EQ(0, tp_sh("tscprobe noise -d 8s -q -j > /tmp/hp.json & pid=$!;"
			   " sleep 2; echo 0 > /sys/devices/system/cpu/cpu2/online"
			   " || exit 9; wait $pid", NULL));
	EXPECT_EQ(0, tp_cpu_set_online(2, true));
	ASSERT_EQ(0, tp_sh("cat /tmp/hp.json", &out));
	EXPECT_JQS(out,
		   ".state == \"done\"",
		   ".cpus[] | select(.cpu == 2) | .incomplete == true",
		   "[.cpus[] | select(.cpu != 2) | .incomplete] | all(. == false)",
		   ".cpus[] | select(.cpu == 2) | .samples > 0");
	free(out);
}

TEST_F_TIMEOUT(noise, rmmod_mid_run, 90)
{
	tp_nl_close(&self->nl);
	tp_expect_cli_sees_rmmod(_metadata, "noise -d 60s");
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
}

static struct nlmsghdr *tp_start_noise(struct tp_nl *nl)
{
	struct nlmsghdr *nlh = tp_nl_request(nl, TSCPROBE_CMD_START, false);

	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, TSCPROBE_KIND_NOISE);
	return nlh;
}

static void tp_put_cpu(struct nlmsghdr *nlh, unsigned int cpu)
{
	struct tp_cpuset set = { 0 };

	tp_cpuset_add(&set, cpu);
	mnl_attr_put(nlh, TSCPROBE_A_CPUS, set.nbytes, set.bits);
}

TEST_F(noise, bad_netlink_input_starts_nothing)
{
	struct tp_nl *nl = &self->nl;
	struct nlmsghdr *nlh;
	uint8_t zero = 0, far[32] = { 0 };

	nlh = tp_nl_request(nl, TSCPROBE_CMD_START, false);
	tp_expect_refused_as(_metadata, nl, &self->st, nlh, -EINVAL,
			     TSCPROBE_A_KIND, true, "missing kind");

	nlh = tp_start_noise(nl);
	mnl_attr_put(nlh, TSCPROBE_A_CPUS, 1, &zero);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -EINVAL, TSCPROBE_A_CPUS,
			  "empty CPU set");

	nlh = tp_start_noise(nl);
	far[31] = 0x80;		/* CPU 255 */
	mnl_attr_put(nlh, TSCPROBE_A_CPUS, sizeof(far), far);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -EINVAL, TSCPROBE_A_CPUS,
			  "CPU beyond nr_cpu_ids");

	nlh = tp_start_noise(nl);
	mnl_attr_put(nlh, TSCPROBE_A_CPUS, TSCPROBE_CPUMASK_BYTES + 1,
		     calloc(1, TSCPROBE_CPUMASK_BYTES + 1));
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_CPUS,
			  "CPU bitmap too long");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, 999999);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_DURATION_NS,
			  "duration below 1 ms");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS,
			 TSCPROBE_MAX_DURATION_NS + 1);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_DURATION_NS,
			  "duration above 24 h");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_WIDTH_NS, TSCPROBE_MAX_WIDTH_NS + 1);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_WIDTH_NS,
			  "width above 1 s");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_GAP_NS, 1000);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_GAP_NS,
			  "gap below 10 us");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_THRESHOLD_NS, 0);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_THRESHOLD_NS,
			  "threshold 0");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_THRESHOLD_NS, 1000);
	mnl_attr_put_u64(nlh, TSCPROBE_A_THRESHOLD_CYCLES, 1000);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -EINVAL,
			  TSCPROBE_A_THRESHOLD_CYCLES, "two thresholds");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, 10000000);
	mnl_attr_put_u64(nlh, TSCPROBE_A_WIDTH_NS, 20000000);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -EINVAL, TSCPROBE_A_WIDTH_NS,
			  "width longer than duration");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u32(nlh, TSCPROBE_A_CLOCK, TSCPROBE_CLOCK_MAX + 1);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_CLOCK,
			  "unknown clock");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u32(nlh, TSCPROBE_A_IRQS, TSCPROBE_IRQS_MAX + 1);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -ERANGE, TSCPROBE_A_IRQS,
			  "unknown irqs value");

	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_ROUNDS, 1000);
	tp_expect_refused(_metadata, nl, &self->st, nlh, -EINVAL, TSCPROBE_A_ROUNDS,
			  "a cache parameter");
}

TEST_F(noise, offline_cpu_is_refused)
{
	struct nlmsghdr *nlh;
	char *out = NULL;

	if (tp_online_count() < 4)
		SKIP(return, "needs 4 CPUs");
	ASSERT_EQ(0, tp_cpu_set_online(3, false));
	nlh = tp_start_noise(&self->nl);
	tp_put_cpu(nlh, 3);
	tp_expect_refused(_metadata, &self->nl, &self->st, nlh, -EINVAL, TSCPROBE_A_CPUS,
			  "offline CPU");
	EXPECT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe noise -c 3 -d 10ms 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "CPU 3 is not online"));
	free(out);
	ASSERT_EQ(0, tp_cpu_set_online(3, true));
}

/* Wait up to @ms until no run is in progress; true when none is. */
static bool tp_wait_idle(struct tp_nl *st, unsigned int ms)
{
	unsigned int waited;

	for (waited = 0; waited < ms; waited += 100) {
		if (tp_get_status(st).state != TSCPROBE_STATE_RUNNING)
			return true;
		usleep(100000);
	}
	return false;
}

/*
 * A refused START patches no kernel text: the source probes go on only
 * for a START that will run.  tp_expect_refused_as() checks it of every
 * refusal the tests make (the kind's parameters, its CPUs); here a START
 * refused as busy, and the count itself: a START that runs attaches once.
 */
TEST_F_TIMEOUT(noise, refused_starts_patch_nothing, 120)
{
	long before = tp_debugfs_info_count("attaches");
	struct tp_nl *nl = &self->nl;
	struct tp_nl_error e;
	struct nlmsghdr *nlh;

	ASSERT_LE(0, before) TH_LOG("no attaches count in debugfs' info");
	/* Busy: a cache run goes on. */
	nlh = tp_nl_request(nl, TSCPROBE_CMD_START, false);
	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, TSCPROBE_KIND_CACHE);
	mnl_attr_put_u64(nlh, TSCPROBE_A_ROUNDS, TSCPROBE_MAX_ROUNDS);
	tp_put_cpu(nlh, 0);
	ASSERT_EQ(0, tp_talk(nl, nlh, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(-EBUSY, tp_talk(nl, tp_start_noise(nl), &e));
	EXPECT_EQ(0, tp_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_STOP, false), &e));
	ASSERT_TRUE(tp_wait_idle(&self->st, 20000));
	EXPECT_EQ(before, tp_debugfs_info_count("attaches"));
	nlh = tp_start_noise(nl);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, 10000000);
	ASSERT_EQ(0, tp_talk(nl, nlh, &e)) TH_LOG("%s", e.msg);
	ASSERT_TRUE(tp_wait_idle(&self->st, 20000));
	EXPECT_EQ(before + 1, tp_debugfs_info_count("attaches"));
}

TEST_F_TIMEOUT(noise, second_start_is_busy, 60)
{
	struct tp_status_reply st;
	struct tp_nl_error e;
	struct nlmsghdr *nlh;
	char *out = NULL;
	unsigned int i;

	nlh = tp_start_noise(&self->nl);
	tp_put_cpu(nlh, 0);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, 20000000000ULL);
	ASSERT_EQ(0, tp_talk(&self->nl, nlh, &e));
	st = tp_get_status(&self->nl);
	EXPECT_EQ(TSCPROBE_STATE_RUNNING, st.state);

	nlh = tp_start_noise(&self->nl);
	tp_put_cpu(nlh, 1);
	EXPECT_EQ(-EBUSY, tp_talk(&self->nl, nlh, &e));
	EXPECT_NE(NULL, strstr(e.msg, "in progress"));
	EXPECT_EQ(TP_EXIT_BUSY, tp_sh("tscprobe noise -c 1 -d 10ms 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "in progress"));
	free(out);
	/* RESET refuses to drop the results of a running run. */
	EXPECT_EQ(-EBUSY, tp_talk(&self->nl,
				  tp_nl_request(&self->nl, TSCPROBE_CMD_RESET, false),
				  &e));
	EXPECT_EQ(st.run_id, tp_get_status(&self->nl).run_id);
	EXPECT_EQ(0, tp_talk(&self->nl,
			     tp_nl_request(&self->nl, TSCPROBE_CMD_STOP, false),
			     &e));
	/* STOP returns at once; the run ends within a window and a gap. */
	for (i = 0; i < 100 && tp_get_status(&self->nl).state ==
	     TSCPROBE_STATE_RUNNING; i++)
		usleep(100000);
	EXPECT_EQ(TSCPROBE_STATE_STOPPED, tp_get_status(&self->nl).state);
}

TEST_F_TIMEOUT(noise, bad_cli_input, 120)
{
	static const char *const bad[] = {
		"-c 99", "-c 2-1", "-c x", "-c ''", "-d 0", "-d 25h",
		"-d 5parsecs", "--width 2s", "--width 5us", "--gap 5us",
		"--gap 2s", "--threshold 0", "--threshold 0c", "--threshold 2s",
		"--clock fast", "--irqs maybe", "-d 10ms --width 20ms",
		"--user --irqs off", "--bogus", "-d", "extra",
	};
	char cmd[160];
	char *out = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "tscprobe noise %s 2>&1 >/dev/null",
			 bad[i]);
		EXPECT_EQ(TP_EXIT_USAGE, tp_sh(cmd, &out)) TH_LOG("%s", bad[i]);
		/* One line, naming the problem. */
		EXPECT_EQ(0, strncmp(out, "tscprobe: ", 10)) TH_LOG("%s", bad[i]);
		EXPECT_EQ(strlen(out) - 1, strcspn(out, "\n")) TH_LOG("%s", bad[i]);
		free(out);
	}
	EXPECT_NE(TSCPROBE_STATE_RUNNING, tp_get_status(&self->nl).state);
}

TEST_F_TIMEOUT(noise, unprivileged_user, 60)
{
	char *out = NULL;

	EXPECT_EQ(TP_EXIT_PERM,
		  tp_sh("vm-runas 65534 tscprobe noise -c 0 -d 10ms 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "Operation not permitted"));
	free(out);
	EXPECT_EQ(TP_EXIT_PERM, tp_sh("vm-runas 65534 tscprobe stop 2>/dev/null",
				      NULL));
	/* Reading is open to everyone; debugfs is root's. */
	EXPECT_EQ(0, tp_sh("vm-runas 65534 tscprobe info >/dev/null", NULL));
	EXPECT_EQ(0, tp_sh("vm-runas 65534 tscprobe status >/dev/null", NULL));
	EXPECT_NE(0, tp_sh("vm-runas 65534 cat /sys/kernel/debug/tscprobe/info"
			   " 2>/dev/null", NULL));
}

TEST_F_TIMEOUT(noise, results_stay_until_reset, 60)
{
	struct tp_nl_error e;
	struct tp_result r;
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 200ms -q >/dev/null", NULL));
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j", &out));
	tp_check_noise_json(_metadata, out, 1, "off");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe status -j", &out));
	EXPECT_JQ(out, ".state == \"done\" and .kind == \"noise\"");
	free(out);
	/* Asking for another run's results: refused, and the DONE says why. */
	tp_result_init(&r, 0);
	EXPECT_EQ(-ESTALE, tp_result_fetch(&self->nl,
					   tp_get_status(&self->st).run_id + 1000,
					   &r, &e));
	EXPECT_NE(NULL, strstr(e.msg, "the results are of another run"));
	tp_result_free(&r);
	EXPECT_EQ(0, tp_talk(&self->nl,
			     tp_nl_request(&self->nl, TSCPROBE_CMD_RESET, false),
			     &e));
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe show noise 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "no results"));
	free(out);
	EXPECT_EQ(TSCPROBE_STATE_IDLE, tp_get_status(&self->nl).state);
}

TEST_F_TIMEOUT(noise, debugfs_noise_matches_results, 60)
{
	char *json = NULL, *text = NULL;
	unsigned long long samples, calls, sum = 0;
	unsigned int cpu;
	char *p;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 2 -d 300ms -q -j", &json));
	ASSERT_EQ(0, tp_sh("cat /sys/kernel/debug/tscprobe/noise", &text));
	p = strstr(text, "\ncpu ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, "\ncpu %u: samples=%llu", &cpu, &samples));
	EXPECT_EQ(2, cpu);
	EXPECT_EQ(samples, (unsigned long long)tp_jq_num(json, ".cpus[0].samples"));
	/* The log2 table: its calls add up to the samples. */
	for (p = strstr(text, "calls="); p; p = strstr(p + 1, " calls=")) {
		ASSERT_EQ(1, sscanf(strchr(p, '=') + 1, "%llu", &calls));
		sum += calls;
	}
	EXPECT_EQ(samples, sum);
	EXPECT_NE(NULL, strstr(text, "cycles_hz="));
	free(json);
	free(text);
}

struct tp_dump_count {
	struct tp_result *r;
	unsigned int cpu_messages;
};

static int tp_dump_count_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;
	struct tp_dump_count *d = data;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == TSCPROBE_A_CPU)
			d->cpu_messages++;
	return MNL_CB_OK;
}

TEST_F_TIMEOUT(noise, dump_spans_messages_and_resumes, 60)
{
	struct tp_dump_count d = { 0 };
	struct tp_nl_error e;
	struct tp_result r;
	char *out = NULL;
	uint64_t calls = 0;
	unsigned int i, k;

	/* 256 events per CPU alone take more than 8 KiB. */
	ASSERT_EQ(0, tp_sh("tscprobe noise --irqs on -d 1s --threshold 60c -q -j",
			   &out));
	EXPECT_JQ(out, "all(.cpus[]; .events | length == 256)");
	/*
	 * The kernel sizes dump messages by the largest read the socket has
	 * done: with 4 KiB reads no CPU's results fit one message.
	 */
	ASSERT_EQ(0, tp_small_dump(&self->nl, tp_dump_count_cb, &d));
	EXPECT_GE(d.cpu_messages, 3 * tp_online_count());

	/* Merged, the pieces give what the CLI printed. */
	tp_result_init(&r, 0);
	ASSERT_EQ(0, tp_result_fetch(&self->nl, 0, &r, &e));
	for (i = 0; i < r.ncpus; i++) {
		const struct tp_hist *h = r.cpu[i].series[TSCPROBE_SERIES_GAP].hist;

		ASSERT_NE(NULL, h);
		EXPECT_EQ(256, r.cpu[i].nevents);
		for (k = 0; k < TSCPROBE_HIST_BUCKETS; k++)
			calls += h->b[k].calls;
	}
	EXPECT_EQ((uint64_t)tp_jq_num(out, "[.cpus[].samples] | add"), calls);
	tp_result_free(&r);
	free(out);
}

static int tp_event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	unsigned int *seen = data;

	if (g->cmd == TSCPROBE_CMD_EVENT)
		seen[0]++;
	if (g->cmd == TSCPROBE_CMD_RUN_FINISHED) {
		seen[1]++;
		return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

TEST_F_TIMEOUT(noise, notifications, 60)
{
	unsigned int seen[2] = { 0, 0 };
	struct tp_nl_error e;
	struct nlmsghdr *nlh;
	struct tp_nl ev;
	int i;

	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&ev));
	ASSERT_EQ(0, tp_nl_join_events(&ev));
	nlh = tp_start_noise(&self->nl);
	tp_put_cpu(nlh, 0);
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, 500000000);
	mnl_attr_put_u64(nlh, TSCPROBE_A_THRESHOLD_CYCLES, 100);
	ASSERT_EQ(0, tp_talk(&self->nl, nlh, &e));
	for (i = 0; i < 100 && !seen[1]; i++)
		tp_nl_wait_event(&ev, 500, tp_event_cb, seen);
	EXPECT_EQ(1, seen[1]);
	EXPECT_GT(seen[0], 0);
	tp_nl_close(&ev);
}

TEST_F_TIMEOUT(noise, compare_three_ways, 120)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise --compare -c 1 -d 500ms -q -j", &out));
	EXPECT_JQS(out,
		   "[.modes[].mode] == [\"kernel_irqs_off\", \"kernel_irqs_on\", \"user\"]",
		   "all(.modes[]; .samples > 0 and .p50_cycles <= .p99_cycles"
		   " and .p99_cycles <= .p999_cycles and .p999_cycles <= .max_cycles"
		   " and .coverage > 0 and .coverage <= 1 and .events_per_second >= 0)",
		   "all(.modes[]; .cpus | length == 1 and .[0].cpu == 1)",
		   ".cpus == [1] and .duration_ns == 500000000");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe noise --compare -c 1 -d 200ms -q", &out));
	EXPECT_NE(NULL, strstr(out, "\nkernel, irqs off "));
	EXPECT_NE(NULL, strstr(out, "\nkernel, irqs on "));
	EXPECT_NE(NULL, strstr(out, "\nuser (irqs on) "));
	EXPECT_NE(NULL, strstr(out, "the OS's share"));
	free(out);
}

TEST_F_TIMEOUT(noise, show_in_every_format, 60)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0-1 -d 200ms -q >/dev/null", NULL));
	ASSERT_EQ(0, tp_sh("tscprobe show noise --csv", &out));
	EXPECT_EQ(0, strncmp(out, "kind,engine,irqs,run_id,cpu,", 28));
	EXPECT_NE(NULL, strstr(out, "\r\nnoise,kernel,off,"));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show noise --prom", &out));
	EXPECT_NE(NULL, strstr(out, "# TYPE tscprobe_noise_gap_cycles summary\n"));
	EXPECT_NE(NULL, strstr(out, "tscprobe_noise_gap_cycles_count{cpu=\"1\",engine=\"kernel\",irqs=\"off\"} "));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show --svg /tmp/show.svg >/dev/null && head -c 300 /tmp/show.svg", &out));
	EXPECT_NE(NULL, strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	free(out);
	EXPECT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe show --csv --prom 2>/dev/null", NULL));
}

TP_HARNESS_MAIN
