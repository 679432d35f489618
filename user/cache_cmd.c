// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe cache: cached and flushed load timing net of the measurement's
 * overhead, measured by the module with interrupts off, or by the
 * userspace engine with --user.
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

static const char tp_cache_usage[] =
	"usage: tscprobe cache [-c CPUS] [-n ROUNDS] [--user] [OPTIONS]\n"
	"\n"
	"Time one load on every chosen CPU, with its line cached and just flushed\n"
	"(clflush), and an empty measurement, in rounds of the three; report them\n"
	"net of the empty one's cost.  Interrupts are off in the module.\n"
	"\n"
	"  -c, --cpus CPUS       CPUs to measure, like 0-3,8 (default: all online)\n"
	"  -n, --rounds N        rounds per CPU, 1 to 1e9 (default 1e6)\n"
	"      --levels          also the latency of working sets, 4 KiB to 256 MiB\n"
	"      --nodes           also the uncached load to every NUMA node's memory\n"
	"      --user            measure in userspace, without the module (irqs on)\n"
	"      --priority N      with --user: the measuring threads SCHED_FIFO at N\n"
	"      --fail-above L    exit 7 when a CPU's figure is over L: p99:120ns\n"
	"                        (p50, p99, max; cached.p99: of the cached load)\n"
	"  -j, --json            print JSON (or --csv, --prom); --svg FILE: a picture\n"
	"  -v, --verbose         every CPU in full: the series, the rolling averages\n"
	"  -q, --quiet           no progress line\n"
	"  -h, --help            show this help\n"
	"\n"
	"Also, in 'man tscprobe': --batch N, --limits FILE, --dma-latency D|off,\n"
	"--deepest-idle-state N, --load KIND, --load-cpus CPUS.  Ctrl-C stops the\n"
	"run and prints what was measured (exit 130).\n"
	"\n"
	TP_LIMIT_HELP;

enum { OPT_BATCH = 256, OPT_LEVELS, OPT_NODES };

/**
 * struct tp_cache_cmd - the parsed command line
 * @m: -c, --user, -q and the output formats
 * @p: the parameters, defaults filled in
 * @batch_given: --batch was given
 * @load: --load and --load-cpus
 */
struct tp_cache_cmd {
	struct tp_measure_opts m;
	struct tp_run_params p;
	bool batch_given;
	struct tp_load_opts load;
};

static int tp_cache_number(const char *opt, const char *arg, uint64_t min,
			   uint64_t max, uint64_t *v)
{
	const char *why;

	if (tp_parse_u64(arg, min, max, v, &why))
		return tp_usage_err("cache", "%s '%s': %s", opt, arg, why);
	return TP_EXIT_OK;
}

static int tp_cache_option(void *ctx, int c, char **argv)
{
	struct tp_cache_cmd *cmd = ctx;
	uint64_t v;
	int ret;

	if (tp_measure_option(&cmd->m, "cache", c, &ret) ||
	    tp_load_option(&cmd->load, "cache", c, optarg, &ret))
		return ret;
	switch (c) {
	case 'n':
		return tp_cache_number("-n", optarg, TSCPROBE_MIN_ROUNDS,
				       TSCPROBE_MAX_ROUNDS, &cmd->p.rounds);
	case OPT_BATCH:
		cmd->batch_given = true;
		ret = tp_cache_number("--batch", optarg, TSCPROBE_MIN_BATCH,
				      TSCPROBE_MAX_BATCH, &v);
		cmd->p.batch = (uint32_t)v;
		return ret;
	case OPT_LEVELS:
		cmd->p.levels = true;
		return TP_EXIT_OK;
	case OPT_NODES:
		cmd->p.nodes = true;
		return TP_EXIT_OK;
	default:
		return tp_bad_option("cache", c, argv);
	}
}

