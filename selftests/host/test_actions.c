// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of what noise does at its events and end (--on-threshold,
 * --on-end), on synthetic EVENT notifications decoded and handed over as
 * the run loop hands them: the level in cycles as the module converts
 * --stop-at, the counts that add up (every event at the level acted on or limited to once a
 * second), the commands' environment, a failing and a still-running
 * command counted, the --on-end command with the run's figures, the report
 * in text and JSON; then the CLI's one-line exit-2 refusals.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_path.h"
#include "jq.h"
#include "kselftest_harness.h"
#include "notifications.h"
#include "slurp.h"
#include "user/lib/actions.h"
#include "user/lib/decode.h"
#include "user/lib/json_write.h"
#include "user/lib/result.h"

#define KHZ	2000000		/* 2 GHz: 2 cycles per ns */
#define RUN	9

/* An EVENT of CPU @cpu with gaps of @a and @b cycles. */
static struct nlmsghdr *two_events(char *buf, uint64_t run, unsigned int cpu,
				   uint64_t a, uint64_t b)
{
	struct nlmsghdr *nlh = notification(buf, TSCPROBE_CMD_EVENT, run);
	struct nlattr *c = mnl_attr_nest_start(nlh, TSCPROBE_A_CPU);

	mnl_attr_put_u32(nlh, TSCPROBE_CPU_A_ID, cpu);
	put_event(nlh, TSCPROBE_CPU_A_EVENT, 1000, a, TSCPROBE_CAUSE_IRQ, 0);
	put_event(nlh, TSCPROBE_CPU_A_EVENT, 2000, b,
		  TSCPROBE_CAUSE_UNEXPLAINED, 0);
	mnl_attr_nest_end(nlh, c);
	return nlh;
}

/* The actions and the run whose events they are handed. */
struct acting {
	struct tp_actions *a;
	const struct tp_result *run;
};

static void act_on_event(uint64_t run_id, const struct tp_cpu_event *ev,
			 void *arg)
{
	const struct acting *x = arg;
	struct tp_action_event e;

	(void)run_id;
	tp_actions_event(x->a, tp_result_action_event(x->run, ev->cpu, &ev->e,
						      &e));
}

/* The events of @nlh, decoded and handed to @a as the run loop does. */
static void act(struct tp_actions *a, const struct tp_result *run,
		const struct nlmsghdr *nlh)
{
	struct acting x = { a, run };

	tp_notification_each_event(nlh, act_on_event, &x);
}

/* Actions from options as the CLI takes them, checked at @level_ns. */
static int take(struct tp_actions *a, char **opts, unsigned int n,
		uint64_t level_ns)
{
	unsigned int i;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	for (i = 0; i + 1 < n && !ret; i += 2)
		tp_actions_option(a, "noise",
				  strcmp(opts[i], "--on-end") ? TP_OPT_ON_THRESHOLD :
				  TP_OPT_ON_END, opts[i + 1], &ret);
	return ret ? ret : tp_actions_check(a, "noise", level_ns, 0);
}

/* Two notifications of two events at the level, 1.1 s apart; then the end. */
static void events_a_second_apart(struct tp_actions *a,
				  const struct tp_result *run)
{
	char buf[4096];

	act(a, run, two_events(buf, RUN, 0, 50000, 50000));
	usleep(1100000);
	act(a, run, two_events(buf, RUN, 0, 50000, 50000));
	tp_actions_end(a, NULL);
}

FIXTURE(actions) {
	char dir[64];
	char file[128];
	char cmd[512];
	struct tp_result run;
	struct tp_actions a;
};

