/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise report's parts about single events (noise_events.c):
 * causes, the stopping event, and the cross-CPU groups.
 */
#ifndef TSCPROBE_USER_NOISE_EVENTS_H
#define TSCPROBE_USER_NOISE_EVENTS_H

#include <stdio.h>

#include "user/lib/result.h"

struct tp_model;

void tp_noise_groups_model(struct tp_model *m);
void tp_noise_causes_model(struct tp_model *m, const struct tp_cpu_res *c);
void tp_noise_stop_model(struct tp_model *m);
void tp_noise_event_text(const struct tp_result *r,
			 const struct tp_event_res *e, FILE *f);
void tp_noise_event_model(struct tp_model *m, const struct tp_event_res *e);

#endif /* TSCPROBE_USER_NOISE_EVENTS_H */
