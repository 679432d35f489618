// SPDX-License-Identifier: GPL-2.0
/*
 * What ran inside a noise CPU's windows, as the module's probes on the
 * kernel's tracepoints name it: each kind's exact totals and the largest
 * sources, in every format.  The userspace engine's sources have the same
 * shape with counts only (sources_untimed): where a time would be, they
 * say it is unknown.
 */
#include <stdio.h>

#include "lib/cli.h"
#include "lib/format.h"
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

/* What the userspace engine's sources cannot say, after their counts. */
#define TP_UNTIMED_TEXT "counted from /proc over the run: no time, no thread named, no NMI, none per event"

/* A kind's figures in the sources line: "irq 205 (17.1ms)", "irq 102". */
static void tp_kind_text(const struct tp_result *r, const struct tp_cpu_res *c,
			 unsigned int k, FILE *f)
{
	const struct tp_source_res *s = &c->kinds[k];
	char t[32];

	if (!tp_kind_known(c, k)) {
		fprintf(f, "%s %s n/a", k ? "," : "", tp_source_name(k));
		return;
	}
	fprintf(f, "%s %s %llu", k ? "," : "", tp_source_name(k),
		(unsigned long long)s->count);
	if (c->sources_untimed)
		return;
	tp_format_cycles(s->cycles, r->tsc_khz, t, sizeof(t));
	fprintf(f, " (%s)", t);
}

/* A source's line: "irq vector 236 local_timer: 17.1ms in 205", "irq LOC: 79 times". */
static void tp_source_line(const struct tp_result *r, const struct tp_cpu_res *c,
			   const struct tp_source_res *s, FILE *f)
{
	char t[32], label[TP_SOURCE_LABEL];

	tp_source_label(s, label, sizeof(label));
	if (c->sources_untimed) {
		fprintf(f, "    %s: %llu time%s\n", label,
			(unsigned long long)s->count, s->count == 1 ? "" : "s");
		return;
	}
	tp_format_cycles(s->cycles, r->tsc_khz, t, sizeof(t));
	fprintf(f, "    %s: %s in %llu\n", label, t,
		(unsigned long long)s->count);
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
	unsigned int k, i;

	fprintf(f, "  sources:");
	if (!c->kinds_known) {
		fprintf(f, " n/a (%s)\n", r->user_engine ?
			"the userspace engine could read none of /proc/interrupts, /proc/softirqs and its thread's context switches" :
			"the module could not probe the kernel's tracepoints");
		return;
	}
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++)
		tp_kind_text(r, c, k, f);
	if (c->sources_untimed)
		fprintf(f, "; %s\n", TP_UNTIMED_TEXT);
	else
		fprintf(f, "; %llu spans lost\n",
			(unsigned long long)c->sources_lost);
	for (i = 0; i < c->nsources && i < TP_SOURCE_LINES; i++)
		tp_source_line(r, c, &c->sources[i], f);
	if (c->nsources > TP_SOURCE_LINES)
		fprintf(f, "    and %u more (-j lists each)\n",
			c->nsources - TP_SOURCE_LINES);
}

/* A source's figure in one word: "17.1ms", or "x79" where untimed. */
static void tp_source_figure(const struct tp_result *r,
			     const struct tp_cpu_res *c,
			     const struct tp_source_res *s, char *buf,
			     size_t len)
{
	if (c->sources_untimed)
		snprintf(buf, len, "x%llu", (unsigned long long)s->count);
	else
		tp_format_cycles(s->cycles, r->tsc_khz, buf, len);
}

/**
 * tp_noise_sources_brief() - a CPU's sources in one line, for the SVG:
 *	"sources: thread 447.4ms, softirq 1.3ms, irq 48.9ms, nmi 0ns;
 *	largest: thread 118 sh 447.0ms"; the userspace engine's in counts,
 *	"sources, counted: thread 42, softirq 90, irq 102, nmi n/a; largest:
 *	irq LOC x79"
 * @r: the result
 * @c: the CPU
 * @buf: where to
 * @len: its size
 *
 * Return: false (and @buf empty) where the CPU's sources are not known.
 */
