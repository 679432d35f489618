// SPDX-License-Identifier: GPL-2.0
/*
 * A noise event and a source of noise, as the report model and the live
 * output (live.c) show them: an event's cause and counter deltas, what ran
 * inside its gap, and a source's count and time.
 */
#include <stdio.h>

#include "user/lib/cli.h"
#include "user/lib/format.h"
#include "core/names.h"
#include "core/report.h"
#include "user/lib/event_report.h"
#include "user/lib/model.h"

/**
 * tp_counter_text() - a counter in text: "smi 3", or "smi n/a" where it
 *	could not be read (never 0 for that)
 * @f: where to
 * @lead: what goes before the name
 * @name: its name
 * @k: the counter
 */
void tp_counter_text(FILE *f, const char *lead, const char *name,
		     const struct tp_counter_res *k)
{
	if (k->ok)
		fprintf(f, "%s%s %llu", lead, name, (unsigned long long)k->v);
	else
		fprintf(f, "%s%s n/a", lead, name);
}

/**
 * tp_event_counters_text() - an event's counter deltas, "smi N nmi N ..."
 * @f: where to
 * @lead: what goes before the first name (the others are spaced)
 * @e: the event
 */
void tp_event_counters_text(FILE *f, const char *lead,
			    const struct tp_event_res *e)
{
	tp_counter_text(f, lead, "smi", &e->smi);
	tp_counter_text(f, " ", "nmi", &e->nmi);
	tp_counter_text(f, " ", "irq", &e->irq);
	tp_counter_text(f, " ", "steal_ns", &e->steal_ns);
}

/**
 * tp_event_cause_model() - an event's cause and counter deltas: null where
 *	none was given or a counter was unreadable
 * @m: the model, the event's object open
 * @e: the event
 */
void tp_event_cause_model(struct tp_model *m, const struct tp_event_res *e)
{
	if (e->has_cause)
		tp_str(m, "cause", tp_cause_name(e->cause), NULL);
	else
		tp_null(m, "cause", NULL);
	tp_counter(m, "smi", &e->smi, NULL);
	tp_counter(m, "nmi", &e->nmi, NULL);
	tp_counter(m, "irq", &e->irq, NULL);
	tp_counter(m, "steal_ns", &e->steal_ns, NULL);
}

/* The threads the module summed for a reader who may not see them. */
static bool tp_source_summed(const struct tp_source_res *s)
{
	return s->withheld && s->kind == TSCPROBE_SOURCE_THREAD;
}

/*
 * "irq 4 ttyS0", "irq vector 236 local_timer" (a system vector, no IRQ
 * number), "irq 45 virtio0-requests (thread 812 irq/45-virtio0-r)" (the
 * handler's thread), "softirq 1 TIMER", "nmi nmi_cpu_backtrace_handler",
 * "irq LOC" (a row of /proc/interrupts without a number), "other"; for a
 * reader without CAP_NET_ADMIN "threads (names need CAP_NET_ADMIN)" and
 * "irq 45 virtio0-requests (thread: name needs CAP_NET_ADMIN)".
 */
void tp_source_label(const struct tp_source_res *s, char *buf, size_t len)
{
	int n;

	if (tp_source_summed(s)) {
		snprintf(buf, len, TP_THREADS_WITHHELD);
		return;
	}
	if (s->kind == TSCPROBE_SOURCE_OTHER) {
		snprintf(buf, len, "%s", tp_source_name(s->kind));
		return;
	}
	if (s->kind == TSCPROBE_SOURCE_NMI || s->no_id)
		n = snprintf(buf, len, "%s %s", tp_source_name(s->kind), s->name);
	else
		n = snprintf(buf, len, "%s %s%u%s%s", tp_source_name(s->kind),
			     s->vector ? "vector " : "", s->id,
			     *s->name ? " " : "", s->name);
	if (!s->threaded || n < 0 || (size_t)n >= len)
		return;
	if (s->withheld)
		snprintf(buf + n, len - (size_t)n, TP_THREAD_WITHHELD);
	else
		snprintf(buf + n, len - (size_t)n, " (thread %u %s)", s->pid,
			 s->thread);
}

/**
 * tp_source_figures_model() - a source's "count", "cycles" and "ns"
 * @m: the model, the source's object open
 * @khz: the TSC rate (0: unknown)
 * @s: the source
 * @known: its figures are known (else all three are unknown)
 * @timed: its time is known (the userspace engine's counts have none)
 * @count: the count's options (NULL: none)
 * @ns: the ns' options (NULL: none); unknown where the TSC rate is
 */
