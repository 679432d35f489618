// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe noise: the TSC noise histogram, measured by the module with
 * interrupts off (or on), or by the userspace engine with --user.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "user/commands.h"
#include "user/lib/live.h"
#include "user/engines.h"
#include "user/lib/nl.h"
#include "core/names.h"
#include "user/noise_compare.h"
#include "user/reports.h"
#include "core/report.h"
#include "core/tsc.h"
#include "user/lib/module_run.h"
#include "user/lib/options.h"
#include "user/lib/pinned.h"
#include "user/lib/format.h"
#include "user/lib/parse.h"

/**
 * struct tp_noise_cmd - the parsed command line
 * @m: -c, --user, -q and the output formats
 * @p: the parameters, defaults filled in
 * @irqs_given: --irqs was given
 * @width_given: --width was given
 * @threshold_cycles: --threshold was in cycles
 * @compare: --compare
 * @follow: --follow
 * @stop_at_cycles: --stop-at was in cycles
 * @load: --load and --load-cpus
 * @actions: --on-threshold and --on-end
 */
struct tp_noise_cmd {
	struct tp_measure_opts m;
	struct tp_run_params p;
	bool irqs_given;
	bool width_given;
	bool threshold_cycles;
	bool compare;
	bool follow;
	bool stop_at_cycles;
	struct tp_load_opts load;
	struct tp_actions actions;
};

static const char tp_noise_usage[] =
	"usage: tscprobe noise [-c CPUS] [-d DURATION] [--irqs off|on] [--user] [OPTIONS]\n"
	"\n"
	"Histogram the gaps between consecutive TSC reads on every chosen CPU: with\n"
	"interrupts off, SMIs, NMIs, the hypervisor and the hardware; on, the OS too.\n"
	"\n"
	"  -c, --cpus CPUS       CPUs to measure, like 0-3,8 (default: all online)\n"
	"  -d, --duration D      how long, like 10s or 2m (default 10s)\n"
	"      --irqs off|on     interrupts during the windows (default off)\n"
	"      --threshold D|Nc  gaps this long are events: 10us (default), 25000c\n"
	"      --user            measure in userspace, without the module (irqs on)\n"
	"      --priority N      with --user: the measuring threads SCHED_FIFO at N\n"
	"      --compare         irqs off, on, and --user, back to back, side by side\n"
	"      --fail-above L    exit 7 when a CPU's max gap is over L (20us), or\n"
	"                        its p50, p99, p99.9, p99.99 (p99.99:5us)\n"
	"  -j, --json            print JSON (or --csv, --prom); --svg FILE: a picture\n"
	"  -v, --verbose         every CPU in full: histogram, events, sources\n"
	"  -q, --quiet           no progress line\n"
	"  -h, --help            show this help\n"
	"\n"
	"Also, in 'man tscprobe': --width D, --gap D, --clock CLOCK, --warm-up D,\n"
	"--follow, --stop-at D|Nc, --trace-stop, --on-threshold ACTION, --on-end\n"
	"ACTION, --limits FILE, --dma-latency D|off, --deepest-idle-state N,\n"
	"--load KIND, --load-cpus CPUS.  A time takes its unit: 500ns, 10us, 5ms,\n"
	"2s, 1m, 1h (only 0 goes without); Nc is N TSC cycles.  Ctrl-C stops the\n"
	"run and prints what was measured (exit 130).\n"
	"\n"
	TP_LIMIT_HELP;

enum {
	OPT_IRQS = 256, OPT_WIDTH, OPT_GAP, OPT_THRESHOLD, OPT_CLOCK,
	OPT_COMPARE, OPT_FOLLOW, OPT_STOP_AT, OPT_TRACE_STOP, OPT_WARM_UP,
};