static int tp_cache_parse(struct tp_cache_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "rounds", required_argument, NULL, 'n' },
		{ "batch", required_argument, NULL, OPT_BATCH },
		{ "levels", no_argument, NULL, OPT_LEVELS },
		{ "nodes", no_argument, NULL, OPT_NODES },
		TP_LOAD_OPTIONS,
		TP_MEASURE_OPTIONS,
	};
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	cmd->p.rounds = TSCPROBE_DEFAULT_ROUNDS;
	cmd->p.batch = TSCPROBE_DEFAULT_BATCH;
	cmd->p.width_ns = TSCPROBE_DEFAULT_WIDTH_NS;
	cmd->p.gap_ns = TSCPROBE_DEFAULT_GAP_NS;
	ret = tp_getopt(argc, argv, "+:c:n:jqvh", opts, tp_cache_usage,
			tp_cache_option, cmd);
	if (!ret)
		ret = tp_no_more_args("cache", argc, argv);
	if (ret)
		return ret;
	if (cmd->batch_given && cmd->p.batch > cmd->p.rounds)
		return tp_usage_err("cache", "--batch %u is more than the %llu rounds",
				    cmd->p.batch,
				    (unsigned long long)cmd->p.rounds);
	if (cmd->p.batch > cmd->p.rounds)
		cmd->p.batch = (uint32_t)cmd->p.rounds;
	ret = tp_output_limits(&cmd->m.out, &cmd->m.lim, "cache",
				       TSCPROBE_KIND_CACHE, &cmd->m.limits);
	if (!ret)
		ret = tp_priority_check(&cmd->m, "cache");
	if (ret)
		return ret;
	cmd->p.priority = cmd->m.priority;
	ret = tp_check_cpus("cache", &cmd->m.cpus, cmd->m.cpus_given,
			    TSCPROBE_MAX_RUN_CPUS);
	return ret ? ret : tp_load_check(&cmd->load, "cache", &cmd->m.cpus);
}

static void tp_cache_put_attrs(struct nlmsghdr *nlh,
			       const struct tp_run_params *p)
{
	mnl_attr_put_u64(nlh, TSCPROBE_A_ROUNDS, p->rounds);
	mnl_attr_put_u32(nlh, TSCPROBE_A_BATCH, p->batch);
	if (p->levels)
		mnl_attr_put(nlh, TSCPROBE_A_LEVELS, 0, NULL);
	if (p->nodes)
		mnl_attr_put(nlh, TSCPROBE_A_NODES, 0, NULL);
}

/* "cache 412000/1000000 rounds on 4 CPUs (41%), 3.2s" */
static void tp_cache_progress(const struct tp_result *st, char *buf,
			      size_t len)
{
	uint64_t done = 0, total = st->p.rounds * st->ncpus;
	unsigned int i;
	char el[32];

	for (i = 0; i < st->ncpus; i++)
		done += st->cpu[i].rounds;
	tp_format_ns(st->elapsed_ns, el, sizeof(el));
	snprintf(buf, len, "cache %llu/%llu rounds on %u CPUs (%llu%%), %s%s",
		 (unsigned long long)done, (unsigned long long)total,
		 st->ncpus, (unsigned long long)(total ? done * 100 / total : 0),
		 el, done == total && (st->p.levels || st->p.nodes) ?
		 ", now levels/nodes" : "");
}

/**
 * tp_cmd_cache() - the "cache" subcommand
 * @argc: argument count (argv[0] is "cache")
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_cache(int argc, char **argv)
{
	struct tp_cache_cmd cmd;
	struct tp_start st = {
		.kind = TSCPROBE_KIND_CACHE,
		.cpus = &cmd.m.cpus,
		.p = &cmd.p,
		.hold = &cmd.m.hold,
		.load = &cmd.load,
		.put_attrs = tp_cache_put_attrs,
		.progress = tp_cache_progress,
	};
	int ret;

	ret = tp_cache_parse(&cmd, argc, argv);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	st.quiet = cmd.m.quiet;
	return tp_run_cmd(&st, cmd.m.user, tp_user_cache, tp_cache_output,
			  &cmd.m.out);
}
