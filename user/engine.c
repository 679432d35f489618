// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace noise engine: core/'s noise loop on one thread per CPU,
 * each created already pinned to its CPU, memory locked, a warm-up window
 * discarded (page faults, cold caches, a clock still rising), then windows
 * back to back until the duration is over or Ctrl-C.  Interrupts stay on:
 * this is the "OS included" view, next to the module's interrupts-off one.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "context.h"
#include "engine.h"
#include "nl.h"
#include "output.h"
#include "run.h"
#include "tsc.h"

/**
 * tp_mono_raw_ns() - CLOCK_MONOTONIC_RAW in nanoseconds
 *
 * Return: the time.
 */
uint64_t tp_mono_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* One calibration: TSC cycles over ~20 ms of CLOCK_MONOTONIC_RAW. */
static uint32_t tp_tsc_khz_once(void)
{
	struct timespec nap = { 0, 20000000 };
	uint64_t t0, t1, c0, c1;

	t0 = tp_mono_raw_ns();
	c0 = tp_rdtsc_lfence();
	nanosleep(&nap, NULL);
	t1 = tp_mono_raw_ns();
	c1 = tp_rdtsc_lfence();
	return t1 > t0 ? (uint32_t)((c1 - c0) * 1000000ULL / (t1 - t0)) : 0;
}

static int tp_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x > y ? 1 : x < y ? -1 : 0;
}

/**
 * tp_user_tsc_khz() - the TSC rate, calibrated against CLOCK_MONOTONIC_RAW
 *
 * The median of five 20 ms calibrations: good to about 10 ppm, enough for
 * every ns figure of a report (the module uses the kernel's tsc_khz).
 *
 * Return: kHz.
 */
uint32_t tp_user_tsc_khz(void)
{
	uint32_t k[5];
	unsigned int i;

	for (i = 0; i < 5; i++)
		k[i] = tp_tsc_khz_once();
	qsort(k, 5, sizeof(k[0]), tp_cmp_u32);
	return k[2];
}

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
 * struct tp_noise_thread - one CPU of a userspace noise run
 * @tid: the thread
 * @cpu: its CPU
 * @p: the run's parameters
 * @width: window length, cycles
 * @duration: run length, cycles
 * @warmup: warm-up length, cycles
 * @loop: core/'s state (cache-line aligned)
 * @first_tsc: start of the first measured window
 * @last_tsc: end of the last window
 * @windows: windows run
 * @complete: ran for the whole duration
 * @sched: the thread's scheduling counters at the start and the end
 * @seen_cycles: progress for the main thread: cycles measured so far
 * @seen_max: and the longest gap so far (both written once per window)
 * @done: the thread has finished
 * @ready: passed once warmed up
 * @go: passed to start measuring
 */
struct tp_noise_thread {
	pthread_t tid;
	unsigned int cpu;
	const struct tp_run_params *p;
	uint64_t width;
	uint64_t duration;
	uint64_t warmup;
	struct tp_noise *loop;
	uint64_t first_tsc;
	uint64_t last_tsc;
	uint64_t windows;
	bool complete;
	struct tp_thread_sched sched[2];
	uint64_t seen_cycles;
	uint64_t seen_max;
	bool done;
	pthread_barrier_t *ready;
	pthread_barrier_t *go;
};

