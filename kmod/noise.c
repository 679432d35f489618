// SPDX-License-Identifier: GPL-2.0
/*
 * The noise measurement: windows of core/'s noise loop with interrupts off
 * (or on), and what the CPU did meanwhile: SMIs, NMIs, interrupts, its real
 * clock.  A window's TSC deadline is at most TSCPROBE_MAX_WIDTH_NS (1 s)
 * away, far below the lockup (10 s, 20 s) and RCU-stall (21 s) thresholds;
 * the sleep between windows lets the tick, RCU and the watchdogs run, as in
 * kernel/trace/trace_hwlat.c.
 */
#include <linux/irq.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "cycles.h"
#include "attrs.h"
#include "info.h"
#include "irqs.h"
#include "kinds.h"
#include "noise_kind.h"
#include "run.h"
#include "smi.h"
#include "core/counter.h"
#include "core/noise.h"
#include "trace.h"

static const unsigned long tp_noise_attrs[BITS_TO_LONGS(TSCPROBE_A_MAX + 1)] = {
	BIT(TSCPROBE_A_DURATION_NS) | BIT(TSCPROBE_A_IRQS) |
	BIT(TSCPROBE_A_WIDTH_NS) | BIT(TSCPROBE_A_GAP_NS) |
	BIT(TSCPROBE_A_THRESHOLD_NS) | BIT(TSCPROBE_A_THRESHOLD_CYCLES) |
	BIT(TSCPROBE_A_CLOCK) | BIT(TSCPROBE_A_STOP_AT_NS) |
	BIT(TSCPROBE_A_STOP_AT_CYCLES) | BIT(TSCPROBE_A_TRACE_STOP) |
	BIT(TSCPROBE_A_WARM_UP_NS),
};

static int tp_noise_parse_threshold(struct tp_params *p, struct nlattr **attrs,
				    struct netlink_ext_ack *extack)
{
	struct nlattr *ns = attrs[TSCPROBE_A_THRESHOLD_NS];
	struct nlattr *cyc = attrs[TSCPROBE_A_THRESHOLD_CYCLES];

	if (ns && cyc) {
		NL_SET_ERR_MSG_ATTR(extack, cyc,
				    "give threshold_ns or threshold_cycles, not both");
		return -EINVAL;
	}
	if (cyc) {
		p->threshold_cycles = nla_get_u64(cyc);
		p->threshold_ns = tp_cycles_to_ns(p->threshold_cycles);
	} else {
		p->threshold_ns = tp_attr_u64(attrs, TSCPROBE_A_THRESHOLD_NS,
					      TSCPROBE_DEFAULT_THRESHOLD_NS);
		p->threshold_cycles = max(tp_ns_to_cycles(p->threshold_ns), 1ULL);
	}
	return 0;
}

/*
 * STOP_AT_NS or STOP_AT_CYCLES (one of the two), never below the threshold
 * (compared in cycles, the unit the loop compares in); TRACE_STOP needs one.
 */
static int tp_noise_parse_stop_at(struct tp_params *p, struct nlattr **attrs,
				  struct netlink_ext_ack *extack)
{
	struct nlattr *ns = attrs[TSCPROBE_A_STOP_AT_NS];
	struct nlattr *cyc = attrs[TSCPROBE_A_STOP_AT_CYCLES];
	struct nlattr *trace = attrs[TSCPROBE_A_TRACE_STOP];

	if (ns && cyc) {
		NL_SET_ERR_MSG_ATTR(extack, cyc,
				    "give stop_at_ns or stop_at_cycles, not both");
		return -EINVAL;
	}
	if (trace && !ns && !cyc) {
		NL_SET_ERR_MSG_ATTR(extack, trace,
				    "trace_stop needs stop_at_ns or stop_at_cycles");
		return -EINVAL;
	}
	if (trace && !IS_ENABLED(CONFIG_TRACING)) {
		NL_SET_ERR_MSG_ATTR(extack, trace,
				    "trace_stop needs a kernel with CONFIG_TRACING");
		return -EOPNOTSUPP;
	}
	if (cyc) {
		p->stop_at_cycles = nla_get_u64(cyc);
		p->stop_at_ns = tp_cycles_to_ns(p->stop_at_cycles);
	} else if (ns) {
		p->stop_at_ns = nla_get_u64(ns);
		p->stop_at_cycles = max(tp_ns_to_cycles(p->stop_at_ns), 1ULL);
	}
	if ((ns || cyc) && p->stop_at_cycles < p->threshold_cycles) {
		tp_set_err(extack, ns ?: cyc, "stop-at is below the threshold",
			   "%s is below the threshold (%llu cycles, %llu ns)",
			   ns ? "stop_at_ns" : "stop_at_cycles",
			   p->threshold_cycles, p->threshold_ns);
		return -EINVAL;
	}
	p->trace_stop = trace;
	return 0;
}

