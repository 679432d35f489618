// SPDX-License-Identifier: GPL-2.0
/*
 * The cache measurement, in the guest: every field of the report present
 * and ordered, rounds counted exactly, windows present exactly when that
 * many rounds ran and equal to the totals where they must be, the level
 * curve (one CPU, and every CPU sharing the guest's 1 GiB), the node
 * probe, a dump whose CPUs span several messages, debugfs's Average
 * lines, status during a run, STOP (also during the levels), hotplug and
 * rmmod mid-run, and every bad input at the netlink level and through the
 * CLI.
 *
 * Timings under TCG are emulated (clflush does nothing there): these tests
 * check behaviour, never speed.
 */
#include "kselftest_harness.h"
#include "tp_test.h"
#include "user/lib/cli.h"
#include "user/lib/result.h"

/*
 * Two of the invariants below hold also for a run cut short (STOP,
 * hotplug), so those tests name them.
 */
/* the six figures ordered, in every series, gross and net */
#define TP_CACHE_FIGS_ORDERED \
	"[.cpus[] | .overhead, .cached, .uncached, .cached.gross," \
	" .uncached.gross] | all(.min <= .p50 and .p50 <= .p99 and" \
	" .p99 <= .max and .min <= .avg and .avg <= .max and .sd >= 0)"
/* every round is in every histogram, once */
#define TP_CACHE_ROUNDS_IN_HISTOGRAMS \
	"all(.cpus[]; . as $c | [.overhead.histogram, .cached.gross.histogram," \
	" .uncached.gross.histogram] | all(map(.calls) | add == $c.rounds))"

/* Every identity a cache report must satisfy, whatever was asked. */
static const char *const tp_cache_invariants[] = {
	".kind == \"cache\" and (.tsc_khz > 0) and (.cpus | length > 0)",
	/* the six figures everywhere, ordered */
	"[.cpus[] | .overhead, .cached, .uncached, .cached.gross,"
	" .uncached.gross] |"
	" all(has(\"min\") and has(\"avg\") and has(\"p50\") and has(\"p99\")"
	" and has(\"max\") and has(\"sd\"))",
	TP_CACHE_FIGS_ORDERED,
	/* net is gross minus the overhead's median, and says so */
	"all(.cpus[]; .cached.net_of == \"overhead_p50\" and"
	" .cached.overhead_p50 == .overhead.p50 and"
	" .uncached.overhead_p50 == .overhead.p50 and"
	" .cached.overhead_avg == .overhead.avg)",
	/* never below 0: a load under the overhead counts 0 (JSON is exact) */
	"all(.cpus[]; ([.cached.gross.p50 - .overhead.p50, 0] | max) =="
	" .cached.p50)",
	"all(.cpus[]; ([.uncached.gross.p50 - .overhead.p50, 0] | max) =="
	" .uncached.p50)",
	"[.cpus[] | (.cached, .uncached) | .min, .avg, .p50, .p99, .max] |"
	" all(. >= 0)",
	"all(.cpus[]; .cached.below_overhead <= .rounds and"
	" .uncached.below_overhead <= .rounds)",
	/* the original program's mean minus mean, under its kept key */
	"all(.cpus[]; .cached.seed_avg == .cached.gross.avg - .overhead.avg)",
	TP_CACHE_ROUNDS_IN_HISTOGRAMS,
	"all(.cpus[]; .rounds > 0 and .window_count > 0 and"
	" .measured_cycles > 0 and .rounds_per_s > 0)",
	/* a window exists exactly once that many rounds ran */
	"all(.cpus[]; (.windows | has(\"1e3\")) == (.rounds >= 1000) and"
	" (.windows | has(\"1e5\")) == (.rounds >= 100000) and"
	" (.windows | has(\"1e6\")) == (.rounds >= 1000000))",
	"all(.cpus[]; . as $c | .windows | to_entries | all(.value.blocks =="
	" ($c.rounds / .value.rounds | floor) and (.key | tonumber) =="
	" .value.rounds))",
};

static void tp_check_cache_json(struct __test_metadata *_metadata,
				const char *json, unsigned int ncpus,
				unsigned long long rounds)
{
	char cpus[64], counted[160];

	snprintf(cpus, sizeof(cpus), ".cpus | length == %u", ncpus);
	/* rounds counted exactly, by every CPU */
	snprintf(counted, sizeof(counted),
		 ".rounds == %llu and all(.cpus[]; .rounds == %llu)",
		 rounds, rounds);
	EXPECT_REPORT(json, tp_cache_invariants, cpus, counted);
}

