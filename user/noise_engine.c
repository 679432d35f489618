// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace noise engine: core/'s noise loop on one thread per CPU,
 * each created already pinned to its CPU, memory locked, a warm-up window
 * discarded (page faults, cold caches, a clock still rising), then windows
 * back to back until the duration is over or Ctrl-C.  Interrupts stay on:
 * this is the "OS included" view, next to the module's interrupts-off one.
 *
 * Causes, as far as userspace can tell: between two windows the thread
 * reads its CPU's rows of /proc/interrupts and /proc/softirqs and its
 * steal time (/proc/stat).  Those counts are the window's, not a gap's
 * (tp_user_event_cause()): an event gets a cause only from a window in
 * which none of them moved.  SMIs and per-gap NMIs are out of userspace's
 * reach: those counters are unknown, never 0.  Over the run, the rows'
 * counts name the CPU's sources, without time: where in a window, or
 * between windows, an interrupt came is out of reach too.
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

#include "user/lib/clock.h"
#include "user/lib/context.h"
#include "user/lib/cpu_counters.h"
#include "user/engines.h"
#include "user/lib/sigint.h"
#include "user/lib/pinned.h"
#include "core/report.h"
#include "core/tsc.h"
#include "user/lib/format.h"

/**
 * struct tp_noise_loop - core/'s state and what its explain hook counts
 * @n: core/'s state (first: the hook finds the rest from it)
 * @win_events: events of the current window (kept or not)
 * @win_cycles: the sum of their gaps
 */
struct tp_noise_loop {
	struct tp_noise n;
	uint64_t win_events;
	uint64_t win_cycles;
};

/**
 * struct tp_noise_causes - the attribution of a thread's events
 * @counters: the CPU's counters, read after each window
 * @causes: per enum tscprobe_cause: events and their cycles
 */
struct tp_noise_causes {
	struct tp_cpu_counters counters;
	struct tp_cause_res causes[TSCPROBE_CAUSE_MAX + 1];
};

/**
 * struct tp_noise_thread - one CPU of a userspace noise run
 * @pin: the thread and its CPU
 * @p: the run's parameters
 * @width: window length, cycles
 * @duration: run length, cycles
 * @warmup: warm-up length, cycles
 * @loop: core/'s state (cache-line aligned), with the window's counts
 * @why: the causes of the events, window by window
 * @first_tsc: start of the first measured window
 * @last_tsc: end of the last window
 * @windows: windows run
 * @complete: ran for the whole duration
 * @sched: the thread's scheduling counters at the start and the end
 * @seen_cycles: progress for the main thread: cycles measured so far
 * @seen_max: and the longest gap so far (both written once per window)
 * @done: the thread has finished
 */
struct tp_noise_thread {
	struct tp_pinned pin;
	const struct tp_run_params *p;
	uint64_t width;
	uint64_t duration;
	uint64_t warmup;
	struct tp_noise_loop *loop;
	struct tp_noise_causes why;
	uint64_t first_tsc;
	uint64_t last_tsc;
	uint64_t windows;
	bool complete;
	struct tp_thread_sched sched[2];
	uint64_t seen_cycles;
	uint64_t seen_max;
	bool done;
};

/* An event of the current window, until the window's counters are read. */
#define TP_CAUSE_PENDING	(TSCPROBE_CAUSE_MAX + 1)

/* core/'s explain hook: count the window's events; the window explains. */
static void tp_noise_count_event(struct tp_noise *n, struct tp_event *ev)
{
	struct tp_noise_loop *l = (struct tp_noise_loop *)n;

	l->win_events++;
	l->win_cycles += ev->cycles;
	ev->cause = TP_CAUSE_PENDING;
}

/**
 * tp_user_event_cause() - what the userspace engine can say of an event
 *	from the counts of the window it ended in
 * @win: what the CPU counted over the window (and the reading before it)
 * @ev: the event; its counters, valid bits and cause are set here
 *
 * A count that stayed 0 over the window stayed 0 over each of its gaps:
 * that counter is the event's too.  When every counter that could be read
 * stayed 0, the module's counter rule applies (tp_event_cause():
 * unexplained, nothing userspace can read moved).  A count that moved is
 * the window's, not the gap's: an interrupt may have come anywhere in the
 * window, and most windows take the tick.  Then the counter is unknown for
 * the event, and the event has no cause rather than the window's.
 *
 * Return: true when the event has a cause.
 */
