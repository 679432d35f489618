/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the CLI's own threads run while it measures (placement.c): off
 * the measured CPUs whenever another CPU is online.
 */
#ifndef TSCPROBE_USER_PLACEMENT_H
#define TSCPROBE_USER_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "user/lib/cpuset.h"

struct jw;

/**
 * struct tp_placement - where the CLI ran during a run, and at what
 *	priority a userspace engine's measuring threads did
 * @known: the CLI that measured the run placed itself (show does not)
 * @apart: it ran on @cpus, none of which was measured
 * @cpus: the CPUs its own threads (main, progress) were allowed on
 * @why: when not @apart, why not: "" when no other CPU is online
 * @priority: the measuring threads' SCHED_FIFO priority (0: not raised:
 *	SCHED_OTHER in userspace, the module's own for its threads)
 */
struct tp_placement {
	bool known;
	bool apart;
	struct tp_cpuset cpus;
	char why[64];
	uint32_t priority;
};

void tp_cli_place(const struct tp_cpuset *measured, struct tp_placement *pl);
void tp_placement_text(const struct tp_placement *pl, FILE *f);
void tp_placement_json(const struct tp_placement *pl, struct jw *j);

#endif /* TSCPROBE_USER_PLACEMENT_H */
