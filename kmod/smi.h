/* SPDX-License-Identifier: GPL-2.0 */
/* smi.c: where a CPU's SMI count comes from, and reading it */
#ifndef TSCPROBE_KMOD_SMI_H
#define TSCPROBE_KMOD_SMI_H

#include <linux/types.h>

struct perf_event;

/* A measured CPU's SMI count: where it comes from (tp_smi_open()). */
struct tp_smi {
	u32 source;			/* enum tscprobe_smi_source */
	struct perf_event *event;	/* PERF: the CPU's counter */
};

bool tp_smi_msr_readable(void);
bool tp_smi_pmu_capable(void);
void tp_smi_open(struct tp_smi *s, unsigned int cpu);
void tp_smi_close(struct tp_smi *s);
bool tp_smi_read(const struct tp_smi *s, u64 *value);

#endif /* TSCPROBE_KMOD_SMI_H */
