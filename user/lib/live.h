/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The events group as it arrives: EVENT and RUN_FINISHED notifications,
 * as decode.h decodes them, printed one line each, as text or as JSON
 * Lines.  Shared by `tscprobe monitor` (any run) and `tscprobe noise
 * --follow` (its own run).
 */
#ifndef TSCPROBE_USER_LIVE_H
#define TSCPROBE_USER_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <libmnl/libmnl.h>

#include "user/lib/decode.h"

/**
 * struct tp_live_cpu - events received from one CPU of the followed run
 * @cpu: the CPU
 * @received: events received in notifications
 */
struct tp_live_cpu {
	unsigned int cpu;
	uint64_t received;
};

/**
 * struct tp_live - a printer of notifications, and what it knows of a run
 * @f: where the lines go
 * @json: JSON Lines instead of text
 * @run_id: the run whose start is known (0: none)
 * @start_tsc: its TSC at start, for "time since the start"
 * @tsc_khz: its TSC rate
 * @ncpus: entries in @cpu
 * @cap: allocated entries
 * @cpu: events received per CPU of @run_id
 * @overruns: times the socket overflowed (notifications lost)
 */
struct tp_live {
	FILE *f;
	bool json;
	uint64_t run_id;
	uint64_t start_tsc;
	uint32_t tsc_khz;
	unsigned int ncpus;
	unsigned int cap;
	struct tp_live_cpu *cpu;
	uint64_t overruns;
};

void tp_live_init(struct tp_live *l, FILE *f, bool json);
void tp_live_begin(struct tp_live *l, uint64_t run_id, uint64_t start_tsc,
		   uint32_t tsc_khz);
void tp_live_free(struct tp_live *l);
uint64_t tp_live_received(const struct tp_live *l, unsigned int cpu);
int tp_live_events(struct tp_live *l, const struct nlmsghdr *nlh);
void tp_live_print_event(const struct tp_live *l, uint64_t run_id,
			 const struct tp_cpu_event *ev);
void tp_live_print_end(const struct tp_live *l, const struct tp_result *end);
void tp_live_print_overrun(const struct tp_live *l);
void tp_live_follow_event(const struct nlmsghdr *nlh,
			  const struct tp_result *run, void *arg);
void tp_live_follow_end(const struct tp_result *res, void *arg);

#endif /* TSCPROBE_USER_LIVE_H */
