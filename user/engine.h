/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace engine: the same core/ loops as the module, on threads
 * pinned to the chosen CPUs, with interrupts on.  No module needed.
 */
#ifndef TSCPROBE_USER_ENGINE_H
#define TSCPROBE_USER_ENGINE_H

#include <pthread.h>

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

/* Shared by the engines. */
uint64_t tp_mono_raw_ns(void);
uint64_t tp_ns_cycles(uint64_t ns, uint32_t khz);
int tp_spawn_pinned(pthread_t *tid, unsigned int cpu, void *(*fn)(void *),
		    void *arg);
void tp_user_fill(struct tp_result *res, const struct tp_run_params *p,
		  uint32_t khz, uint64_t elapsed_ns);

/* cache_engine.c */
int tp_user_cache(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  struct tp_result *res);

#endif /* TSCPROBE_USER_ENGINE_H */
