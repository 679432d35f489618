/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every report says about its run and the machine around it, as
 * parts of the report model (context_report.c).
 */
#ifndef TSCPROBE_USER_CONTEXT_REPORT_H
#define TSCPROBE_USER_CONTEXT_REPORT_H

#include <stdbool.h>

struct tp_cpu_res;
struct tp_model;
struct tp_opts;

/* The JSON reports' schema: see tp_report_origin(). */
#define TP_REPORT_SCHEMA	1

extern const struct tp_opts tp_elapsed_opts;

void tp_report_origin(struct tp_model *m);
void tp_report_head(struct tp_model *m, const char *kind);
void tp_report_cpu_model(struct tp_model *m, const struct tp_cpu_res *c,
			 unsigned int csv);
void tp_report_cpu_note(struct tp_model *m, const struct tp_cpu_res *c);
void tp_report_run_text(struct tp_model *m);
void tp_context_cpu_model(struct tp_model *m, const struct tp_cpu_res *c);
void tp_context_cpus_model(struct tp_model *m, bool text);
void tp_context_model(struct tp_model *m);

#endif /* TSCPROBE_USER_CONTEXT_REPORT_H */