TP_RUN_FIXTURE(cache)

TEST_F_TIMEOUT(cache, one_cpu_fields_and_windows, 60)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache -c 1 -n 5e4 -j", &out));
	tp_check_cache_json(_metadata, out, 1, 50000);
	EXPECT_JQS(out,
		   ".engine == \"kernel\" and .state == \"done\" and"
		   " .stop_reason == \"completed\" and .batch == 1000",
		   ".cpus[0].cpu == 1 and .cpus[0].incomplete == false");
	/* 5e4 rounds: the last 1e3 yes, the last 1e5 not yet */
	EXPECT_JQS(out,
		   ".cpus[0].windows | keys == [\"1e3\"]",
		   ".cpus[0].windows[\"1e3\"].blocks == 50");
	/* not asked for: not there */
	EXPECT_JQ(out, ".cpus[0] | has(\"levels\") or has(\"nodes\") | not");
	free(out);
}

TEST_F_TIMEOUT(cache, defaults_fill_every_window, 120)
{
	char *out = NULL;

	/* The default is 1e6 rounds: every window, each block exact. */
	ASSERT_EQ(0, tp_sh("tscprobe cache -c 0 -q -j", &out));
	tp_check_cache_json(_metadata, out, 1, 1000000);
	EXPECT_JQS(out,
		   ".cpus[0].windows | keys == [\"1e3\", \"1e5\", \"1e6\"]",
		   ".cpus[0].windows | .[\"1e3\"].blocks == 1000 and"
		   " .[\"1e5\"].blocks == 10 and .[\"1e6\"].blocks == 1");
	/* 1e6 rounds in all: the last 1e6 block is the whole run */
	EXPECT_JQ(out, ".cpus[0] | .windows[\"1e6\"].cached_gross =="
		  " .cached.gross.avg and .windows[\"1e6\"].uncached_gross =="
		  " .uncached.gross.avg and .windows[\"1e6\"].overhead =="
		  " .overhead.avg");
	free(out);
}

TEST_F_TIMEOUT(cache, all_cpus_and_odd_batches, 90)
{
	char *out = NULL;

	/* 123457 rounds: 123 blocks of 1e3, one of 1e5, a partial rest. */
	ASSERT_EQ(0, tp_sh("tscprobe cache -n 123457 --batch 7 -q -j", &out));
	tp_check_cache_json(_metadata, out, tp_online_count(), 123457);
	EXPECT_JQS(out,
		   ".batch == 7",
		   "all(.cpus[]; .windows[\"1e3\"].blocks == 123 and"
		   " .windows[\"1e5\"].blocks == 1)");
	free(out);
	/* batch 1 and batch == rounds are both allowed */
	ASSERT_EQ(0, tp_sh("tscprobe cache -c 2 -n 999 --batch 999 -j", &out));
	tp_check_cache_json(_metadata, out, 1, 999);
	EXPECT_JQ(out, ".cpus[0].windows == {}");
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe cache -c 3 -n 1 --batch 1 -j", &out));
	tp_check_cache_json(_metadata, out, 1, 1);
	free(out);
}

/* 2^20 loads timed, less blocks of 1024 a host preemption disturbed */
#define TP_LEVEL_FIGURES_OK \
	".loads > 0 and .loads <= 1048576 and .loads % 1024 == 0 and" \
	" .cycles > 0 and .cycles_per_load > 0 and .ns_per_load > 0"

/* The level curve: ascending powers of two from 4 KiB, each measured. */
static const char *const tp_level_invariants[] = {
	".levels == true and all(.cpus[]; .levels | length > 0)",
	"all(.cpus[]; .levels[0].size == 4096)",
	"all(.cpus[]; .levels | . as $l | [range(1; length)] |"
	" all($l[.].size == 2 * $l[. - 1].size))",
	"all(.cpus[]; .levels | last | .size <= 268435456)",
	"all(.cpus[].levels[]; " TP_LEVEL_FIGURES_OK ")",
};

/* The level invariants; the levels whose figures cannot be, by name. */
static void tp_check_levels(struct __test_metadata *_metadata,
			    const char *json)
{
	char *bad;

	EXPECT_JQ_ALL(json, tp_level_invariants,
		      sizeof(tp_level_invariants) / sizeof(char *));
	bad = tp_jq_str(json, "[.cpus[] | .cpu as $c | .levels[] |"
			" select((" TP_LEVEL_FIGURES_OK ") | not) |"
			" {cpu: $c} + .] | tostring");
	EXPECT_STREQ("[]", bad ? bad : "(jq failed)");
	free(bad);
}