static int tp_noise_parse(struct tp_run *run, struct nlattr **attrs,
			  struct netlink_ext_ack *extack)
{
	struct tp_params *p = &run->params;
	int err;

	err = tp_nla_reject(attrs, tp_noise_attrs, "noise", extack);
	if (err)
		return err;
	p->duration_ns = tp_attr_u64(attrs, TSCPROBE_A_DURATION_NS,
				     TSCPROBE_DEFAULT_DURATION_NS);
	p->width_ns = tp_attr_u64(attrs, TSCPROBE_A_WIDTH_NS,
				  min(TSCPROBE_DEFAULT_WIDTH_NS, p->duration_ns));
	p->gap_ns = tp_attr_u64(attrs, TSCPROBE_A_GAP_NS,
				TSCPROBE_DEFAULT_GAP_NS);
	p->irqs = tp_attr_u32(attrs, TSCPROBE_A_IRQS, TSCPROBE_IRQS_OFF);
	p->clock = tp_attr_u32(attrs, TSCPROBE_A_CLOCK, TSCPROBE_CLOCK_LFENCE);
	p->warm_up_ns = tp_attr_u64(attrs, TSCPROBE_A_WARM_UP_NS, 0);
	if (p->width_ns > p->duration_ns) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TSCPROBE_A_WIDTH_NS],
				    "width_ns is longer than duration_ns");
		return -EINVAL;
	}
	if (p->clock == TSCPROBE_CLOCK_RDTSCP &&
	    !boot_cpu_has(X86_FEATURE_RDTSCP)) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TSCPROBE_A_CLOCK],
				    "this CPU has no rdtscp");
		return -EOPNOTSUPP;
	}
	err = tp_info_need_tsc_khz(extack);
	if (err)
		return err;
	err = tp_noise_parse_threshold(p, attrs, extack);
	if (err)
		return err;
	return tp_noise_parse_stop_at(p, attrs, extack);
}

static void tp_noise_explain(struct tp_noise *loop, struct tp_event *ev);
static void tp_noise_kept(struct tp_noise *loop, u32 slot);

/*
 * A CPU's state as before its first window; what it holds is kept:
 * @n->undo, @n->src and @n->smi_from.
 */
static void tp_noise_cpu_reset(struct tp_run *run, struct tp_noise_cpu *n,
			       unsigned int cpu)
{
	struct tp_noise_cpu *undo = n->undo;
	struct tp_src_here *src = n->src;
	struct tp_smi smi_from = n->smi_from;

	/*
	 * Copied whole at each window with --irqs on and at each snapshot;
	 * sparse flags copies above 100,000 bytes (-Wmemcpy-max-count),
	 * which only some kernels' configs show: fail on all of them.
	 */
	BUILD_BUG_ON(sizeof(*n) > 100000);
	memset(n, 0, sizeof(*n));
	tp_noise_init(&n->loop, run->params.threshold_cycles);
	n->loop.explain = tp_noise_explain;
	n->loop.kept = tp_noise_kept;
	n->run = run;
	n->cpu = cpu;
	n->undo = undo;
	n->src = src;
	n->smi_from = smi_from;
	tp_src_windows_init(&n->sources);
}

static int tp_noise_cpu_init(struct tp_run *run, struct tp_cpu *c)
{
	struct tp_noise_cpu *n = c->hot;

	tp_noise_cpu_reset(run, n, c->cpu);
	n->src = kvzalloc_node(sizeof(*n->src), GFP_KERNEL, cpu_to_node(c->cpu));
	if (!n->src)
		return -ENOMEM;
	tp_src_init(&n->src->src);
	if (run->params.irqs == TSCPROBE_IRQS_ON) {
		n->undo = kvmalloc_node(sizeof(*n), GFP_KERNEL,
					cpu_to_node(c->cpu));
		if (!n->undo)
			return -ENOMEM;
	}
	return 0;
}

