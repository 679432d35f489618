// SPDX-License-Identifier: GPL-2.0
/*
 * What every userspace engine does around its loop: one thread per CPU,
 * created already pinned to it, all started together between two readings
 * of the machine's state (tp_pinned_run); the threads' scheduling counters
 * before and after; and the run fields of the result.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/lib/context.h"
#include "user/lib/options.h"
#include "user/lib/parse.h"
#include "user/lib/sigint.h"
#include "user/lib/pinned.h"

/* Which of @keys @line gives ("KEY: N" or "KEY : N"), its value in @v. */
static int tp_proc_line(const char *line, const char *const *keys,
			unsigned int n, uint64_t *v)
{
	unsigned int k;

	for (k = 0; k < n; k++) {
		size_t len = strlen(keys[k]);
		const char *p = line + len;

		if (strncmp(line, keys[k], len))
			continue;
		p += strspn(p, " \t");
		if (*p++ != ':')
			continue;
		*v = strtoull(p, NULL, 10);
		return (int)k;
	}
	return -1;
}

/*
 * The values of @n keys of a /proc file, in one read; @found[k] says
 * whether key k was there.  False when the file cannot be read.
 */
static bool tp_proc_values(const char *path, const char *const *keys,
			   unsigned int n, uint64_t *v, bool *found)
{
	unsigned int left = n;
	char line[256];
	FILE *f = fopen(path, "r");
	uint64_t x;
	int k;

	memset(found, 0, n * sizeof(*found));
	if (!f)
		return false;
	while (left && fgets(line, sizeof(line), f)) {
		k = tp_proc_line(line, keys, n, &x);
		if (k < 0 || found[k])
			continue;
		v[k] = x;
		found[k] = true;
		left--;
	}
	fclose(f);
	return true;
}

/**
 * tp_proc_value() - the value of "KEY: N" or "KEY : N" in a /proc file
 * @path: the file
 * @key: the key
 * @v: set to N
 *
 * Return: false if the file or the key is absent.
 */
bool tp_proc_value(const char *path, const char *key, uint64_t *v)
{
	bool found;

	return tp_proc_values(path, &key, 1, v, &found) && found;
}

/**
 * tp_thread_sched() - read the calling thread's scheduling counters
 * @s: filled in
 */
void tp_thread_sched(struct tp_thread_sched *s)
{
	static const char *const keys[] = {
		"voluntary_ctxt_switches", "nonvoluntary_ctxt_switches",
	};
	uint64_t v[2];
	bool found[2];

	memset(s, 0, sizeof(*s));
	if (tp_proc_values("/proc/thread-self/status", keys, 2, v, found) &&
	    found[0] && found[1]) {
		s->ok = true;
		s->voluntary = v[0];
		s->involuntary = v[1];
	}
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

/*
 * A thread's attributes: on @cpu only (-1: anywhere), SCHED_FIFO at
 * @priority when it is not 0; 0 or a positive errno.
 */
static int tp_thread_attr(pthread_attr_t *attr, int cpu, uint32_t priority)
{
	struct sched_param sp = { .sched_priority = (int)priority };
	cpu_set_t set;
	int err = 0;

	pthread_attr_init(attr);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET((unsigned int)cpu, &set);
		err = pthread_attr_setaffinity_np(attr, sizeof(set), &set);
	}
	if (!err && priority)
		err = pthread_attr_setinheritsched(attr, PTHREAD_EXPLICIT_SCHED) ?:
		      pthread_attr_setschedpolicy(attr, SCHED_FIFO) ?:
		      pthread_attr_setschedparam(attr, &sp);
	if (err)
		pthread_attr_destroy(attr);
	return err;
}

static void *tp_nothing(void *arg)
{
	return arg;
}

/**
 * tp_fifo_allowed() - may this process run threads SCHED_FIFO at @priority?
 * @priority: the priority
 *
 * Tried with a thread that does nothing, so that the answer is the one the
 * measuring threads will get.
 *
 * Return: 0, or the positive errno of the refusal (EPERM: no privilege).
 */
int tp_fifo_allowed(uint32_t priority)
{
	pthread_attr_t attr;
	pthread_t tid;
	int err = tp_thread_attr(&attr, -1, priority);

	if (err)
		return err;
	err = pthread_create(&tid, &attr, tp_nothing, NULL);
	pthread_attr_destroy(&attr);
	if (!err)
		pthread_join(tid, NULL);
	return err;
}

/*
 * Start a thread that runs on one CPU only, SCHED_FIFO at @priority when
 * it is not 0; 0 or a positive errno.
 */
static int tp_spawn_pinned(pthread_t *tid, unsigned int cpu, uint32_t priority,
			   void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int err;

	/* Created pinned (and at its priority): it never runs otherwise. */
	err = tp_thread_attr(&attr, (int)cpu, priority);
	if (err)
		return err;
	err = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return err;
}

static struct tp_pinned *tp_pinned_at(const struct tp_pinned_run *run,
				      unsigned int i)
{
	return (struct tp_pinned *)((char *)run->threads + i * run->stride);
}

