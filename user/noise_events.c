// SPDX-License-Identifier: GPL-2.0
/*
 * The noise report's parts about single events, in its model: what caused
 * each one and how much noise each cause explains per CPU, the event that
 * stopped a run (--stop-at), and the groups of events of different CPUs
 * that overlap in time (machine-wide, partial or local;
 * tp_result_group() made them).
 */
#include <stdlib.h>
#include <string.h>

#include "user/lib/event_report.h"
#include "user/lib/format.h"
#include "user/lib/model.h"
#include "core/names.h"
#include "user/noise_events.h"
#include "core/report.h"

/*
 * Rows of the default groups table: it must stay short at 64+ CPUs, where
 * every CPU's local gaps make groups of their own.  -v and JSON list all.
 */
#define TP_GROUPS_TEXT_ROWS	10

/* The word for an enum tp_group_kind: "local", "partial", "machine-wide". */
static const char *tp_group_kind_name(uint32_t kind)
{
	switch (kind) {
	case TP_GROUP_MACHINE:
		return "machine-wide";
	case TP_GROUP_PARTIAL:
		return "partial";
	default:
		return "local";
	}
}

/*
 * The CPU set of every group, in one pass over the events: @sets[g] for
 * group g (allocated here, @r->ngroups entries).
 */
static struct tp_cpuset *tp_group_cpusets(const struct tp_result *r)
{
	struct tp_cpuset *sets = calloc(r->ngroups ? r->ngroups : 1,
					sizeof(*sets));
	unsigned int i, k;

	if (!sets) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	for (i = 0; i < r->ncpus; i++)
		for (k = 0; k < r->cpu[i].nevents; k++)
			if (r->cpu[i].events[k].group < r->ngroups)
				tp_cpuset_add(&sets[r->cpu[i].events[k].group],
					      r->cpu[i].cpu);
	return sets;
}

/* Time from the run's start to @tsc, "+1.234567s" ("?" before it). */
static void tp_group_at(const struct tp_result *r, uint64_t tsc, char *buf,
			size_t len)
{
	uint64_t ns;

	if (!r->tsc_khz || tsc < r->start_tsc) {
		snprintf(buf, len, "?");
		return;
	}
	ns = tp_cycles_to_ns_round(tsc - r->start_tsc, r->tsc_khz);
	snprintf(buf, len, "+%llu.%06llus",
		 (unsigned long long)(ns / 1000000000ULL),
		 (unsigned long long)(ns % 1000000000ULL / 1000));
}

/* What the groups' times rest on, in words. */
static const char *tp_groups_clock(const struct tp_result *r)
{
	if (r->tsc_aligned)
		return "TSCs aligned with the module's offsets";
	if (r->tsc_in_sync)
		return "TSCs in sync (the kernel found them stable)";
	if (r->tsc_sync == TSCPROBE_TSC_UNSTABLE)
		return "TSCs unstable: times compared as read, groups unreliable";
	return "TSCs not known to be in sync: times compared as read";
}

/* The groups' summary line; then -v every group, else the first that span
 * more than one CPU (local groups are counted in the summary line).
 */
static void tp_groups_text(struct tp_model *m, const struct tp_cpuset *sets)
{
	const struct tp_result *r = tp_model_result(m);
	bool verbose = tp_model_output(m)->verbose;
	uint32_t count[TP_GROUP_MACHINE + 1] = { 0 };
	uint32_t i, rows = 0, shown;
	char at[32], len[32], cpus[128];

	for (i = 0; i < r->ngroups; i++)
		count[r->groups[i].kind]++;
	tp_text_wrap(m, "  ", "groups: %u (%u machine-wide, %u partial, %u local) of the kept events; %s\n",
		     r->ngroups, count[TP_GROUP_MACHINE],
		     count[TP_GROUP_PARTIAL], count[TP_GROUP_LOCAL],
		     tp_groups_clock(r));
	shown = verbose ? r->ngroups : r->ngroups - count[TP_GROUP_LOCAL];
	if (!shown)
		return;
	tp_text(m, "  %-6s %-14s %10s %-13s %s\n", "group", "at", "length",
		"kind", "cpus");
	for (i = 0; i < r->ngroups; i++) {
		const struct tp_group *g = &r->groups[i];

		if (!verbose && (g->kind == TP_GROUP_LOCAL ||
				 rows == TP_GROUPS_TEXT_ROWS))
			continue;
		tp_group_at(r, g->start, at, sizeof(at));
		tp_format_cycles(g->end - g->start, r->tsc_khz, len, sizeof(len));
		tp_cpuset_format(&sets[i], cpus, sizeof(cpus));
		tp_text(m, "  %-6u %-14s %10s %-13s %s\n", i, at, len,
			tp_group_kind_name(g->kind), cpus);
		rows++;
	}
	if (rows < shown)
		tp_text(m, "  ... %u more (-v or -j lists every group)\n",
			shown - rows);
}

