// SPDX-License-Identifier: GPL-2.0
/*
 * Watching runs live through the CLI, in the guest (the module's side is
 * test_live.c): `tscprobe monitor` receives a run's events and exactly one
 * RUN_FINISHED, its -j lines parse, every event has a cause and counters
 * that cannot be read are null, never 0; per CPU the events received plus
 * those not notified are the run's total; --run ends with its run; two
 * monitors at once both see everything; a monitor killed with kill -9 mid-
 * run leaves the module healthy, and one whose module is unloaded ends
 * (exit 1); --stop-at ends a run with reason threshold and --trace-stop
 * leaves tracing off; noise --follow keeps its report parseable; bad input
 * is one line and exit 2.
 *
 * Under TCG gaps of thousands of cycles are common, so a low threshold
 * gives events; these tests never assert timings.
 */
#include <signal.h>
#include <time.h>

#include "kselftest_harness.h"
#include "tp_test.h"

#define THRESHOLD	"1000c"

/* A monitor started in the background: its output, pid and exit status. */
struct tp_monitor {
	char out[64];
	char pid_file[64];
	char rc_file[64];
	int pid;
};

static void tp_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * Generic netlink sockets that joined a multicast group, from
 * /proc/net/netlink (protocol 16, groups not 0): how many listen.
 */
static int tp_genl_listeners(void)
{
	char line[512], sk[32];
	unsigned int eth, groups;
	int pid, n = 0;
	FILE *f = fopen("/proc/net/netlink", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%31s %u %d %x", sk, &eth, &pid, &groups) == 4 &&
		    eth == NETLINK_GENERIC && groups)
			n++;
	fclose(f);
	return n;
}

/* Start `tscprobe monitor -j ARGS`; return once it listens. */
static int tp_monitor_start(struct tp_monitor *m, const char *name,
			    const char *args)
{
	int before = tp_genl_listeners(), i;
	char cmd[512];

	snprintf(m->out, sizeof(m->out), "/tmp/%s.out", name);
	snprintf(m->pid_file, sizeof(m->pid_file), "/tmp/%s.pid", name);
	snprintf(m->rc_file, sizeof(m->rc_file), "/tmp/%s.rc", name);
	snprintf(cmd, sizeof(cmd),
		 "rm -f %s %s; (tscprobe monitor -j %s > %s 2>&1 & echo $! > %s;"
		 " wait $!; echo $? > %s) >/dev/null 2>&1 &",
		 m->rc_file, m->pid_file, args, m->out, m->pid_file, m->rc_file);
	if (tp_sh(cmd, NULL))
		return -1;
	for (i = 0; i < 300 && !*tp_read_file(m->pid_file); i++)
		tp_sleep_ms(100);
	m->pid = atoi(tp_read_file(m->pid_file));
	/* Joined the group: one more listening socket (or, blind, 3 s). */
	for (i = 0; i < 300 && tp_genl_listeners() <= before; i++)
		tp_sleep_ms(100);
	if (before < 0)
		tp_sleep_ms(3000);
	return m->pid > 0 ? 0 : -1;
}

/* Wait up to @secs for the monitor to exit; its status, or -1. */
static int tp_monitor_wait(const struct tp_monitor *m, unsigned int secs)
{
	unsigned int i;

	for (i = 0; i < secs * 10; i++) {
		if (*tp_read_file(m->rc_file))
			return atoi(tp_read_file(m->rc_file));
		tp_sleep_ms(100);
	}
	return -1;
}

/* Ctrl-C the monitor once it has printed @run's end (or after 30 s). */
static int tp_monitor_end(const struct tp_monitor *m, long long run)
{
	char filter[128], *out = NULL;
	int i;

	snprintf(filter, sizeof(filter),
		 "grep -c '\"kind\":\"run_finished\",\"run_id\":%lld,' %s", run,
		 m->out);
	for (i = 0; i < 300; i++) {
		tp_sh(filter, &out);
		if (out && atoi(out) > 0)
			break;
		free(out);
		out = NULL;
		tp_sleep_ms(100);
	}
	free(out);
	kill(m->pid, SIGINT);
	return tp_monitor_wait(m, 30);
}

