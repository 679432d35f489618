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
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/msr.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "attrs.h"
#include "debugfs.h"
#include "info.h"
#include "irqs.h"
#include "kinds.h"
#include "run.h"
#include "core/counter.h"
#include "core/hist.h"
#include "core/names.h"
#include "core/noise.h"
#include "core/report.h"
#include "trace.h"

/* The counters an event's cause is read from. */
struct tp_reading {
	u64 smi;
	u64 nmi;
	u64 irq;
	u64 steal;
};

/* One CPU's noise state, working copy and snapshot alike. */
struct tp_noise_cpu {
	struct tp_noise loop;
	u64 windows;
	u64 first_tsc;
	u64 last_tsc;
	u64 end_tsc;			/* the run's duration after first_tsc */
	struct tp_counter smi;
	struct tp_counter nmi;
	struct tp_counter irq;		/* device, local timer, IPIs */
	struct tp_counter aperf;	/* over the windows only */
	struct tp_counter mperf;
	u64 notified;			/* events.total at the last EVENT */
	u64 not_notified;
	u64 cause_events[__TSCPROBE_CAUSE_MAX];
	u64 cause_cycles[__TSCPROBE_CAUSE_MAX];
	u16 readable;			/* TP_EVENT_*: what events carry here */
	struct tp_reading prev;		/* window start or previous event */
	u64 smi_end;			/* at the end of the last window */
	bool smi_end_ok;
	struct tp_run *run;		/* for stop-at */
	unsigned int cpu;
	struct tp_noise_cpu *undo;	/* irqs on: the state before a window */
};

static const unsigned long tp_noise_attrs[BITS_TO_LONGS(TSCPROBE_A_MAX + 1)] = {
	BIT(TSCPROBE_A_DURATION_NS) | BIT(TSCPROBE_A_IRQS) |
	BIT(TSCPROBE_A_WIDTH_NS) | BIT(TSCPROBE_A_GAP_NS) |
	BIT(TSCPROBE_A_THRESHOLD_NS) | BIT(TSCPROBE_A_THRESHOLD_CYCLES) |
	BIT(TSCPROBE_A_CLOCK) | BIT(TSCPROBE_A_STOP_AT_NS) |
	BIT(TSCPROBE_A_STOP_AT_CYCLES) | BIT(TSCPROBE_A_TRACE_STOP),
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

static int tp_noise_cpu_init(struct tp_run *run, struct tp_cpu *c)
{
	struct tp_noise_cpu *n = c->hot;

	tp_noise_init(&n->loop, run->params.threshold_cycles);
	n->loop.explain = tp_noise_explain;
	n->run = run;
	n->cpu = c->cpu;
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

		if (n)
			kvfree(n->undo);
	}
}

/* MSR_SMI_COUNT: 32 bits; not read under a hypervisor (info.c). */
static bool tp_read_smi(u64 *value)
{
	*value = 0;
	if (tp_info_smi_count_hidden())
		return false;
	return tp_rdmsr_safe(MSR_SMI_COUNT, value) == 0;
}

static bool tp_read_msr(u32 msr, u64 *value)
{
	return tp_rdmsr_safe(msr, value) == 0;
}

/*
 * The SMI count where the MSR read without a fault once (a fault in the
 * slow path costs microseconds in a VM).  Steal time only in a guest with
 * interrupts on: it moves at the tick (tp_steal_ns()), so with interrupts
 * off its 0 would be a lie.
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
	if ((n->readable & TP_EVENT_SMI) && !tp_read_smi(&r->smi))
		n->readable &= ~TP_EVENT_SMI;
	r->nmi = tp_nmi_count(n->cpu);
	r->irq = tp_irq_count(n->cpu);
	if (n->readable & TP_EVENT_STEAL)
		r->steal = tp_steal_ns(n->cpu);
}

/* The loop's slow path, on the measuring CPU inside the window. */
static void tp_noise_explain(struct tp_noise *loop, struct tp_event *ev)
{
	struct tp_noise_cpu *n = container_of(loop, struct tp_noise_cpu, loop);
	u64 stop_at = n->run->params.stop_at_cycles;
	struct tp_reading now = {};

	tp_noise_read(n, &now);
	ev->valid = n->readable;
	if (ev->valid & TP_EVENT_SMI)
		ev->smi = (u32)(now.smi - n->prev.smi);
	ev->nmi = (u32)(now.nmi - n->prev.nmi);
	ev->irq = (u32)(now.irq - n->prev.irq);
	if (ev->valid & TP_EVENT_STEAL)
		ev->steal_ns = now.steal - n->prev.steal;
	n->prev = now;
	ev->cause = tp_event_cause(ev);
	n->cause_events[ev->cause]++;
	n->cause_cycles[ev->cause] += ev->cycles;
	trace_tscprobe_noise_event(n->cpu, ev);
	/* With interrupts on, a window moved away is discarded: so is this. */
	if (stop_at && ev->cycles >= stop_at &&
	    raw_smp_processor_id() == n->cpu)
		tp_run_stop_at(n->run, n->cpu, ev);
}

