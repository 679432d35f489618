/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Conditions held for the length of a run and restored after it, even
 * when the CLI is killed with SIGKILL: a PM QoS request on
 * /dev/cpu_dma_latency (the kernel drops it when its file closes, which
 * any death of the process does), and idle states deeper than a limit
 * disabled on the measured CPUs (a guardian process puts them back when
 * the CLI's end of a pipe closes; when both die, the record they wrote
 * first lets the next command, or "tscprobe restore", put them back:
 * idle_record.h).  Every report states what was held.
 */
#ifndef TSCPROBE_USER_HOLD_H
#define TSCPROBE_USER_HOLD_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "user/lib/cpuset.h"

struct jw;

/* getopt values of the options, above --user's. */
enum { TP_OPT_DMA_LATENCY = 1300, TP_OPT_DEEPEST_IDLE };

#define TP_HOLD_OPTIONS							\
	{ "dma-latency", required_argument, NULL, TP_OPT_DMA_LATENCY },	\
	{ "deepest-idle-state", required_argument, NULL, TP_OPT_DEEPEST_IDLE }

/* --dma-latency off: no request, not even the measurement's default. */
#define TP_DMA_OFF	-1L

/* The largest value the kernel takes (PM_QOS_DEFAULT_VALUE's order). */
#define TP_DMA_MAX_US	2000000000L

/**
 * struct tp_hold_opts - the conditions asked for (all zero: none, and the
 *	measurement's default request on /dev/cpu_dma_latency)
 * @dma_given: --dma-latency was given
 * @dma_latency_us: its microseconds, or TP_DMA_OFF
 * @idle_given: --deepest-idle-state was given
 * @deepest_idle: the deepest idle state it allows
 */
struct tp_hold_opts {
	bool dma_given;
	long dma_latency_us;
	bool idle_given;
	int deepest_idle;
};

/**
 * struct tp_conditions - what a report says was held during its run
 * @stated: the run was measured by this CLI, which knows what it held
 *	(false for a stored result, as "show" prints)
 * @dma_latency_us: the latency held, -1 none
 * @dma_why: why the default request could not be held ("" when it was,
 *	or none was asked)
 * @deepest_idle: the deepest idle state allowed, -1 none
 * @idle_cpus: the CPUs whose deeper states were disabled
 * @idle_disabled: how many states were disabled, over those CPUs
 */
struct tp_conditions {
	bool stated;
	long dma_latency_us;
	char dma_why[600];
	int deepest_idle;
	struct tp_cpuset idle_cpus;
	unsigned int idle_disabled;
};

/**
 * struct tp_hold - conditions in force
 * @dma_fd: the open /dev/cpu_dma_latency, -1 none
 * @guard_fd: the write end of the guardian's pipe, -1 none
 * @guard: the guardian process, 0 none
 * @idle_lock: the lock of the idle states (idle_record.h), -1 none
 * @c: what is held
 */
struct tp_hold {
	int dma_fd;
	int guard_fd;
	pid_t guard;
	int idle_lock;
	struct tp_conditions c;
};

bool tp_hold_option(struct tp_hold_opts *o, const char *cmd, int c,
		    const char *arg, int *ret);
int tp_hold_begin(struct tp_hold *h, const struct tp_hold_opts *o,
		  const struct tp_cpuset *cpus, bool dma_default);
void tp_hold_end(struct tp_hold *h);
void tp_conditions_text(const struct tp_conditions *c, FILE *f);
void tp_conditions_json(const struct tp_conditions *c, struct jw *j);

#endif /* TSCPROBE_USER_HOLD_H */