/* jq -e -s @filter over a file of JSON lines. */
static int tp_jq_lines(const char *path, const char *filter)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "jq -e -s '%s' %s >/dev/null", filter, path);
	return tp_sh(cmd, NULL);
}

/* The run id of a -j report. */
static long long tp_run_of(const char *json)
{
	return tp_jq_num(json, ".run_id");
}

/*
 * Every identity a monitor's lines about run R satisfy, given the run's
 * own -j report as $r: one RUN_FINISHED; every event has a cause and is an
 * event; per CPU, lines received = the end line's "received", and
 * received + not notified = the total the report gives; an event names
 * its sources exactly where the report says its CPU was traced, adding up
 * to its gap, and those of an event the report kept too are the report's.
 */
static const char *const tp_monitor_identities[] = {
	"map(select(.run_id == $R and .kind == \"run_finished\")) | length == 1",
	"map(select(.run_id == $R and .kind == \"event\")) | length > 0",
	"all(.[] | select(.kind == \"event\"); .cause as $c |"
	" [\"smi\", \"nmi\", \"irq\", \"steal\", \"unexplained\"] | index($c) != null)",
	"all(.[] | select(.kind == \"event\" and .run_id == $R);"
	" .cycles >= $r.threshold_cycles and .offset_ns >= 0 and .ns > 0)",
	"(map(select(.run_id == $R and .kind == \"event\")) | group_by(.cpu) |"
	" map({key: (.[0].cpu | tostring), value: length}) | from_entries) as $got |"
	" all(.[] | select(.kind == \"run_finished\" and .run_id == $R) | .cpus[];"
	" .received == ($got[.cpu | tostring] // 0))",
	"all(.[] | select(.kind == \"run_finished\" and .run_id == $R) | .cpus[];"
	" .not_notified != null and .received + .not_notified == .events_total)",
	"(map(select(.kind == \"run_finished\" and .run_id == $R)) | .[0].cpus |"
	" map({cpu, events_total})) == ($r.cpus | map({cpu, events_total}))",
	"all(.[] | select(.kind == \"run_finished\" and .run_id == $R); .overruns == 0)",
	"($r.cpus | map({key: (.cpu | tostring), value: (.sources != null)}) |"
	" from_entries) as $tr | all(.[] | select(.kind == \"event\" and .run_id == $R);"
	" (.sources != null) == $tr[.cpu | tostring] and (.sources == null or"
	" ([.sources.named[].cycles] | add // 0) + .sources.unexplained_cycles == .cycles))",
	"[.[] | select(.kind == \"event\" and .run_id == $R) as $e |"
	" $r.cpus[] | select(.cpu == $e.cpu) | .events[] | select(.tsc == $e.tsc) |"
	" .cause == $e.cause and"
	" .sources.unexplained_cycles == $e.sources.unexplained_cycles and"
	" [.sources.named[]? | .cycles] == [$e.sources.named[]? | .cycles]] | all",
};

/* Check a monitor's output against run @json's report. */
static void tp_check_monitor(struct __test_metadata *_metadata,
			     const struct tp_monitor *m, const char *json)
{
	const char *path = tp_tmpfile(json);
	char cmd[2048], *report;
	size_t i;

	ASSERT_NE(NULL, path);
	report = strdup(path);
	ASSERT_NE(NULL, report);
	EXPECT_EQ(0, tp_jq_lines(m->out, "length > 0")) TH_LOG("the lines do not parse");
	for (i = 0; i < sizeof(tp_monitor_identities) / sizeof(char *); i++) {
		snprintf(cmd, sizeof(cmd),
			 "jq -e -s --slurpfile rr %s '($rr[0]) as $r | ($r.run_id) as $R | %s' %s >/dev/null",
			 report, tp_monitor_identities[i], m->out);
		EXPECT_EQ(0, tp_sh(cmd, NULL)) TH_LOG("%s", tp_monitor_identities[i]);
	}
	unlink(report);
	free(report);
}

TP_RUN_FIXTURE(monitor)

