// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe restore: put back what a tscprobe that was killed left changed.
 */
#include "user/commands.h"
#include "user/lib/idle_record.h"
#include "user/lib/options.h"

static const char tp_restore_usage[] =
	"usage: tscprobe restore\n"
	"\n"
	"Put back the idle states a run turned off (--deepest-idle-state) and\n"
	"could not put back itself: the CLI and the process that restores them\n"
	"both killed (systemctl kill, an OOM kill of the whole cgroup, the end of\n"
	"a container).  They are listed in " TP_IDLE_RECORD ", written\n"
	"before the first one is turned off.  Says what it put back, and nothing\n"
	"when nothing was left; a run that still holds them keeps them (it puts\n"
	"them back at its end).  Any tscprobe measurement or 'env' started as root\n"
	"does the same first.  tscprobe-textfile.service runs this after every\n"
	"run.  Exits 5 when not permitted (root's), 1 when a state could not be\n"
	"put back.\n"
	"\n"
	"  -h, --help   show this help\n";

/**
 * tp_cmd_restore() - the "restore" subcommand
 * @argc: argument count
 * @argv: arguments
 *
 * Return: an enum tp_exit.
 */
int tp_cmd_restore(int argc, char **argv)
{
	int ret;

	ret = tp_simple_opts("restore", tp_restore_usage, argc, argv, NULL);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	return tp_idle_recover(true);
}