static void *tp_noise_thread_main(void *arg)
{
	struct tp_noise_thread *t = arg;
	uint64_t end, now;

	/* Warm-up: fault in, warm caches and predictors; then forget it. */
	tp_noise_init(t->loop, t->p->threshold_cycles);
	tp_noise_window(t->loop, t->p->clock, tp_rdtsc() + t->warmup);
	tp_noise_init(t->loop, t->p->threshold_cycles);
	pthread_barrier_wait(t->ready);
	pthread_barrier_wait(t->go);
	tp_thread_sched(&t->sched[0]);
	t->first_tsc = tp_rdtsc();
	t->last_tsc = t->first_tsc;
	end = t->first_tsc + t->duration;
	while (!tp_interrupted()) {
		now = tp_rdtsc();
		t->last_tsc = tp_noise_window(t->loop, t->p->clock,
					      now + t->width < end ?
					      now + t->width : end);
		t->windows++;
		__atomic_store_n(&t->seen_cycles, t->last_tsc - t->first_tsc,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&t->seen_max, t->loop->max, __ATOMIC_RELAXED);
		if (t->last_tsc >= end) {
			t->complete = true;
			break;
		}
	}
	tp_thread_sched(&t->sched[1]);
	__atomic_store_n(&t->done, true, __ATOMIC_RELEASE);
	return NULL;
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

static int tp_noise_spawn(struct tp_noise_thread *t)
{
	t->loop = aligned_alloc(64, (sizeof(*t->loop) + 63) / 64 * 64);
	if (!t->loop)
		return ENOMEM;
	return tp_spawn_pinned(&t->tid, t->cpu, tp_noise_thread_main, t);
}

static void tp_noise_collect(struct tp_result *res,
			     const struct tp_noise_thread *t)
{
	struct tp_cpu_res *c = tp_result_cpu(res, t->cpu);
	struct tp_series_res *g = &c->series[TSCPROBE_SERIES_GAP];
	const struct tp_noise *l = t->loop;

	c->windows = t->windows;
	c->measured_cycles = l->measured;
	c->wall_cycles = t->last_tsc - t->first_tsc;
	c->events_total = l->events.total;
	c->events_dropped = l->events.dropped;
	c->nevents = l->events.n;
	memcpy(c->events, l->events.ev, l->events.n * sizeof(c->events[0]));
	g->present = true;
	g->stats.count = l->samples;
	g->stats.min = l->samples ? l->min : 0;
	g->stats.max = l->max;
	g->stats.sum = l->measured;
	*tp_series_hist(g) = l->hist;
	/* SMIs, APERF/MPERF: MSRs, out of userspace's reach. */
	if (tp_irq_known(res->ctx, t->cpu)) {
		c->irq.ok = c->nmi.ok = true;
		c->irq.v = tp_irq_delta_all(res->ctx, t->cpu);
		c->nmi.v = tp_irq_delta(res->ctx, TP_IRQ_NMI, t->cpu);
	}
	tp_thread_sched_delta(c, &t->sched[0], &t->sched[1]);
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
 * tp_ns_cycles() - nanoseconds to TSC cycles, rounded down
 * @ns: nanoseconds
 * @khz: the TSC rate
 *
 * Return: cycles.
 */
uint64_t tp_ns_cycles(uint64_t ns, uint32_t khz)
{
	return ns / 1000000 * khz + ns % 1000000 * khz / 1000000;
}

/*
 * The progress line, every 250 ms until every thread is done, from what
 * the threads publish once per window (a single word each: no locks).
 */
static void tp_noise_watch(struct tp_noise_thread *t, unsigned int n,
			   const struct tp_run_params *p, uint32_t khz)
{
	struct timespec tick = { 0, 250000000 };
	uint64_t cycles, worst;
	unsigned int i, done;
	char line[160];

	do {
		nanosleep(&tick, NULL);
		cycles = worst = 0;
		done = 0;
		for (i = 0; i < n; i++) {
			uint64_t c = __atomic_load_n(&t[i].seen_cycles, __ATOMIC_RELAXED);
			uint64_t m = __atomic_load_n(&t[i].seen_max, __ATOMIC_RELAXED);

			cycles = c > cycles ? c : cycles;
			worst = m > worst ? m : worst;
			done += __atomic_load_n(&t[i].done, __ATOMIC_ACQUIRE);
		}
		tp_noise_progress_line(line, sizeof(line), "user",
				       cycles / khz * 1000000 +
				       cycles % khz * 1000000 / khz,
				       p->duration_ns, n, worst, khz);
		fprintf(stderr, "\r\033[K%s", line);
		fflush(stderr);
	} while (done < n);
	fprintf(stderr, "\r\033[K");
}

/* Run the threads between the two readings of the machine's state. */
static int tp_noise_run_threads(struct tp_noise_thread *t, unsigned int n,
				struct tp_result *res, bool progress)
{
	pthread_barrier_t ready, go;
	unsigned int i, started = 0;
	int err = 0;

	pthread_barrier_init(&ready, NULL, n + 1);
	pthread_barrier_init(&go, NULL, n + 1);
	for (i = 0; i < n; i++) {
		t[i].ready = &ready;
		t[i].go = &go;
		err = tp_noise_spawn(&t[i]);
		if (err) {
			tp_err("cannot start a thread on CPU %u: %s", t[i].cpu,
			       strerror(err));
			exit(TP_EXIT_FAIL);	/* pinned threads cannot be unwound */
		}
		started++;
	}
	pthread_barrier_wait(&ready);
	res->ctx = tp_context_begin();
	pthread_barrier_wait(&go);
	if (progress)
		tp_noise_watch(t, n, t[0].p, res->tsc_khz);
	for (i = 0; i < started; i++)
		pthread_join(t[i].tid, NULL);
	tp_context_end(res->ctx, &res->cpus, res->tsc_khz);
	pthread_barrier_destroy(&ready);
	pthread_barrier_destroy(&go);
	return err;
}

/**
 * tp_user_noise() - measure noise in userspace
 * @cpus: the CPUs (online, checked by the caller)
 * @p: the parameters (irqs is "on" whatever it says)
 * @quiet: no progress line (there is none either when stderr is not a
 *	terminal)
 * @res: initialised; filled with the results
 *
 * Return: TP_EXIT_OK, or TP_EXIT_INTERRUPTED after Ctrl-C.
 */
int tp_user_noise(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res)
{
	unsigned int n = tp_cpuset_count(cpus), i = 0;
	struct tp_run_params eff = *p;
	struct tp_noise_thread *t;
	uint32_t khz = tp_module_tsc_khz();
	uint64_t wall = 0;
	int cpu = -1;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		tp_err("warning: cannot lock memory (%s): page faults may show as noise",
		       strerror(errno));
	if (!khz)
		khz = tp_user_tsc_khz();
	eff.irqs = TSCPROBE_IRQS_ON;
	if (!eff.threshold_cycles)
		eff.threshold_cycles = tp_ns_cycles(eff.threshold_ns, khz) ?: 1;
	else
		eff.threshold_ns = eff.threshold_cycles * 1000000ULL / khz;
	t = calloc(n, sizeof(*t));
	if (!t) {
		tp_err("out of memory");
		return TP_EXIT_FAIL;
	}
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		t[i].cpu = (unsigned int)cpu;
		t[i].p = &eff;
		t[i].width = tp_ns_cycles(eff.width_ns, khz);
		t[i].duration = tp_ns_cycles(eff.duration_ns, khz);
		t[i].warmup = tp_ns_cycles(eff.duration_ns / 10 < 100000000 ?
					   eff.duration_ns / 10 : 100000000, khz);
		i++;
	}
	tp_catch_interrupt();
	res->cpus = *cpus;
	res->tsc_khz = khz;
	tp_noise_run_threads(t, n, res, !quiet && isatty(STDERR_FILENO));
	for (i = 0; i < n; i++)
		if (t[i].last_tsc - t[i].first_tsc > wall)
			wall = t[i].last_tsc - t[i].first_tsc;
	tp_user_fill(res, &eff, khz, wall / khz * 1000000 +
		      wall % khz * 1000000 / khz);
	res->start_tsc = t[0].first_tsc;
	for (i = 0; i < n; i++) {
		tp_noise_collect(res, &t[i]);
		free(t[i].loop);
	}
	free(t);
	return tp_interrupted() ? TP_EXIT_INTERRUPTED : TP_EXIT_OK;
}