TEST_F_TIMEOUT(cache, levels_one_cpu, 180)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache -c 1 -n 1000 --levels -q -j", &out));
	tp_check_cache_json(_metadata, out, 1, 1000);
	tp_check_levels(_metadata, out);
	/* one CPU in a 1 GiB guest gets a 128 or 256 MiB working set */
	EXPECT_JQS(out,
		   ".cpus[0].levels | length >= 16",
		   ".cpus[0] | has(\"nodes\") | not");
	TH_LOG("largest working set %lld MiB",
	       tp_jq_num(out, ".cpus[0].levels | last | .size / 1048576"));
	free(out);
}

TEST_F_TIMEOUT(cache, levels_every_cpu_share_memory, 300)
{
	char *out = NULL;

	/* Every CPU at once: they share the node's free memory, nobody OOMs. */
	ASSERT_EQ(0, tp_sh("tscprobe cache -n 1000 --levels -q -j", &out));
	tp_check_cache_json(_metadata, out, tp_online_count(), 1000);
	tp_check_levels(_metadata, out);
	EXPECT_JQ(out, "[.cpus[].levels | last | .size] | max * (length) * 2"
		  " <= 1073741824");
	free(out);
}

TEST_F_TIMEOUT(cache, nodes, 60)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache -n 2000 --nodes -q -j", &out));
	tp_check_cache_json(_metadata, out, tp_online_count(), 2000);
	/*
	 * One node in the guest: every CPU probed it, once per round.  The JSON
	 * is exact, so what jq computes from its integers is equal, not near.
	 */
	EXPECT_JQS(out,
		   ".nodes == true and all(.cpus[]; .nodes | length == 1)",
		   "all(.cpus[].nodes[]; .node == 0 and .loads == 2000 and"
		   " .cycles > 0 and .gross == .cycles / .loads)",
		   "all(.cpus[]; . as $c | .nodes[0] | (([.gross -"
		   " $c.overhead.p50, 0] | max) == .net))");
	free(out);
}

/* Sum every bucket's calls of every series, per CPU, across messages. */
struct tp_cache_dump {
	unsigned int cpu_messages;
	uint64_t calls[TP_MAX_CPUS][TP_CACHE_SERIES];
};

static void tp_count_series(const struct nlattr *series, uint64_t *calls)
{
	const struct nlattr *tb[TSCPROBE_SERIES_A_MAX + 1];
	const struct nlattr *b, *bt[TSCPROBE_BUCKET_A_MAX + 1];
	uint32_t id;

	if (tp_nl_parse_nested(series, tb, TSCPROBE_SERIES_A_MAX))
		return;
	id = tp_nl_u32(tb[TSCPROBE_SERIES_A_ID], 0);
	if (id < TSCPROBE_SERIES_OVERHEAD || id > TSCPROBE_SERIES_UNCACHED)
		return;
	mnl_attr_for_each_nested(b, series) {
		if (mnl_attr_get_type(b) != TSCPROBE_SERIES_A_BUCKET ||
		    tp_nl_parse_nested(b, bt, TSCPROBE_BUCKET_A_MAX))
			continue;
		calls[TP_CACHE_IDX(id)] += tp_nl_u64(bt[TSCPROBE_BUCKET_A_CALLS], 0);
	}
}

static int tp_cache_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a, *s, *tb[TSCPROBE_CPU_A_MAX + 1];
	struct tp_cache_dump *d = data;
	uint32_t cpu;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != TSCPROBE_A_CPU ||
		    tp_nl_parse_nested(a, tb, TSCPROBE_CPU_A_MAX))
			continue;
		d->cpu_messages++;
		cpu = tp_nl_u32(tb[TSCPROBE_CPU_A_ID], 0);
		if (cpu >= TP_MAX_CPUS)
			continue;
		mnl_attr_for_each_nested(s, a)
			if (mnl_attr_get_type(s) == TSCPROBE_CPU_A_SERIES)
				tp_count_series(s, d->calls[cpu]);
	}
	return MNL_CB_OK;
}