/**
 * tp_noise_groups_model() - the groups of events across CPUs: what their
 *	times rest on and each group; "groups" null when not grouped
 * @m: the model, the report's object open
 */
void tp_noise_groups_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_cpuset *sets;
	uint32_t i;

	if (!r->grouped) {
		tp_null(m, "groups", NULL);
		return;
	}
	sets = tp_group_cpusets(r);
	tp_groups_text(m, sets);
	tp_str(m, "tsc_sync", tp_tsc_sync_name(r->tsc_sync), NULL);
	tp_counter(m, "offsets_run_id", &(struct tp_counter_res){
		   r->tsc_offsets_run_id, r->tsc_offsets_run_id }, NULL);
	tp_bool(m, "tsc_aligned", r->tsc_aligned, NULL);
	tp_bool(m, "tsc_in_sync", r->tsc_in_sync, NULL);
	tp_arr(m, "groups");
	for (i = 0; i < r->ngroups; i++) {
		const struct tp_group *g = &r->groups[i];

		tp_obj(m, NULL);
		tp_u64(m, "group", i, NULL);
		tp_str(m, "kind", tp_group_kind_name(g->kind), NULL);
		tp_u64(m, "start_tsc", g->start, NULL);
		tp_u64(m, "end_tsc", g->end, NULL);
		tp_u64(m, "cycles", g->end - g->start, NULL);
		tp_u64(m, "ns", tp_cycles_to_ns_round(g->end - g->start,
						      r->tsc_khz), NULL);
		tp_u64(m, "events", g->events, NULL);
		tp_cpuset(m, "cpus", &sets[i]);
		tp_end(m);
	}
	tp_end(m);
	free(sets);
}

/*
 * Causes in the order of the counter rule (enum tscprobe_cause), then the
 * kinds only a traced source names.
 */
static const uint32_t tp_report_causes[] = {
	TSCPROBE_CAUSE_SMI, TSCPROBE_CAUSE_NMI, TSCPROBE_CAUSE_IRQ,
	TSCPROBE_CAUSE_STEAL, TSCPROBE_CAUSE_UNEXPLAINED, TSCPROBE_CAUSE_THREAD,
	TSCPROBE_CAUSE_SOFTIRQ,
};

/* Whether @c's figures for @cause were given (its counter was read). */
static bool tp_cause_known(const struct tp_cpu_res *c, uint32_t cause)
{
	return c->causes_known & (1U << cause);
}

/*
 * A CPU's line of causes: how many events and how much of their time each
 * cause explains, and the events not notified.
 */
static void tp_causes_text(struct tp_model *m, const struct tp_cpu_res *c)
{
	const struct tp_result *r = tp_model_result(m);
	FILE *f = tp_text_open(m);
	char t[32];
	unsigned int i;

	fprintf(f, "  the events by cause, and their time:");
	if (!c->has_causes)
		fprintf(f, " n/a (the engine gave none)");
	for (i = 0; c->has_causes && i < TP_ARRAY_SIZE(tp_report_causes); i++) {
		const struct tp_cause_res *k = &c->causes[tp_report_causes[i]];

		if (!tp_cause_known(c, tp_report_causes[i])) {
			fprintf(f, "%s %s n/a", i ? "," : "",
				tp_cause_name(tp_report_causes[i]));
			continue;
		}
		tp_format_cycles(k->cycles, r->tsc_khz, t, sizeof(t));
		fprintf(f, "%s %s %llu (%s)", i ? "," : "",
			tp_cause_name(tp_report_causes[i]),
			(unsigned long long)k->events, t);
	}
	if (c->not_notified.ok)
		fprintf(f, "; %llu events not notified",
			(unsigned long long)c->not_notified.v);
	if (c->has_causes && r->user_engine)
		fprintf(f, "; userspace: %llu not attributed (the interrupt and steal counts are per window, not per gap; unexplained: in a window where neither moved)",
			(unsigned long long)c->causes[TSCPROBE_CAUSE_NONE].events);
	fputc('\n', f);
	tp_text_close(m, f, "    ");
}