bool tp_noise_sources_brief(const struct tp_result *r,
			    const struct tp_cpu_res *c, char *buf, size_t len)
{
	char t[32], label[TP_SOURCE_LABEL];
	size_t at = 0;
	unsigned int k;

	buf[0] = '\0';
	if (!c->kinds_known)
		return false;
	at += (size_t)snprintf(buf, len, c->sources_untimed ?
			       "sources, counted:" : "sources:");
	for (k = 0; k < TSCPROBE_SOURCE_OTHER && at < len; k++) {
		if (!tp_kind_known(c, k)) {
			at += (size_t)snprintf(buf + at, len - at, "%s %s n/a",
					       k ? "," : "", tp_source_name(k));
			continue;
		}
		tp_source_figure(r, c, &c->kinds[k], t, sizeof(t));
		at += (size_t)snprintf(buf + at, len - at, "%s %s %s",
				       k ? "," : "", tp_source_name(k), t);
	}
	if (c->nsources && at < len) {
		tp_source_label(&c->sources[0], label, sizeof(label));
		tp_source_figure(r, c, &c->sources[0], t, sizeof(t));
		snprintf(buf + at, len - at, "; largest: %s %s", label, t);
	}
	return true;
}

/**
 * tp_noise_sources_json() - a CPU's "sources": null when unknown, else
 *	"timed" (false: the userspace engine's counts), "lost" (null when
 *	untimed), "kinds" (each kind's totals, null where it was not probed or
 *	read) and "named" (the sources, largest first)
 * @r: the result
 * @c: the CPU
 * @j: the writer, inside the CPU's object
 */
void tp_noise_sources_json(const struct tp_result *r,
			   const struct tp_cpu_res *c, struct jw *j)
{
	bool untimed = c->sources_untimed;
	unsigned int k, i;

	if (!c->kinds_known) {
		jw_null(j, "sources");
		return;
	}
	jw_obj(j, "sources");
	jw_bool(j, "timed", !untimed);
	if (untimed)
		jw_null(j, "lost");
	else
		jw_u64(j, "lost", c->sources_lost);
	jw_obj(j, "kinds");
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		if (!tp_kind_known(c, k)) {
			jw_null(j, tp_source_name(k));
			continue;
		}
		jw_obj(j, tp_source_name(k));
		tp_source_json_figures(r->tsc_khz, &c->kinds[k], untimed, j);
		jw_obj_end(j);
	}
	jw_obj_end(j);
	jw_arr(j, "named");
	for (i = 0; i < c->nsources; i++)
		tp_source_json(r->tsc_khz, &c->sources[i], untimed, j);
	jw_arr_end(j);
	jw_obj_end(j);
}

/**
 * tp_noise_sources_csv_head() - the sources' columns: each kind's count
 *	and ns, the spans lost, and the largest source with its ns
 * @c: the CSV writer, on the header row
 */
void tp_noise_sources_csv_head(struct tp_csv *c)
{
	char name[40];
	unsigned int k;

	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		snprintf(name, sizeof(name), "sources_%s_count", tp_source_name(k));
		tp_csv_str(c, name);
		snprintf(name, sizeof(name), "sources_%s_ns", tp_source_name(k));
		tp_csv_str(c, name);
	}
	tp_csv_str(c, "sources_lost");
	tp_csv_str(c, "top_source");
	tp_csv_str(c, "top_source_ns");
}

/* A time's cell: empty where the sources are untimed. */
static void tp_csv_ns(const struct tp_result *r, const struct tp_cpu_res *cpu,
		      uint64_t cycles, struct tp_csv *c)
{
	if (cpu->sources_untimed)
		tp_csv_empty(c);
	else
		tp_csv_u64(c, tp_cycles_to_ns_round(cycles, r->tsc_khz));
}