TEST_F_TIMEOUT(cache, dump_spans_messages_and_resumes, 90)
{
	struct tp_cache_dump *d = calloc(1, sizeof(*d));
	char *out = NULL;
	unsigned int cpu, i;

	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, tp_sh("tscprobe cache -n 30000 --levels --nodes -q -j",
			   &out));
	/*
	 * Three histograms, 15 levels and a node: a CPU that fits one read is
	 * never split, so the messages are made smaller than a CPU's results
	 * (test_dump_room) for every CPU to continue across messages.
	 */
	ASSERT_EQ(0, tp_param_set("test_dump_room", 1024));
	EXPECT_EQ(0, tp_small_dump(&self->nl, tp_cache_dump_cb, d));
	ASSERT_EQ(0, tp_param_set("test_dump_room", 0));
	TH_LOG("%u CPUs in %u messages", tp_online_count(), d->cpu_messages);
	EXPECT_GE(d->cpu_messages, 2 * tp_online_count());
	/* resumed exactly: no bucket lost, none sent twice */
	for (cpu = 0; cpu < tp_online_count(); cpu++)
		for (i = 0; i < TP_CACHE_SERIES; i++)
			EXPECT_EQ(30000, d->calls[cpu][i])
				TH_LOG("cpu %u series %u", cpu, i);
	free(d);
	free(out);
}

