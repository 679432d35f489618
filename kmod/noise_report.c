// SPDX-License-Identifier: GPL-2.0
/*
 * The noise measurement's report: its parameters, progress, CPU dumps and
 * final counts as netlink attributes, and its debugfs text.
 */
#include <linux/seq_file.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "attrs.h"
#include "cycles.h"
#include "debugfs.h"
#include "kinds.h"
#include "noise_kind.h"
#include "run.h"
#include "core/hist.h"
#include "core/names.h"
#include "core/report.h"

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
	    nla_put_u32(skb, TSCPROBE_A_CLOCK, p->clock) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_WARM_UP_NS, p->warm_up_ns))
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

/*
 * An unreadable SMI count explains no event: its 0 is not "no SMI"; nor
 * does an untraced kind: without the probes, 0 threads is not "none ran".
 */
static bool tp_noise_cause_known(const struct tp_noise_cpu *n, unsigned int k)
{
	if (n->cause_events[k])
		return true;
	switch (k) {
	case TSCPROBE_CAUSE_SMI:
		return n->readable & TP_EVENT_SMI;
	case TSCPROBE_CAUSE_THREAD:
		return n->src_kinds & BIT(TP_SRC_THREAD);
	case TSCPROBE_CAUSE_SOFTIRQ:
		return n->src_kinds & BIT(TP_SRC_SOFTIRQ);
	default:
		return true;
	}
}

/* Every cause that can be told, so that they add up. */
static int tp_noise_put_causes(struct sk_buff *skb,
			       const struct tp_noise_cpu *n)
{
	unsigned int k;

	for (k = TSCPROBE_CAUSE_SMI; k <= TSCPROBE_CAUSE_MAX; k++) {
		struct nlattr *nest;

		if (!tp_noise_cause_known(n, k))
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

/* The figures GET_STATUS and RUN_FINISHED send (tp_noise_progress()). */
enum {
	TP_NOISE_P_MEASURED_NS, TP_NOISE_P_WINDOWS, TP_NOISE_P_EVENTS,
	TP_NOISE_P_NOT_NOTIFIED, TP_NOISE_P_SAMPLES, TP_NOISE_P_MAX,
	TP_NOISE_P_COUNT
};

static_assert(TP_NOISE_P_COUNT <= TP_PROGRESS);

static void tp_noise_progress(const void *snap, u64 *v)
{
	const struct tp_noise_cpu *n = snap;

	v[TP_NOISE_P_MEASURED_NS] = tp_cycles_to_ns(n->loop.measured);
	v[TP_NOISE_P_WINDOWS] = n->windows;
	v[TP_NOISE_P_EVENTS] = n->loop.events.total;
	v[TP_NOISE_P_NOT_NOTIFIED] = n->not_notified;
	v[TP_NOISE_P_SAMPLES] = n->loop.samples;
	v[TP_NOISE_P_MAX] = n->loop.max;
}

/* A CPU's final event counts in RUN_FINISHED. */
static int tp_noise_put_final(struct sk_buff *skb, const u64 *v)
{
	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_TOTAL,
			   v[TP_NOISE_P_EVENTS]) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED,
			   v[TP_NOISE_P_NOT_NOTIFIED]))
		return -EMSGSIZE;
	return 0;
}

/* Where the SMI count sent came from: none when none is sent. */
static u32 tp_noise_smi_source(const struct tp_noise_cpu *n)
{
	return n->smi.ok ? n->smi_from.source : TSCPROBE_SMI_SOURCE_NONE;
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
	    nla_put_u32(skb, TSCPROBE_CPU_A_SMI_SOURCE,
			tp_noise_smi_source(n)) ||
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
static int tp_noise_put_progress(struct sk_buff *skb, const u64 *v)
{
	struct nlattr *series;

	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_MEASURED_NS,
			   v[TP_NOISE_P_MEASURED_NS]) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_WINDOWS, v[TP_NOISE_P_WINDOWS]) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_EVENTS_TOTAL,
			   v[TP_NOISE_P_EVENTS]))
		return -EMSGSIZE;
	series = nla_nest_start(skb, TSCPROBE_CPU_A_SERIES);
	if (!series ||
	    nla_put_u32(skb, TSCPROBE_SERIES_A_ID, TSCPROBE_SERIES_GAP) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_COUNT,
			   v[TP_NOISE_P_SAMPLES]) ||
	    tp_nla_put_u64(skb, TSCPROBE_SERIES_A_MAXIMUM, v[TP_NOISE_P_MAX]))
		return -EMSGSIZE;
	nla_nest_end(skb, series);
	return 0;
}

