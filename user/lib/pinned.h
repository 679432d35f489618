/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every userspace engine does around its loop (pinned.c): one thread
 * per CPU, created pinned, started together and read around by the
 * machine's state; their scheduling counters; the run fields of a result.
 */
#ifndef TSCPROBE_USER_PINNED_H
#define TSCPROBE_USER_PINNED_H

#include <pthread.h>

#include "user/lib/result.h"

struct tp_measure_opts;

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

/**
 * struct tp_pinned - the runner's part of one thread's state
 * @tid: the thread
 * @cpu: its CPU
 * @run: the run it belongs to (set by tp_pinned_run())
 *
 * The first member of every engine's per-thread state.
 */
struct tp_pinned {
	pthread_t tid;
	unsigned int cpu;
	struct tp_pinned_run *run;
};

/**
 * struct tp_pinned_run - one thread per CPU, started and ended together
 * @threads: the engine's per-thread states, @stride bytes apart, each
 *	beginning with a struct tp_pinned whose @cpu is set
 * @stride: the size of one state
 * @n: threads
 * @body: a thread's work: set up, tp_pinned_go(), measure, return
 * @prepare: on the main thread once every thread is set up, before the
 *	machine's state is read and the threads go (NULL: nothing)
 * @watch: on the main thread while the threads measure (NULL: nothing)
 * @arg: for @prepare and @watch
 * @priority: the threads' SCHED_FIFO priority (0: SCHED_OTHER)
 * @res: the result whose context (/proc/interrupts before and after, the
 *	environment) is read right around the measured part; its @cpus and
 *	@tsc_khz must be set
 * @ready: passed by every thread once set up, and by the main thread
 * @go: passed once the "before" reading is taken
 * @end: passed by every thread once it has measured (tp_pinned_end())
 */
struct tp_pinned_run {
	void *threads;
	size_t stride;
	unsigned int n;
	void *(*body)(void *state);
	void (*prepare)(void *arg);
	void (*watch)(void *arg);
	void *arg;
	uint32_t priority;
	struct tp_result *res;
	pthread_barrier_t ready;
	pthread_barrier_t go;
	pthread_barrier_t end;
};

int tp_fifo_allowed(uint32_t priority);
int tp_priority_check(const struct tp_measure_opts *m, const char *cmd);
void tp_pinned_run(struct tp_pinned_run *run);
void tp_pinned_go(struct tp_pinned *t);
void tp_pinned_end(struct tp_pinned *t);

/*
 * For tests: called by tp_pinned_end() in the thread, before it waits
 * (@left false) and once every thread has measured (@left true).
 */
extern void (*tp_pinned_end_hook)(struct tp_pinned *t, bool left);
void tp_user_fill(struct tp_result *res, const struct tp_run_params *p,
		  uint32_t khz, uint64_t elapsed_ns);

#endif /* TSCPROBE_USER_PINNED_H */
