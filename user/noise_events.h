/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise report's parts about single events (noise_events.c):
 * causes, the stopping event, and the cross-CPU groups.
 */
#ifndef TSCPROBE_USER_NOISE_EVENTS_H
#define TSCPROBE_USER_NOISE_EVENTS_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/result.h"

struct jw;

const char *tp_group_kind_name(uint32_t kind);
void tp_noise_groups_text(const struct tp_result *r, bool verbose, FILE *f);
void tp_noise_groups_json(const struct tp_result *r, struct jw *j);
void tp_noise_causes_text(const struct tp_result *r,
			  const struct tp_cpu_res *c, FILE *f);
void tp_noise_causes_json(const struct tp_result *r,
			  const struct tp_cpu_res *c, struct jw *j);
void tp_noise_stop_text(const struct tp_result *r, FILE *f);
void tp_noise_stop_json(const struct tp_result *r, struct jw *j);
void tp_noise_event_text(const struct tp_result *r,
			 const struct tp_event_res *e, FILE *f);
void tp_noise_event_json(const struct tp_result *r,
			 const struct tp_event_res *e, struct jw *j);

#endif /* TSCPROBE_USER_NOISE_EVENTS_H */