/**
 * tp_pinned_go() - in a thread: set up, now wait for every other to be
 * @t: the thread
 *
 * Returns once every thread is set up (warmed up, its memory touched) and
 * the main thread has prepared and read the machine's state: the threads
 * start measuring together, inside the before/after readings.
 */
void tp_pinned_go(struct tp_pinned *t)
{
	pthread_barrier_wait(&t->run->ready);
	pthread_barrier_wait(&t->run->go);
}

void (*tp_pinned_end_hook)(struct tp_pinned *t, bool left);

/**
 * tp_pinned_end() - in a thread: measured; now wait for every other to be
 * @t: the thread
 *
 * Every thread calls it once, after its measurement and before it frees,
 * unmaps or returns anything: a thread that ends unmaps its stack, and an
 * unmap (as a free() that gives memory back may) sends TLB-shootdown IPIs
 * to every CPU the process runs on, in the middle of what the others still
 * measure.  So the measured parts all end together, here.
 */
void tp_pinned_end(struct tp_pinned *t)
{
	if (tp_pinned_end_hook)
		tp_pinned_end_hook(t, false);
	pthread_barrier_wait(&t->run->end);
	if (tp_pinned_end_hook)
		tp_pinned_end_hook(t, true);
}

/**
 * tp_pinned_run() - run one pinned thread per CPU and wait for them all
 * @run: the threads and hooks
 *
 * Ctrl-C is caught from here on (the threads end their measurement on
 * it).  The CLI's own threads move off the measured CPUs first
 * (tp_cli_place(): @watch, the progress line or the skew pairs, runs on
 * the main thread).  Every thread is created already on its CPU; when all
 * are set up, @prepare runs, the "before" reading of the machine is taken,
 * the threads go and @watch runs; they end their measurement together
 * (tp_pinned_end()); after the last thread has ended, the "after" reading.
 * The machine's state thus brackets exactly the measured part, once per
 * run.  A thread that cannot be created ends the program: threads already
 * waiting at the barrier cannot be unwound.
 */
void tp_pinned_run(struct tp_pinned_run *run)
{
	struct tp_result *res = run->res;
	unsigned int i;
	int err;

	tp_catch_interrupt();	/* Ctrl-C ends the measurement, not us */
	tp_cli_place(&res->cpus, &res->cli);
	res->cli.priority = run->priority;
	pthread_barrier_init(&run->ready, NULL, run->n + 1);
	pthread_barrier_init(&run->go, NULL, run->n + 1);
	pthread_barrier_init(&run->end, NULL, run->n);
	for (i = 0; i < run->n; i++) {
		struct tp_pinned *t = tp_pinned_at(run, i);

		t->run = run;
		err = tp_spawn_pinned(&t->tid, t->cpu, run->priority, run->body,
				      t);
		if (err) {
			tp_err("cannot start a thread on CPU %u: %s", t->cpu,
			       strerror(err));
			exit(TP_EXIT_FAIL);
		}
	}
	pthread_barrier_wait(&run->ready);
	if (run->prepare)
		run->prepare(run->arg);
	res->ctx = tp_context_begin();
	pthread_barrier_wait(&run->go);
	if (run->watch)
		run->watch(run->arg);
	for (i = 0; i < run->n; i++)
		pthread_join(tp_pinned_at(run, i)->tid, NULL);
	tp_context_end(res->ctx, &res->cpus, res->tsc_khz);
	pthread_barrier_destroy(&run->ready);
	pthread_barrier_destroy(&run->go);
	pthread_barrier_destroy(&run->end);
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

/**
 * tp_priority_check() - settle --priority before anything starts
 * @m: the options as given
 * @cmd: the subcommand, for errors
 *
 * The priority is the userspace engine's: the module's threads measure
 * with interrupts off, where no priority counts.  Whether this process may
 * run threads SCHED_FIFO at it is tried now, so that a missing privilege
 * is one line before the run rather than the end of it.
 *
 * Return: TP_EXIT_OK, TP_EXIT_USAGE without --user, or TP_EXIT_PERM.
 */
int tp_priority_check(const struct tp_measure_opts *m, const char *cmd)
{
	int err;

	if (!m->priority)
		return TP_EXIT_OK;
	if (!m->user)
		return tp_usage_err(cmd, "--priority is the userspace engine's: give --user (the module measures with interrupts off, where no priority counts)");
	err = tp_fifo_allowed(m->priority);
	if (err == EPERM) {
		tp_err("--priority %u: not permitted to run threads SCHED_FIFO: needs CAP_SYS_NICE, or an RLIMIT_RTPRIO of at least %u (ulimit -r)",
		       m->priority, m->priority);
		return TP_EXIT_PERM;
	}
	if (err) {
		tp_err("--priority %u: cannot run a thread SCHED_FIFO: %s",
		       m->priority, strerror(err));
		return TP_EXIT_FAIL;
	}
	return TP_EXIT_OK;
}
