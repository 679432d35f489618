/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's tracepoints (events/tscprobe/ in tracefs), for trace-cmd,
 * perf and bpftrace: every noise event with its cause and its largest
 * source, every noise and
 * cache window and skew side, and the start and end of every run.  Defined
 * once, in trace.c.
 *
 * Where they fire: tscprobe_noise_event on the noise loop's slow path
 * (interrupts off inside a window, only for a gap at or above the
 * threshold: a disabled tracepoint is a patched-out jump there);
 * tscprobe_window, tscprobe_cache_window and tscprobe_skew_side at the end
 * of a window or side that counts, interrupts still off, after its last
 * TSC read: on the CPU it is booked to, which the trace's own CPU column
 * confirms; the run events from the run machinery, in process context.  A
 * counter delta the CPU cannot read is -1, never 0 (the netlink attribute
 * is absent).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tscprobe

#if !defined(TSCPROBE_KMOD_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define TSCPROBE_KMOD_TRACE_H

#include <linux/tracepoint.h>

#include "core/noise.h"
#include "core/sources.h"

TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_NONE);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_SMI);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_NMI);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_IRQ);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_STEAL);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_UNEXPLAINED);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_THREAD);
TRACE_DEFINE_ENUM(TSCPROBE_CAUSE_SOFTIRQ);
TRACE_DEFINE_ENUM(TSCPROBE_SOURCE_THREAD);
TRACE_DEFINE_ENUM(TSCPROBE_SOURCE_SOFTIRQ);
TRACE_DEFINE_ENUM(TSCPROBE_SOURCE_IRQ);
TRACE_DEFINE_ENUM(TSCPROBE_SOURCE_NMI);

#ifndef TSCPROBE_KMOD_TRACE_HELPERS
#define TSCPROBE_KMOD_TRACE_HELPERS
/* An event's counter delta, or -1 when it could not be read. */
static inline s64 tp_trace_delta(const struct tp_event *ev, unsigned int bit,
				 u64 value)
{
	return (ev->valid & bit) ? (s64)value : -1LL;
}

/* An event's largest source's kind, or that there was none, or no probe. */
#define TP_TRACE_SOURCE_NONE		(TSCPROBE_SOURCE_OTHER + 1)
#define TP_TRACE_SOURCE_UNTRACED	(TSCPROBE_SOURCE_OTHER + 2)

static inline unsigned int tp_trace_top_kind(const struct tp_event_sources *s)
{
	if (!s->probed)
		return TP_TRACE_SOURCE_UNTRACED;
	return s->n ? s->e[0].key.kind : TP_TRACE_SOURCE_NONE;
}
#endif

/*
 * @s: what ran inside the gap; @top_name: the name of its largest source,
 * if any (an NMI's is its handler's, looked up only while tracing).
 */
TRACE_EVENT(tscprobe_noise_event,

	TP_PROTO(unsigned int cpu, const struct tp_event *ev,
		 const struct tp_event_sources *s, const char *top_name),

	TP_ARGS(cpu, ev, s, top_name),

	TP_STRUCT__entry(
		__field(unsigned int, cpu)
		__field(unsigned int, cause)
		__field(u64, tsc)
		__field(u64, cycles)
		__field(s64, smi)
		__field(s64, nmi)
		__field(s64, irq)
		__field(s64, steal_ns)
		__field(unsigned int, source)
		__field(u32, source_id)
		__field(u64, source_cycles)
		__field(s64, unexplained_cycles)
		__array(char, source_name, TSCPROBE_SOURCE_NAME_LEN)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->cause = ev->cause;
		__entry->tsc = ev->tsc;
		__entry->cycles = ev->cycles;
		__entry->smi = tp_trace_delta(ev, TP_EVENT_SMI, ev->smi);
		__entry->nmi = tp_trace_delta(ev, TP_EVENT_NMI, ev->nmi);
		__entry->irq = tp_trace_delta(ev, TP_EVENT_IRQ, ev->irq);
		__entry->steal_ns = tp_trace_delta(ev, TP_EVENT_STEAL,
						   ev->steal_ns);
		__entry->source = tp_trace_top_kind(s);
		__entry->source_id = s->probed && s->n ? s->e[0].key.id : 0;
		__entry->source_cycles = s->probed && s->n ? s->e[0].net : 0;
		__entry->unexplained_cycles = s->probed ? (s64)s->unexplained :
					      -1LL;
		strscpy(__entry->source_name, top_name ?: "",
			TSCPROBE_SOURCE_NAME_LEN);
	),

	TP_printk("cpu=%u tsc=%llu cycles=%llu cause=%s smi=%lld nmi=%lld irq=%lld steal_ns=%lld source=%s source_id=%u source_cycles=%llu unexplained_cycles=%lld source_name=%s",
		  __entry->cpu, __entry->tsc, __entry->cycles,
		  __print_symbolic(__entry->cause,
				   { TSCPROBE_CAUSE_NONE, "none" },
				   { TSCPROBE_CAUSE_SMI, "smi" },
				   { TSCPROBE_CAUSE_NMI, "nmi" },
				   { TSCPROBE_CAUSE_IRQ, "irq" },
				   { TSCPROBE_CAUSE_STEAL, "steal" },
				   { TSCPROBE_CAUSE_UNEXPLAINED, "unexplained" },
				   { TSCPROBE_CAUSE_THREAD, "thread" },
				   { TSCPROBE_CAUSE_SOFTIRQ, "softirq" }),
		  __entry->smi, __entry->nmi, __entry->irq, __entry->steal_ns,
		  __print_symbolic(__entry->source,
				   { TSCPROBE_SOURCE_THREAD, "thread" },
				   { TSCPROBE_SOURCE_SOFTIRQ, "softirq" },
				   { TSCPROBE_SOURCE_IRQ, "irq" },
				   { TSCPROBE_SOURCE_NMI, "nmi" },
				   { TP_TRACE_SOURCE_NONE, "none" },
				   { TP_TRACE_SOURCE_UNTRACED, "n/a" }),
		  __entry->source_id, __entry->source_cycles,
		  __entry->unexplained_cycles, __entry->source_name)
);

