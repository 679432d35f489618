// SPDX-License-Identifier: GPL-2.0
/*
 * Notifications of the events group printed as they arrive (decode.c
 * decodes them).
 *
 * A text line per event: the run, the time since the run's start, the CPU,
 * the gap in cycles and time, its cause, the counter deltas and what ran
 * inside the gap where the module's probes named it; a JSON object per
 * line with -j.  A counter the module could not read is "n/a"
 * in text and null in JSON, never 0.
 */
#include <stdlib.h>
#include <string.h>

#include "user/lib/event_report.h"
#include "user/lib/format.h"
#include "user/lib/model.h"
#include "user/lib/live.h"
#include "core/names.h"
#include "core/report.h"

void tp_live_init(struct tp_live *l, FILE *f, bool json)
{
	memset(l, 0, sizeof(*l));
	l->f = f;
	l->json = json;
}

/**
 * tp_live_begin() - follow a run: its start, and fresh per-CPU counts
 * @l: the printer
 * @run_id: the run
 * @start_tsc: its TSC at start (0: unknown)
 * @tsc_khz: its TSC rate (0: unknown)
 */
void tp_live_begin(struct tp_live *l, uint64_t run_id, uint64_t start_tsc,
		   uint32_t tsc_khz)
{
	l->run_id = run_id;
	l->start_tsc = start_tsc;
	l->tsc_khz = tsc_khz;
	l->ncpus = 0;
}

void tp_live_free(struct tp_live *l)
{
	free(l->cpu);
	l->cpu = NULL;
	l->ncpus = l->cap = 0;
}

static struct tp_live_cpu *tp_live_cpu(struct tp_live *l, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < l->ncpus; i++)
		if (l->cpu[i].cpu == cpu)
			return &l->cpu[i];
	if (l->ncpus == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		l->cpu = realloc(l->cpu, l->cap * sizeof(*l->cpu));
		if (!l->cpu) {
			tp_err("out of memory");
			exit(TP_EXIT_FAIL);
		}
	}
	l->cpu[l->ncpus].cpu = cpu;
	l->cpu[l->ncpus].received = 0;
	return &l->cpu[l->ncpus++];
}

/**
 * tp_live_received() - events of the followed run received from a CPU
 * @l: the printer
 * @cpu: the CPU
 *
 * Return: the count (0 when none came).
 */
uint64_t tp_live_received(const struct tp_live *l, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < l->ncpus; i++)
		if (l->cpu[i].cpu == cpu)
			return l->cpu[i].received;
	return 0;
}

/* One event of a notification, counted when it is the run's, and printed. */
static void tp_live_event(uint64_t run_id, const struct tp_cpu_event *ev,
			  void *arg)
{
	struct tp_live *l = arg;

	if (run_id == l->run_id)
		tp_live_cpu(l, ev->cpu)->received++;
	tp_live_print_event(l, run_id, ev);
}

/**
 * tp_live_events() - print the events of an EVENT notification
 * @l: the printer; the events of its run are counted per CPU
 * @nlh: the notification
 *
 * Return: the events printed, or -1 when the message is malformed.
 */
int tp_live_events(struct tp_live *l, const struct nlmsghdr *nlh)
{
	return tp_notification_each_event(nlh, tp_live_event, l);
}

/* The TSC rate of @run_id's events, 0 when not known. */
static uint32_t tp_live_khz(const struct tp_live *l, uint64_t run_id)
{
	return run_id == l->run_id ? l->tsc_khz : 0;
}

/* Nanoseconds from cycles, when the rate is known. */
static bool tp_live_ns(const struct tp_live *l, uint64_t run_id,
		       uint64_t cycles, uint64_t *ns)
{
	uint32_t khz = tp_live_khz(l, run_id);

	if (!khz)
		return false;
	*ns = tp_cycles_to_ns_round(cycles, khz);
	return true;
}

/* Time since the run's start, when it is known. */
static bool tp_live_offset(const struct tp_live *l, uint64_t run_id,
			   uint64_t tsc, uint64_t *ns)
{
	if (!l->start_tsc || tsc < l->start_tsc)
		return false;
	return tp_live_ns(l, run_id, tsc - l->start_tsc, ns);
}

