/* SPDX-License-Identifier: GPL-2.0 */
/* What ran inside a noise CPU's windows, in the reports (noise_sources.c). */
#ifndef TSCPROBE_USER_NOISE_SOURCES_H
#define TSCPROBE_USER_NOISE_SOURCES_H

#include <stdbool.h>
#include <stdio.h>

#include "lib/result.h"

struct jw;
struct tp_csv;

void tp_noise_sources_text(const struct tp_result *r,
			   const struct tp_cpu_res *c, FILE *f);
bool tp_noise_sources_brief(const struct tp_result *r,
			    const struct tp_cpu_res *c, char *buf, size_t len);
void tp_noise_sources_json(const struct tp_result *r,
			   const struct tp_cpu_res *c, struct jw *j);

void tp_noise_sources_csv_head(struct tp_csv *c);
void tp_noise_sources_csv_row(const struct tp_result *r,
			      const struct tp_cpu_res *cpu, struct tp_csv *c);
void tp_noise_sources_prom(const struct tp_result *r, FILE *f);

#endif /* TSCPROBE_USER_NOISE_SOURCES_H */
