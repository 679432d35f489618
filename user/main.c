// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe: measure how quiet a CPU really is.
 *
 * The CLI of the tscprobe module: it starts measurements over generic
 * netlink, waits for them, and formats their results; with --user it runs
 * the same measurement loops in userspace, without the module.
 */
#include <stdio.h>
#include <string.h>

#include "user/commands.h"
#include "core/host.h"

struct tp_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct tp_command tp_commands[] = {
	{ "info", tp_cmd_info, "the module, the TSC and the CPUs" },
	{ "noise", tp_cmd_noise, "TSC noise histogram, interrupts off (or on)" },
	{ "skew", tp_cmd_skew, "TSC skew and core-to-core hand-off, every CPU pair" },
	{ "cache", tp_cmd_cache, "cached and flushed load timing, net of overhead" },
	{ "status", tp_cmd_status, "the module's current run and its progress" },
	{ "stop", tp_cmd_stop, "end the current run" },
	{ "show", tp_cmd_show, "print the last results again" },
	{ "env", tp_cmd_env, "audit the machine: clock, isolation, interrupts" },
	{ "diff", tp_cmd_diff, "compare two saved reports (-j) of one kind" },
	{ "monitor", tp_cmd_monitor, "print noise events and run ends as they come" },
	{ "restore", tp_cmd_restore, "put back idle states a killed run left off" },
};

static void tp_usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: tscprobe [--version] [-h] COMMAND [OPTIONS]\n\ncommands:\n");
	for (i = 0; i < TP_ARRAY_SIZE(tp_commands); i++)
		fprintf(f, "  %-8s %s\n", tp_commands[i].name,
			tp_commands[i].summary);
	fprintf(f, "\n'tscprobe COMMAND --help' describes a command's options.\n");
}

/* "unknown command 'nosie' (did you mean 'noise'?); usage: ...; commands: ..." */
static int tp_unknown_command(const char *typed)
{
	const char *near = tp_nearest(typed, tp_commands, TP_ARRAY_SIZE(tp_commands),
				      sizeof(tp_commands[0]));
	char names[128], hint[64] = "";
	size_t i, n = 0;

	for (i = 0; i < TP_ARRAY_SIZE(tp_commands); i++)
		n += snprintf(names + n, sizeof(names) - n, " %s",
			      tp_commands[i].name);
	if (near)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
	tp_err("unknown command '%s'%s; usage: tscprobe [--version] [-h] COMMAND [OPTIONS]; commands:%s",
	       typed, hint, names);
	return TP_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	size_t i;

	/* Every refusal is one line (the full usage is --help's). */
	if (argc < 2 || argv[1][0] == '\0') {
		fprintf(stderr, "tscprobe: no command; usage: tscprobe [--version] [-h] COMMAND [OPTIONS] (see 'tscprobe --help')\n");
		return TP_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		tp_usage(stdout);
		return TP_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("tscprobe %s\n", TSCPROBE_VERSION);
		return TP_EXIT_OK;
	}
	for (i = 0; i < TP_ARRAY_SIZE(tp_commands); i++)
		if (!strcmp(argv[1], tp_commands[i].name))
			return tp_commands[i].run(argc - 1, argv + 1);
	return tp_unknown_command(argv[1]);
}