static void tp_noise_free(struct tp_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_noise_cpu *n = run->slots[i].hot;

		if (n) {
			kvfree(n->undo);
			tp_src_free(n->src);
		}
	}
}

static bool tp_read_msr(u32 msr, u64 *value)
{
	return tp_rdmsr_safe(msr, value) == 0;
}

/*
 * The SMI count where it read once (an MSR's fault in the slow path costs
 * microseconds in a VM).  Steal time only in a guest with interrupts on:
 * it moves at the tick (tp_steal_ns()), so with interrupts off its 0
 * would be a lie.
 */
static u16 tp_noise_readable(const struct tp_params *p, bool smi_ok)
{
	u16 bits = TP_EVENT_NMI | TP_EVENT_IRQ;

	if (smi_ok)
		bits |= TP_EVENT_SMI;
	if (p->irqs == TSCPROBE_IRQS_ON &&
	    boot_cpu_has(X86_FEATURE_HYPERVISOR))
		bits |= TP_EVENT_STEAL;
	return bits;
}

/* Read what @n->readable names, on the measuring CPU (the slow path). */
static void tp_noise_read(struct tp_noise_cpu *n, struct tp_reading *r)
{
	if ((n->readable & TP_EVENT_SMI) &&
	    !tp_smi_read(&n->smi_from, &r->smi))
		n->readable &= ~TP_EVENT_SMI;
	r->nmi = tp_nmi_count(n->cpu);
	r->irq = tp_irq_count(n->cpu);
	if (n->readable & TP_EVENT_STEAL)
		r->steal = tp_steal_ns(n->cpu);
}

/*
 * What ran inside the gap that ended at @ev->tsc, from the probes' rings of
 * this CPU (on another, after a move with interrupts on, the window is
 * undone anyway).
 */
static void tp_noise_event_sources(struct tp_noise_cpu *n,
				   const struct tp_event *ev)
{
	n->ev_next.probed = 0;
	if (n->src_kinds && raw_smp_processor_id() == n->cpu)
		tp_src_event(&n->src->src, ev->tsc - ev->cycles, ev->tsc,
			     &n->sources.threads, &n->src->gap, &n->ev_next);
}

static void tp_noise_kept(struct tp_noise *loop, u32 slot)
{
	struct tp_noise_cpu *n = container_of(loop, struct tp_noise_cpu, loop);

	n->ev_src[slot] = n->ev_next;
}

/* The name of the largest source is looked up only while tracing. */
static void tp_noise_trace_event(const struct tp_noise_cpu *n,
				 const struct tp_event *ev)
{
	char top[TSCPROBE_SOURCE_NAME_LEN] = "";

	if (!trace_tscprobe_noise_event_enabled())
		return;
	if (n->ev_next.probed && n->ev_next.n)
		tp_noise_source_name(&n->ev_next.e[0], top, sizeof(top));
	trace_tscprobe_noise_event(n->cpu, ev, &n->ev_next, top);
}

/*
 * The counters' deltas since the previous reading.  Where the gap after
 * this one was an event too, a reading now would count both: this event
 * gets none (unknown, not 0) and the next one's span both gaps.
 */
static void tp_noise_event_counters(struct tp_noise_cpu *n,
				    struct tp_event *ev)
{
	struct tp_reading now = {};

	ev->valid = 0;
	if (n->loop.followed)
		return;
	tp_noise_read(n, &now);
	ev->valid = n->readable;
	if (ev->valid & TP_EVENT_SMI)
		ev->smi = (u32)(now.smi - n->prev.smi);
	ev->nmi = (u32)(now.nmi - n->prev.nmi);
	ev->irq = (u32)(now.irq - n->prev.irq);
	if (ev->valid & TP_EVENT_STEAL)
		ev->steal_ns = now.steal - n->prev.steal;
	n->prev = now;
}

/* The loop's slow path, on the measuring CPU inside the window. */
static void tp_noise_explain(struct tp_noise *loop, struct tp_event *ev)
{
	struct tp_noise_cpu *n = container_of(loop, struct tp_noise_cpu, loop);
	u64 stop_at = n->run->params.stop_at_cycles;

	tp_noise_event_counters(n, ev);
	tp_noise_event_sources(n, ev);
	ev->cause = tp_src_cause(&n->ev_next, tp_event_cause(ev));
	n->cause_events[ev->cause]++;
	n->cause_cycles[ev->cause] += ev->cycles;
	tp_noise_trace_event(n, ev);
	/* With interrupts on, a window moved away is discarded: so is this. */
	if (stop_at && !n->warming && ev->cycles >= stop_at &&
	    raw_smp_processor_id() == n->cpu)
		tp_run_stop_at(n->run, n->cpu, ev);
}