static int tp_noise_duration(const char *opt, const char *arg, uint64_t min,
			     uint64_t max, uint64_t *ns)
{
	const char *why;

	if (tp_parse_duration(arg, ns, &why))
		return tp_usage_err("noise", "%s '%s': %s", opt, arg, why);
	if (*ns < min || *ns > max) {
		char lo[32], hi[32];

		tp_format_ns_exact(min, lo, sizeof(lo));
		tp_format_ns_exact(max, hi, sizeof(hi));
		return tp_usage_err("noise", "%s '%s': must be %s to %s", opt,
				    arg, lo, hi);
	}
	return TP_EXIT_OK;
}

static int tp_noise_threshold(struct tp_noise_cmd *cmd, const char *arg)
{
	const char *why;
	uint64_t v;

	if (tp_parse_threshold(arg, &v, &cmd->threshold_cycles, &why))
		return tp_usage_err("noise", "--threshold '%s': %s", arg, why);
	if (cmd->threshold_cycles) {
		if (v > TSCPROBE_MAX_THRESHOLD_CYCLES)
			return tp_usage_err("noise", "--threshold '%s': at most %llu cycles",
					    arg, TSCPROBE_MAX_THRESHOLD_CYCLES);
		cmd->p.threshold_cycles = v;
		return TP_EXIT_OK;
	}
	return tp_noise_duration("--threshold", arg, TSCPROBE_MIN_THRESHOLD_NS,
				 TSCPROBE_MAX_THRESHOLD_NS,
				 &cmd->p.threshold_ns);
}

/* --stop-at: a duration or cycles, in the threshold's range. */
static int tp_noise_stop_at(struct tp_noise_cmd *cmd, const char *arg)
{
	const char *why;
	uint64_t v;

	if (tp_parse_threshold(arg, &v, &cmd->stop_at_cycles, &why))
		return tp_usage_err("noise", "--stop-at '%s': %s", arg, why);
	if (cmd->stop_at_cycles) {
		if (v > TSCPROBE_MAX_THRESHOLD_CYCLES)
			return tp_usage_err("noise", "--stop-at '%s': at most %llu cycles",
					    arg, TSCPROBE_MAX_THRESHOLD_CYCLES);
		cmd->p.stop_at_cycles = v;
		cmd->p.stop_at_ns = 0;
		return TP_EXIT_OK;
	}
	cmd->p.stop_at_cycles = 0;
	return tp_noise_duration("--stop-at", arg, TSCPROBE_MIN_THRESHOLD_NS,
				 TSCPROBE_MAX_THRESHOLD_NS, &cmd->p.stop_at_ns);
}

/*
 * --stop-at below the threshold would stop at a gap that is no event.
 * Given in different units, they are compared at the module's TSC rate;
 * without the module the kernel's check is left (nothing runs anyway).
 */
static int tp_noise_check_stop_at(const struct tp_noise_cmd *cmd)
{
	const struct tp_run_params *p = &cmd->p;
	uint64_t stop = p->stop_at_cycles ? p->stop_at_cycles : p->stop_at_ns;
	uint64_t thr = p->threshold_cycles ? p->threshold_cycles : p->threshold_ns;
	uint32_t khz;

	if (p->trace_stop && !stop)
		return tp_usage_err("noise", "--trace-stop needs --stop-at: it turns tracing off at that gap");
	if (!stop)
		return TP_EXIT_OK;
	if (cmd->m.user || cmd->compare)
		return tp_usage_err("noise", "--stop-at needs the module's own run: give neither --user nor --compare");
	if (!p->stop_at_cycles != !p->threshold_cycles) {
		khz = tp_module_tsc_khz();
		if (!khz)
			return TP_EXIT_OK;
		if (p->stop_at_cycles)
			stop = p->stop_at_cycles * 1000000ULL / khz;
		else
			thr = p->threshold_cycles * 1000000ULL / khz;
	}
	if (stop < thr)
		return tp_usage_err("noise", "--stop-at is below the threshold: the gap that stops the run must be an event");
	return TP_EXIT_OK;
}

/*
 * --on-threshold acts at the --stop-at level.  The module stops there only
 * when one of the actions is stop; otherwise the level stays with the CLI
 * and START carries no stop-at.
 */
