// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace skew engine: core/'s hand-off (tp_skew_arrive(),
 * tp_skew_side(), tp_skew_analyze()) on one thread per chosen CPU, created
 * pinned, driven pair by pair by the main thread exactly as the module's
 * controller drives its workers.  Interrupts stay on, so a hand-off may be
 * interrupted or preempted: such samples are dropped by the analysis (its
 * outlier filter, see core/skew.c, the module's too) and counted as
 * "discarded".
 *
 * Per pair: two condition-variable wake-ups and one back, then the
 * hand-offs.  The limits are looser than the module's: a preempted thread
 * may legitimately be away for a while, and nothing runs with interrupts
 * off here.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "user/lib/clock.h"
#include "user/engines.h"
#include "user/lib/env.h"
#include "user/lib/sigint.h"
#include "user/lib/pinned.h"
#include "core/skew.h"
#include "core/tsc.h"

#define TP_USER_ARRIVE_NS	1000000000ULL	/* 1 s */
#define TP_USER_WAIT_NS		1000000000ULL	/* 1 s */
#define TP_USER_CAP_NS		10000000000ULL	/* 10 s */

enum { TP_W_IDLE, TP_W_ASSIGNED, TP_W_DONE, TP_W_QUIT };

struct tp_skew_user;

/**
 * struct tp_skew_worker - one pinned thread
 * @pin: the thread and its CPU
 * @log: its log, page-aligned
 * @cond: signalled when it is given a side (or told to quit)
 * @state: TP_W_*, under @u->lock
 * @side: TP_SKEW_MASTER or TP_SKEW_SLAVE
 * @end: enum tp_skew_end of its last side
 * @u: the engine
 */
struct tp_skew_worker {
	struct tp_pinned pin;
	uint64_t *log;
	pthread_cond_t cond;
	int state;
	unsigned int side;
	int end;
	struct tp_skew_user *u;
};

/**
 * struct tp_skew_user - the engine
 * @sync: the shared words, cache-line aligned
 * @lim: the sides' limits in cycles
 * @entries: log entries per side
 * @lock: protects every worker's @state
 * @done: signalled when a worker finishes a side
 */
struct tp_skew_user {
	struct tp_skew_sync *sync;
	struct tp_skew_limits lim;
	uint32_t entries;
	pthread_mutex_t lock;
	pthread_cond_t done;
};

static void *tp_skew_worker_main(void *arg)
{
	struct tp_skew_worker *w = arg;
	struct tp_skew_user *u = w->u;
	int end;

	tp_pinned_go(&w->pin);
	pthread_mutex_lock(&u->lock);
	for (;;) {
		while (w->state != TP_W_ASSIGNED && w->state != TP_W_QUIT)
			pthread_cond_wait(&w->cond, &u->lock);
		if (w->state == TP_W_QUIT)
			break;
		pthread_mutex_unlock(&u->lock);
		/* As the original program: the log in L1 right before use. */
		memset(w->log, 0, u->entries * sizeof(uint64_t));
		end = tp_skew_arrive(u->sync, w->side, &u->lim);
		if (end == TP_SKEW_OK)
			end = tp_skew_side(u->sync, w->side, w->log, u->entries,
					   &u->lim);
		pthread_mutex_lock(&u->lock);
		w->end = end;
		w->state = TP_W_DONE;
		pthread_cond_signal(&u->done);
	}
	pthread_mutex_unlock(&u->lock);
	tp_pinned_end(&w->pin);
	return NULL;
}

/* A worker's log (page aligned, so a side's log shares no line). */
static uint64_t *tp_skew_log_alloc(uint32_t entries)
{
	size_t bytes = (entries * sizeof(uint64_t) + 4095) & ~(size_t)4095;

	return aligned_alloc(4096, bytes);
}

/* One repeat of pair (i, j); 0 when both sides completed. */
static uint32_t tp_skew_user_once(struct tp_skew_user *u,
				  struct tp_skew_worker *i,
				  struct tp_skew_worker *j, uint32_t samples,
				  struct tp_skew_stats *st)
{
	tp_skew_sync_init(u->sync);
	pthread_mutex_lock(&u->lock);
	i->side = TP_SKEW_MASTER;
	j->side = TP_SKEW_SLAVE;
	i->state = j->state = TP_W_ASSIGNED;
	pthread_cond_signal(&i->cond);
	pthread_cond_signal(&j->cond);
	/* Both sides end by their own deadlines: this wait is bounded. */
	while (i->state != TP_W_DONE || j->state != TP_W_DONE)
		pthread_cond_wait(&u->done, &u->lock);
	i->state = j->state = TP_W_IDLE;
	pthread_mutex_unlock(&u->lock);
	if (i->end != TP_SKEW_OK || j->end != TP_SKEW_OK)
		return TSCPROBE_PAIR_TIMEOUT;
	tp_skew_analyze(st, i->log, j->log, samples);
	return TSCPROBE_PAIR_OK;
}

static void tp_skew_user_pair(struct tp_skew_user *u, struct tp_pair_res *pr,
			      struct tp_skew_worker *i,
			      struct tp_skew_worker *j,
			      const struct tp_run_params *p, uint32_t khz)
{
	uint64_t t0 = tp_mono_raw_ns();
	struct tp_skew_stats rep;
	uint32_t r, status = TSCPROBE_PAIR_SKIPPED;

	for (r = 0; r < p->repeats; r++) {
		if (r && tp_interrupted())
			break;
		tp_skew_stats_init(&rep);
		status = tp_skew_user_once(u, i, j, p->samples, &rep);
		if (status != TSCPROBE_PAIR_OK)
			break;
		tp_skew_stats_merge(&pr->st, &rep);
	}
	if (status != TSCPROBE_PAIR_OK)
		tp_skew_stats_init(&pr->st);
	pr->status = status;
	pr->elapsed_cycles = tp_ns_cycles(tp_mono_raw_ns() - t0, khz);
}

/* @j is an SMT sibling of @i (sysfs under $TSCPROBE_SYSROOT). */
static bool tp_cpu_is_sibling(unsigned int i, unsigned int j)
{
	struct tp_cpuset set;

	return !tp_env_cpu_list(i, "topology/thread_siblings_list", &set) &&
	       tp_cpuset_has(&set, j);
}

/**
 * tp_user_relation() - where two CPUs sit, from sysfs
 * @i: a CPU
 * @j: another
 *
 * The module's rule (kmod/skew.c) on sysfs's view of the same topology.
 *
 * Return: an enum tscprobe_relation; UNKNOWN when sysfs does not say.
 */
uint32_t tp_user_relation(unsigned int i, unsigned int j)
{
	int ni = tp_env_node(i), nj = tp_env_node(j);
	long pi, pj;

	if (ni >= 0 && nj >= 0 && ni != nj)
		return TSCPROBE_REL_OTHER_NODE;
	if (tp_cpu_is_sibling(i, j))
		return TSCPROBE_REL_SMT;
	pi = tp_env_cpu_long(i, "topology/physical_package_id");
	pj = tp_env_cpu_long(j, "topology/physical_package_id");
	if (pi < 0 || pj < 0)
		return TSCPROBE_REL_UNKNOWN;
	return pi == pj ? TSCPROBE_REL_PACKAGE : TSCPROBE_REL_OTHER_PACKAGE;
}

static void tp_skew_user_progress(const struct tp_result *res, bool show)
{
	if (!show)
		return;
	fprintf(stderr, "\r\033[Kskew --user: %u/%u pairs", res->pairs_done,
		res->pairs_total);
	fflush(stderr);
}

/**
 * struct tp_skew_plan - the main thread's part of a run: the pairs in turn
 * @u: the engine
 * @w: the workers
 * @n: how many
 * @p: samples and repeats
 * @res: where the pairs go
 * @show: print a progress line
 */
struct tp_skew_plan {
	struct tp_skew_user *u;
	struct tp_skew_worker *w;
	unsigned int n;
	const struct tp_run_params *p;
	struct tp_result *res;
	bool show;
};

/* Every ordered pair in turn, while the workers run; then they quit. */
static void tp_skew_user_pairs(void *arg)
{
	const struct tp_skew_plan *pl = arg;
	struct tp_skew_worker *w = pl->w;
	struct tp_result *res = pl->res;
	unsigned int a, b, k;

	for (a = 0; a < pl->n; a++) {
		for (b = 0; b < pl->n; b++) {
			struct tp_pair_res *pr;

			if (a == b)
				continue;
			pr = tp_result_add_pair(res, w[a].pin.cpu, w[b].pin.cpu);
			pr->relation = tp_user_relation(w[a].pin.cpu, w[b].pin.cpu);
			if (tp_interrupted())
				continue;	/* stays SKIPPED */
			tp_skew_user_pair(pl->u, pr, &w[a], &w[b], pl->p,
					  res->tsc_khz);
			res->pairs_done++;
			tp_skew_user_progress(res, pl->show);
		}
	}
	if (pl->show)
		fprintf(stderr, "\r\033[K");
	pthread_mutex_lock(&pl->u->lock);
	for (k = 0; k < pl->n; k++) {
		w[k].state = TP_W_QUIT;
		pthread_cond_signal(&w[k].cond);
	}
	pthread_mutex_unlock(&pl->u->lock);
}

/**
 * tp_user_skew() - measure skew in userspace
 * @cpus: the CPUs (at least two, online; checked by the caller)
 * @p: samples and repeats
 * @quiet: no progress line
 * @res: initialised; filled with the results
 *
 * Return: TP_EXIT_OK, TP_EXIT_INTERRUPTED after Ctrl-C, or TP_EXIT_FAIL.
 */
int tp_user_skew(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		 bool quiet, struct tp_result *res)
{
	unsigned int n = tp_cpuset_count(cpus), k = 0;
	uint32_t khz = tp_engine_tsc_khz();
	struct tp_pinned_run run;
	struct tp_skew_plan plan;
	struct tp_skew_worker *w;
	struct tp_skew_user u;
	int cpu = -1;
	uint64_t t0;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		tp_err("warning: cannot lock memory (%s): page faults may land in samples",
		       strerror(errno));
	memset(&u, 0, sizeof(u));
	res->tsc_khz = khz;
	res->cpus = *cpus;
	res->pairs_total = n * (n - 1);
	u.entries = TP_SKEW_ENTRIES(p->samples);
	u.lim.arrive = tp_ns_cycles(TP_USER_ARRIVE_NS, khz);
	u.lim.wait = tp_ns_cycles(TP_USER_WAIT_NS, khz);
	u.lim.cap = tp_ns_cycles(TP_USER_CAP_NS, khz);
	u.sync = aligned_alloc(TP_CACHELINE, sizeof(*u.sync));
	w = calloc(n, sizeof(*w));
	if (!u.sync || !w) {
		tp_err("out of memory");
		return TP_EXIT_FAIL;
	}
	pthread_mutex_init(&u.lock, NULL);
	pthread_cond_init(&u.done, NULL);
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		w[k].pin.cpu = (unsigned int)cpu;
		w[k].u = &u;
		w[k].log = tp_skew_log_alloc(u.entries);
		if (!w[k].log) {
			tp_err("cannot start a thread on CPU %d: %s", cpu,
			       strerror(ENOMEM));
			exit(TP_EXIT_FAIL);
		}
		pthread_cond_init(&w[k].cond, NULL);
		k++;
	}
	plan = (struct tp_skew_plan){
		.u = &u, .w = w, .n = n, .p = p, .res = res,
		.show = !quiet && isatty(STDERR_FILENO),
	};
	run = (struct tp_pinned_run){
		.threads = w, .stride = sizeof(*w), .n = n,
		.body = tp_skew_worker_main, .watch = tp_skew_user_pairs,
		.arg = &plan, .res = res, .priority = p->priority,
	};
	t0 = tp_mono_raw_ns();
	tp_pinned_run(&run);
	tp_user_fill(res, p, khz, tp_mono_raw_ns() - t0);
	for (k = 0; k < n; k++) {
		pthread_cond_destroy(&w[k].cond);
		free(w[k].log);
	}
	pthread_cond_destroy(&u.done);
	pthread_mutex_destroy(&u.lock);
	free(u.sync);
	free(w);
	return tp_interrupted() ? TP_EXIT_INTERRUPTED : TP_EXIT_OK;
}
