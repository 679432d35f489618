// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of what `tscprobe monitor` and `noise --follow` print, on
 * synthetic notifications built here as the module builds them: an EVENT
 * gives one line per event (text, or a JSON object per line that jq
 * parses), unreadable counters are n/a / null and never 0, the time since
 * the run's start and the length in ns are only given for the followed
 * run, what ran inside a gap follows its counters where the module named
 * it (null where it did not), events are counted per CPU for the end line; a RUN_FINISHED with a
 * stop event and per-CPU totals gives the end line.  Then the CLI's
 * refusals of bad --run, --stop-at and --trace-stop: one line, exit 2,
 * without the module.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>

#include "cli_path.h"
#include "jq.h"
#include "kselftest_harness.h"
#include "notifications.h"
#include "user/lib/nl.h"
#include "user/lib/live.h"

#define KHZ		2000000		/* 2 GHz: 2 cycles per ns */
#define START_TSC	1000000000ULL

/*
 * An EVENT of CPU @cpu: an SMI (counter read) with two interrupts inside
 * its gap, the serial port's and the tick (a system vector), and the rest
 * unexplained, and an unexplained gap without sources.
 */
static struct nlmsghdr *event_msg(char *buf, uint64_t run, unsigned int cpu)
{
	struct nlmsghdr *nlh = notification(buf, TSCPROBE_CMD_EVENT, run);
	struct nlattr *c = mnl_attr_nest_start(nlh, TSCPROBE_A_CPU);
	struct nlattr *ev;

	mnl_attr_put_u32(nlh, TSCPROBE_CPU_A_ID, cpu);
	ev = put_event_open(nlh, TSCPROBE_CPU_A_EVENT, START_TSC + 4000000,
			    30000, TSCPROBE_CAUSE_SMI, 1);
	put_event_source(nlh, TSCPROBE_SOURCE_IRQ, 4, "ttyS0", 1, 10000, false);
	put_event_source(nlh, TSCPROBE_SOURCE_IRQ, 236, "local_timer", 1, 4000,
			 true);
	mnl_attr_put_u64(nlh, TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES, 16000);
	mnl_attr_nest_end(nlh, ev);
	put_event(nlh, TSCPROBE_CPU_A_EVENT, START_TSC + 6000000, 50000,
		  TSCPROBE_CAUSE_UNEXPLAINED, -1);
	mnl_attr_nest_end(nlh, c);
	return nlh;
}

/* What the printer wrote into a memory stream, NUL-terminated. */
struct capture {
	char *text;
	size_t len;
	FILE *f;
};

static void capture_start(struct capture *c)
{
	c->text = NULL;
	c->f = open_memstream(&c->text, &c->len);
}

static void capture_end(struct capture *c)
{
	fclose(c->f);
}

/* jq -e @filter on each line of @lines, slurped as an array. */
static int jq_lines(const char *lines, const char *filter)
{
	return tp_test_jq(lines, "-s", filter);
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST(event_lines_as_text)
{
	char buf[4096];
	struct tp_live l;
	struct capture c;

	capture_start(&c);
	tp_live_init(&l, c.f, false);
	tp_live_begin(&l, 7, START_TSC, KHZ);
	ASSERT_EQ(2, tp_live_events(&l, event_msg(buf, 7, 3)));
	capture_end(&c);
	EXPECT_EQ(2, count_lines(c.text));
	/* 4e6 cycles after the start at 2 GHz: 2 ms; 30000 cycles: 15 us. */
	EXPECT_NE(NULL, strstr(c.text,
			       "run 7 +0.002000s cpu 3: 30000 cycles (15.0us), cause smi [ smi 1 nmi 0 irq 0 steal_ns n/a ]; ran irq 4 ttyS0 5.0us, irq vector 236 local_timer 2.0us; unexplained 8.0us\n"))
		TH_LOG("%s", c.text);
	EXPECT_NE(NULL, strstr(c.text,
			       "cause unexplained [ smi n/a nmi 0 irq 0 steal_ns n/a ]\n"))
		TH_LOG("%s", c.text);
	EXPECT_EQ(2, tp_live_received(&l, 3));
	EXPECT_EQ(0, tp_live_received(&l, 2));
	free(c.text);
	tp_live_free(&l);
}

TEST(event_lines_as_json)
{
	char buf[4096];
	struct tp_live l;
	struct capture c;

	capture_start(&c);
	tp_live_init(&l, c.f, true);
	tp_live_begin(&l, 7, START_TSC, KHZ);
	tp_live_events(&l, event_msg(buf, 7, 3));
	/* Another run's events: printed, not counted, not timed. */
	tp_live_events(&l, event_msg(buf, 8, 3));
	capture_end(&c);
	EXPECT_EQ(4, count_lines(c.text));
	EXPECT_EQ(0, jq_lines(c.text,
			      "length == 4 and all(.[]; .kind == \"event\" and .cpu == 3)"
			      " and .[0] == {kind: \"event\", run_id: 7, cpu: 3, tsc: 1004000000,"
			      " offset_ns: 2000000, cycles: 30000, ns: 15000, cause: \"smi\","
			      " smi: 1, nmi: 0, irq: 0, steal_ns: null,"
			      " sources: {unexplained_cycles: 16000, unexplained_ns: 8000,"
			      " named: [{kind: \"irq\", id: 4, vector: false,"
			      " name: \"ttyS0\", thread: null, withheld: false, count: 1,"
			      " cycles: 10000, ns: 5000},"
			      " {kind: \"irq\", id: 236, vector: true,"
			      " name: \"local_timer\", thread: null, withheld: false,"
			" count: 1,"
			      " cycles: 4000, ns: 2000}]}}"
			      " and .[1].smi == null and .[1].cause == \"unexplained\""
			      " and .[1].sources == null"
			      " and .[3].run_id == 8 and .[3].offset_ns == null and .[3].ns == null"
			      " and .[2].sources.unexplained_ns == null"
			      " and .[2].sources.named[0].ns == null"
			      " and .[2].sources.named[0].cycles == 10000"))
		TH_LOG("%s", c.text);
	EXPECT_EQ(2, tp_live_received(&l, 3));
	free(c.text);
	tp_live_free(&l);
}

/* A RUN_FINISHED of a noise run stopped at a threshold on CPU 1. */
static struct nlmsghdr *finished_msg(char *buf)
{
	struct nlmsghdr *nlh = notification(buf, TSCPROBE_CMD_RUN_FINISHED, 7);
	unsigned int cpu;

	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, TSCPROBE_KIND_NOISE);
	mnl_attr_put_u32(nlh, TSCPROBE_A_STATE, TSCPROBE_STATE_STOPPED);
	mnl_attr_put_u32(nlh, TSCPROBE_A_STOP_REASON, TSCPROBE_STOP_THRESHOLD);
	mnl_attr_put_u32(nlh, TSCPROBE_A_STOP_CPU, 1);
	put_event(nlh, TSCPROBE_A_STOP_EVENT, START_TSC + 8000000, 400000,
		  TSCPROBE_CAUSE_NMI, -1);
	for (cpu = 0; cpu < 2; cpu++) {
		struct nlattr *c = mnl_attr_nest_start(nlh, TSCPROBE_A_CPU);

		mnl_attr_put_u32(nlh, TSCPROBE_CPU_A_ID, cpu);
		mnl_attr_put_u64(nlh, TSCPROBE_CPU_A_EVENTS_TOTAL, 5 + cpu);
		mnl_attr_put_u64(nlh, TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED, 3 + cpu);
		mnl_attr_nest_end(nlh, c);
	}
	return nlh;
}

