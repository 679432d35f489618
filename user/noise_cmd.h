/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise subcommand's pieces shared by its plain run (noise.c) and its
 * side-by-side comparison of engines (noise_compare.c).
 */
#ifndef TSCPROBE_USER_NOISE_CMD_H
#define TSCPROBE_USER_NOISE_CMD_H

#include "user/lib/actions.h"
#include "user/lib/format.h"
#include "user/lib/options.h"
#include "user/lib/module_run.h"

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

void tp_noise_put_attrs(struct nlmsghdr *nlh, const struct tp_run_params *p);
void tp_noise_progress(const struct tp_result *st, char *buf, size_t len);
int tp_noise_compare(const struct tp_noise_cmd *cmd);

#endif /* TSCPROBE_USER_NOISE_CMD_H */