/* This may run off the CPU: the first SMI reading is in the first window. */
static void tp_noise_counters_begin(struct tp_noise_cpu *n,
				    const struct tp_params *p, unsigned int cpu)
{
	bool apm = boot_cpu_has(X86_FEATURE_APERFMPERF);
	u64 v;
	bool ok = tp_read_smi(&v);

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

/*
 * One window of at most @width cycles, never past the CPU's end.  The
 * first starts the CPU's measurement and sets its end, so the time a
 * thread took to get there never counts against its duration.  APERF/MPERF
 * and the SMI count are read inside, so they describe the window and come
 * from the CPU measured (one moved away with interrupts on is undone).
 * Returns the start TSC, 0 if none.
 */
static u64 tp_noise_window_run(struct tp_cpu *c, struct tp_noise_cpu *n,
			       const struct tp_params *p, u64 width, u64 span,
			       u64 samples)
{
	bool irqs_on = p->irqs == TSCPROBE_IRQS_ON;
	u64 a0 = 0, m0 = 0, a1 = 0, m1 = 0, moves;
	u64 back = n->loop.step_back_cycles;
	bool apm = n->aperf.ok;
	u64 start;

	if (irqs_on)
		memcpy(n->undo, n, sizeof(*n));
	if (!tp_cpu_window_begin(c, &start))
		return 0;
	moves = current->se.nr_migrations;
	if (!n->windows) {
		n->first_tsc = start;
		n->last_tsc = start;
		n->end_tsc = start + span;
		if (n->smi.ok)
			n->smi.ok = tp_read_smi(&n->smi.last);
	}
	if (start >= n->end_tsc) {
		local_irq_enable();
		return 0;
	}
	if (apm)
		apm = tp_read_msr(MSR_IA32_APERF, &a0) &&
		      tp_read_msr(MSR_IA32_MPERF, &m0);
	/* The first event's deltas count from here. */
	tp_noise_read(n, &n->prev);
	if (irqs_on)
		local_irq_enable();
	n->last_tsc = tp_noise_window(&n->loop, p->clock,
				      min(start + width, n->end_tsc));
	if (irqs_on) {
		local_irq_disable();
		if (current->se.nr_migrations != moves || !tp_cpu_here(c)) {
			tp_cpu_moved(c);
			local_irq_enable();
			memcpy(n, n->undo, sizeof(*n));
			return 0;
		}
	}
	/*
	 * A TSC step back ended the window: start and end move back with the
	 * clock (the end cannot wrap: a step is at most the TSC stepped from).
	 */
	back = n->loop.step_back_cycles - back;
	n->first_tsc -= back;
	n->end_tsc -= back;
	if (apm)
		apm = tp_read_msr(MSR_IA32_APERF, &a1) &&
		      tp_read_msr(MSR_IA32_MPERF, &m1);
	n->smi_end_ok = tp_read_smi(&n->smi_end);
	trace_tscprobe_window(c->cpu, start, n->last_tsc,
			      n->loop.samples - samples, n->loop.max);
	local_irq_enable();
	n->windows++;
	n->aperf.ok = apm;
	n->mperf.ok = apm;
	if (apm) {
		n->aperf.delta += a1 - a0;
		n->mperf.delta += m1 - m0;
	}
	return start;
}

/*
 * The window's kept events, at most TSCPROBE_EVENTS_PER_NOTIFICATION; the
 * rest, and any not delivered, count as not notified: nothing is lost unseen.
 */
static void tp_noise_notify(struct tp_run *run, struct tp_cpu *c,
			    struct tp_noise_cpu *n, u64 since)
{
	struct tp_event ev[TSCPROBE_EVENTS_PER_NOTIFICATION];
	const struct tp_events *e = &n->loop.events;
	u64 found = e->total - n->notified;
	unsigned int i, k = 0, sent = 0;

	if (!found)
		return;
	n->notified = e->total;
	for (i = 0; i < e->n && k < ARRAY_SIZE(ev); i++)
		if (e->ev[i].tsc > since)
			ev[k++] = e->ev[i];
	if (k)
		sent = tp_run_notify_events(run, c->cpu, ev, k);
	n->not_notified += found - min(sent, k);
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
 * Complete only if the CPU reached its end and measured something: one
 * whose every window the host took away is incomplete, not zero.
 */
static bool tp_noise_cpu_main(struct tp_run *run, struct tp_cpu *c)
{
	const struct tp_params *p = &run->params;
	struct tp_noise_cpu *n = c->hot;
	u64 width = max(tp_ns_to_cycles(p->width_ns), 1ULL);
	u64 span = tp_ns_to_cycles(p->duration_ns);
	bool complete = false;
	u64 start;

	tp_noise_counters_begin(n, p, c->cpu);
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
		tp_cpu_sleep_gap(run);
	}
	return complete && n->loop.samples;
}

static int tp_noise_put_params(struct sk_buff *skb, const struct tp_run *run)
{
	const struct tp_params *p = &run->params;

	if (tp_nla_put_u64(skb, TSCPROBE_A_DURATION_NS, p->duration_ns) ||
	    nla_put_u32(skb, TSCPROBE_A_IRQS, p->irqs) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_WIDTH_NS, p->width_ns) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_GAP_NS, p->gap_ns) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_THRESHOLD_NS, p->threshold_ns) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_THRESHOLD_CYCLES,
			   p->threshold_cycles) ||
	    nla_put_u32(skb, TSCPROBE_A_CLOCK, p->clock))
		return -EMSGSIZE;
	if (p->stop_at_cycles &&
	    (tp_nla_put_u64(skb, TSCPROBE_A_STOP_AT_NS, p->stop_at_ns) ||
	     tp_nla_put_u64(skb, TSCPROBE_A_STOP_AT_CYCLES, p->stop_at_cycles) ||
	     (p->trace_stop && nla_put_flag(skb, TSCPROBE_A_TRACE_STOP))))
		return -EMSGSIZE;
	return 0;
}

