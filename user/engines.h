/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace engine: the same core/ loops as the module, on threads
 * pinned to the chosen CPUs, with interrupts on.  No module needed.
 */
#ifndef TSCPROBE_USER_ENGINES_H
#define TSCPROBE_USER_ENGINES_H

#include "user/lib/cpu_counters.h"
#include "user/lib/result.h"

/* noise_engine.c */
int tp_user_noise(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res);
bool tp_user_event_cause(const struct tp_cpu_window *win, struct tp_event *ev);
void tp_noise_progress_line(char *buf, size_t len, const char *engine,
			    uint64_t elapsed_ns, uint64_t total_ns,
			    unsigned int ncpus, uint64_t worst,
			    uint32_t tsc_khz);

/* skew_engine.c */
int tp_user_skew(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		 bool quiet, struct tp_result *res);
uint32_t tp_user_relation(unsigned int i, unsigned int j);

/* cache_engine.c */
int tp_user_cache(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res);

#endif /* TSCPROBE_USER_ENGINES_H */