void tp_source_figures_model(struct tp_model *m, uint32_t khz,
			     const struct tp_source_res *s, bool known,
			     bool timed, const struct tp_opts *count,
			     const struct tp_opts *ns)
{
	if (known)
		tp_u64(m, "count", s->count, count);
	else
		tp_null(m, "count", count);
	if (!known || !timed) {
		tp_null(m, "cycles", NULL);
		tp_null(m, "ns", ns);
		return;
	}
	tp_u64(m, "cycles", s->cycles, NULL);
	if (khz)
		tp_u64(m, "ns", tp_cycles_to_ns_round(s->cycles, khz), ns);
	else
		tp_null(m, "ns", ns);
}

/*
 * One source of a "named" array; "id" null where it has no number,
 * "vector" true where it is a system vector's, "thread" the interrupt
 * thread's pid and name where the handler ran in it, else null.  For a
 * reader without CAP_NET_ADMIN "withheld" is true on what the module did
 * not name: the threads summed (no id, no name) and an interrupt's
 * thread (its pid and name null).
 */
void tp_source_model(struct tp_model *m, uint32_t khz,
		     const struct tp_source_res *s, bool untimed)
{
	bool summed = tp_source_summed(s);

	tp_obj(m, NULL);
	tp_str(m, "kind", tp_source_name(s->kind), NULL);
	if (s->no_id || summed)
		tp_null(m, "id", NULL);
	else
		tp_u64(m, "id", s->id, NULL);
	tp_bool(m, "vector", s->vector, NULL);
	if (summed)
		tp_null(m, "name", NULL);
	else
		tp_str(m, "name", s->name, NULL);
	if (s->threaded && s->withheld) {
		tp_obj(m, "thread");
		tp_null(m, "pid", NULL);
		tp_null(m, "name", NULL);
		tp_end(m);
	} else if (s->threaded) {
		tp_obj(m, "thread");
		tp_u64(m, "pid", s->pid, NULL);
		tp_str(m, "name", s->thread, NULL);
		tp_end(m);
	} else {
		tp_null(m, "thread", NULL);
	}
	tp_bool(m, "withheld", s->withheld, NULL);
	tp_source_figures_model(m, khz, s, true, !untimed, NULL, NULL);
	tp_end(m);
}

/**
 * tp_event_sources_text() - what ran inside an event's gap, for its line
 *	of the events list: "; ran irq vector 236 local_timer 9.1us, ...; unexplained
 *	1.2us", nothing where the module named none
 * @tsc_khz: the TSC rate (0: unknown, the times are in cycles)
 * @e: the event
 * @f: where to
 */
void tp_event_sources_text(uint32_t tsc_khz, const struct tp_event_res *e,
			   FILE *f)
{
	char t[32], label[TP_SOURCE_LABEL];
	unsigned int i;

	if (!e->has_sources)
		return;
	fprintf(f, "; ran");
	for (i = 0; i < e->nsources; i++) {
		const struct tp_source_res *s = &e->sources[i];

		tp_source_label(s, label, sizeof(label));
		tp_format_cycles(s->cycles, tsc_khz, t, sizeof(t));
		fprintf(f, "%s %s %s", i ? "," : "", label, t);
		if (s->count > 1)
			fprintf(f, " x%llu", (unsigned long long)s->count);
	}
	if (!e->nsources)
		fprintf(f, " nothing named");
	tp_format_cycles(e->unexplained_cycles, tsc_khz, t, sizeof(t));
	fprintf(f, "; unexplained %s", t);
}

/**
 * tp_event_sources_model() - an event's "sources": null where the module
 *	named none, else "unexplained_cycles", "unexplained_ns" and "named"
 *	(largest first, the last perhaps "other")
 * @m: the model, the event's object open
 * @tsc_khz: the TSC rate (0: unknown, the ns are null)
 * @e: the event
 */
void tp_event_sources_model(struct tp_model *m, uint32_t tsc_khz,
			    const struct tp_event_res *e)
{
	unsigned int i;

	if (!e->has_sources) {
		tp_null(m, "sources", NULL);
		return;
	}
	tp_obj(m, "sources");
	tp_u64(m, "unexplained_cycles", e->unexplained_cycles, NULL);
	if (tsc_khz)
		tp_u64(m, "unexplained_ns",
		       tp_cycles_to_ns_round(e->unexplained_cycles, tsc_khz), NULL);
	else
		tp_null(m, "unexplained_ns", NULL);
	tp_arr(m, "named");
	for (i = 0; i < e->nsources; i++)
		tp_source_model(m, tsc_khz, &e->sources[i], false);
	tp_end(m);
	tp_end(m);
}
