// SPDX-License-Identifier: GPL-2.0
/*
 * The noise report's parts about single events: what caused each one and
 * how much noise each cause explains per CPU, the event that stopped a run
 * (--stop-at), and the groups of events of different CPUs that overlap in
 * time (machine-wide, partial or local; tp_result_group() made them).
 * Text and JSON; noise_report.c calls these.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/format.h"
#include "lib/json_write.h"
#include "core/names.h"
#include "noise_events.h"
#include "noise_sources.h"
#include "core/report.h"

/*
 * Rows of the default groups table: it must stay short at 64+ CPUs, where
 * every CPU's local gaps make groups of their own.  -v and JSON list all.
 */
#define TP_GROUPS_TEXT_ROWS	10

/**
 * tp_group_kind_name() - the word for an enum tp_group_kind
 * @kind: the kind
 *
 * Return: "local", "partial" or "machine-wide".
 */
const char *tp_group_kind_name(uint32_t kind)
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

/* One row of the groups table. */
static void tp_group_row(const struct tp_result *r, uint32_t i,
			 const struct tp_cpuset *set, FILE *f)
{
	const struct tp_group *g = &r->groups[i];
	char at[32], len[32], cpus[128];

	tp_group_at(r, g->start, at, sizeof(at));
	tp_format_cycles(g->end - g->start, r->tsc_khz, len, sizeof(len));
	tp_cpuset_format(set, cpus, sizeof(cpus));
	fprintf(f, "  %-6u %-14s %10s %-13s %s\n", i, at, len,
		tp_group_kind_name(g->kind), cpus);
}

/**
 * tp_noise_groups_text() - the groups section of the text report
 * @r: a grouped noise result
 * @verbose: every group; else the first TP_GROUPS_TEXT_ROWS that span more
 *	than one CPU (local groups are counted in the summary line)
 * @f: where to
 */
void tp_noise_groups_text(const struct tp_result *r, bool verbose, FILE *f)
{
	uint32_t count[TP_GROUP_MACHINE + 1] = { 0 };
	uint32_t i, rows = 0, shown;
	struct tp_cpuset *sets;

	if (!r->grouped)
		return;
	for (i = 0; i < r->ngroups; i++)
		count[r->groups[i].kind]++;
	fprintf(f, "groups: %u (%u machine-wide, %u partial, %u local) of the kept events; %s\n",
		r->ngroups, count[TP_GROUP_MACHINE], count[TP_GROUP_PARTIAL],
		count[TP_GROUP_LOCAL], tp_groups_clock(r));
	shown = verbose ? r->ngroups : r->ngroups - count[TP_GROUP_LOCAL];
	if (!shown)
		return;
	sets = tp_group_cpusets(r);
	fprintf(f, "  %-6s %-14s %10s %-13s %s\n", "group", "at", "length",
		"kind", "cpus");
	for (i = 0; i < r->ngroups; i++) {
		if (!verbose && (r->groups[i].kind == TP_GROUP_LOCAL ||
				 rows == TP_GROUPS_TEXT_ROWS))
			continue;
		tp_group_row(r, i, &sets[i], f);
		rows++;
	}
	if (rows < shown)
		fprintf(f, "  ... %u more (-v or -j lists every group)\n",
			shown - rows);
	free(sets);
}

/**
 * tp_noise_groups_json() - the "groups" member of the JSON report
 * @r: a grouped noise result (not grouped: null)
 * @j: the writer, inside the report's object
 */