bool tp_user_event_cause(const struct tp_cpu_window *win, struct tp_event *ev)
{
	ev->valid = 0;
	ev->irq = 0;
	ev->steal_ns = 0;
	if (win->irq_ok && !win->irq)
		ev->valid |= TP_EVENT_IRQ;
	if (win->steal_ok && !win->steal_ns)
		ev->valid |= TP_EVENT_STEAL;
	if ((win->irq_ok && win->irq) || (win->steal_ok && win->steal_ns)) {
		ev->cause = TSCPROBE_CAUSE_NONE;
		return false;
	}
	ev->cause = (uint16_t)tp_event_cause(ev);
	return true;
}

/*
 * After a window: read the counters, and give the window's events (the
 * kept ones, marked pending by the hook) what those counters say of them;
 * the per-cause totals count every event of the window, kept or not, the
 * ones without a cause under TSCPROBE_CAUSE_NONE.
 */
static void tp_noise_explain_window(struct tp_noise_thread *t)
{
	struct tp_noise_causes *w = &t->why;
	struct tp_noise_loop *l = t->loop;
	struct tp_events *e = &l->n.events;
	struct tp_cpu_window win;
	struct tp_event d;
	unsigned int i;

	tp_cpu_counters_read(&w->counters, &win);
	if (!l->win_events)
		return;
	tp_user_event_cause(&win, &d);
	w->causes[d.cause].events += l->win_events;
	w->causes[d.cause].cycles += l->win_cycles;
	l->win_events = l->win_cycles = 0;
	for (i = 0; i < e->n; i++) {
		if (e->ev[i].cause != TP_CAUSE_PENDING)
			continue;
		e->ev[i].irq = d.irq;
		e->ev[i].steal_ns = d.steal_ns;
		e->ev[i].valid = d.valid;
		e->ev[i].cause = d.cause;
	}
}