static void tp_live_event_text(const struct tp_live *l, uint64_t run_id,
			       const struct tp_cpu_event *ev)
{
	const struct tp_event_res *e = &ev->e;
	char at[32] = "?", len[32] = "?";
	uint64_t ns;

	if (tp_live_offset(l, run_id, e->tsc, &ns))
		snprintf(at, sizeof(at), "%llu.%06llus",
			 (unsigned long long)(ns / 1000000000ULL),
			 (unsigned long long)(ns % 1000000000ULL / 1000));
	if (tp_live_ns(l, run_id, e->cycles, &ns))
		tp_format_ns(ns, len, sizeof(len));
	fprintf(l->f, "run %llu +%s cpu %u: %llu cycles (%s), cause %s [",
		(unsigned long long)run_id, at, ev->cpu,
		(unsigned long long)e->cycles, len, tp_event_cause_word(e));
	tp_event_counters_text(l->f, " ", e);
	fprintf(l->f, " ]");
	tp_event_sources_text(tp_live_khz(l, run_id), e, l->f);
	fputc('\n', l->f);
}

/**
 * tp_live_event_model() - an event's fields, inside an open object
 * @m: the model
 * @l: the printer (for the run's start and rate)
 * @run_id: the event's run
 * @ev: the event
 */
static void tp_live_event_model(struct tp_model *m, const struct tp_live *l,
				uint64_t run_id, const struct tp_cpu_event *ev)
{
	const struct tp_event_res *e = &ev->e;
	uint64_t ns;

	tp_u64(m, "cpu", ev->cpu, NULL);
	tp_u64(m, "tsc", e->tsc, NULL);
	if (tp_live_offset(l, run_id, e->tsc, &ns))
		tp_u64(m, "offset_ns", ns, NULL);
	else
		tp_null(m, "offset_ns", NULL);
	tp_u64(m, "cycles", e->cycles, NULL);
	if (tp_live_ns(l, run_id, e->cycles, &ns))
		tp_u64(m, "ns", ns, NULL);
	else
		tp_null(m, "ns", NULL);
	tp_event_cause_model(m, e);
	tp_event_sources_model(m, tp_live_khz(l, run_id), e);
}

/* A model for one line of JSON of @kind; tp_live_line_end() prints it. */
static struct tp_model *tp_live_line(const char *kind)
{
	static const struct tp_output json = { .fmt = TP_FMT_JSON };
	struct tp_model *m = tp_model_new(NULL, &json, NULL);

	tp_str(m, "kind", kind, NULL);
	return m;
}

static void tp_live_line_end(struct tp_model *m, FILE *f)
{
	tp_render_json_line(m, f);
	tp_model_free(m);
}

/**
 * tp_live_print_event() - one event, one line
 * @l: the printer
 * @run_id: the run it belongs to
 * @ev: the event
 *
 * The time since the run's start and the length in ns are known for the
 * run @l follows; for another they are "?" (null in JSON).
 */
void tp_live_print_event(const struct tp_live *l, uint64_t run_id,
			 const struct tp_cpu_event *ev)
{
	struct tp_model *m;

	if (!l->json) {
		tp_live_event_text(l, run_id, ev);
		fflush(l->f);
		return;
	}
	m = tp_live_line("event");
	tp_u64(m, "run_id", run_id, NULL);
	tp_live_event_model(m, l, run_id, ev);
	tp_live_line_end(m, l->f);
}

/* The stop event of a run that ended at a threshold, in words. */
static void tp_live_stop_text(const struct tp_live *l,
			      const struct tp_result *end)
{
	char len[32] = "?";

	if (!end->has_stop_event)
		return;
	if (l->tsc_khz)
		tp_format_cycles(end->stop_event.cycles, l->tsc_khz,
				 len, sizeof(len));
	fprintf(l->f, " at cpu %u, a gap of %llu cycles (%s), cause %s",
		end->stop_cpu, (unsigned long long)end->stop_event.cycles, len,
		tp_event_cause_word(&end->stop_event));
}

