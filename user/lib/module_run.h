/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a measurement in the module: START, wait for the run-finished
 * notification (no polling; a progress line on a terminal), STOP on Ctrl-C,
 * then fetch the results.  Shared by every measurement.
 */
#ifndef TSCPROBE_USER_MODULE_RUN_H
#define TSCPROBE_USER_MODULE_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <libmnl/libmnl.h>

#include "user/lib/actions.h"
#include "user/lib/format.h"
#include "user/lib/hold.h"
#include "user/lib/load.h"
#include "user/lib/result.h"

struct tp_nl;

/**
 * struct tp_start - how to start one measurement in the module
 * @kind: enum tscprobe_kind
 * @cpus: the CPUs
 * @p: the parameters; @put_attrs decides which travel
 * @put_attrs: add the measurement's attributes to START
 * @expect_ns: how long the run should take (0: unknown), for the fallback
 *	check in case a notification is lost
 * @progress: format a progress line from a GET_STATUS reply (NULL: none)
 * @quiet: never show progress
 * @on_event: called with every EVENT notification of the run while it
 *	runs, and the run as START answered it (NULL: none)
 * @on_end: called once the results are in, before the report (NULL: none)
 * @event_arg: for @on_event and @on_end
 * @hold: the conditions to hold during the run (NULL: none asked)
 * @load: the load to run beside it (NULL: none)
 * @actions: what to do at its events and end (NULL: nothing)
 */
struct tp_start {
	uint32_t kind;
	const struct tp_cpuset *cpus;
	const struct tp_run_params *p;
	void (*put_attrs)(struct nlmsghdr *nlh, const struct tp_run_params *p);
	uint64_t expect_ns;
	void (*progress)(const struct tp_result *status, char *buf,
			 size_t len);
	bool quiet;
	void (*on_event)(const struct nlmsghdr *nlh,
			 const struct tp_result *run, void *arg);
	void (*on_end)(const struct tp_result *res, void *arg);
	void *event_arg;
	const struct tp_hold_opts *hold;
	const struct tp_load_opts *load;
	struct tp_actions *actions;
};

/* A measurement's userspace engine and its report in every format. */
typedef int (*tp_user_engine_fn)(const struct tp_cpuset *cpus,
				 const struct tp_run_params *p, bool quiet,
				 struct tp_result *res);
typedef int (*tp_output_fn)(const struct tp_result *r,
			    const struct tp_output *o, FILE *f);

int tp_run_kernel(const struct tp_start *st, struct tp_result *res);
int tp_run_cmd(const struct tp_start *st, bool user, tp_user_engine_fn engine,
	       tp_output_fn output, const struct tp_output *out);
void tp_catch_interrupt(void);
bool tp_interrupted(void);
int tp_wait_run_end(struct tp_nl *ev, struct tp_nl *req, uint64_t run_id,
		    uint64_t timeout_ns);
uint64_t tp_run_bound_ns(const struct tp_run_params *p);
uint64_t tp_stop_timeout_ns(const struct tp_run_params *p);

#endif /* TSCPROBE_USER_MODULE_RUN_H */