static void *tp_noise_thread_main(void *arg)
{
	struct tp_noise_thread *t = arg;
	struct tp_noise *loop = &t->loop->n;
	uint64_t end, now, back;

	/*
	 * Warm-up: fault in, warm caches and predictors, and --warm-up; then
	 * forget it.  In windows, so that Ctrl-C ends a long one.
	 */
	tp_noise_init(loop, t->p->threshold_cycles);
	end = tp_rdtsc() + t->warmup;
	for (now = tp_rdtsc(); now < end && !tp_interrupted(); now = tp_rdtsc())
		tp_noise_window(loop, t->p->clock,
				now + t->width < end ? now + t->width : end);
	tp_noise_init(loop, t->p->threshold_cycles);
	loop->explain = tp_noise_count_event;
	tp_pinned_go(&t->pin);
	tp_thread_sched(&t->sched[0]);
	tp_cpu_counters_open(&t->why.counters, t->pin.cpu, &tp_proc_paths_live);
	t->first_tsc = tp_rdtsc();
	t->last_tsc = t->first_tsc;
	end = t->first_tsc + t->duration;
	while (!tp_interrupted()) {
		back = loop->step_back_cycles;
		now = tp_rdtsc();
		t->last_tsc = tp_noise_window(loop, t->p->clock,
					      now + t->width < end ?
					      now + t->width : end);
		/* A step back of the TSC moves the run's start and end too. */
		back = loop->step_back_cycles - back;
		t->first_tsc -= back;
		end -= back;
		t->windows++;
		tp_noise_explain_window(t);
		__atomic_store_n(&t->seen_cycles, t->last_tsc - t->first_tsc,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&t->seen_max, loop->max, __ATOMIC_RELAXED);
		if (t->last_tsc >= end) {
			t->complete = true;
			break;
		}
	}
	tp_thread_sched(&t->sched[1]);
	tp_pinned_end(&t->pin);
	__atomic_store_n(&t->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* An event as the result holds it: SMI and NMI unknown in userspace. */
static void tp_noise_event_res(struct tp_event_res *r, const struct tp_event *e)
{
	memset(r, 0, sizeof(*r));
	r->tsc = e->tsc;
	r->cycles = e->cycles;
	r->has_cause = e->cause != TSCPROBE_CAUSE_NONE;
	r->cause = e->cause;
	r->irq.ok = e->valid & TP_EVENT_IRQ;
	r->irq.v = e->irq;
	r->steal_ns.ok = e->valid & TP_EVENT_STEAL;
	r->steal_ns.v = e->steal_ns;
}

static void tp_noise_collect(struct tp_result *res,
			     const struct tp_noise_thread *t)
{
	struct tp_cpu_res *c = tp_result_cpu(res, t->pin.cpu);
	struct tp_series_res *g = &c->series[TSCPROBE_SERIES_GAP];
	const struct tp_noise *l = &t->loop->n;
	unsigned int i;

	c->windows = t->windows;
	c->measured_cycles = l->measured;
	c->wall_cycles = t->last_tsc - t->first_tsc;
	c->events_total = l->events.total;
	c->events_dropped = l->events.dropped;
	for (i = 0; i < l->events.n; i++)
		tp_noise_event_res(&c->events[i], &l->events.ev[i]);
	c->nevents = l->events.n;
	c->has_causes = true;
	/*
	 * Per gap, SMIs and NMIs are out of userspace's sight, nothing traces
	 * what ran inside one, and an interrupt or steal counted in a window
	 * is no gap's: only "unexplained" is known.  The events without a
	 * cause are counted under NONE.
	 */
	c->causes_known = 1U << TSCPROBE_CAUSE_UNEXPLAINED;
	memcpy(c->causes, t->why.causes, sizeof(c->causes));
	c->steps_back.ok = true;
	c->steps_back.v = l->steps_back;
	c->step_back_max = l->step_back_max;
	g->present = true;
	g->stats.count = l->samples;
	g->stats.min = l->samples ? l->min : 0;
	g->stats.max = l->max;
	g->stats.sum = l->measured;
	*tp_series_hist(g) = l->hist;
	/* SMIs, APERF/MPERF: MSRs, out of userspace's reach. */
	if (tp_irq_known(res->ctx, t->pin.cpu)) {
		c->irq.ok = c->nmi.ok = true;
		c->irq.v = tp_irq_delta_all(res->ctx, t->pin.cpu);
		c->nmi.v = tp_irq_delta(res->ctx, TP_IRQ_NMI, t->pin.cpu);
	}
	tp_thread_sched_delta(c, &t->sched[0], &t->sched[1]);
	tp_cpu_counters_sources(&t->why.counters, c);
}

/**
 * struct tp_noise_watch - what the progress line is made from
 * @t: the threads
 * @n: how many
 * @p: the run's parameters
 * @khz: the TSC rate
 */
struct tp_noise_watch {
	const struct tp_noise_thread *t;
	unsigned int n;
	const struct tp_run_params *p;
	uint32_t khz;
};

/*
 * The progress line, every 250 ms until every thread is done, from what
 * the threads publish once per window (a single word each: no locks).
 */
static void tp_noise_watch(void *arg)
{
	const struct tp_noise_watch *w = arg;
	const struct tp_noise_thread *t = w->t;
	struct timespec tick = { 0, 250000000 };
	uint64_t cycles, worst;
	unsigned int i, done;
	char line[160];

	do {
		nanosleep(&tick, NULL);
		cycles = worst = 0;
		done = 0;
		for (i = 0; i < w->n; i++) {
			uint64_t c = __atomic_load_n(&t[i].seen_cycles, __ATOMIC_RELAXED);
			uint64_t m = __atomic_load_n(&t[i].seen_max, __ATOMIC_RELAXED);

			cycles = c > cycles ? c : cycles;
			worst = m > worst ? m : worst;
			done += __atomic_load_n(&t[i].done, __ATOMIC_ACQUIRE);
		}
		tp_noise_progress_line(line, sizeof(line), "user",
				       cycles / w->khz * 1000000 +
				       cycles % w->khz * 1000000 / w->khz,
				       w->p->duration_ns, w->n, worst, w->khz);
		fprintf(stderr, "\r\033[K%s", line);
		fflush(stderr);
	} while (done < w->n);
	fprintf(stderr, "\r\033[K");
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
	struct tp_noise_watch watch = { .n = n, .p = &eff };
	struct tp_pinned_run run;
	struct tp_noise_thread *t;
	uint32_t khz = tp_engine_tsc_khz();
	uint64_t wall = 0;
	int cpu = -1;

	if (mlockall(MCL_CURRENT | MCL_FUTURE))
		tp_err("warning: cannot lock memory (%s): page faults may show as noise",
		       strerror(errno));
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
	watch.t = t;
	watch.khz = khz;
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		t[i].pin.cpu = (unsigned int)cpu;
		t[i].loop = aligned_alloc(64, (sizeof(*t[i].loop) + 63) / 64 * 64);
		if (!t[i].loop) {
			tp_err("cannot start a thread on CPU %d: %s", cpu,
			       strerror(ENOMEM));
			exit(TP_EXIT_FAIL);
		}
		memset(t[i].loop, 0, sizeof(*t[i].loop));
		t[i].p = &eff;
		t[i].width = tp_ns_cycles(eff.width_ns, khz);
		t[i].duration = tp_ns_cycles(eff.duration_ns, khz);
		t[i].warmup = tp_ns_cycles((eff.duration_ns / 10 < 100000000 ?
					    eff.duration_ns / 10 : 100000000) +
					   eff.warm_up_ns, khz);
		i++;
	}
	res->cpus = *cpus;
	res->tsc_khz = khz;
	run = (struct tp_pinned_run){
		.threads = t, .stride = sizeof(*t), .n = n,
		.body = tp_noise_thread_main, .res = res,
		.arg = &watch, .priority = eff.priority,
	};
	if (!quiet && isatty(STDERR_FILENO))
		run.watch = tp_noise_watch;
	tp_pinned_run(&run);
	for (i = 0; i < n; i++)
		if (t[i].last_tsc - t[i].first_tsc > wall)
			wall = t[i].last_tsc - t[i].first_tsc;
	tp_user_fill(res, &eff, khz, wall / khz * 1000000 +
		      wall % khz * 1000000 / khz);
	res->start_tsc = t[0].first_tsc;
	for (i = 0; i < n; i++) {
		tp_noise_collect(res, &t[i]);
		free(t[i].loop);
		tp_cpu_counters_close(&t[i].why.counters);
	}
	free(t);
	return tp_interrupted() ? TP_EXIT_INTERRUPTED : TP_EXIT_OK;
}

/**
 * tp_noise_progress_line() - the progress line of a noise run
 * @buf: "noise 3.2s/10s on 4 CPUs, worst gap 45000 cycles (21.5us)"
 * @len: its size
 * @engine: "" for the module, "user" for the userspace engine
 * @elapsed_ns: time measured so far
 * @total_ns: the run's duration
 * @ncpus: CPUs measured
 * @worst: the longest gap so far, cycles
 * @tsc_khz: the TSC rate
 */
void tp_noise_progress_line(char *buf, size_t len, const char *engine,
			    uint64_t elapsed_ns, uint64_t total_ns,
			    unsigned int ncpus, uint64_t worst,
			    uint32_t tsc_khz)
{
	char el[32], total[32], w[32];

	tp_format_ns(elapsed_ns, el, sizeof(el));
	tp_format_ns(total_ns, total, sizeof(total));
	tp_format_cycles(worst, tsc_khz, w, sizeof(w));
	snprintf(buf, len, "noise%s%s %s/%s on %u CPUs, worst gap %llu cycles (%s)",
		 *engine ? " " : "", engine, el, total, ncpus,
		 (unsigned long long)worst, w);
}