static int tp_noise_check_actions(struct tp_noise_cmd *cmd)
{
	struct tp_actions *a = &cmd->actions;
	struct tp_run_params *p = &cmd->p;
	int ret;

	if (!tp_actions_asked(&a->r))
		return TP_EXIT_OK;
	if (cmd->m.user || cmd->compare)
		return tp_usage_err("noise", "--on-threshold and --on-end need the module's own run: give neither --user nor --compare");
	ret = tp_actions_check(a, "noise", p->stop_at_ns, p->stop_at_cycles);
	if (ret || !a->r.nthreshold || a->r.stop)
		return ret;
	if (p->trace_stop)
		return tp_usage_err("noise", "--trace-stop turns tracing off at the gap that ends the run: add --on-threshold stop, or take snapshots");
	p->stop_at_ns = 0;
	p->stop_at_cycles = 0;
	return TP_EXIT_OK;
}

static int tp_noise_enum(const char *opt, const char *arg,
			 const char *(*name_of)(unsigned int), unsigned int max,
			 uint32_t *v)
{
	int i = tp_name_lookup(name_of, max, arg);

	if (i < 0)
		return tp_usage_err("noise", "%s '%s': unknown value", opt, arg);
	*v = (uint32_t)i;
	return TP_EXIT_OK;
}

static int tp_noise_option(void *ctx, int c, char **argv)
{
	struct tp_noise_cmd *cmd = ctx;
	int ret;

	if (tp_measure_option(&cmd->m, "noise", c, &ret) ||
	    tp_load_option(&cmd->load, "noise", c, optarg, &ret) ||
	    tp_actions_option(&cmd->actions, "noise", c, optarg, &ret))
		return ret;
	switch (c) {
	case 'd':
		return tp_noise_duration("-d", optarg, TSCPROBE_MIN_DURATION_NS,
					 TSCPROBE_MAX_DURATION_NS,
					 &cmd->p.duration_ns);
	case OPT_IRQS:
		cmd->irqs_given = true;
		return tp_noise_enum("--irqs", optarg, tp_irqs_name,
				     TSCPROBE_IRQS_MAX, &cmd->p.irqs);
	case OPT_WIDTH:
		cmd->width_given = true;
		return tp_noise_duration("--width", optarg, TSCPROBE_MIN_WIDTH_NS,
					 TSCPROBE_MAX_WIDTH_NS, &cmd->p.width_ns);
	case OPT_GAP:
		return tp_noise_duration("--gap", optarg, TSCPROBE_MIN_GAP_NS,
					 TSCPROBE_MAX_GAP_NS, &cmd->p.gap_ns);
	case OPT_THRESHOLD:
		return tp_noise_threshold(cmd, optarg);
	case OPT_CLOCK:
		ret = tp_noise_enum("--clock", optarg, tp_clock_name,
				    TSCPROBE_CLOCK_MAX, &cmd->p.clock);
		if (!ret && !TP_ARCH_HAS_RDTSCP &&
		    cmd->p.clock == TSCPROBE_CLOCK_RDTSCP)
			return tp_usage_err("noise", "--clock rdtscp: this CPU has no rdtscp (lfence, mfence or plain)");
		return ret;
	case OPT_COMPARE:
		cmd->compare = true;
		return TP_EXIT_OK;
	case OPT_FOLLOW:
		cmd->follow = true;
		return TP_EXIT_OK;
	case OPT_STOP_AT:
		return tp_noise_stop_at(cmd, optarg);
	case OPT_TRACE_STOP:
		cmd->p.trace_stop = true;
		return TP_EXIT_OK;
	case OPT_WARM_UP:
		return tp_noise_duration("--warm-up", optarg, 0,
					 TSCPROBE_MAX_WARM_UP_NS,
					 &cmd->p.warm_up_ns);
	default:
		return tp_bad_option("noise", c, argv);
	}
}