/**
 * tp_noise_sources_csv_row() - a CPU's sources' cells: empty where unknown
 *	(every time, and the spans lost, of the userspace engine's)
 * @r: the result
 * @cpu: the CPU
 * @c: the CSV writer, on the CPU's row
 */
void tp_noise_sources_csv_row(const struct tp_result *r,
			      const struct tp_cpu_res *cpu, struct tp_csv *c)
{
	char label[TP_SOURCE_LABEL];
	unsigned int k;

	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		if (!tp_kind_known(cpu, k)) {
			tp_csv_empty(c);
			tp_csv_empty(c);
			continue;
		}
		tp_csv_u64(c, cpu->kinds[k].count);
		tp_csv_ns(r, cpu, cpu->kinds[k].cycles, c);
	}
	if (!cpu->kinds_known) {
		tp_csv_empty(c);
		tp_csv_empty(c);
		tp_csv_empty(c);
		return;
	}
	if (cpu->sources_untimed)
		tp_csv_empty(c);
	else
		tp_csv_u64(c, cpu->sources_lost);
	if (!cpu->nsources) {
		tp_csv_str(c, "");
		tp_csv_ns(r, cpu, 0, c);
		return;
	}
	tp_source_label(&cpu->sources[0], label, sizeof(label));
	tp_csv_str(c, label);
	tp_csv_ns(r, cpu, cpu->sources[0].cycles, c);
}

/* Bounded labels: the CPU, the engine, irqs and the kind (never a pid). */
static void tp_source_prom_labels(char *buf, size_t len,
				  const struct tp_result *r, unsigned int cpu,
				  unsigned int kind)
{
	char c[16];

	snprintf(c, sizeof(c), "%u", cpu);
	tp_prom_labels(buf, len, "cpu", c, "engine", tp_result_engine(r),
		       "irqs", tp_irqs_name(r->p.irqs), "kind",
		       tp_source_name(kind), NULL);
}

/* Whether family @m (0: seconds, 1: runs) has a sample of @c's kind @k. */
static bool tp_source_prom_has(const struct tp_cpu_res *c, unsigned int k,
			       unsigned int m)
{
	return tp_kind_known(c, k) && (m || !c->sources_untimed);
}

/**
 * tp_noise_sources_prom() - each kind's time and count per CPU, as two
 *	counter families; a family without a sample (no CPU's sources known,
 *	or, for the time, only the userspace engine's) is left out
 * @r: the result
 * @f: where to
 */
void tp_noise_sources_prom(const struct tp_result *r, FILE *f)
{
	static const char *const families[2][2] = {
		{ "tscprobe_noise_source_seconds_total",
		  "Net time of what ran inside the windows, by kind of source." },
		{ "tscprobe_noise_source_runs_total",
		  "Times a source of that kind ran: inside the windows, or over the run for engine user (counted from /proc)." },
	};
	char labels[192];
	unsigned int i, k, m;
	bool any;

	for (m = 0; m < 2; m++) {
		any = false;
		for (i = 0; i < r->ncpus; i++)
			for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++)
				any |= tp_source_prom_has(&r->cpu[i], k, m);
		if (!any)
			continue;
		tp_prom_family(f, families[m][0], "counter", families[m][1]);
		for (i = 0; i < r->ncpus; i++) {
			const struct tp_cpu_res *c = &r->cpu[i];

			for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
				if (!tp_source_prom_has(c, k, m))
					continue;	/* unknown: no sample */
				tp_source_prom_labels(labels, sizeof(labels), r,
						      c->cpu, k);
				if (m)
					tp_prom_u64(f, families[m][0], labels,
						    c->kinds[k].count);
				else
					tp_prom_double(f, families[m][0], labels,
						       tp_cycles_to_ns_round(c->kinds[k].cycles,
									     r->tsc_khz) / 1e9);
			}
		}
	}
}