/**
 * tp_noise_causes_model() - a CPU's events not notified, its TSC offset
 *	and "causes": every cause's events, cycles and ns, null where its
 *	counter could not be read, all null where the engine gave none
 * @m: the model, the CPU's row open
 * @c: the CPU
 */
void tp_noise_causes_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	const struct tp_result *r = tp_model_result(m);
	unsigned int i;

	tp_causes_text(m, c);
	tp_counter(m, "events_not_notified", &c->not_notified, NULL);
	if (c->has_tsc_offset)
		tp_i64(m, "tsc_offset_cycles", c->tsc_offset, NULL);
	else
		tp_null(m, "tsc_offset_cycles", NULL);
	if (!c->has_causes) {
		tp_null(m, "causes", NULL);
		return;
	}
	tp_obj(m, "causes");
	for (i = 0; i < TP_ARRAY_SIZE(tp_report_causes); i++) {
		const struct tp_cause_res *k = &c->causes[tp_report_causes[i]];

		if (!tp_cause_known(c, tp_report_causes[i])) {
			tp_null(m, tp_cause_name(tp_report_causes[i]), NULL);
			continue;
		}
		tp_obj(m, tp_cause_name(tp_report_causes[i]));
		tp_u64(m, "events", k->events, NULL);
		tp_u64(m, "cycles", k->cycles, NULL);
		tp_u64(m, "ns", tp_cycles_to_ns_round(k->cycles, r->tsc_khz), NULL);
		tp_end(m);
	}
	tp_end(m);
}

/**
 * tp_noise_stop_model() - the stop-at parameters and the event that
 *	stopped the run, with its line in text
 * @m: the model, the report's object open
 */
void tp_noise_stop_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_event_res stop = r->stop_event;
	bool stop_at = r->p.stop_at_cycles || r->p.stop_at_ns;
	char at[32], len[32];

	tp_counter(m, "stop_at_ns", &(struct tp_counter_res){
		   stop_at, r->p.stop_at_ns }, NULL);
	tp_counter(m, "stop_at_cycles", &(struct tp_counter_res){
		   stop_at, r->p.stop_at_cycles }, NULL);
	tp_bool(m, "trace_stop", r->p.trace_stop, NULL);
	if (!r->has_stop_event) {
		tp_null(m, "stop_cpu", NULL);
		tp_null(m, "stop_event", NULL);
		return;
	}
	tp_group_at(r, stop.tsc, at, sizeof(at));
	tp_format_cycles(stop.cycles, r->tsc_khz, len, sizeof(len));
	tp_text_wrap(m, "  ", "stopped by a gap of %s (%llu cycles) on CPU %u at %s, cause %s%s\n",
		     len, (unsigned long long)stop.cycles, r->stop_cpu, at,
		     tp_event_cause_word(&stop),
		     r->p.trace_stop ? "; tracing off" : "");
	stop.group = UINT32_MAX;	/* its copy in the CPU's events has one */
	tp_u64(m, "stop_cpu", r->stop_cpu, NULL);
	tp_obj(m, "stop_event");
	tp_noise_event_model(m, &stop);
	tp_end(m);
}

/**
 * tp_noise_event_text() - an event's cause, counters, group and sources,
 *	for a line of the events list (after its time and length)
 * @r: the result
 * @e: the event
 * @f: where to
 */
void tp_noise_event_text(const struct tp_result *r,
			 const struct tp_event_res *e, FILE *f)
{
	fprintf(f, "  %s [", tp_event_cause_word(e));
	tp_event_counters_text(f, "", e);
	fprintf(f, "]");
	if (r->grouped && e->group < r->ngroups)
		fprintf(f, ", group %u", e->group);
	tp_event_sources_text(r->tsc_khz, e, f);
}

/**
 * tp_noise_event_model() - an event: its TSC, length, cause, counter
 *	deltas, group and sources
 * @m: the model, the event's object open
 * @e: the event
 */
void tp_noise_event_model(struct tp_model *m, const struct tp_event_res *e)
{
	const struct tp_result *r = tp_model_result(m);

	tp_u64(m, "tsc", e->tsc, NULL);
	tp_u64(m, "cycles", e->cycles, NULL);
	tp_event_cause_model(m, e);
	tp_counter(m, "group", &(struct tp_counter_res){
		   r->grouped && e->group < r->ngroups, e->group }, NULL);
	tp_event_sources_model(m, r->tsc_khz, e);
}