FIXTURE_SETUP(actions)
{
	strcpy(self->dir, "/tmp/tp-actions-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->file, sizeof(self->file), "%s/env", self->dir);
	tp_result_init(&self->run, TSCPROBE_KIND_NOISE);
	self->run.run_id = RUN;
	self->run.tsc_khz = KHZ;
}

FIXTURE_TEARDOWN(actions)
{
	char cmd[128];

	tp_result_free(&self->run);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* 20 us at 2 GHz is 40000 cycles: 39999 is below, 40000 at the level. */
TEST_F(actions, level_and_counts_add_up)
{
	char *opts[] = { "--on-threshold", self->cmd };
	char buf[4096];

	snprintf(self->cmd, sizeof(self->cmd),
		 "exec echo \"$TSCPROBE_ACTION $TSCPROBE_RUN_ID $TSCPROBE_CPU $TSCPROBE_GAP_CYCLES $TSCPROBE_GAP_NS $TSCPROBE_CAUSE $TSCPROBE_EVENTS\" >>%s",
		 self->file);
	ASSERT_EQ(0, take(&self->a, opts, 2, 20000));
	act(&self->a, &self->run, two_events(buf, RUN, 3, 39999, 40000));
	act(&self->a, &self->run, two_events(buf, RUN, 1, 50000, 60000));
	tp_actions_end(&self->a, NULL);
	EXPECT_EQ(3, self->a.r.events);
	EXPECT_EQ(1, self->a.r.acted);
	EXPECT_EQ(2, self->a.r.limited);
	EXPECT_EQ(0, self->a.r.failed);
	EXPECT_STREQ("threshold 9 3 40000 20000 unexplained 1\n",
		     tp_test_slurp(self->file));
}

TEST_F(actions, acts_again_after_a_second)
{
	char *opts[] = { "--on-threshold", self->cmd };

	snprintf(self->cmd, sizeof(self->cmd),
		 "exec echo $TSCPROBE_EVENTS >>%s", self->file);
	ASSERT_EQ(0, take(&self->a, opts, 2, 20000));
	events_a_second_apart(&self->a, &self->run);
	EXPECT_EQ(4, self->a.r.events);
	EXPECT_EQ(2, self->a.r.acted);
	EXPECT_EQ(2, self->a.r.limited);
	EXPECT_STREQ("1\n3\n", tp_test_slurp(self->file));
}

/* A command that fails counts; one still running is not started again. */
TEST_F(actions, failing_and_busy_commands_count)
{
	char fail[] = "exec exit 3", busy[] = "exec sleep 2";
	char *opts[] = { "--on-threshold", fail, "--on-threshold", busy };

	ASSERT_EQ(0, take(&self->a, opts, 4, 20000));
	events_a_second_apart(&self->a, &self->run);
	EXPECT_EQ(2, self->a.r.acted);
	EXPECT_EQ(1, self->a.r.busy);
	EXPECT_EQ(2, self->a.r.failed);
}

TEST_F(actions, on_end_gets_the_run)
{
	char *opts[] = { "--on-end", self->cmd };
	struct tp_action_end end;
	struct tp_cpu_res cpu[2];

	snprintf(self->cmd, sizeof(self->cmd),
		 "exec echo \"$TSCPROBE_ACTION|$TSCPROBE_RUN_ID|$TSCPROBE_STOP_REASON|$TSCPROBE_CPU|$TSCPROBE_GAP_NS|$TSCPROBE_SNAPSHOT\" >%s",
		 self->file);
	ASSERT_EQ(0, take(&self->a, opts, 2, 0));
	memset(cpu, 0, sizeof(cpu));
	cpu[0].cpu = 2;
	cpu[0].series[TSCPROBE_SERIES_GAP].stats.max = 3000;
	cpu[1].cpu = 5;
	cpu[1].series[TSCPROBE_SERIES_GAP].stats.max = 8000;
	self->run.cpu = cpu;
	self->run.ncpus = 2;
	self->run.reason = TSCPROBE_STOP_REQUESTED;
	tp_actions_end(&self->a, tp_result_action_end(&self->run, &end));
	self->run.cpu = NULL;
	self->run.ncpus = 0;
	EXPECT_TRUE(self->a.r.ended);
	EXPECT_STREQ("end|9|stop requested|5|4000|\n", tp_test_slurp(self->file));
}

TEST_F(actions, report_in_text_and_json)
{
	char *opts[] = { "--on-threshold", "exec true", "--on-end",
			 "exec true" };
	char *text = NULL, *json = NULL;
	size_t len;
	struct jw j;
	FILE *f;

	ASSERT_EQ(0, take(&self->a, opts, 4, 20000));
	self->a.r.events = 5;
	self->a.r.acted = 2;
	self->a.r.limited = 3;
	self->a.r.overruns = 1;
	self->a.r.ended = true;
	f = open_memstream(&text, &len);
	tp_actions_text(&self->a.r, f);
	fclose(f);
	EXPECT_NE(NULL, strstr(text, "actions at gaps of 20.0us or more: exec true\n"
			       "  5 events: 2 acted on, 3 limited (once a second); 0 snapshots saved, 0 commands skipped (the last still ran), 0 failed\n"))
		TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "notifications lost 1 times"));
	EXPECT_NE(NULL, strstr(text, "actions at the end: exec true (ran)\n"));
	f = open_memstream(&json, &len);
	jw_init(&j, f);
	jw_obj(&j, NULL);
	tp_actions_json(&self->a.r, &j);
	jw_obj_end(&j);
	jw_finish(&j);
	fclose(f);
	EXPECT_EQ(0, tp_test_jq(json, "",
				".actions | .level_ns == 20000 and .level_cycles == null and .on_threshold == [\"exec true\"] and .on_end == [\"exec true\"] and .events == .acted + .limited and .overruns == 1 and .ended"))
		TH_LOG("%s", json);
	free(text);
	free(json);
}

TEST(bad_actions_are_one_line_and_exit_2)
{
	static const char *const bad[] = {
		"noise --on-threshold stop",
		"noise --stop-at 20us --on-threshold bogus",
		"noise --stop-at 20us --on-threshold exec",
		"noise --stop-at 20us --on-threshold 'exec   '",
		"noise --stop-at 20us --on-threshold snapshot=",
		"noise --stop-at 20us --on-end stop",
		"noise --on-end 'exec true' --user",
		"noise --on-end 'exec true' --compare",
		"noise --stop-at 20us --trace-stop --on-threshold 'exec true'",
		"noise --stop-at 20us --on-threshold stop --on-threshold stop --on-threshold stop --on-threshold stop --on-threshold stop --on-threshold stop --on-threshold stop --on-threshold stop --on-threshold stop",
		"cache --on-end 'exec true'",
		"skew --on-end 'exec true'",
	};
	EXPECT_ALL_REFUSED(bad);
}

TEST_HARNESS_MAIN