TEST_F_TIMEOUT(monitor, monitor_receives_a_runs_events_and_one_end, 120)
{
	struct tp_monitor m;
	char *out = NULL, *info = NULL;

	ASSERT_EQ(0, tp_monitor_start(&m, "mon1", ""));
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0-1 -d 1s --threshold " THRESHOLD " -q -j", &out));
	EXPECT_EQ(0, tp_monitor_end(&m, tp_run_of(out)));
	tp_check_monitor(_metadata, &m, out);
	/*
	 * Counters that cannot be read are null, never 0: the SMI count is
	 * there exactly when the module can read MSR_SMI_COUNT; steal time
	 * never moves with interrupts off, so it is never sent then.
	 */
	ASSERT_EQ(0, tp_sh("tscprobe info -j", &info));
	if (tp_jq(info, ".features | index(\"smi_count\") != null") == 0) {
		EXPECT_EQ(0, tp_jq_lines(m.out, "all(.[] | select(.kind == \"event\"); (.smi | type) == \"number\" or .nmi == null and .irq == null)"));
	} else {
		EXPECT_EQ(0, tp_jq_lines(m.out, "all(.[] | select(.kind == \"event\"); .smi == null)"));
	}
	/* An event followed at once by another has no counters at all. */
	EXPECT_EQ(0, tp_jq_lines(m.out, "all(.[] | select(.kind == \"event\"); .steal_ns == null and (.irq == 0 and (.nmi | type) == \"number\" or .irq == null and .nmi == null and .smi == null))"));
	/* The run's report: every kept event with its cause; causes add up. */
	EXPECT_JQS(out,
		   "all(.cpus[].events[]; .cause != null and .group != null)",
		   "all(.cpus[]; (.causes | map(.events) | add) == .events_total)",
		   "all(.cpus[]; .events_not_notified <= .events_total)",
		   ".groups | length > 0",
		   "(.groups | map(.events) | add) == ([.cpus[].events[]] | length)");
	free(info);
	free(out);
}

TEST_F_TIMEOUT(monitor, monitor_run_ends_with_its_run, 180)
{
	char cmd[256], *out = NULL;
	struct tp_status_reply st;
	long long run;
	int i;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 5s --threshold " THRESHOLD
			   " -q -j > /tmp/run5.json 2>&1 &", NULL));
	for (i = 0; i < 100; i++) {
		st = tp_get_status(&self->st);
		if (st.state == TSCPROBE_STATE_RUNNING)
			break;
		tp_sleep_ms(100);
	}
	ASSERT_EQ(TSCPROBE_STATE_RUNNING, st.state);
	run = (long long)st.run_id;
	snprintf(cmd, sizeof(cmd), "timeout 120 tscprobe monitor -j --run %lld > /tmp/run5.mon", run);
	EXPECT_EQ(0, tp_sh(cmd, NULL));
	/* It ended with the run: the run is over, its end is the last line. */
	EXPECT_NE(TSCPROBE_STATE_RUNNING, tp_get_status(&self->st).state);
	snprintf(cmd, sizeof(cmd),
		 "last | .kind == \"run_finished\" and .run_id == %lld", run);
	EXPECT_EQ(0, tp_jq_lines("/tmp/run5.mon", cmd));
	snprintf(cmd, sizeof(cmd), "all(.[]; .run_id == %lld)", run);
	EXPECT_EQ(0, tp_jq_lines("/tmp/run5.mon", cmd));
	/* Of a run that has ended: its end line at once. */
	snprintf(cmd, sizeof(cmd), "timeout 60 tscprobe monitor --run %lld", run);
	EXPECT_EQ(0, tp_sh(cmd, &out));
	EXPECT_EQ(0, strncmp(out, "run ", 4)) TH_LOG("%s", out);
	free(out);
	/* Neither the current nor the last run: one line, exit 2. */
	snprintf(cmd, sizeof(cmd), "tscprobe monitor --run %lld 2>&1 >/dev/null", run + 5);
	EXPECT_EQ(TP_EXIT_USAGE, tp_sh(cmd, &out));
	EXPECT_EQ(strlen(out) - 1, strcspn(out, "\n")) TH_LOG("%s", out);
	free(out);
	tp_sh("wait", NULL);
}