TEST_F_TIMEOUT(cache, debugfs_average_lines, 180)
{
	char *json = NULL, *text = NULL, *p;
	long long ov, un, ca, rounds;
	unsigned int cpu;

	ASSERT_EQ(0, tp_sh("tscprobe cache -c 2 -n 20000 --levels -q -j", &json));
	ASSERT_EQ(0, tp_sh("cat /sys/kernel/debug/tscprobe/cache", &text));
	EXPECT_NE(NULL, strstr(text, "cycles_hz="));
	p = strstr(text, "\ncpu ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(2, sscanf(p, "\ncpu %u: rounds=%lld", &cpu, &rounds));
	EXPECT_EQ(2, cpu);
	EXPECT_EQ(20000, rounds);
	p = strstr(text, "Average measurement overhead: ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "Average measurement overhead: %lld cycles", &ov));
	p = strstr(text, "Average uncached memory access: ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "Average uncached memory access: %lld cycles", &un));
	p = strstr(text, "Average cached memory access: ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "Average cached memory access: %lld cycles", &ca));
	/*
	 * The same means, rounded: the module's exactly, JSON's from six
	 * significant digits, so a mean within 0.0005 of a half may round
	 * the other way.
	 */
	EXPECT_GE(1, llabs(tp_jq_num(json, ".cpus[0].overhead.avg + 0.5 | floor") -
			   ov));
	EXPECT_GE(1, llabs(tp_jq_num(json, "(.cpus[0].uncached.gross.avg + 0.5 |"
				     " floor) - (.cpus[0].overhead.avg + 0.5 |"
				     " floor)") - un));
	EXPECT_GE(1, llabs(tp_jq_num(json, "(.cpus[0].cached.gross.avg + 0.5 |"
				     " floor) - (.cpus[0].overhead.avg + 0.5 |"
				     " floor)") - ca));
	EXPECT_NE(NULL, strstr(text, "last 1000 rounds (block 20)"));
	/* the blocks are net of the overhead's median, never below 0 */
	EXPECT_NE(NULL, strstr(text, "(net of the overhead median "));
	EXPECT_EQ(NULL, strstr(text, "cached=-"));
	EXPECT_NE(NULL, strstr(text, "level 4096 bytes: "));
	EXPECT_NE(NULL, strstr(text, "uncached gross cycles: min="));
	free(json);
	free(text);
}

TEST_F_TIMEOUT(cache, show_status_and_results_kind, 90)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache -n 1e9 -q >/dev/null & sleep 2;"
			   " tscprobe status -j > /tmp/st.json; tscprobe status"
			   " > /tmp/st.txt; tscprobe stop; wait", NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/st.json", &out));
	EXPECT_JQS(out,
		   ".state == \"running\" and .kind == \"cache\"",
		   "all(.cpus[]; .rounds > 0 and .done == false)");
	free(out);
	ASSERT_EQ(0, tp_sh("cat /tmp/st.txt", &out));
	EXPECT_NE(NULL, strstr(out, "of 1000000000 rounds")) TH_LOG("%s", out);
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show cache -j", &out));
	EXPECT_JQ(out, ".kind == \"cache\" and .state == \"stopped\"");
	free(out);
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe show noise 2>/dev/null", NULL));
	/* every CPU: show prints the table by default, the blocks with -v */
	ASSERT_EQ(0, tp_sh("tscprobe show", &out));
	EXPECT_NE(NULL, strstr(out, "\nworst: CPU "));
	EXPECT_EQ(NULL, strstr(out, "\n  cached net "));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show -v", &out));
	EXPECT_NE(NULL, strstr(out, "\n  cached net "));
	EXPECT_NE(NULL, strstr(out, "\nworst: CPU "));
	free(out);
}

TEST_F_TIMEOUT(cache, stop_mid_rounds, 90)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache -n 1e9 -q -j > /tmp/stop.json &"
			   " pid=$!; sleep 2; tscprobe stop || exit 9;"
			   " wait $pid", NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/stop.json", &out));
	EXPECT_JQS(out,
		   ".state == \"stopped\" and .stop_reason == \"stop requested\"",
		   "all(.cpus[]; .rounds > 0 and .rounds < 1000000000)");
	/* what was measured is whole: every round in every histogram */
	EXPECT_JQS(out,
		   TP_CACHE_ROUNDS_IN_HISTOGRAMS,
		   TP_CACHE_FIGS_ORDERED);
	free(out);
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe stop 2>/dev/null", NULL));
}

TEST_F_TIMEOUT(cache, stop_during_levels, 90)
{
	char *out = NULL;

	/* 1000 rounds take milliseconds: two seconds in, the levels run. */
	ASSERT_EQ(0, tp_sh("tscprobe cache -c 0 -n 1000 --levels -q -j >"
			   " /tmp/lv.json & pid=$!; sleep 2; tscprobe stop ||"
			   " exit 9; wait $pid", NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/lv.json", &out));
	EXPECT_JQS(out,
		   ".state == \"stopped\" and .cpus[0].rounds == 1000",
		   ".cpus[0].levels | length < 17",
		   ".cpus[0].levels | . as $l | [range(1; length)] |"
		   " all($l[.].size == 2 * $l[. - 1].size)");
	free(out);
}

TEST_F_TIMEOUT(cache, hotplug_mid_run, 90)
{
	char *out = NULL;

	if (tp_online_count() < 3)
		SKIP(return, "needs 3 CPUs");
	ASSERT_EQ(0, tp_sh("tscprobe cache -n 1e9 -q -j > /tmp/hp.json & pid=$!;"
			   " sleep 2; echo 0 > /sys/devices/system/cpu/cpu2/online"
			   " || exit 9; sleep 1; tscprobe stop; wait $pid", NULL));
	EXPECT_EQ(0, tp_cpu_set_online(2, true));
	ASSERT_EQ(0, tp_sh("cat /tmp/hp.json", &out));
	EXPECT_JQS(out,
		   ".cpus[] | select(.cpu == 2) | .incomplete == true and"
		   " .rounds > 0",
		   "[.cpus[] | select(.cpu != 2) | .incomplete] |"
		   " all(. == false)",
		   TP_CACHE_ROUNDS_IN_HISTOGRAMS);
	free(out);
}

TEST_F_TIMEOUT(cache, rmmod_mid_run_and_during_levels, 120)
{
	char *out = NULL;
	int cli;

	tp_nl_close(&self->nl);
	tp_nl_close(&self->st);
	tp_expect_cli_sees_rmmod(_metadata, "cache -n 1e9");
	/* with every CPU's level buffers allocated: freed on the way out */
	ASSERT_EQ(0, tp_module_load());
	cli = tp_sh("tscprobe cache -n 1000 --levels -q > /dev/null 2>&1 &"
		    " pid=$!; sleep 3; rmmod tscprobe || exit 9; wait $pid",
		    NULL);
	EXPECT_FALSE(tp_module_loaded());
	EXPECT_EQ(TP_EXIT_FAIL, cli);
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->st));
	/* and the module measures again */
	ASSERT_EQ(0, tp_sh("tscprobe cache -c 0 -n 100 -j", &out));
	tp_check_cache_json(_metadata, out, 1, 100);
	free(out);
}

/**
 * struct tp_bad_start - a START that must be refused
 * @what: for the log
 * @attr: the attribute added (0: none besides KIND)
 * @len: its length: 8 (u64), 4 (u32), 0 (flag) or a payload's
 * @value: its value (u64 or u32), or the first byte of a payload
 * @rounds: a ROUNDS to add first (0: none)
 * @err: the errno expected
 * @blamed: the attribute the extended ack must point at
 */
struct tp_bad_start {
	const char *what;
	unsigned int attr;
	unsigned int len;
	uint64_t value;
	uint64_t rounds;
	int err;
	unsigned int blamed;
};

static const struct tp_bad_start tp_bad_starts[] = {
	{ "rounds 0", TSCPROBE_A_ROUNDS, 8, 0, 0, -ERANGE, TSCPROBE_A_ROUNDS },
	{ "rounds 1e9 + 1", TSCPROBE_A_ROUNDS, 8, TSCPROBE_MAX_ROUNDS + 1, 0,
	  -ERANGE, TSCPROBE_A_ROUNDS },
	{ "rounds as u32", TSCPROBE_A_ROUNDS, 4, 1000, 0, -EINVAL,
	  TSCPROBE_A_ROUNDS },
	{ "batch 0", TSCPROBE_A_BATCH, 4, 0, 0, -ERANGE, TSCPROBE_A_BATCH },
	{ "batch 1e6 + 1", TSCPROBE_A_BATCH, 4, TSCPROBE_MAX_BATCH + 1, 0,
	  -ERANGE, TSCPROBE_A_BATCH },
	{ "batch > rounds", TSCPROBE_A_BATCH, 4, 1001, 1000, -EINVAL,
	  TSCPROBE_A_BATCH },
	{ "batch > default rounds", TSCPROBE_A_BATCH, 4, TSCPROBE_MAX_BATCH,
	  100, -EINVAL, TSCPROBE_A_BATCH },
	{ "levels with a payload", TSCPROBE_A_LEVELS, 4, 1, 0, -ERANGE,
	  TSCPROBE_A_LEVELS },
	{ "width below 10 us", TSCPROBE_A_WIDTH_NS, 8, 1000, 0, -ERANGE,
	  TSCPROBE_A_WIDTH_NS },
	{ "a noise duration", TSCPROBE_A_DURATION_NS, 8, 1000000000, 0,
	  -EINVAL, TSCPROBE_A_DURATION_NS },
	{ "a noise threshold", TSCPROBE_A_THRESHOLD_NS, 8, 1000, 0, -EINVAL,
	  TSCPROBE_A_THRESHOLD_NS },
	{ "noise irqs", TSCPROBE_A_IRQS, 4, TSCPROBE_IRQS_ON, 0, -EINVAL,
	  TSCPROBE_A_IRQS },
	{ "a clock", TSCPROBE_A_CLOCK, 4, TSCPROBE_CLOCK_RDTSCP, 0, -EINVAL,
	  TSCPROBE_A_CLOCK },
	{ "skew samples", TSCPROBE_A_SAMPLES, 4, 256, 0, -EINVAL,
	  TSCPROBE_A_SAMPLES },
	{ "empty CPU set", TSCPROBE_A_CPUS, 1, 0, 0, -EINVAL, TSCPROBE_A_CPUS },
	{ "CPU 255", TSCPROBE_A_CPUS, 32, 0x80, 0, -EINVAL, TSCPROBE_A_CPUS },
};

static struct nlmsghdr *tp_bad_request(struct tp_nl *nl,
				       const struct tp_bad_start *b)
{
	struct nlmsghdr *nlh = tp_nl_request(nl, TSCPROBE_CMD_START, false);
	uint8_t bytes[64] = { 0 };

	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, TSCPROBE_KIND_CACHE);
	if (b->rounds)
		mnl_attr_put_u64(nlh, TSCPROBE_A_ROUNDS, b->rounds);
	if (b->attr == TSCPROBE_A_CPUS) {
		bytes[b->len - 1] = (uint8_t)b->value;
		mnl_attr_put(nlh, b->attr, b->len, bytes);
	} else if (b->len == 8) {
		mnl_attr_put_u64(nlh, b->attr, b->value);
	} else if (b->len == 4) {
		mnl_attr_put_u32(nlh, b->attr, (uint32_t)b->value);
	} else {
		mnl_attr_put(nlh, b->attr, 0, NULL);
	}
	return nlh;
}

TEST_F(cache, bad_netlink_input_starts_nothing)
{
	const struct tp_bad_start *b;
	size_t i;

	for (i = 0; i < sizeof(tp_bad_starts) / sizeof(tp_bad_starts[0]); i++) {
		b = &tp_bad_starts[i];
		tp_expect_refused(_metadata, &self->nl, &self->st,
				  tp_bad_request(&self->nl, b), b->err,
				  b->blamed, b->what);
	}
}

TEST_F(cache, offline_cpu_is_refused)
{
	char *out = NULL;

	if (tp_online_count() < 4)
		SKIP(return, "needs 4 CPUs");
	ASSERT_EQ(0, tp_cpu_set_online(3, false));
	EXPECT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe cache -c 3 -n 10 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "CPU 3 is not online"));
	free(out);
	ASSERT_EQ(0, tp_cpu_set_online(3, true));
}

