// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe skew: TSC skew and core-to-core hand-off latency for every
 * ordered pair of the chosen CPUs, measured by the module with interrupts
 * off, or by the userspace engine with --user.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "user/commands.h"
#include "user/engines.h"
#include "user/reports.h"
#include "user/lib/module_run.h"
#include "user/lib/options.h"
#include "user/lib/pinned.h"
#include "user/lib/format.h"
#include "user/lib/parse.h"

static const char tp_skew_usage[] =
	"usage: tscprobe skew [-c CPUS] [-n SAMPLES] [-r REPEATS] [--user] [OPTIONS]\n"
	"\n"
	"For every ordered pair (i, j) of the chosen CPUs, hand a cache line back\n"
	"and forth between i and j with interrupts off, logging the TSC at every\n"
	"hand-off; report the one-way latency and the skew TSC_j - TSC_i.\n"
	"\n"
	"  -c, --cpus CPUS       at least two CPUs, like 0-3,8 (default: all online)\n"
	"  -n, --samples N       hand-offs per pair and repeat, 16 to 4096 (default 256)\n"
	"  -r, --repeats N       times each pair is measured, 1 to 1000 (default 1)\n"
	"      --user            measure in userspace, without the module (irqs on;\n"
	"                        interrupted samples are dropped)\n"
	"      --priority N      with --user: the measuring threads SCHED_FIFO at N\n"
	"      --fail-above L    exit 7 when a pair's |skew| is over L (200ns), or\n"
	"                        with sync, when a pair is not in sync\n"
	"  -j, --json            print JSON (or --csv, --prom); --svg FILE: a picture\n"
	"  -v, --verbose         every pair and the matrices, beyond 16 CPUs too\n"
	"  -q, --quiet           no progress line\n"
	"  -h, --help            show this help\n"
	"\n"
	"Also, in 'man tscprobe': --limits FILE, --dma-latency D|off,\n"
	"--deepest-idle-state N.  Ctrl-C stops after the pair in progress and\n"
	"prints what was measured (exit 130).\n"
	"\n"
	TP_LIMIT_HELP;


/**
 * struct tp_skew_cmd - the parsed command line
 * @m: -c, --user, -q and the output formats
 * @p: the parameters, defaults filled in
 */
struct tp_skew_cmd {
	struct tp_measure_opts m;
	struct tp_run_params p;
};

static int tp_skew_number(const char *opt, const char *arg, uint64_t min,
			  uint64_t max, uint32_t *v)
{
	const char *why;
	uint64_t n;

	if (tp_parse_u64(arg, min, max, &n, &why))
		return tp_usage_err("skew", "%s '%s': %s", opt, arg, why);
	*v = (uint32_t)n;
	return TP_EXIT_OK;
}

static int tp_skew_option(void *ctx, int c, char **argv)
{
	struct tp_skew_cmd *cmd = ctx;
	int ret;

	if (tp_measure_option(&cmd->m, "skew", c, &ret))
		return ret;
	switch (c) {
	case 'n':
		return tp_skew_number("-n", optarg, TSCPROBE_MIN_SAMPLES,
				      TSCPROBE_MAX_SAMPLES, &cmd->p.samples);
	case 'r':
		return tp_skew_number("-r", optarg, TSCPROBE_MIN_REPEATS,
				      TSCPROBE_MAX_REPEATS, &cmd->p.repeats);
	default:
		return tp_bad_option("skew", c, argv);
	}
}

/* Everything the kernel would refuse is refused here first: exit 2. */
static int tp_skew_check(struct tp_skew_cmd *cmd)
{
	int ret = tp_check_cpus("skew", &cmd->m.cpus, cmd->m.cpus_given,
				TSCPROBE_MAX_SKEW_CPUS);

	if (!ret && tp_cpuset_count(&cmd->m.cpus) < 2)
		ret = tp_usage_err("skew", "-c: skew needs at least two CPUs");
	return ret;
}

static int tp_skew_parse(struct tp_skew_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "samples", required_argument, NULL, 'n' },
		{ "repeats", required_argument, NULL, 'r' },
		TP_MEASURE_OPTIONS,
	};
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	cmd->p.samples = TSCPROBE_DEFAULT_SAMPLES;
	cmd->p.repeats = TSCPROBE_DEFAULT_REPEATS;
	ret = tp_getopt(argc, argv, "+:c:n:r:jqvh", opts, tp_skew_usage,
			tp_skew_option, cmd);
	if (!ret)
		ret = tp_no_more_args("skew", argc, argv);
	if (!ret)
		ret = tp_output_limits(&cmd->m.out, &cmd->m.lim, "skew",
				       TSCPROBE_KIND_SKEW, &cmd->m.limits);
	if (!ret)
		ret = tp_priority_check(&cmd->m, "skew");
	cmd->p.priority = cmd->m.priority;
	return ret ? ret : tp_skew_check(cmd);
}

static void tp_skew_put_attrs(struct nlmsghdr *nlh,
			      const struct tp_run_params *p)
{
	mnl_attr_put_u32(nlh, TSCPROBE_A_SAMPLES, p->samples);
	mnl_attr_put_u32(nlh, TSCPROBE_A_REPEATS, p->repeats);
}

/* "skew: 12/56 pairs, 1.2s" */
static void tp_skew_progress(const struct tp_result *st, char *buf,
			     size_t len)
{
	char el[32];

	tp_format_ns(st->elapsed_ns, el, sizeof(el));
	snprintf(buf, len, "skew: %u/%u pairs, %s", st->pairs_done,
		 st->pairs_total, el);
}

/**
 * tp_cmd_skew() - the "skew" subcommand
 * @argc: argument count (argv[0] is "skew")
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_skew(int argc, char **argv)
{
	struct tp_skew_cmd cmd;
	struct tp_start st = {
		.kind = TSCPROBE_KIND_SKEW,
		.cpus = &cmd.m.cpus,
		.p = &cmd.p,
		.hold = &cmd.m.hold,
		.put_attrs = tp_skew_put_attrs,
		.progress = tp_skew_progress,
	};
	unsigned int n;
	int ret;

	ret = tp_skew_parse(&cmd, argc, argv);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	n = tp_cpuset_count(&cmd.m.cpus);
	/* ~1 ms per pair and repeat is generous on hardware. */
	st.expect_ns = (uint64_t)n * (n - 1) * cmd.p.repeats * 1000000ULL;
	st.quiet = cmd.m.quiet;
	return tp_run_cmd(&st, cmd.m.user, tp_user_skew, tp_skew_output,
			  &cmd.m.out);
}
