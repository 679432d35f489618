/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise subcommand's pieces shared by its plain run (noise.c) and its
 * side-by-side comparison of engines (noise_compare.c).
 */
#ifndef TSCPROBE_USER_NOISE_CMD_H
#define TSCPROBE_USER_NOISE_CMD_H

#include "format.h"
#include "module_run.h"

/**
 * struct tp_noise_cmd - the parsed command line
 * @cpus: the CPUs
 * @cpus_given: -c was given
 * @p: the parameters, defaults filled in
 * @irqs_given: --irqs was given
 * @width_given: --width was given
 * @threshold_cycles: --threshold was in cycles
 * @user: --user
 * @compare: --compare
 * @out: -j, --csv, --prom, --svg
 * @quiet: -q
 */
struct tp_noise_cmd {
	struct tp_cpuset cpus;
	bool cpus_given;
	struct tp_run_params p;
	bool irqs_given;
	bool width_given;
	bool threshold_cycles;
	bool user;
	bool compare;
	struct tp_output out;
	bool quiet;
};

void tp_noise_put_attrs(struct nlmsghdr *nlh, const struct tp_run_params *p);
void tp_noise_progress(const struct tp_result *st, char *buf, size_t len);
int tp_noise_compare(const struct tp_noise_cmd *cmd);

#endif /* TSCPROBE_USER_NOISE_CMD_H */
