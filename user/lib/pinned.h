/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every userspace engine does around its loop (pinned.c): threads
 * created pinned, their scheduling counters, the run fields of a result.
 */
#ifndef TSCPROBE_USER_PINNED_H
#define TSCPROBE_USER_PINNED_H

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
bool tp_proc_value(const char *path, const char *key, uint64_t *v);
void tp_thread_sched(struct tp_thread_sched *s);
void tp_thread_sched_delta(struct tp_cpu_res *c,
			   const struct tp_thread_sched *before,
			   const struct tp_thread_sched *after);
int tp_spawn_pinned(pthread_t *tid, unsigned int cpu, void *(*fn)(void *),
		    void *arg);
void tp_user_fill(struct tp_result *res, const struct tp_run_params *p,
		  uint32_t khz, uint64_t elapsed_ns);

#endif /* TSCPROBE_USER_PINNED_H */
