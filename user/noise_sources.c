// SPDX-License-Identifier: GPL-2.0
/*
 * What ran inside a noise CPU's windows, as the module's probes on the
 * kernel's tracepoints name it: each kind's exact totals and the largest
 * sources, in the noise report's model.  The userspace engine's sources
 * have the same shape with counts only (sources_untimed): where a time
 * would be, it is unknown.
 */
#include <stdio.h>

#include "user/lib/cli.h"
#include "user/lib/event_report.h"
#include "user/lib/format.h"
#include "user/lib/model.h"
#include "core/names.h"
#include "user/noise_sources.h"
#include "core/report.h"

/* The sources spelt out in a CPU's block; JSON has every one. */
#define TP_SOURCE_LINES	8

/* The CSV places of the sources' columns: after the first columns. */
#define TP_SOURCES_CSV	28

static const struct tp_family tp_source_seconds = {
	"tscprobe_noise_source_seconds_total", "counter",
	"Net time of what ran inside the windows, by kind of source.", false,
};
static const struct tp_family tp_source_runs = {
	"tscprobe_noise_source_runs_total", "counter",
	"Times a source of that kind ran: inside the windows, or over the run for engine user (counted from /proc).",
	false,
};

/* The sources' Prometheus families, in their place after the others. */
void tp_noise_sources_families(struct tp_model *m)
{
	tp_family(m, &tp_source_seconds);
	tp_family(m, &tp_source_runs);
}

static bool tp_kind_known(const struct tp_cpu_res *c, unsigned int kind)
{
	return c->kinds_known & (1U << kind);
}

/* What the userspace engine's sources cannot say, after their counts. */
#define TP_UNTIMED_TEXT "no time, no thread named, no NMI, none per event"

/* A kind's figures in the sources line: "irq 205 (17.1ms)", "irq 102". */
static void tp_kind_text(FILE *f, const struct tp_result *r,
			 const struct tp_cpu_res *c, unsigned int k)
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
static void tp_source_line(struct tp_model *m, const struct tp_cpu_res *c,
			   const struct tp_source_res *s)
{
	char t[32], label[TP_SOURCE_LABEL];

	tp_source_label(s, label, sizeof(label));
	if (c->sources_untimed) {
		tp_text(m, "    %s: %llu time%s\n", label,
			(unsigned long long)s->count, s->count == 1 ? "" : "s");
		return;
	}
	tp_format_cycles(s->cycles, tp_model_result(m)->tsc_khz, t, sizeof(t));
	tp_text(m, "    %s: %s in %llu\n", label, t,
		(unsigned long long)s->count);
}

/*
 * A CPU's sources in text: a line of the kinds' totals, then the largest;
 * what they count said first (the module's traced time inside the
 * windows, or the userspace engine's counts from /proc over the run).
 */
static void tp_sources_text(struct tp_model *m, const struct tp_cpu_res *c)
{
	const struct tp_result *r = tp_model_result(m);
	unsigned int k, i;
	FILE *f;

	if (!c->kinds_known) {
		tp_text_wrap(m, "    ", "  what ran inside the windows: n/a (%s)\n",
			     r->user_engine ?
			     "the userspace engine could read none of /proc/interrupts, /proc/softirqs and its thread's context switches" :
			     "the module could not probe the kernel's tracepoints");
		return;
	}
	f = tp_text_open(m);
	fprintf(f, c->sources_untimed ? "  ran on the CPU over the run, counted from /proc:" :
		"  what ran inside the windows, traced:");
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++)
		tp_kind_text(f, r, c, k);
	if (c->sources_untimed)
		fprintf(f, "; %s\n", TP_UNTIMED_TEXT);
	else
		fprintf(f, "; %llu spans lost\n",
			(unsigned long long)c->sources_lost);
	tp_text_close(m, f, "    ");
	for (i = 0; i < c->nsources && i < TP_SOURCE_LINES; i++)
		tp_source_line(m, c, &c->sources[i]);
	if (c->nsources > TP_SOURCE_LINES)
		tp_text(m, "    and %u more (-j lists each)\n",
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

/*
 * Each kind's count (tscprobe_noise_source_runs_total) and time (its ns
 * is tscprobe_noise_source_seconds_total), null where the kind was not
 * probed or read: its CSV cells stay empty.
 */
static void tp_kinds_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	unsigned int k, col;

	tp_obj(m, "kinds");
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		const char *name = tp_source_name(k);
		char count[40], ns[40];
		const char *labels = tp_labels(m, "kind", name, NULL);

		col = TP_SOURCES_CSV + 2 * k;
		snprintf(count, sizeof(count), "sources_%s_count", name);
		snprintf(ns, sizeof(ns), "sources_%s_ns", name);
		tp_obj_known(m, name, tp_kind_known(c, k));
		tp_source_figures_model(m, tp_model_result(m)->tsc_khz,
					&c->kinds[k], tp_kind_known(c, k),
					!c->sources_untimed,
					&(struct tp_opts){ .csv = col, .col = count,
					.prom = &tp_source_runs, .labels = labels },
					&(struct tp_opts){ .csv = col + 1, .col = ns,
					.prom = &tp_source_seconds, .labels = labels,
					.div = 1e9 });
		tp_end(m);
	}
	tp_end(m);
}

/*
 * The largest source in CSV: its label and ns ("" and 0 without a source;
 * the ns empty where the sources are untimed).
 */
static void tp_top_source_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	const struct tp_result *r = tp_model_result(m);
	const struct tp_source_res *top = c->nsources ? &c->sources[0] : NULL;
	struct tp_opts o = { .csv = TP_SOURCES_CSV + 9, .col = "top_source",
			     .not_in = TP_NO_DOC };
	char label[TP_SOURCE_LABEL] = "";

	if (top)
		tp_source_label(top, label, sizeof(label));
	tp_str(m, "top_source", c->kinds_known ? label : NULL, &o);
	o.csv++;
	o.col = "top_source_ns";
	tp_counter(m, "top_source_ns", &(struct tp_counter_res){
		   c->kinds_known && !c->sources_untimed,
		   tp_cycles_to_ns_round(top ? top->cycles : 0, r->tsc_khz) }, &o);
}

/**
 * tp_noise_sources_model() - a CPU's "sources": null when unknown, else
 *	"timed" (false: the userspace engine's counts), "lost" (null when
 *	untimed), "kinds" (each kind's totals, null where it was not probed or
 *	read) and "named" (the sources, largest first); their lines in text,
 *	their columns in CSV, each kind's count and time in Prometheus
 * @m: the model, the CPU's row open
 * @c: the CPU
 */
void tp_noise_sources_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	const struct tp_opts lost = { .csv = TP_SOURCES_CSV + 8,
				      .col = "sources_lost" };
	bool untimed = c->sources_untimed;
	unsigned int i;

	tp_sources_text(m, c);
	tp_obj_known(m, "sources", c->kinds_known);
	tp_bool(m, "timed", !untimed, NULL);
	tp_counter(m, "lost", &(struct tp_counter_res){
		   !untimed && c->kinds_known, c->sources_lost }, &lost);
	tp_kinds_model(m, c);
	tp_arr(m, "named");
	for (i = 0; i < c->nsources; i++)
		tp_source_model(m, tp_model_result(m)->tsc_khz, &c->sources[i],
				untimed);
	tp_end(m);
	tp_top_source_model(m, c);
	tp_end(m);
}