static u64 tp_noise_wall(const struct tp_noise_cpu *n)
{
	return n->last_tsc - n->first_tsc;
}

/* An unreadable SMI count explains no event: its 0 is not "no SMI". */
static bool tp_noise_smi_cause_known(const struct tp_noise_cpu *n)
{
	return (n->readable & TP_EVENT_SMI) ||
	       n->cause_events[TSCPROBE_CAUSE_SMI];
}

/* Every cause, so that they add up; SMI only where it can be told. */
static int tp_noise_put_causes(struct sk_buff *skb,
			       const struct tp_noise_cpu *n)
{
	unsigned int k;

	for (k = TSCPROBE_CAUSE_SMI; k <= TSCPROBE_CAUSE_MAX; k++) {
		struct nlattr *nest;

		if (k == TSCPROBE_CAUSE_SMI && !tp_noise_smi_cause_known(n))
			continue;
		nest = nla_nest_start(skb, TSCPROBE_CPU_A_CAUSE);
		if (!nest || nla_put_u32(skb, TSCPROBE_CAUSE_A_ID, k) ||
		    tp_nla_put_u64(skb, TSCPROBE_CAUSE_A_EVENTS,
				   n->cause_events[k]) ||
		    tp_nla_put_u64(skb, TSCPROBE_CAUSE_A_CYCLES,
				   n->cause_cycles[k]))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* A CPU's final event counts in RUN_FINISHED, from its snapshot. */
static int tp_noise_put_final(struct sk_buff *skb, struct tp_cpu *c)
{
	const struct tp_noise_cpu *n = c->snap;
	int err = 0;

	mutex_lock(&c->lock);
	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_TOTAL,
			   n->loop.events.total) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED,
			   n->not_notified))
		err = -EMSGSIZE;
	mutex_unlock(&c->lock);
	return err;
}

/* The scalar part of a CPU: counts, coverage inputs, attribution. */
static int tp_noise_put_scalars(struct sk_buff *skb,
				const struct tp_noise_cpu *n)
{
	static const struct { int type; size_t off; } counters[] = {
		{ TSCPROBE_CPU_A_SMI_COUNT, offsetof(struct tp_noise_cpu, smi) },
		{ TSCPROBE_CPU_A_NMI_COUNT, offsetof(struct tp_noise_cpu, nmi) },
		{ TSCPROBE_CPU_A_IRQ_COUNT, offsetof(struct tp_noise_cpu, irq) },
		{ TSCPROBE_CPU_A_APERF, offsetof(struct tp_noise_cpu, aperf) },
		{ TSCPROBE_CPU_A_MPERF, offsetof(struct tp_noise_cpu, mperf) },
	};
	size_t i;

	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_WINDOWS, n->windows) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_MEASURED_CYCLES,
			   n->loop.measured) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_WALL_CYCLES, tp_noise_wall(n)) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_TOTAL,
			   n->loop.events.total) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_DROPPED,
			   n->loop.events.dropped) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED,
			   n->not_notified) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_TSC_STEPS_BACK,
			   n->loop.steps_back) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_TSC_STEP_BACK_MAX_CYCLES,
			   n->loop.step_back_max) ||
	    tp_noise_put_causes(skb, n))
		return -EMSGSIZE;
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		const struct tp_counter *k = (const void *)n + counters[i].off;

		/* An unreadable counter is absent, never 0. */
		if (k->ok && tp_nla_put_u64(skb, counters[i].type, k->delta))
			return -EMSGSIZE;
	}
	return 0;
}