static void tp_live_end_text(const struct tp_live *l,
			     const struct tp_result *end)
{
	unsigned int i;

	fprintf(l->f, "run %llu ended: %s %s, %s",
		(unsigned long long)end->run_id, tp_kind_name(end->kind),
		tp_state_name(end->state), tp_stop_reason_name(end->reason));
	tp_live_stop_text(l, end);
	if (l->overruns)
		fprintf(l->f, "; %llu socket overruns lost notifications",
			(unsigned long long)l->overruns);
	if (end->kind == TSCPROBE_KIND_NOISE && !end->ncpus)
		fprintf(l->f, "; totals unavailable");
	for (i = 0; i < end->ncpus; i++) {
		const struct tp_cpu_res *c = &end->cpu[i];

		fprintf(l->f, "; cpu %u: %llu events, %llu received, ", c->cpu,
			(unsigned long long)c->events_total,
			(unsigned long long)tp_live_received(l, c->cpu));
		if (c->not_notified.ok)
			fprintf(l->f, "%llu not notified",
				(unsigned long long)c->not_notified.v);
		else
			fprintf(l->f, "not notified n/a");
	}
	fprintf(l->f, "\n");
}

static void tp_live_end_json(const struct tp_live *l,
			     const struct tp_result *end)
{
	struct tp_cpu_event stop = { end->stop_cpu, end->stop_event };
	struct tp_model *m = tp_live_line("run_finished");
	unsigned int i;

	tp_u64(m, "run_id", end->run_id, NULL);
	tp_str(m, "measurement", tp_kind_name(end->kind), NULL);
	tp_str(m, "state", tp_state_name(end->state), NULL);
	tp_str(m, "stop_reason", tp_stop_reason_name(end->reason), NULL);
	if (end->has_stop_event) {
		tp_obj(m, "stop_event");
		tp_live_event_model(m, l, end->run_id, &stop);
		tp_end(m);
	} else {
		tp_null(m, "stop_event", NULL);
	}
	tp_u64(m, "overruns", l->overruns, NULL);
	tp_arr(m, "cpus");
	for (i = 0; i < end->ncpus; i++) {
		const struct tp_cpu_res *c = &end->cpu[i];

		tp_obj(m, NULL);
		tp_u64(m, "cpu", c->cpu, NULL);
		tp_u64(m, "events_total", c->events_total, NULL);
		tp_u64(m, "received", tp_live_received(l, c->cpu), NULL);
		tp_counter(m, "not_notified", &c->not_notified, NULL);
		tp_end(m);
	}
	tp_end(m);
	tp_live_line_end(m, l->f);
}

/**
 * tp_live_print_end() - the line that ends a run
 * @l: the printer (its counts are of @end's run when it follows it)
 * @end: the run's end: a RUN_FINISHED notification or the results (run
 *	id, kind, state, reason, stop event; per CPU the event totals)
 *
 * Per CPU: the events found (total), those received here, and those the
 * module could not notify; received + not notified = total when no
 * notification was lost on the way (an overrun says so).
 */
void tp_live_print_end(const struct tp_live *l, const struct tp_result *end)
{
	if (l->json)
		tp_live_end_json(l, end);
	else
		tp_live_end_text(l, end);
	fflush(l->f);
}

/* Say that the socket overflowed: notifications were lost here. */
void tp_live_print_overrun(const struct tp_live *l)
{
	struct tp_model *m;

	if (!l->json) {
		fprintf(l->f, "notifications lost: the socket's buffer overflowed\n");
		fflush(l->f);
		return;
	}
	m = tp_live_line("overrun");
	tp_u64(m, "overruns", l->overruns, NULL);
	tp_live_line_end(m, l->f);
}

/**
 * tp_live_follow_event() - a struct tp_start's @on_event: print the
 *	events of the CLI's own run as they come
 * @nlh: an EVENT notification of the run
 * @run: the run as START answered (its id, start TSC and TSC rate)
 * @arg: the struct tp_live
 */
void tp_live_follow_event(const struct nlmsghdr *nlh,
			  const struct tp_result *run, void *arg)
{
	struct tp_live *l = arg;

	if (l->run_id != run->run_id)
		tp_live_begin(l, run->run_id, run->start_tsc, run->tsc_khz);
	tp_live_events(l, nlh);
}

/**
 * tp_live_follow_end() - a struct tp_start's @on_end: the end line of the
 *	CLI's own run, from its results
 * @res: the results
 * @arg: the struct tp_live
 */
void tp_live_follow_end(const struct tp_result *res, void *arg)
{
	struct tp_live *l = arg;

	if (l->run_id != res->run_id)
		tp_live_begin(l, res->run_id, res->start_tsc, res->tsc_khz);
	tp_live_print_end(l, res);
}
