// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe env: the environment audit (lib/env.c) on its own, as text or
 * JSON.  Nothing needs the module or root.
 */
#include <getopt.h>
#include <stdio.h>

#include "user/lib/clock.h"
#include "user/commands.h"
#include "user/lib/env.h"
#include "user/lib/idle_record.h"
#include "user/lib/json_write.h"
#include "user/lib/options.h"

static const char tp_env_usage[] =
	"usage: tscprobe env [-c CPUS] [-j]\n"
	"\n"
	"Audit what decides whether latency figures can be trusted: CPU model and\n"
	"microcode, the TSC and the clocksource, and per CPU the frequency driver,\n"
	"governor and limits, turbo, SMT siblings, NUMA node, isolcpus, nohz_full,\n"
	"rcu_nocbs, interrupt affinity and C-states; then warnings in plain words.\n"
	"Reads /proc and /sys only (under $TSCPROBE_SYSROOT when set).\n"
	"\n"
	"  -c, --cpus CPUS   CPUs to audit (default: all online)\n"
	"  -j, --json        print JSON\n"
	"  -h, --help        show this help\n";

/**
 * struct tp_env_cmd - the parsed command line
 * @cpus: the CPUs to audit
 * @given: -c was given
 * @json: -j
 */
struct tp_env_cmd {
	struct tp_cpuset cpus;
	bool given;
	bool json;
};

static int tp_env_option(void *ctx, int c, char **argv)
{
	struct tp_env_cmd *cmd = ctx;

	switch (c) {
	case 'c':
		cmd->given = true;
		return tp_cpus_option("env", optarg, &cmd->cpus);
	case 'j':
		cmd->json = true;
		return TP_EXIT_OK;
	default:
		return tp_bad_option("env", c, argv);
	}
}

/**
 * tp_cmd_env() - the "env" subcommand
 * @argc: argument count
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_env(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct tp_env_cmd cmd = { .given = false };
	struct tp_cpuset online, present;
	struct tp_env e;
	char path[512];
	int ret;

	ret = tp_getopt(argc, argv, ":c:jh", opts, tp_env_usage, tp_env_option,
			&cmd);
	if (!ret)
		ret = tp_no_more_args("env", argc, argv);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	tp_idle_recover(false);	/* the audit must not see a dead run's */
	if (tp_env_online(&online, path, sizeof(path))) {
		tp_err("env: cannot read the online CPUs from %s", path);
		return TP_EXIT_FAIL;
	}
	if (!cmd.given)
		cmd.cpus = online;
	/* An offline CPU is audited (and said to be offline), a missing one not. */
	if (!tp_env_present(&present))
		ret = tp_check_cpus_in("env", "-c", &cmd.cpus, &present, "present");
	else
		ret = tp_check_cpus_in("env", "-c", &cmd.cpus, &online, "online");
	if (ret)
		return ret;
	if (tp_env_read(&e, &cmd.cpus, tp_engine_tsc_khz())) {
		tp_err("env: cannot read /sys/devices/system/cpu/online");
		return TP_EXIT_FAIL;
	}
	if (cmd.json) {
		struct jw j;

		jw_init(&j, stdout);
		tp_env_json(&e, &j, NULL);
		jw_finish(&j);
	} else {
		tp_env_text(&e, stdout);
	}
	tp_env_free(&e);
	return TP_EXIT_OK;
}