TEST(end_line_from_run_finished)
{
	char buf[4096], ev[4096];
	struct tp_result end;
	struct tp_live l;
	struct capture c;

	tp_result_init(&end, 0);
	ASSERT_EQ(0, tp_result_decode_notification(finished_msg(buf), &end));
	EXPECT_EQ(7, end.run_id);
	EXPECT_EQ(TSCPROBE_STOP_THRESHOLD, end.reason);
	ASSERT_TRUE(end.has_stop_event);
	EXPECT_EQ(1, end.stop_cpu);
	EXPECT_FALSE(end.stop_event.smi.ok);
	ASSERT_EQ(2, end.ncpus);
	EXPECT_TRUE(end.cpu[1].not_notified.ok);

	capture_start(&c);
	tp_live_init(&l, c.f, true);
	tp_live_begin(&l, 7, START_TSC, KHZ);
	tp_live_events(&l, event_msg(ev, 7, 1));
	tp_live_print_end(&l, &end);
	capture_end(&c);
	/* Received + not notified = total for CPU 1; CPU 0 got nothing. */
	EXPECT_EQ(0, jq_lines(c.text,
			      ".[2] | .kind == \"run_finished\" and .run_id == 7"
			      " and .measurement == \"noise\" and .state == \"stopped\""
			      " and .stop_reason == \"threshold\""
			      " and .stop_event.cpu == 1 and .stop_event.cycles == 400000"
			      " and .stop_event.cause == \"nmi\" and .stop_event.smi == null"
			      " and .cpus == [{cpu: 0, events_total: 5, received: 0, not_notified: 3},"
			      " {cpu: 1, events_total: 6, received: 2, not_notified: 4}]"))
		TH_LOG("%s", c.text);
	free(c.text);

	capture_start(&c);
	l.f = c.f;
	l.json = false;
	tp_live_print_end(&l, &end);
	capture_end(&c);
	EXPECT_STREQ("run 7 ended: noise stopped, threshold at cpu 1, a gap of 400000 cycles (200.0us), cause nmi;"
		     " cpu 0: 5 events, 0 received, 3 not notified; cpu 1: 6 events, 2 received, 4 not notified\n",
		     c.text);
	free(c.text);
	tp_live_free(&l);
	tp_result_free(&end);
}

TEST(bad_input_is_one_line_and_exit_2)
{
	static const char *const bad[] = {
		"monitor --run x", "monitor --run 0", "monitor --run", "monitor extra",
		"monitor --bogus", "noise --trace-stop", "noise --stop-at 5us",
		"noise --stop-at 3c --threshold 5c", "noise --stop-at 0",
		"noise --stop-at 2s", "noise --stop-at 20us --user",
		"noise --stop-at 20us --compare", "noise --follow --user",
		"noise --follow --compare", "noise --stop-at 11c --trace-stop --user",
	};
	EXPECT_ALL_REFUSED(bad);
}

TEST_HARNESS_MAIN
