/* SPDX-License-Identifier: GPL-2.0 */
/* The machine around a run in every report (context_report.c). */
#ifndef TSCPROBE_USER_CONTEXT_REPORT_H
#define TSCPROBE_USER_CONTEXT_REPORT_H

#include <stdio.h>

struct jw;
struct tp_result;
struct tp_cpu_res;

void tp_context_cpu_text(const struct tp_result *r, const struct tp_cpu_res *c,
			 FILE *f);
void tp_context_text(const struct tp_result *r, FILE *f);
void tp_context_cpus_text(const struct tp_result *r, FILE *f);
void tp_context_cpus_json(const struct tp_result *r, struct jw *j);
void tp_context_cpu_json(const struct tp_result *r, const struct tp_cpu_res *c,
			 struct jw *j);
void tp_context_json(const struct tp_result *r, struct jw *j);

#endif /* TSCPROBE_USER_CONTEXT_REPORT_H */