/* This may run off the CPU: the first SMI reading is in the first window. */
static void tp_noise_counters_begin(struct tp_noise_cpu *n,
				    const struct tp_params *p, unsigned int cpu)
{
	bool apm = boot_cpu_has(X86_FEATURE_APERFMPERF);
	u64 v;
	bool ok = tp_smi_read(&n->smi_from, &v);

	n->readable = tp_noise_readable(p, ok);
	tp_counter_begin(&n->smi, ok, v);
	tp_counter_begin(&n->nmi, true, tp_nmi_count(cpu));
	tp_counter_begin(&n->irq, true, tp_irq_count(cpu));
	tp_counter_begin(&n->aperf, apm, 0);
	tp_counter_begin(&n->mperf, apm, 0);
}

/* After a window: its SMI count was read inside it, on the CPU measured. */
static void tp_noise_counters_step(struct tp_noise_cpu *n, unsigned int cpu)
{
	tp_counter_step(&n->smi, n->smi_end_ok, n->smi_end, 32);
	tp_counter_step(&n->nmi, true, tp_nmi_count(cpu), 32);
	tp_counter_step(&n->irq, true, tp_irq_count(cpu), 32);
}

/* One window of a CPU: what its parts share (tp_noise_window_run()). */
struct tp_noise_win {
	struct tp_noise_cpu *n;
	const struct tp_params *p;
	u64 width;		/* cycles, at most */
	u64 span;		/* the CPU's duration, cycles */
	u64 start;		/* the window's start TSC */
	u64 samples;		/* the loop's before the window */
	u64 back;		/* the loop's TSC steps back before it */
	bool apm;		/* APERF/MPERF read at both ends */
	bool missed;		/* the CPU came past the start limit */
	u64 a0, m0, a1, m1;
};

/*
 * At the first window of the warm-up or of the measurement: too late
 * (tp_run_start_late())?  After a warm-up that started in time the
 * measurement may start a warm-up, a window it overran by and a gap
 * later: within the run's stated end (TSCPROBE_END_MARGIN_MS).
 */
static bool tp_noise_start_late(struct tp_cpu *c, const struct tp_noise_cpu *n,
				const struct tp_params *p)
{
	u64 after_ns = p->warm_up_ns + p->width_ns + p->gap_ns;

	return tp_run_start_late(c->run,
				 n->warming || !p->warm_up_ns ? 0 : after_ns);
}

/*
 * The window's start: the first starts the CPU's measurement and sets its
 * end, so the time a thread took to get there never counts against its
 * duration; none starts past that end.  The SMI count and APERF/MPERF are
 * read inside, so they describe the window and come from the CPU
 * measured.
 */
static bool tp_noise_window_begin(struct tp_cpu *c, void *arg, u64 start)
{
	struct tp_noise_win *w = arg;
	struct tp_noise_cpu *n = w->n;

	w->start = start;
	if (!n->windows) {
		w->missed = tp_noise_start_late(c, n, w->p);
		if (w->missed)
			return false;
		n->first_tsc = start;
		n->last_tsc = start;
		n->end_tsc = start + w->span;
		if (n->smi.ok)
			n->smi.ok = tp_smi_read(&n->smi_from, &n->smi.last);
	}
	if (start >= n->end_tsc) {
		/* The end came in the pause: the CPU was not measured since. */
		n->last_tsc = n->end_tsc;
		return false;
	}
	tp_src_window_begin(&n->sources, &n->src->src);
	if (w->apm)
		w->apm = tp_read_msr(MSR_IA32_APERF, &w->a0) &&
			 tp_read_msr(MSR_IA32_MPERF, &w->m0);
	/* The first event's deltas count from here. */
	tp_noise_read(n, &n->prev);
	return true;
}

/* The loop, for at most a width, never past the CPU's end. */
static void tp_noise_window_body(struct tp_cpu *c, void *arg, u64 start)
{
	struct tp_noise_win *w = arg;
	struct tp_noise_cpu *n = w->n;

	n->last_tsc = tp_noise_window(&n->loop, w->p->clock,
				      min(start + w->width, n->end_tsc));
}

