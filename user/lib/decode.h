/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Netlink -> results: the module's replies (GET_RESULT, GET_STATUS) and
 * its notifications (EVENT, RUN_FINISHED) decoded into the CLI's struct
 * tp_result, for every command that talks to the module.  Nothing here
 * prints, and nothing here acts: the run loop (module_run.h) hands what
 * it decodes to the actions, the live printer (live.h) to the screen.
 */
#ifndef TSCPROBE_USER_DECODE_H
#define TSCPROBE_USER_DECODE_H

#include <stdint.h>

#include "user/lib/result.h"

struct nlattr;
struct nlmsghdr;
struct tp_nl;
struct tp_nl_error;

/**
 * struct tp_cpu_event - one noise event as a notification carries it
 * @cpu: the CPU that saw it
 * @e: the event, its cause and counter deltas
 */
struct tp_cpu_event {
	unsigned int cpu;
	struct tp_event_res e;
};

/* Called with each event of a notification and the run it belongs to. */
typedef void (*tp_cpu_event_fn)(uint64_t run_id,
				const struct tp_cpu_event *ev, void *arg);

int tp_result_fetch(struct tp_nl *nl, uint64_t run_id, struct tp_result *r,
		    struct tp_nl_error *error);
int tp_fetch_status(struct tp_nl *nl, struct tp_result *status,
		    struct tp_nl_error *error);
int tp_fetch_run_status(struct tp_nl *nl, struct tp_result *status,
			struct tp_nl_error *error);
void tp_result_decode_run(const struct nlattr *const *tb, struct tp_result *r);
int tp_result_decode_event(const struct nlattr *nest, struct tp_event_res *ev);
int tp_result_decode_notification(const struct nlmsghdr *nlh,
				  struct tp_result *r);
uint8_t tp_notification_cmd(const struct nlmsghdr *nlh);
uint64_t tp_notification_run_id(const struct nlmsghdr *nlh);
int tp_notification_each_event(const struct nlmsghdr *nlh,
			       tp_cpu_event_fn fn, void *arg);

#endif /* TSCPROBE_USER_DECODE_H */
