/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands main.c dispatches to, one file each (NAME_cmd.c).
 */
#ifndef TSCPROBE_USER_COMMANDS_H
#define TSCPROBE_USER_COMMANDS_H

#include "user/lib/cli.h"

/* Subcommands: each returns an enum tp_exit. */
int tp_cmd_info(int argc, char **argv);
int tp_cmd_noise(int argc, char **argv);
int tp_cmd_skew(int argc, char **argv);
int tp_cmd_cache(int argc, char **argv);
int tp_cmd_status(int argc, char **argv);
int tp_cmd_stop(int argc, char **argv);
int tp_cmd_show(int argc, char **argv);
int tp_cmd_env(int argc, char **argv);
int tp_cmd_diff(int argc, char **argv);
int tp_cmd_monitor(int argc, char **argv);
int tp_cmd_restore(int argc, char **argv);

#endif /* TSCPROBE_USER_COMMANDS_H */