void tp_noise_groups_json(const struct tp_result *r, struct jw *j)
{
	struct tp_cpuset *sets;
	unsigned int cpu;
	int c;
	uint32_t i;

	if (!r->grouped) {
		jw_null(j, "groups");
		return;
	}
	jw_str(j, "tsc_sync", tp_tsc_sync_name(r->tsc_sync));
	if (r->tsc_offsets_run_id)
		jw_u64(j, "offsets_run_id", r->tsc_offsets_run_id);
	else
		jw_null(j, "offsets_run_id");
	jw_bool(j, "tsc_aligned", r->tsc_aligned);
	jw_bool(j, "tsc_in_sync", r->tsc_in_sync);
	sets = tp_group_cpusets(r);
	jw_arr(j, "groups");
	for (i = 0; i < r->ngroups; i++) {
		const struct tp_group *g = &r->groups[i];

		jw_obj(j, NULL);
		jw_u64(j, "group", i);
		jw_str(j, "kind", tp_group_kind_name(g->kind));
		jw_u64(j, "start_tsc", g->start);
		jw_u64(j, "end_tsc", g->end);
		jw_u64(j, "cycles", g->end - g->start);
		jw_u64(j, "ns", tp_cycles_to_ns_round(g->end - g->start,
						      r->tsc_khz));
		jw_u64(j, "events", g->events);
		jw_arr(j, "cpus");
		for (c = -1; (c = tp_cpuset_next(&sets[i], c)) >= 0;) {
			cpu = (unsigned int)c;
			jw_u64(j, NULL, cpu);
		}
		jw_arr_end(j);
		jw_obj_end(j);
	}
	jw_arr_end(j);
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

/**
 * tp_noise_causes_text() - a CPU's line of causes: how many events and how
 *	much of their time each cause explains, and the events not notified
 * @r: the result
 * @c: the CPU
 * @f: where to
 */
void tp_noise_causes_text(const struct tp_result *r,
			  const struct tp_cpu_res *c, FILE *f)
{
	char t[32];
	unsigned int i;

	fprintf(f, "  causes:");
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
	fprintf(f, "\n");
}

/**
 * tp_noise_causes_json() - a CPU's "events_not_notified", its TSC offset
 *	(null: unknown) and "causes"
 * @r: the result
 * @c: the CPU
 * @j: the writer, inside the CPU's object
 *
 * "causes" maps every cause to its events, cycles and ns, or to null when
 * its counter could not be read; null when the engine gave no causes.
 */
void tp_noise_causes_json(const struct tp_result *r,
			  const struct tp_cpu_res *c, struct jw *j)
{
	unsigned int i;

	tp_json_counter(j, "events_not_notified", &c->not_notified);
	if (c->has_tsc_offset)
		jw_i64(j, "tsc_offset_cycles", c->tsc_offset);
	else
		jw_null(j, "tsc_offset_cycles");
	if (!c->has_causes) {
		jw_null(j, "causes");
		return;
	}
	jw_obj(j, "causes");
	for (i = 0; i < TP_ARRAY_SIZE(tp_report_causes); i++) {
		const struct tp_cause_res *k = &c->causes[tp_report_causes[i]];

		if (!tp_cause_known(c, tp_report_causes[i])) {
			jw_null(j, tp_cause_name(tp_report_causes[i]));
			continue;
		}
		jw_obj(j, tp_cause_name(tp_report_causes[i]));
		jw_u64(j, "events", k->events);
		jw_u64(j, "cycles", k->cycles);
		jw_u64(j, "ns", tp_cycles_to_ns_round(k->cycles, r->tsc_khz));
		jw_obj_end(j);
	}
	jw_obj_end(j);
}

/**
 * tp_noise_stop_text() - the line of a run that a gap stopped (--stop-at)
 * @r: the result (nothing is printed unless it has a stop event)
 * @f: where to
 */
void tp_noise_stop_text(const struct tp_result *r, FILE *f)
{
	const struct tp_event_res *e = &r->stop_event;
	char at[32], len[32];

	if (!r->has_stop_event)
		return;
	tp_group_at(r, e->tsc, at, sizeof(at));
	tp_format_cycles(e->cycles, r->tsc_khz, len, sizeof(len));
	fprintf(f, "stopped by a gap of %llu cycles (%s) on cpu %u at %s, cause %s%s\n",
		(unsigned long long)e->cycles, len, r->stop_cpu, at,
		tp_event_cause_word(e),
		r->p.trace_stop ? "; tracing turned off" : "");
}

/**
 * tp_noise_stop_json() - the stop-at parameters and the stopping event
 * @r: the result
 * @j: the writer, inside the report's object
 */
void tp_noise_stop_json(const struct tp_result *r, struct jw *j)
{
	struct tp_event_res stop;

	if (r->p.stop_at_cycles || r->p.stop_at_ns) {
		jw_u64(j, "stop_at_ns", r->p.stop_at_ns);
		jw_u64(j, "stop_at_cycles", r->p.stop_at_cycles);
	} else {
		jw_null(j, "stop_at_ns");
		jw_null(j, "stop_at_cycles");
	}
	jw_bool(j, "trace_stop", r->p.trace_stop);
	if (!r->has_stop_event) {
		jw_null(j, "stop_cpu");
		jw_null(j, "stop_event");
		return;
	}
	stop = r->stop_event;
	stop.group = UINT32_MAX;	/* its copy in the CPU's events has one */
	jw_u64(j, "stop_cpu", r->stop_cpu);
	jw_obj(j, "stop_event");
	jw_u64(j, "tsc", stop.tsc);
	jw_u64(j, "cycles", stop.cycles);
	tp_noise_event_json(r, &stop, j);
	jw_obj_end(j);
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
	fprintf(f, "  cause %s [", tp_event_cause_word(e));
	tp_event_counters_text(f, "", e);
	fprintf(f, "]");
	if (r->grouped && e->group < r->ngroups)
		fprintf(f, ", group %u (%s)", e->group,
			tp_group_kind_name(r->groups[e->group].kind));
	tp_event_sources_text(r->tsc_khz, e, f);
}

/**
 * tp_noise_event_json() - an event's cause, counter deltas, group and
 *	sources, in its JSON object
 * @r: the result
 * @e: the event
 * @j: the writer, inside the event's object
 */
void tp_noise_event_json(const struct tp_result *r,
			 const struct tp_event_res *e, struct jw *j)
{
	tp_event_cause_json(j, e);
	if (r->grouped && e->group < r->ngroups)
		jw_u64(j, "group", e->group);
	else
		jw_null(j, "group");
	tp_event_sources_json(r->tsc_khz, e, j);
}
