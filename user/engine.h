/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace engine: the same core/ loops as the module, on threads
 * pinned to the chosen CPUs, with interrupts on.  No module needed.
 */
#ifndef TSCPROBE_USER_ENGINE_H
#define TSCPROBE_USER_ENGINE_H

#include <pthread.h>

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
bool tp_proc_value(const char *path, const char *key, uint64_t *v);
void tp_thread_sched(struct tp_thread_sched *s);
void tp_thread_sched_delta(struct tp_cpu_res *c,
			   const struct tp_thread_sched *before,
			   const struct tp_thread_sched *after);
int tp_user_noise(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res);
int tp_user_skew(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		 bool quiet, struct tp_result *res);
uint32_t tp_user_relation(unsigned int i, unsigned int j);

/* Shared by the engines. */
uint64_t tp_mono_raw_ns(void);
uint64_t tp_ns_cycles(uint64_t ns, uint32_t khz);
int tp_spawn_pinned(pthread_t *tid, unsigned int cpu, void *(*fn)(void *),
		    void *arg);
void tp_user_fill(struct tp_result *res, const struct tp_run_params *p,
		  uint32_t khz, uint64_t elapsed_ns);

/* cache_engine.c */
int tp_user_cache(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res);

#endif /* TSCPROBE_USER_ENGINE_H */
