/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace engine: the same core/ loops as the module, on threads
 * pinned to the chosen CPUs, with interrupts on.  No module needed.
 */
#ifndef TSCPROBE_USER_ENGINE_H
#define TSCPROBE_USER_ENGINE_H

#include "result.h"

/**
 * struct tp_thread_sched - what the scheduler did to a thread so far
 * @ok: /proc/thread-self/status could be read
 * @voluntary: voluntary context switches
 * @involuntary: involuntary context switches
 * @migrations_ok: /proc/thread-self/sched has se.nr_migrations
 * @migrations: migrations
 */
struct tp_thread_sched {
	bool ok;
	uint64_t voluntary;
	uint64_t involuntary;
	bool migrations_ok;
	uint64_t migrations;
};

uint32_t tp_user_tsc_khz(void);
void tp_thread_sched(struct tp_thread_sched *s);
void tp_thread_sched_delta(struct tp_cpu_res *c,
			   const struct tp_thread_sched *before,
			   const struct tp_thread_sched *after);
int tp_user_noise(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res);
int tp_user_skew(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		 bool quiet, struct tp_result *res);
uint32_t tp_user_relation(unsigned int i, unsigned int j);

#endif /* TSCPROBE_USER_ENGINE_H */