static void tp_noise_window_end(struct tp_cpu *c, void *arg, u64 start)
{
	struct tp_noise_win *w = arg;
	struct tp_noise_cpu *n = w->n;
	u64 back = n->loop.step_back_cycles - w->back;

	/*
	 * A TSC step back ended the window: start and end move back with the
	 * clock (the end cannot wrap: a step is at most the TSC stepped from).
	 */
	n->first_tsc -= back;
	n->end_tsc -= back;
	if (w->apm)
		w->apm = tp_read_msr(MSR_IA32_APERF, &w->a1) &&
			 tp_read_msr(MSR_IA32_MPERF, &w->m1);
	n->smi_end_ok = tp_smi_read(&n->smi_from, &n->smi_end);
	tp_src_window_end(&n->sources, &n->src->src);
	trace_tscprobe_window(c->cpu, start, n->last_tsc,
			      n->loop.samples - w->samples, n->loop.max);
}

static const struct tp_window_ops tp_noise_window_ops = {
	.begin = tp_noise_window_begin,
	.body = tp_noise_window_body,
	.end = tp_noise_window_end,
};

/*
 * One window of at most @width cycles (tp_cpu_window() turns interrupts
 * off and on; with --irqs on the loop runs with them on, and a window
 * whose thread moved meanwhile is undone).  A CPU too late for its first
 * window is not measured.  Returns the start TSC, 0 if none.
 */
static u64 tp_noise_window_run(struct tp_cpu *c, struct tp_noise_cpu *n,
			       const struct tp_params *p, u64 width, u64 span,
			       u64 samples)
{
	bool irqs_on = p->irqs == TSCPROBE_IRQS_ON;
	struct tp_noise_win w = {
		.n = n,
		.p = p,
		.width = width,
		.span = span,
		.samples = samples,
		.back = n->loop.step_back_cycles,
		.apm = n->aperf.ok,
	};

	if (irqs_on)
		memcpy(n->undo, n, sizeof(*n));
	switch (tp_cpu_window(c, &tp_noise_window_ops, &w, irqs_on)) {
	case TP_WINDOW_MOVED:
		/*
		 * The old CPU's spill stays open (tp_src_window_begin()): its
		 * probes write it, and closing it from here would race them.
		 * Nothing reads it again; its probes stop with the CPU's end.
		 */
		memcpy(n, n->undo, sizeof(*n));
		return 0;
	case TP_WINDOW_NONE:
		if (w.missed)
			tp_cpu_start_missed(c);
		return 0;
	case TP_WINDOW_DONE:
		break;
	}
	n->windows++;
	n->aperf.ok = w.apm;
	n->mperf.ok = w.apm;
	if (w.apm) {
		n->aperf.delta += w.a1 - w.a0;
		n->mperf.delta += w.m1 - w.m0;
	}
	return w.start;
}

/* A window's kept events by their slots, which only this thread writes. */
struct tp_noise_batch {
	struct tp_notify_batch b;
	const struct tp_noise_cpu *n;
	u16 slot[TSCPROBE_EVENTS_PER_NOTIFICATION];
};

static int tp_noise_batch_put(struct sk_buff *skb,
			      const struct tp_notify_batch *b, unsigned int i,
			      bool named)
{
	const struct tp_noise_batch *nb =
		container_of(b, struct tp_noise_batch, b);
	u16 slot = nb->slot[i];

	return tp_noise_put_event(skb, &nb->n->loop.events.ev[slot],
				  &nb->n->ev_src[slot],
				  named ? &nb->n->sources.threads : NULL);
}

/*
 * The window's kept events, at most TSCPROBE_EVENTS_PER_NOTIFICATION, with
 * their sources; the rest, and any not delivered, count as not notified:
 * nothing is lost unseen.
 */
static void tp_noise_notify(struct tp_run *run, struct tp_cpu *c,
			    struct tp_noise_cpu *n, u64 since)
{
	struct tp_noise_batch nb = {
		.b.put = tp_noise_batch_put,
		.n = n,
	};
	const struct tp_events *e = &n->loop.events;
	u64 found = e->total - n->notified;
	unsigned int i, sent = 0;