TEST_F_TIMEOUT(monitor, two_monitors_both_see_everything, 120)
{
	struct tp_monitor a, b;
	char cmd[512], *out = NULL;
	long long run;

	ASSERT_EQ(0, tp_monitor_start(&a, "mona", ""));
	ASSERT_EQ(0, tp_monitor_start(&b, "monb", ""));
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0-1 -d 1s --threshold " THRESHOLD " -q -j", &out));
	run = tp_run_of(out);
	EXPECT_EQ(0, tp_monitor_end(&a, run));
	EXPECT_EQ(0, tp_monitor_end(&b, run));
	tp_check_monitor(_metadata, &a, out);
	tp_check_monitor(_metadata, &b, out);
	/* The same events, line for line. */
	snprintf(cmd, sizeof(cmd),
		 "grep '\"kind\":\"event\",\"run_id\":%lld,' %s | sort > /tmp/a.ev;"
		 " grep '\"kind\":\"event\",\"run_id\":%lld,' %s | sort > /tmp/b.ev;"
		 " test -s /tmp/a.ev && cmp /tmp/a.ev /tmp/b.ev",
		 run, a.out, run, b.out);
	EXPECT_EQ(0, tp_sh(cmd, NULL));
	free(out);
}

TEST_F_TIMEOUT(monitor, monitor_killed_mid_run_leaves_the_module_healthy, 120)
{
	struct tp_monitor m;
	char *out = NULL;

	ASSERT_EQ(0, tp_monitor_start(&m, "mon9", ""));
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0-1 -d 3s --threshold " THRESHOLD
			   " -q -j > /tmp/k9.json & sleep 1; kill -9 $(cat /tmp/mon9.pid); wait $!", NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/k9.json", &out));
	EXPECT_JQ(out, ".state == \"done\"");
	free(out);
	EXPECT_EQ(128 + SIGKILL, tp_monitor_wait(&m, 10));
	/* The next run works, with and without a listener; rmmod works. */
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 200ms --threshold " THRESHOLD " -q -j", &out));
	EXPECT_JQ(out, ".state == \"done\" and .cpus[0].samples > 0");
	free(out);
	tp_nl_close(&self->nl);
	tp_nl_close(&self->st);
	EXPECT_EQ(0, tp_module_unload());
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->st));
}

TEST_F_TIMEOUT(monitor, monitor_ends_when_the_module_goes, 120)
{
	struct tp_monitor m;

	ASSERT_EQ(0, tp_monitor_start(&m, "monrm", ""));
	tp_nl_close(&self->nl);
	tp_nl_close(&self->st);
	EXPECT_EQ(0, tp_module_unload());
	EXPECT_EQ(TP_EXIT_FAIL, tp_monitor_wait(&m, 30));
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->st));
}

TEST_F_TIMEOUT(monitor, stop_at_ends_the_run_with_reason_threshold, 120)
{
	struct tp_monitor m;
	char *out = NULL;

	ASSERT_EQ(0, tp_monitor_start(&m, "monst", ""));
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0-1 -d 60s --threshold " THRESHOLD
			   " --stop-at 5000c -q -j", &out));
	EXPECT_JQS(out,
		   ".stop_reason == \"threshold\" and .stop_at_cycles == 5000",
		   ".elapsed_ns < .duration_ns",
		   ".stop_cpu as $c | [.cpus[].cpu] | index($c) != null",
		   ".stop_event.cycles >= 5000 and .stop_event.cause != null",
		   ".trace_stop == false");
	EXPECT_EQ(0, tp_monitor_end(&m, tp_run_of(out)));
	EXPECT_EQ(0, tp_jq_lines(m.out,
				 "map(select(.kind == \"run_finished\")) | last |"
				 " .stop_reason == \"threshold\" and .stop_event.cycles >= 5000"));
	free(out);
}