/* About 100 bytes: TSCPROBE_MAX_RUN_CPUS CPUs fit one GET_STATUS reply. */
static int tp_noise_put_progress(struct sk_buff *skb, struct tp_cpu *c)
{
	const struct tp_noise_cpu *n = c->snap;
	struct nlattr *series;
	int err = -EMSGSIZE;

	mutex_lock(&c->lock);
	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_MEASURED_NS,
			   tp_cycles_to_ns(n->loop.measured)) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_WINDOWS, n->windows) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_TOTAL,
			   n->loop.events.total))
		goto out;
	series = nla_nest_start(skb, TSCPROBE_CPU_A_SERIES);
	if (!series ||
	    nla_put_u32(skb, TSCPROBE_SERIES_A_ID, TSCPROBE_SERIES_GAP) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_COUNT, n->loop.samples) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_MAXIMUM, n->loop.max))
		goto out;
	nla_nest_end(skb, series);
	err = 0;
out:
	mutex_unlock(&c->lock);
	return err;
}

/* The phases of a CPU's dump (see TP_POS()). */
enum { TP_NOISE_SCALARS, TP_NOISE_BUCKETS, TP_NOISE_EVENTS, TP_NOISE_END };

/* The gap series: statistics once, then non-empty buckets from *idx. */
static int tp_noise_put_series(struct sk_buff *skb,
			       const struct tp_noise_cpu *n, u32 *idx)
{
	const struct tp_noise *l = &n->loop;
	struct nlattr *nest;
	int err;

	nest = nla_nest_start(skb, TSCPROBE_CPU_A_SERIES);
	if (!nest || nla_put_u32(skb, TSCPROBE_SERIES_A_ID, TSCPROBE_SERIES_GAP))
		return -EMSGSIZE;
	if (*idx == 0 &&
	    (tp_nla_put_u64(skb, TSCPROBE_SERIES_A_COUNT, l->samples) ||
	     tp_nla_put_u64(skb, TSCPROBE_SERIES_A_SUM, l->measured) ||
	     (l->samples &&
	      (tp_nla_put_u64(skb, TSCPROBE_SERIES_A_MINIMUM, l->min) ||
	       tp_nla_put_u64(skb, TSCPROBE_SERIES_A_MAXIMUM, l->max))))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	err = tp_nla_put_buckets(skb, &l->hist, idx);
	nla_nest_end(skb, nest);
	return err;
}

static int tp_noise_put_events(struct sk_buff *skb,
			       const struct tp_noise_cpu *n, u32 *idx)
{
	const struct tp_events *e = &n->loop.events;

	for (; *idx < e->n; (*idx)++)
		if (tp_nla_put_event(skb, &e->ev[*idx]))
			return -EMSGSIZE;
	return 0;
}

static int tp_noise_dump_cpu(struct sk_buff *skb, struct tp_cpu *c,
			     void *snap, unsigned long *pos)
{
	const struct tp_noise_cpu *n = snap;
	unsigned int phase = TP_POS_PHASE(*pos);
	u32 idx = TP_POS_IDX(*pos);
	int err = 0;

	if (phase == TP_NOISE_SCALARS) {
		if (tp_noise_put_scalars(skb, n))
			return -EMSGSIZE;
		phase = TP_NOISE_BUCKETS;
		idx = 0;
	}
	if (phase == TP_NOISE_BUCKETS) {
		err = tp_noise_put_series(skb, n, &idx);
		if (!err) {
			phase = TP_NOISE_EVENTS;
			idx = 0;
		}
	}
	if (!err && phase == TP_NOISE_EVENTS) {
		err = tp_noise_put_events(skb, n, &idx);
		if (!err)
			phase = TP_NOISE_END;
	}
	*pos = TP_POS(phase, idx);
	return err;
}

/* "causes: smi=EVENTS/CYCLES ...": how much noise time each cause explains. */
static void tp_noise_show_causes(struct seq_file *m,
				 const struct tp_noise_cpu *n)
{
	unsigned int k;

	seq_puts(m, "  causes:");
	for (k = TSCPROBE_CAUSE_SMI; k <= TSCPROBE_CAUSE_MAX; k++)
		if (k == TSCPROBE_CAUSE_SMI && !tp_noise_smi_cause_known(n))
			seq_printf(m, " %s=-", tp_cause_name(k));
		else
			seq_printf(m, " %s=%llu/%llu", tp_cause_name(k),
				   n->cause_events[k], n->cause_cycles[k]);
	seq_puts(m, " (events/cycles)\n");
}

/* A counter delta of an event, or "-" when it could not be read. */
static void tp_show_delta(struct seq_file *m, const char *name, bool ok,
			  u64 v)
{
	if (ok)
		seq_printf(m, " %s=%llu", name, v);
	else
		seq_printf(m, " %s=-", name);
}

/* The kept events, in the set's order, each with its cause and deltas. */
static void tp_noise_show_events(struct seq_file *m,
				 const struct tp_noise_cpu *n)
{
	const struct tp_events *e = &n->loop.events;
	unsigned int i;

	for (i = 0; i < e->n; i++) {
		const struct tp_event *ev = &e->ev[i];

		seq_printf(m, "  event tsc=%llu cycles=%llu cause=%s", ev->tsc,
			   ev->cycles, tp_cause_name(ev->cause));
		tp_show_delta(m, "smi", ev->valid & TP_EVENT_SMI, ev->smi);
		tp_show_delta(m, "nmi", ev->valid & TP_EVENT_NMI, ev->nmi);
		tp_show_delta(m, "irq", ev->valid & TP_EVENT_IRQ, ev->irq);
		tp_show_delta(m, "steal_ns", ev->valid & TP_EVENT_STEAL,
			      ev->steal_ns);
		seq_putc(m, '\n');
	}
}

/* The log2 table for one CPU, preceded by a summary line. */
static void tp_noise_show_cpu(struct seq_file *m, const struct tp_cpu *c,
			      const void *snap)
{
	const struct tp_noise_cpu *n = snap;
	u64 calls[65], cycles[65];
	u64 cov = tp_per10k(n->loop.measured, tp_noise_wall(n));
	char row[256];
	unsigned int k;

	seq_printf(m, "cpu %u: samples=%llu coverage=%llu.%02llu%% min=%llu p50=%llu p99=%llu max=%llu events=%llu not_notified=%llu tsc_steps_back=%llu tsc_step_back_max=%llu%s\n",
		   c->cpu, n->loop.samples, cov / 100, cov % 100,
		   n->loop.samples ? n->loop.min : 0,
		   tp_hist_percentile(&n->loop.hist, 500000),
		   tp_hist_percentile(&n->loop.hist, 990000),
		   n->loop.max, n->loop.events.total, n->not_notified,
		   n->loop.steps_back, n->loop.step_back_max,
		   test_bit(TP_CPU_INCOMPLETE, &c->flags) ? " incomplete" : "");
	tp_noise_show_causes(m, n);
	tp_hist_fold_log2(&n->loop.hist, calls, cycles);
	for (k = 0; k < 65; k++) {
		if (!calls[k])
			continue;
		tp_log2_row(row, sizeof(row), k, calls[k], cycles[k],
			    n->loop.samples, n->loop.measured, tsc_khz);
		seq_printf(m, "  %s\n", row);
	}
	tp_noise_show_events(m, n);
}

static void tp_noise_show(struct seq_file *m, struct tp_run *run)
{
	seq_printf(m, "noise run %llu: %s, irqs %s, clock %s, cycles_hz=%llu\n",
		   run->id, tp_state_name(tp_run_state(run)),
		   tp_irqs_name(run->params.irqs),
		   tp_clock_name(run->params.clock), (u64)tsc_khz * 1000);
	tp_show_cpus(m, run, tp_noise_show_cpu);
}

const struct tp_kind_ops tp_noise_ops = {
	.kind = TSCPROBE_KIND_NOISE,
	.parse = tp_noise_parse,
	.cpu_init = tp_noise_cpu_init,
	.free = tp_noise_free,
	.cpu_main = tp_noise_cpu_main,
	.put_params = tp_noise_put_params,
	.put_progress = tp_noise_put_progress,
	.dump_cpu = tp_noise_dump_cpu,
	.cpu_size = sizeof(struct tp_noise_cpu),
	.snap_size = sizeof(struct tp_noise_cpu),
	.show = tp_noise_show,
	.put_final = tp_noise_put_final,
};