/* Everything the kernel would refuse is refused here first: exit 2. */
static int tp_noise_check(struct tp_noise_cmd *cmd)
{
	int ret;

	if (!cmd->width_given && cmd->p.width_ns > cmd->p.duration_ns)
		cmd->p.width_ns = cmd->p.duration_ns;
	if (cmd->p.width_ns > cmd->p.duration_ns)
		return tp_usage_err("noise", "--width is longer than the duration");
	ret = tp_check_cpus("noise", &cmd->m.cpus, cmd->m.cpus_given,
			    TSCPROBE_MAX_RUN_CPUS);
	return ret ? ret : tp_load_check(&cmd->load, "noise", &cmd->m.cpus);
}

static int tp_noise_parse_args(struct tp_noise_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "irqs", required_argument, NULL, OPT_IRQS },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "gap", required_argument, NULL, OPT_GAP },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "clock", required_argument, NULL, OPT_CLOCK },
		{ "compare", no_argument, NULL, OPT_COMPARE },
		{ "follow", no_argument, NULL, OPT_FOLLOW },
		{ "stop-at", required_argument, NULL, OPT_STOP_AT },
		{ "trace-stop", no_argument, NULL, OPT_TRACE_STOP },
		{ "warm-up", required_argument, NULL, OPT_WARM_UP },
		TP_LOAD_OPTIONS,
		TP_ACTION_OPTIONS,
		TP_MEASURE_OPTIONS,
	};
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	cmd->p.duration_ns = TSCPROBE_DEFAULT_DURATION_NS;
	cmd->p.width_ns = TSCPROBE_DEFAULT_WIDTH_NS;
	cmd->p.gap_ns = TSCPROBE_DEFAULT_GAP_NS;
	cmd->p.threshold_ns = TSCPROBE_DEFAULT_THRESHOLD_NS;
	cmd->p.irqs = TSCPROBE_IRQS_OFF;
	cmd->p.clock = TSCPROBE_CLOCK_LFENCE;
	ret = tp_getopt(argc, argv, "+:c:d:jqvh", opts, tp_noise_usage,
			tp_noise_option, cmd);
	if (!ret)
		ret = tp_no_more_args("noise", argc, argv);
	if (ret)
		return ret;
	if (cmd->compare && (cmd->m.user || cmd->irqs_given))
		return tp_usage_err("noise", "--compare measures every engine and both --irqs; give neither --user nor --irqs");
	if (cmd->compare && (cmd->m.out.svg || cmd->m.out.fmt > TP_FMT_JSON))
		return tp_usage_err("noise", "--compare prints text or JSON (-j)");
	if (cmd->follow && (cmd->m.user || cmd->compare))
		return tp_usage_err("noise", "--follow needs the module's own run: give neither --user nor --compare");
	if (cmd->compare && (cmd->load.kind || cmd->load.cpus_given))
		return tp_usage_err("noise", "--compare runs no load: give --load to one engine's run");
	if (cmd->compare && (cmd->m.hold.dma_given || cmd->m.hold.idle_given))
		return tp_usage_err("noise", "--compare holds nothing: give --dma-latency and --deepest-idle-state to one engine's run");
	if (cmd->compare && cmd->m.priority)
		return tp_usage_err("noise", "--compare measures every engine at its default priority: give --priority to a --user run");
	if (cmd->compare && (cmd->m.lim.nargs || cmd->m.lim.file))
		return tp_usage_err("noise", "--compare is not judged: give --fail-above and --limits to one engine's run");
	ret = tp_output_limits(&cmd->m.out, &cmd->m.lim, "noise",
				       TSCPROBE_KIND_NOISE, &cmd->m.limits);
	if (!ret)
		ret = tp_priority_check(&cmd->m, "noise");
	if (ret)
		return ret;
	cmd->p.priority = cmd->m.priority;
	ret = tp_noise_check_stop_at(cmd);
	if (!ret)
		ret = tp_noise_check_actions(cmd);
	if (ret)
		return ret;
	if (cmd->m.user && cmd->irqs_given && cmd->p.irqs == TSCPROBE_IRQS_OFF)
		return tp_usage_err("noise", "--user cannot turn interrupts off: only the module can");
	if (cmd->m.user)
		cmd->p.irqs = TSCPROBE_IRQS_ON;
	return tp_noise_check(cmd);
}