	if (!found)
		return;
	n->notified = e->total;
	if (n->warming)
		return;
	for (i = 0; i < e->n && nb.b.n < ARRAY_SIZE(nb.slot); i++)
		if (e->ev[i].tsc > since)
			nb.slot[nb.b.n++] = i;
	if (nb.b.n)
		sent = tp_run_notify_events(run, c->cpu, &nb.b);
	n->not_notified += found - min(sent, nb.b.n);
}

/* A window, then with interrupts on its notification and counters. */
static u64 tp_noise_window_step(struct tp_run *run, struct tp_cpu *c,
				struct tp_noise_cpu *n, u64 width, u64 span)
{
	u64 run_max = n->loop.max, samples = n->loop.samples;
	u64 start;

	n->loop.max = 0;
	start = tp_noise_window_run(c, n, &run->params, width, span, samples);
	n->loop.max = max(run_max, n->loop.max);
	if (!start)
		return 0;
	tp_noise_notify(run, c, n, start);
	tp_noise_counters_step(n, c->cpu);
	return start;
}

/*
 * The warm-up: windows as the run's, for warm_up_ns from the first, that
 * notify nothing, stop nothing and are never published; then the CPU's
 * state is reset, and the run's duration starts at its next window.
 * False when the thread must stop or left its CPU.
 */
static bool tp_noise_warm_up(struct tp_run *run, struct tp_cpu *c, u64 width)
{
	u64 span = tp_ns_to_cycles(run->params.warm_up_ns);
	struct tp_noise_cpu *n = c->hot;

	if (!span)
		return true;
	n->warming = true;
	tp_noise_counters_begin(n, &run->params, c->cpu);
	while (!tp_cpu_should_stop(c) &&
	       tp_noise_window_step(run, c, n, width, span) &&
	       n->last_tsc < n->end_tsc)
		tp_cpu_sleep_gap(c);
	tp_noise_cpu_reset(run, n, c->cpu);
	return !tp_cpu_should_stop(c) && !tp_cpu_gone(c);
}

/*
 * Complete only if the CPU reached its end and measured something: one
 * whose every window the host took away is incomplete, not zero.
 */
static bool tp_noise_cpu_measure(struct tp_run *run, struct tp_cpu *c)
{
	const struct tp_params *p = &run->params;
	struct tp_noise_cpu *n = c->hot;
	u64 width = max(tp_ns_to_cycles(p->width_ns), 1ULL);
	u64 span = tp_ns_to_cycles(p->duration_ns);
	bool complete = false;
	u64 start;

	if (!tp_noise_warm_up(run, c, width))
		return false;
	tp_cpu_test_late(c, true);
	tp_noise_counters_begin(n, p, c->cpu);
	n->src_kinds = tp_src_kinds_probed();
	n->src->measurer = current;
	tp_src_publish(c->cpu, n->src);
	while (!tp_cpu_should_stop(c)) {
		start = tp_noise_window_step(run, c, n, width, span);
		if (!start) {
			/* Its end came, or it is no longer on its CPU. */
			complete = !tp_cpu_gone(c);
			break;
		}
		tp_cpu_publish(c, false);
		if (n->last_tsc >= n->end_tsc) {
			complete = true;
			break;
		}
		tp_cpu_sleep_gap(c);
	}
	tp_src_publish(c->cpu, NULL);
	return complete && n->loop.samples;
}

/*
 * The SMI counter is the CPU's only while it is measured: taken before the
 * first window, on the CPU, and given back however the measurement ended
 * (its end, STOP, the CPU going offline or starving).
 */
static bool tp_noise_cpu_main(struct tp_run *run, struct tp_cpu *c)
{
	struct tp_noise_cpu *n = c->hot;
	bool complete;

	tp_smi_open(&n->smi_from, c->cpu);
	complete = tp_noise_cpu_measure(run, c);
	tp_smi_close(&n->smi_from);
	return complete;
}

static const struct tp_measure_ops tp_noise_measure_ops = {
	.parse = tp_noise_parse,
	.cpu_init = tp_noise_cpu_init,
	.free = tp_noise_free,
	.cpu_main = tp_noise_cpu_main,
	.sources = true,
	.cpu_size = sizeof(struct tp_noise_cpu),
	.snap_size = sizeof(struct tp_noise_cpu),
};

const struct tp_kind tp_noise_kind = {
	.id = TSCPROBE_KIND_NOISE,
	.measure = &tp_noise_measure_ops,
	.report = &tp_noise_report_ops,
};