TEST_F_TIMEOUT(cache, bad_cli_input, 120)
{
	static const char *const bad[] = {
		"-n 0", "-n 1000000001", "-n 2e9", "-n x", "-n -5", "-n 1.5",
		"-n ''", "--batch 0", "--batch 1000001", "--batch 2000 -n 1000",
		"-n 10 --batch 11", "--batch y", "-c 99", "-c 2-1", "-c x",
		"--levels=1", "--nodes 3", "--bogus", "-d 1s", "-n", "extra",
		"--user --batch 0",
	};
	char cmd[160];
	char *out = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(cmd, sizeof(cmd), "tscprobe cache %s 2>&1 >/dev/null",
			 bad[i]);
		EXPECT_EQ(TP_EXIT_USAGE, tp_sh(cmd, &out)) TH_LOG("%s", bad[i]);
		/* one line, naming the bad value */
		EXPECT_EQ(0, strncmp(out, "tscprobe: ", 10)) TH_LOG("%s", bad[i]);
		EXPECT_EQ(strlen(out) - 1, strcspn(out, "\n")) TH_LOG("%s", bad[i]);
		free(out);
	}
	ASSERT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe cache --batch 2000 -n 1000 2>&1",
				       &out));
	EXPECT_NE(NULL, strstr(out, "--batch 2000")) TH_LOG("%s", out);
	free(out);
	ASSERT_EQ(TP_EXIT_USAGE, tp_sh("tscprobe cache -n 0 2>&1", &out));
	EXPECT_NE(NULL, strstr(out, "-n '0'")) TH_LOG("%s", out);
	free(out);
	EXPECT_NE(TSCPROBE_STATE_RUNNING, tp_get_status(&self->nl).state);
}