TEST_F_TIMEOUT(monitor, trace_stop_leaves_tracing_off, 120)
{
	const char *root = tp_tracefs();
	char on[128], cmd[256], *out = NULL;

	ASSERT_NE(NULL, root) TH_LOG("no tracefs in the guest");
	snprintf(on, sizeof(on), "%s/tracing_on", root);
	snprintf(cmd, sizeof(cmd), "echo 1 > %s", on);
	ASSERT_EQ(0, tp_sh(cmd, NULL));
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 60s --threshold " THRESHOLD
			   " --stop-at 5000c --trace-stop -q -j", &out));
	EXPECT_JQ(out, ".stop_reason == \"threshold\" and .trace_stop == true");
	EXPECT_STREQ("0", tp_read_file(on));
	snprintf(cmd, sizeof(cmd), "echo 1 > %s", on);
	tp_sh(cmd, NULL);
	free(out);
	/* Without --trace-stop, tracing stays on. */
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 60s --threshold " THRESHOLD
			   " --stop-at 5000c -q -j", &out));
	EXPECT_STREQ("1", tp_read_file(on));
	free(out);
}

TEST_F_TIMEOUT(monitor, follow_prints_events_then_a_parseable_report, 120)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 1s --threshold " THRESHOLD
			   " --follow -j 2>/tmp/follow.err", &out));
	EXPECT_JQ(out, ".kind == \"noise\" and .cpus[0].events_total > 0");
	EXPECT_EQ(0, tp_jq_lines("/tmp/follow.err",
				 "(map(select(.kind == \"event\")) | length > 0) and"
				 " (last | .kind == \"run_finished\") and"
				 " (last | .cpus[0] | .received + .not_notified == .events_total)"));
	free(out);
	/* Text: event lines, then the end line, on standard error. */
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 500ms --threshold " THRESHOLD
			   " --follow 2>&1 >/dev/null | tail -n 1", &out));
	EXPECT_EQ(0, strncmp(out, "run ", 4)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, " ended: noise done, completed")) TH_LOG("%s", out);
	free(out);
}

TEST_F_TIMEOUT(monitor, groups_use_the_offsets_of_a_skew_run, 180)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe skew -c 0-1 -q -j > /dev/null", NULL));
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0-1 -d 500ms --threshold " THRESHOLD " -q -j", &out));
	/*
	 * Offsets from that run: CPU 0 is the reference; a pair the skew run
	 * could not measure (a timeout under TCG) has none.  Applied only
	 * when every CPU has one and the TSC is not unstable.
	 */
	EXPECT_JQS(out,
		   ".offsets_run_id != null and .offsets_run_id < .run_id",
		   ".cpus[0].tsc_offset_cycles == 0",
		   ".tsc_aligned == (.tsc_sync != \"unstable\" and"
		   " all(.cpus[]; .tsc_offset_cycles != null))",
		   "(.groups | map(.events) | add) == ([.cpus[].events[]] | length)",
		   "all(.groups[]; .start_tsc <= .end_tsc and (.cpus | length) >= 1)",
		   "[.cpus[].events[].group] | all(. != null)");
	free(out);
}

TEST_F_TIMEOUT(monitor, bad_input_is_one_line_and_exit_2, 120)
{
	static const char *const bad[] = {
		"noise -c 0 --stop-at 5us", "noise -c 0 --trace-stop",
		"noise -c 0 --threshold 10us --stop-at 100c",
		"noise -c 0 --stop-at 20us --user", "noise --follow --user",
		"monitor --run 987654321", "monitor --run x",
	};
	char cmd[160], *out = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "tscprobe %s 2>&1 >/dev/null", bad[i]);
		EXPECT_EQ(TP_EXIT_USAGE, tp_sh(cmd, &out)) TH_LOG("%s", bad[i]);
		EXPECT_EQ(0, strncmp(out, "tscprobe: ", 10)) TH_LOG("%s: %s", bad[i], out);
		EXPECT_EQ(strlen(out) - 1, strcspn(out, "\n")) TH_LOG("%s: %s", bad[i], out);
		free(out);
	}
	EXPECT_NE(TSCPROBE_STATE_RUNNING, tp_get_status(&self->st).state);
}

TP_HARNESS_MAIN
