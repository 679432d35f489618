// SPDX-License-Identifier: GPL-2.0
/*
 * What every userspace engine does around its loop: threads created
 * already pinned to their CPU, the thread's scheduling counters before and
 * after, and the run fields of the result.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interrupt.h"
#include "pinned.h"

/* The value of "KEY: N" or "KEY : N" in a /proc file; false if absent. */
bool tp_proc_value(const char *path, const char *key, uint64_t *v)
{
	size_t n = strlen(key);
	char line[256];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = line + n;

		if (strncmp(line, key, n))
			continue;
		p += strspn(p, " \t");
		if (*p++ != ':')
			continue;
		*v = strtoull(p, NULL, 10);
		found = true;
	}
	fclose(f);
	return found;
}

/**
 * tp_thread_sched() - read the calling thread's scheduling counters
 * @s: filled in
 */
void tp_thread_sched(struct tp_thread_sched *s)
{
	memset(s, 0, sizeof(*s));
	s->ok = tp_proc_value("/proc/thread-self/status",
			      "voluntary_ctxt_switches", &s->voluntary) &&
		tp_proc_value("/proc/thread-self/status",
			      "nonvoluntary_ctxt_switches", &s->involuntary);
	/* Only with CONFIG_SCHED_DEBUG. */
	s->migrations_ok = tp_proc_value("/proc/thread-self/sched",
					 "se.nr_migrations", &s->migrations);
}

/**
 * tp_thread_sched_delta() - put a thread's counters over a run in a result
 * @c: the CPU's result
 * @before: read when the measurement started
 * @after: read when it ended
 */
void tp_thread_sched_delta(struct tp_cpu_res *c,
			   const struct tp_thread_sched *before,
			   const struct tp_thread_sched *after)
{
	c->ctx_vol.ok = c->ctx_invol.ok = before->ok && after->ok;
	c->ctx_vol.v = after->voluntary - before->voluntary;
	c->ctx_invol.v = after->involuntary - before->involuntary;
	c->migrations.ok = before->migrations_ok && after->migrations_ok;
	c->migrations.v = after->migrations - before->migrations;
}

/**
 * tp_spawn_pinned() - start a thread that runs on one CPU only
 * @tid: set to the thread
 * @cpu: its CPU
 * @fn: what it runs
 * @arg: passed to @fn
 *
 * Return: 0 or a positive errno.
 */
int tp_spawn_pinned(pthread_t *tid, unsigned int cpu, void *(*fn)(void *),
		    void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int err;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	/* Created pinned: the thread never runs anywhere else. */
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

/**
 * tp_user_fill() - the run fields of a userspace engine's result
 * @res: the result
 * @p: the effective parameters
 * @khz: the TSC rate used
 * @elapsed_ns: how long the run took
 */
void tp_user_fill(struct tp_result *res, const struct tp_run_params *p,
		  uint32_t khz, uint64_t elapsed_ns)
{
	res->user_engine = true;
	res->tsc_khz = khz;
	res->p = *p;
	res->elapsed_ns = elapsed_ns;
	res->state = tp_interrupted() ? TSCPROBE_STATE_STOPPED :
		TSCPROBE_STATE_DONE;
	res->reason = tp_interrupted() ? TSCPROBE_STOP_REQUESTED :
		TSCPROBE_STOP_COMPLETED;
}
