/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace engine: the same core/ loops as the module, on threads
 * pinned to the chosen CPUs, with interrupts on.  No module needed.
 */
#ifndef TSCPROBE_USER_ENGINE_H
#define TSCPROBE_USER_ENGINE_H

#include "result.h"

/* Per-CPU interrupt counts from /proc/interrupts. */
struct tp_irq_counts {
	uint64_t irq[TP_MAX_CPUS];	/* every row but NMI, ERR, MIS */
	uint64_t nmi[TP_MAX_CPUS];
	bool seen[TP_MAX_CPUS];		/* the CPU has a column */
};

uint32_t tp_user_tsc_khz(void);
int tp_read_proc_interrupts(const char *path, struct tp_irq_counts *k);
int tp_user_noise(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  struct tp_result *res);
int tp_user_skew(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		 bool quiet, struct tp_result *res);
uint32_t tp_user_relation(unsigned int i, unsigned int j);

#endif /* TSCPROBE_USER_ENGINE_H */
