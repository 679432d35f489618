/* SPDX-License-Identifier: GPL-2.0 */
/* What ran inside a noise CPU's windows, in the reports (noise_sources.c). */
#ifndef TSCPROBE_USER_NOISE_SOURCES_H
#define TSCPROBE_USER_NOISE_SOURCES_H

#include <stdbool.h>

#include "user/lib/result.h"

struct tp_model;

void tp_noise_sources_families(struct tp_model *m);
void tp_noise_sources_model(struct tp_model *m, const struct tp_cpu_res *c);
bool tp_noise_sources_brief(const struct tp_result *r,
			    const struct tp_cpu_res *c, char *buf, size_t len);

#endif /* TSCPROBE_USER_NOISE_SOURCES_H */
