/* SPDX-License-Identifier: GPL-2.0 */
/* A noise event and a source of noise in the reports (event_report.c). */
#ifndef TSCPROBE_USER_EVENT_REPORT_H
#define TSCPROBE_USER_EVENT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "user/lib/result.h"

struct tp_model;
struct tp_opts;

void tp_counter_text(FILE *f, const char *lead, const char *name,
		     const struct tp_counter_res *k);
void tp_event_counters_text(FILE *f, const char *lead,
			    const struct tp_event_res *e);
void tp_event_sources_text(uint32_t tsc_khz, const struct tp_event_res *e,
			   FILE *f);
/*
 * What the module did not name to a reader without CAP_NET_ADMIN: the
 * threads it summed, and an interrupt's thread (after the interrupt).
 */
#define TP_THREADS_WITHHELD	"threads (names need CAP_NET_ADMIN)"
#define TP_THREAD_WITHHELD	" (thread: name needs CAP_NET_ADMIN)"
/* Room for the longest tp_source_label(), its NUL included. */
#define TP_SOURCE_LABEL	96
void tp_source_label(const struct tp_source_res *s, char *buf, size_t len);

void tp_event_cause_model(struct tp_model *m, const struct tp_event_res *e);
void tp_event_sources_model(struct tp_model *m, uint32_t tsc_khz,
			    const struct tp_event_res *e);
void tp_source_figures_model(struct tp_model *m, uint32_t khz,
			     const struct tp_source_res *s, bool known,
			     bool timed, const struct tp_opts *count,
			     const struct tp_opts *ns);
void tp_source_model(struct tp_model *m, uint32_t khz,
		     const struct tp_source_res *s, bool untimed);

#endif /* TSCPROBE_USER_EVENT_REPORT_H */