/* The phases of a CPU's dump (see TP_POS()). */
enum {
	TP_NOISE_SCALARS, TP_NOISE_SOURCES, TP_NOISE_BUCKETS, TP_NOISE_EVENTS,
	TP_NOISE_END
};

/* A source's name for the reader: an NMI's is its handler's function. */
void tp_noise_source_name(const struct tp_src_total *e, char *buf, size_t len)
{
	void *handler;

	if (e->key.kind != TP_SRC_NMI) {
		strscpy(buf, e->name, len);
		return;
	}
	handler = tp_src_nmi_handler(e->key.id);
	if (handler)
		snprintf(buf, len, "%ps", handler);
	else
		strscpy(buf, "other", len);
}

/*
 * An interrupt thread's source's thread: its pid and name from @th, the
 * list its key points into; where @th is NULL (the reader may not see
 * other tasks) only TSCPROBE_SOURCE_A_WITHHELD, which says there was one.
 */
static int tp_noise_put_thread(struct sk_buff *skb,
			       const struct tp_src_total *e,
			       const struct tp_src_threads *th)
{
	const struct tp_src_thread *t;

	if (!th)
		return nla_put_flag(skb, TSCPROBE_SOURCE_A_WITHHELD);
	t = tp_src_thread_of(th, &e->key);
	if (t && (nla_put_u32(skb, TSCPROBE_SOURCE_A_THREAD_PID, t->pid) ||
		  nla_put_string(skb, TSCPROBE_SOURCE_A_THREAD_NAME, t->comm)))
		return -EMSGSIZE;
	return 0;
}

/*
 * One nest of @type: a kind's totals (@e NULL) or a source's, with its
 * thread where it is an interrupt thread's (tp_noise_put_thread()).
 */