/**
 * tp_noise_put_attrs() - the noise parameters of a START
 * @nlh: the request
 * @p: the parameters
 */
static void tp_noise_put_attrs(struct nlmsghdr *nlh,
			       const struct tp_run_params *p)
{
	mnl_attr_put_u64(nlh, TSCPROBE_A_DURATION_NS, p->duration_ns);
	mnl_attr_put_u32(nlh, TSCPROBE_A_IRQS, p->irqs);
	mnl_attr_put_u64(nlh, TSCPROBE_A_WIDTH_NS, p->width_ns);
	mnl_attr_put_u64(nlh, TSCPROBE_A_GAP_NS, p->gap_ns);
	if (p->threshold_cycles)
		mnl_attr_put_u64(nlh, TSCPROBE_A_THRESHOLD_CYCLES,
				 p->threshold_cycles);
	else
		mnl_attr_put_u64(nlh, TSCPROBE_A_THRESHOLD_NS, p->threshold_ns);
	mnl_attr_put_u32(nlh, TSCPROBE_A_CLOCK, p->clock);
	if (p->stop_at_cycles)
		mnl_attr_put_u64(nlh, TSCPROBE_A_STOP_AT_CYCLES,
				 p->stop_at_cycles);
	else if (p->stop_at_ns)
		mnl_attr_put_u64(nlh, TSCPROBE_A_STOP_AT_NS, p->stop_at_ns);
	if (p->trace_stop)
		mnl_attr_put(nlh, TSCPROBE_A_TRACE_STOP, 0, NULL);
	if (p->warm_up_ns)
		mnl_attr_put_u64(nlh, TSCPROBE_A_WARM_UP_NS, p->warm_up_ns);
}

/**
 * tp_noise_progress() - the progress line of a noise run
 * @st: a GET_STATUS reply
 * @buf: the line: "noise 3.2s/10s on 4 CPUs, worst gap 45000 cycles (21.5us)"
 * @len: its size
 */
static void tp_noise_progress(const struct tp_result *st, char *buf,
			      size_t len)
{
	tp_noise_progress_line(buf, len, "", st->elapsed_ns,
			       st->p.duration_ns + st->p.warm_up_ns, st->ncpus,
			       tp_result_max_gap(st, NULL), st->tsc_khz);
}

/**
 * tp_cmd_noise() - the "noise" subcommand
 * @argc: argument count (argv[0] is "noise")
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_noise(int argc, char **argv)
{
	struct tp_noise_cmd cmd;
	struct tp_live live;
	struct tp_start st = {
		.kind = TSCPROBE_KIND_NOISE,
		.cpus = &cmd.m.cpus,
		.p = &cmd.p,
		.hold = &cmd.m.hold,
		.load = &cmd.load,
		.actions = &cmd.actions,
		.put_attrs = tp_noise_put_attrs,
		.progress = tp_noise_progress,
	};
	int ret;

	ret = tp_noise_parse_args(&cmd, argc, argv);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	st.expect_ns = cmd.p.duration_ns + cmd.p.warm_up_ns;
	st.quiet = cmd.m.quiet;
	if (cmd.compare)
		return tp_noise_compare(&st, &cmd.m.out);
	if (cmd.follow) {
		/* Standard error: the report on standard output stays whole. */
		tp_live_init(&live, stderr, cmd.m.out.fmt == TP_FMT_JSON);
		st.on_event = tp_live_follow_event;
		st.on_end = tp_live_follow_end;
		st.event_arg = &live;
		st.quiet = true;	/* no progress line among the events */
	}
	ret = tp_run_cmd(&st, cmd.m.user, tp_user_noise, tp_noise_output,
			 &cmd.m.out);
	if (cmd.follow)
		tp_live_free(&live);
	return ret;
}