TEST_F_TIMEOUT(cache, user_engine_runs_the_same_report, 120)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache --user -c 1 -n 20000 --nodes -j", &out));
	tp_check_cache_json(_metadata, out, 1, 20000);
	EXPECT_JQ(out, ".engine == \"user\" and .cpus[0].nodes[0].loads == 20000");
	free(out);
}

TEST_F_TIMEOUT(cache, show_in_every_format, 120)
{
	char *out = NULL;

	ASSERT_EQ(0, tp_sh("tscprobe cache -c 0-1 -n 2e4 -q >/dev/null", NULL));
	ASSERT_EQ(0, tp_sh("tscprobe show cache --csv", &out));
	EXPECT_EQ(0, strncmp(out, "kind,engine,run_id,cpu,node,incomplete,rounds,", 46));
	EXPECT_NE(NULL, strstr(out, "\r\ncache,kernel,"));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show cache --prom", &out));
	EXPECT_NE(NULL, strstr(out, "# TYPE tscprobe_cache_cycles gauge\n"));
	EXPECT_NE(NULL, strstr(out, "tscprobe_cache_rounds_total{cpu=\"1\",engine=\"kernel\",series=\"all\"} 20000\n"));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe show --svg /tmp/cache.svg >/dev/null && head -c 300 /tmp/cache.svg", &out));
	EXPECT_NE(NULL, strstr(out, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
	free(out);
	/* The machine around the run is in the report (interrupts: only
	 * when it is printed by the command that ran it).
	 */
	ASSERT_EQ(0, tp_sh("tscprobe show cache -j", &out));
	EXPECT_EQ(0, tp_jq(out, ".environment.cpus | length == 2"));
	EXPECT_EQ(0, tp_jq(out, ".cpus[0].interrupts == null"));
	free(out);
	ASSERT_EQ(0, tp_sh("tscprobe cache -c 0 -n 1e4 -q -j", &out));
	EXPECT_EQ(0, tp_jq(out, ".cpus[0].interrupts | has(\"LOC\")"));
	free(out);
}

TP_HARNESS_MAIN