static int tp_noise_put_source(struct sk_buff *skb, int type, u32 kind,
			       const struct tp_src_total *e,
			       const struct tp_src_threads *th, u64 count,
			       u64 cycles)
{
	char name[TSCPROBE_SOURCE_NAME_LEN] = "other";
	struct nlattr *nest = nla_nest_start(skb, type);
	bool other = kind == TSCPROBE_SOURCE_OTHER;

	if (!nest || nla_put_u32(skb, TSCPROBE_SOURCE_A_KIND, kind))
		goto full;
	if (e) {
		if (!other)
			tp_noise_source_name(e, name, sizeof(name));
		if (nla_put_u32(skb, TSCPROBE_SOURCE_A_ID, other ? 0 : e->key.id) ||
		    nla_put_string(skb, TSCPROBE_SOURCE_A_NAME, name))
			goto full;
		if (!other && (e->key.flags & TP_SRC_VECTOR) &&
		    nla_put_flag(skb, TSCPROBE_SOURCE_A_VECTOR))
			goto full;
		if (!other && (e->key.flags & TP_SRC_THREADED) &&
		    tp_noise_put_thread(skb, e, th))
			goto full;
	}
	if (tp_nla_put_u64(skb, TSCPROBE_SOURCE_A_COUNT, count) ||
	    tp_nla_put_u64(skb, TSCPROBE_SOURCE_A_CYCLES, cycles))
		goto full;
	nla_nest_end(skb, nest);
	return 0;
full:
	if (nest)
		nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/*
 * What a reader who may not see other tasks (@th NULL) is told of the
 * threads among @e[0..@n): one THREAD source, @sum, that sums them,
 * without an id and a name (TSCPROBE_SOURCE_A_WITHHELD); nothing in it
 * (tp_src_total_any()) when none is among them.  Returns @sum for such a
 * reader, NULL for one who sees each thread.
 */
static const struct tp_src_total *
tp_noise_threads_sum(const struct tp_src_total *e, u32 n,
		     const struct tp_src_threads *th, struct tp_src_total *sum)
{
	u32 i;

	if (th)
		return NULL;
	memset(sum, 0, sizeof(*sum));
	sum->key.kind = TP_SRC_THREAD;
	for (i = 0; i < n; i++) {
		if (e[i].key.kind != TP_SRC_THREAD)
			continue;
		sum->count += e[i].count;
		sum->net += e[i].net;
	}
	return sum;
}

/*
 * The @nth source (from 0) of @e[0..@n), largest first, as the reader sees
 * them: each (@threads NULL), or the threads replaced by their sum
 * @threads, in its place by net time.  NULL past the last.
 */
static const struct tp_src_total *
tp_noise_nth_source(const struct tp_src_total *e, u32 n,
		    const struct tp_src_total *threads, u32 nth)
{
	bool placed = !threads || !tp_src_total_any(threads);
	u32 i;

	for (i = 0; i < n; i++) {
		if (threads && e[i].key.kind == TP_SRC_THREAD)
			continue;
		/* Before a source of as much time: THREAD sorts first. */
		if (!placed && threads->net >= e[i].net) {
			placed = true;
			if (nth-- == 0)
				return threads;
		}
		if (nth-- == 0)
			return &e[i];
	}
	return !placed && nth == 0 ? threads : NULL;
}

/*
 * A source as tp_noise_nth_source() lists it: the threads' sum @threads,
 * or one of the list, its interrupt thread named from @th (NULL: withheld).
 */
static int tp_noise_put_listed(struct sk_buff *skb, int type,
			       const struct tp_src_total *e,
			       const struct tp_src_threads *th,
			       const struct tp_src_total *threads)
{
	struct nlattr *nest;

	if (e != threads)
		return tp_noise_put_source(skb, type, e->key.kind, e, th,
					   e->count, e->net);
	nest = nla_nest_start(skb, type);
	if (!nest || nla_put_u32(skb, TSCPROBE_SOURCE_A_KIND, TP_SRC_THREAD) ||
	    nla_put_flag(skb, TSCPROBE_SOURCE_A_WITHHELD) ||
	    tp_nla_put_u64(skb, TSCPROBE_SOURCE_A_COUNT, e->count) ||
	    tp_nla_put_u64(skb, TSCPROBE_SOURCE_A_CYCLES, e->net)) {
		if (nest)
			nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The exact totals of each kind the probes traced on the CPU. */
static int tp_noise_put_source_kinds(struct sk_buff *skb,
				     const struct tp_noise_cpu *n)
{
	const struct tp_src_windows *w = &n->sources;
	unsigned int k;

	for (k = 0; k < TP_SRC_KINDS; k++)
		if ((n->src_kinds & BIT(k)) &&
		    tp_noise_put_source(skb, TSCPROBE_CPU_A_SOURCE_KIND, k, NULL,
					NULL, w->kind_count[k], w->kind_net[k]))
			return -EMSGSIZE;
	return tp_nla_put_u64(skb, TSCPROBE_CPU_A_SOURCES_LOST, w->lost);
}

/*
 * What ran inside the windows: at *@idx 0 the kinds, then the sources from
 * *@idx - 1 as tp_noise_nth_source() lists them (threads summed unless
 * @named), then other.  Sorted in the snapshot itself, under its lock: a
 * sorted table stays as it is, so the order holds from one message to the
 * next.  Nothing where no probe is attached: the sources are unknown.
 */
static int tp_noise_put_sources(struct sk_buff *skb, struct tp_noise_cpu *n,
				u32 *idx, bool named)
{
	const struct tp_src_threads *th = named ? &n->sources.threads : NULL;
	struct tp_src_table *t = &n->sources.table;
	const struct tp_src_total *e, *threads;
	struct tp_src_total sum;

	if (!n->src_kinds)
		return 0;
	tp_src_table_sort(t);
	threads = tp_noise_threads_sum(t->e, t->n, th, &sum);
	if (*idx == 0) {
		if (tp_noise_put_source_kinds(skb, n))
			return -EMSGSIZE;
		(*idx)++;
	}
	for (; (e = tp_noise_nth_source(t->e, t->n, threads, *idx - 1)); (*idx)++)
		if (tp_noise_put_listed(skb, TSCPROBE_CPU_A_SOURCE, e, th,
					threads))
			return -EMSGSIZE;
	e = &t->other;
	if (tp_src_total_any(e) &&
	    tp_noise_put_source(skb, TSCPROBE_CPU_A_SOURCE,
				TSCPROBE_SOURCE_OTHER, e, NULL, e->count,
				e->net))
		return -EMSGSIZE;
	return 0;
}

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

/*
 * What ran inside the event's gap, where the probes recorded it; the
 * threads summed where @th is NULL.
 */
static int tp_noise_put_event_sources(struct sk_buff *skb,
				      const struct tp_event_sources *s,
				      const struct tp_src_threads *th)
{
	const struct tp_src_total *e, *threads;
	struct tp_src_total sum;
	u32 i;

	if (!s->probed)
		return 0;
	threads = tp_noise_threads_sum(s->e, s->n, th, &sum);
	for (i = 0; (e = tp_noise_nth_source(s->e, s->n, threads, i)); i++)
		if (tp_noise_put_listed(skb, TSCPROBE_EVENT_A_SOURCE, e, th,
					threads))
			return -EMSGSIZE;
	e = &s->other;
	if (tp_src_total_any(e) &&
	    tp_noise_put_source(skb, TSCPROBE_EVENT_A_SOURCE,
				TSCPROBE_SOURCE_OTHER, e, NULL, e->count, e->net))
		return -EMSGSIZE;
	return tp_nla_put_u64(skb, TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES,
			      s->unexplained);
}

/**
 * tp_noise_put_event() - a noise event's nest, as GET_RESULT and the EVENT
 *	notifications carry it: its fields and what ran inside its gap
 * @skb: the message
 * @ev: the event
 * @s: its sources (not probed: none put)
 * @th: the interrupt threads its sources' keys point into (the CPU's);
 *	NULL for a reader who may not see other tasks: threads summed, and
 *	no interrupt thread named
 *
 * Return: 0, or -EMSGSIZE with nothing added.
 */
int tp_noise_put_event(struct sk_buff *skb, const struct tp_event *ev,
		       const struct tp_event_sources *s,
		       const struct tp_src_threads *th)
{
	struct nlattr *nest = nla_nest_start(skb, TSCPROBE_CPU_A_EVENT);

	if (!nest)
		return -EMSGSIZE;
	if (tp_nla_put_event_fields(skb, ev) ||
	    tp_noise_put_event_sources(skb, s, th)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int tp_noise_put_events(struct sk_buff *skb,
			       const struct tp_noise_cpu *n, u32 *idx,
			       bool named)
{
	const struct tp_src_threads *th = named ? &n->sources.threads : NULL;
	const struct tp_events *e = &n->loop.events;

	for (; *idx < e->n; (*idx)++)
		if (tp_noise_put_event(skb, &e->ev[*idx], &n->ev_src[*idx], th))
			return -EMSGSIZE;
	return 0;
}

static int tp_noise_dump_cpu(struct sk_buff *skb, struct tp_cpu *c,
			     void *snap, unsigned long *pos, bool named)
{
	struct tp_noise_cpu *n = snap;
	unsigned int phase = TP_POS_PHASE(*pos);
	u32 idx = TP_POS_IDX(*pos);
	int err = 0;

	if (phase == TP_NOISE_SCALARS) {
		if (tp_noise_put_scalars(skb, n))
			return -EMSGSIZE;
		phase = TP_NOISE_SOURCES;
		idx = 0;
	}
	if (phase == TP_NOISE_SOURCES) {
		err = tp_noise_put_sources(skb, n, &idx, named);
		if (!err) {
			phase = TP_NOISE_BUCKETS;
			idx = 0;
		}
	}
	if (!err && phase == TP_NOISE_BUCKETS) {
		err = tp_noise_put_series(skb, n, &idx);
		if (!err) {
			phase = TP_NOISE_EVENTS;
			idx = 0;
		}
	}
	if (!err && phase == TP_NOISE_EVENTS) {
		err = tp_noise_put_events(skb, n, &idx, named);
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
		if (!tp_noise_cause_known(n, k))
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

/*
 * A source as the reader knows it: "irq 24 virtio0-input", "irq vector
 * 236 local_timer", "irq 45 virtio0-requests (thread 812
 * irq/45-virtio0-r)".
 */
static void tp_noise_show_source(struct seq_file *m,
				 const struct tp_src_total *e,
				 const struct tp_src_threads *th)
{
	const struct tp_src_thread *t = tp_src_thread_of(th, &e->key);

	if (e->key.kind >= TP_SRC_KINDS) {
		seq_puts(m, "  source other:");
	} else if (e->key.kind == TP_SRC_NMI) {
		void *handler = tp_src_nmi_handler(e->key.id);

		if (handler)
			seq_printf(m, "  source nmi %ps:", handler);
		else
			seq_puts(m, "  source nmi other:");
	} else {
		seq_printf(m, "  source %s %s%u %s",
			   tp_source_name(e->key.kind),
			   e->key.flags & TP_SRC_VECTOR ? "vector " : "",
			   e->key.id, e->name);
		if (t)
			seq_printf(m, " (thread %u %s)", t->pid, t->comm);
		seq_putc(m, ':');
	}
	seq_printf(m, " count=%llu cycles=%llu\n", e->count, e->net);
}

/*
 * "sources: thread=COUNT/CYCLES ...": what ran inside the windows by kind,
 * then each source, largest first (sorted in place: @n is debugfs' own
 * copy of the snapshot).
 */
static void tp_noise_show_sources(struct seq_file *m, struct tp_noise_cpu *n)
{
	struct tp_src_windows *w = &n->sources;
	struct tp_src_table *t = &w->table;
	unsigned int k;

	seq_puts(m, "  sources:");
	for (k = 0; k < TP_SRC_KINDS; k++)
		seq_printf(m, " %s=%llu/%llu", tp_source_name(k),
			   w->kind_count[k], w->kind_net[k]);
	seq_printf(m, " lost=%llu unmatched=%llu (count/cycles)\n", w->lost,
		   n->src ? READ_ONCE(n->src->src.unmatched) : 0);
	tp_src_table_sort(t);
	for (k = 0; k < t->n; k++)
		tp_noise_show_source(m, &t->e[k], &w->threads);
	if (tp_src_total_any(&t->other))
		tp_noise_show_source(m, &t->other, &w->threads);
}

/* The log2 table for one CPU, preceded by a summary line. */
static void tp_noise_show_cpu(struct seq_file *m, const struct tp_cpu *c,
			      void *snap)
{
	struct tp_noise_cpu *n = snap;
	u64 calls[65], cycles[65];
	u64 cov = tp_per10k(n->loop.measured, tp_noise_wall(n));
	char row[256];
	unsigned int k;

	seq_printf(m, "cpu %u: samples=%llu coverage=%llu.%02llu%% min=%llu p50=%llu p99=%llu max=%llu events=%llu not_notified=%llu tsc_steps_back=%llu tsc_step_back_max=%llu smi_source=%s%s\n",
		   c->cpu, n->loop.samples, cov / 100, cov % 100,
		   n->loop.samples ? n->loop.min : 0,
		   tp_hist_percentile(&n->loop.hist, 500000),
		   tp_hist_percentile(&n->loop.hist, 990000),
		   n->loop.max, n->loop.events.total, n->not_notified,
		   n->loop.steps_back, n->loop.step_back_max,
		   tp_smi_source_name(tp_noise_smi_source(n)),
		   test_bit(TP_CPU_INCOMPLETE, &c->flags) ? " incomplete" : "");
	tp_noise_show_causes(m, n);
	tp_noise_show_sources(m, n);
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

const struct tp_report_ops tp_noise_report_ops = {
	.put_params = tp_noise_put_params,
	.progress = tp_noise_progress,
	.put_progress = tp_noise_put_progress,
	.dump_cpu = tp_noise_dump_cpu,
	.show = tp_noise_show,
	.put_final = tp_noise_put_final,
};
