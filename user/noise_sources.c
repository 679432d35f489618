// SPDX-License-Identifier: GPL-2.0
/*
 * What ran inside a noise CPU's windows, as the module's probes on the
 * kernel's tracepoints name it: each kind's exact totals and the largest
 * sources, in the text report and in JSON.
 */
#include <stdio.h>

#include "lib/cli.h"
#include "lib/json_write.h"
#include "core/names.h"
#include "noise_sources.h"
#include "core/report.h"

/* The sources spelt out in a CPU's block; JSON has every one. */
#define TP_SOURCE_LINES	8

static bool tp_kind_known(const struct tp_cpu_res *c, unsigned int kind)
{
	return c->kinds_known & (1U << kind);
}

/* "irq 4 ttyS0", "softirq 1 TIMER", "nmi nmi_cpu_backtrace_handler". */
static void tp_source_label(const struct tp_source_res *s, char *buf,
			    size_t len)
{
	if (s->kind == TSCPROBE_SOURCE_NMI || s->kind == TSCPROBE_SOURCE_OTHER)
		snprintf(buf, len, "%s %s", tp_source_name(s->kind), s->name);
	else
		snprintf(buf, len, "%s %u %s", tp_source_name(s->kind), s->id,
			 s->name);
}

/**
 * tp_noise_sources_text() - a CPU's sources: a line of the kinds' totals,
 *	then the largest sources, a line each
 * @r: the result
 * @c: the CPU
 * @f: where to
 */
void tp_noise_sources_text(const struct tp_result *r,
			   const struct tp_cpu_res *c, FILE *f)
{
	char t[32], label[64];
	unsigned int k, i;

	fprintf(f, "  sources:");
	if (!c->kinds_known) {
		fprintf(f, " n/a (%s)\n", r->user_engine ?
			"the userspace engine traces no interrupt or thread" :
			"the module could not probe the kernel's tracepoints");
		return;
	}
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		const struct tp_source_res *s = &c->kinds[k];

		if (!tp_kind_known(c, k)) {
			fprintf(f, "%s %s n/a", k ? "," : "", tp_source_name(k));
			continue;
		}
		tp_format_ns(tp_cycles_to_ns_round(s->cycles, r->tsc_khz), t,
			     sizeof(t));
		fprintf(f, "%s %s %llu (%s)", k ? "," : "", tp_source_name(k),
			(unsigned long long)s->count, t);
	}
	fprintf(f, "; %llu spans lost\n", (unsigned long long)c->sources_lost);
	for (i = 0; i < c->nsources && i < TP_SOURCE_LINES; i++) {
		const struct tp_source_res *s = &c->sources[i];

		tp_source_label(s, label, sizeof(label));
		tp_format_ns(tp_cycles_to_ns_round(s->cycles, r->tsc_khz), t,
			     sizeof(t));
		fprintf(f, "    %s: %s in %llu\n", label, t,
			(unsigned long long)s->count);
	}
	if (c->nsources > TP_SOURCE_LINES)
		fprintf(f, "    and %u more (-j lists each)\n",
			c->nsources - TP_SOURCE_LINES);
}

static void tp_source_json_figures(const struct tp_result *r,
				   const struct tp_source_res *s, struct jw *j)
{
	jw_u64(j, "count", s->count);
	jw_u64(j, "cycles", s->cycles);
	jw_u64(j, "ns", tp_cycles_to_ns_round(s->cycles, r->tsc_khz));
}

/**
 * tp_noise_sources_json() - a CPU's "sources": null when unknown, else
 *	"lost", "kinds" (each kind's totals, null where it was not probed) and
 *	"named" (the sources, largest first)
 * @r: the result
 * @c: the CPU
 * @j: the writer, inside the CPU's object
 */
void tp_noise_sources_json(const struct tp_result *r,
			   const struct tp_cpu_res *c, struct jw *j)
{
	unsigned int k, i;

	if (!c->kinds_known) {
		jw_null(j, "sources");
		return;
	}
	jw_obj(j, "sources");
	jw_u64(j, "lost", c->sources_lost);
	jw_obj(j, "kinds");
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		if (!tp_kind_known(c, k)) {
			jw_null(j, tp_source_name(k));
			continue;
		}
		jw_obj(j, tp_source_name(k));
		tp_source_json_figures(r, &c->kinds[k], j);
		jw_obj_end(j);
	}
	jw_obj_end(j);
	jw_arr(j, "named");
	for (i = 0; i < c->nsources; i++) {
		const struct tp_source_res *s = &c->sources[i];

		jw_obj(j, NULL);
		jw_str(j, "kind", tp_source_name(s->kind));
		jw_u64(j, "id", s->id);
		jw_str(j, "name", s->name);
		tp_source_json_figures(r, s, j);
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}