TRACE_EVENT(tscprobe_window,

	TP_PROTO(unsigned int cpu, u64 start_tsc, u64 end_tsc, u64 samples,
		 u64 max_cycles),

	TP_ARGS(cpu, start_tsc, end_tsc, samples, max_cycles),

	TP_STRUCT__entry(
		__field(unsigned int, cpu)
		__field(u64, start_tsc)
		__field(u64, end_tsc)
		__field(u64, samples)
		__field(u64, max_cycles)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->start_tsc = start_tsc;
		__entry->end_tsc = end_tsc;
		__entry->samples = samples;
		__entry->max_cycles = max_cycles;
	),

	TP_printk("cpu=%u start_tsc=%llu end_tsc=%llu samples=%llu max_cycles=%llu",
		  __entry->cpu, __entry->start_tsc, __entry->end_tsc,
		  __entry->samples, __entry->max_cycles)
);

TRACE_EVENT(tscprobe_cache_window,

	TP_PROTO(unsigned int cpu, u64 start_tsc, u64 end_tsc, u64 units),

	TP_ARGS(cpu, start_tsc, end_tsc, units),

	TP_STRUCT__entry(
		__field(unsigned int, cpu)
		__field(u64, start_tsc)
		__field(u64, end_tsc)
		__field(u64, units)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->start_tsc = start_tsc;
		__entry->end_tsc = end_tsc;
		__entry->units = units;
	),

	TP_printk("cpu=%u start_tsc=%llu end_tsc=%llu units=%llu",
		  __entry->cpu, __entry->start_tsc, __entry->end_tsc,
		  __entry->units)
);

TRACE_EVENT(tscprobe_skew_side,

	TP_PROTO(unsigned int cpu, unsigned int side, int end),

	TP_ARGS(cpu, side, end),

	TP_STRUCT__entry(
		__field(unsigned int, cpu)
		__field(unsigned int, side)
		__field(int, end)
	),

	TP_fast_assign(
		__entry->cpu = cpu;
		__entry->side = side;
		__entry->end = end;
	),

	/* enum tp_skew_end (core/skew.h) */
	TP_printk("cpu=%u side=%s end=%s", __entry->cpu,
		  __entry->side ? "slave" : "master",
		  __print_symbolic(__entry->end, { 0, "ok" }, { 1, "timeout" },
				   { 2, "aborted" }))
);

TRACE_EVENT(tscprobe_run_start,

	TP_PROTO(u64 id, unsigned int kind, unsigned int nr_cpus,
		 u64 threshold_cycles, u64 stop_at_cycles, u64 start_tsc),

	TP_ARGS(id, kind, nr_cpus, threshold_cycles, stop_at_cycles,
		start_tsc),

	TP_STRUCT__entry(
		__field(u64, id)
		__field(unsigned int, kind)
		__field(unsigned int, nr_cpus)
		__field(u64, threshold_cycles)
		__field(u64, stop_at_cycles)
		__field(u64, start_tsc)
	),

	TP_fast_assign(
		__entry->id = id;
		__entry->kind = kind;
		__entry->nr_cpus = nr_cpus;
		__entry->threshold_cycles = threshold_cycles;
		__entry->stop_at_cycles = stop_at_cycles;
		__entry->start_tsc = start_tsc;
	),

	TP_printk("id=%llu kind=%u nr_cpus=%u threshold_cycles=%llu stop_at_cycles=%llu start_tsc=%llu",
		  __entry->id, __entry->kind, __entry->nr_cpus,
		  __entry->threshold_cycles, __entry->stop_at_cycles,
		  __entry->start_tsc)
);

TRACE_EVENT(tscprobe_run_end,

	TP_PROTO(u64 id, unsigned int kind, unsigned int state,
		 unsigned int reason),

	TP_ARGS(id, kind, state, reason),

	TP_STRUCT__entry(
		__field(u64, id)
		__field(unsigned int, kind)
		__field(unsigned int, state)
		__field(unsigned int, reason)
	),

	TP_fast_assign(
		__entry->id = id;
		__entry->kind = kind;
		__entry->state = state;
		__entry->reason = reason;
	),

	TP_printk("id=%llu kind=%u state=%u reason=%u",
		  __entry->id, __entry->kind, __entry->state, __entry->reason)
);

#endif /* TSCPROBE_KMOD_TRACE_H */

/* Out of tree: define_trace.h finds this file through -I$(src) (Kbuild). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
