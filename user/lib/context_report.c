// SPDX-License-Identifier: GPL-2.0
/*
 * What every report says about its run, as parts of the report model: the
 * head (which run, on what machine, the TSC rate), per CPU its interrupts
 * and scheduling, and the machine around the run (where the CLI ran, the
 * conditions held, the clocks, the load, the actions, the environment
 * audit).
 *
 * The run's Prometheus labels (kind, engine, state, stop reason, run id,
 * kernel release, tscprobe version, host) sit on one info metric whose
 * value is always 1, as node_exporter's node_uname_info does, and not on
 * every series: a run id on every series would make every run a new set
 * of time series.  A query joins them where it needs them, e.g.
 *   tscprobe_noise_gap_cycles * on(instance) group_left(kernel)
 *     tscprobe_run_info
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "user/lib/context.h"
#include "user/lib/context_report.h"
#include "core/names.h"
#include "user/lib/json_write.h"
#include "user/lib/model.h"
#include "user/lib/result.h"

static const struct tp_family tp_run_info = {
	"tscprobe_run_info", "gauge",
	"The run this file describes, as labels; always 1.", true,
};
static const struct tp_family tp_run_elapsed = {
	"tscprobe_run_elapsed_seconds", "gauge", "How long the run took.", true,
};
static const struct tp_family tp_tsc_hertz = {
	"tscprobe_tsc_frequency_hertz", "gauge",
	"TSC rate: a *_cycles value over this is seconds.", true,
};

/* A report's "elapsed_ns", which is also tscprobe_run_elapsed_seconds. */
const struct tp_opts tp_elapsed_opts = {
	.prom = &tp_run_elapsed, .div = 1e9,
};

/* The kernel release and host name of the machine the CLI runs on. */
static void tp_machine(char *kernel, char *host, size_t len)
{
	tp_env_sys_line("/proc/sys/kernel/osrelease", kernel, len);
	tp_env_sys_line("/proc/sys/kernel/hostname", host, len);
}

static void tp_run_info_sample(struct tp_model *m, const char *kind)
{
	const struct tp_result *r = tp_model_result(m);
	char kernel[128], host[128], run_id[24];

	tp_machine(kernel, host, sizeof(kernel));
	snprintf(run_id, sizeof(run_id), "%" PRIu64, r->run_id);
	tp_u64(m, "run_info", 1, &(struct tp_opts){
		.prom = &tp_run_info, .not_in = TP_NO_DOC,
		.labels = tp_labels(m, "kind", kind, "engine", tp_result_engine(r),
				    "state", tp_state_name(r->state),
				    "stop_reason", tp_stop_reason_name(r->reason),
				    "run_id", run_id, "kernel", kernel,
				    "version", TSCPROBE_VERSION, "host", host,
				    NULL) });
}

/**
 * tp_report_origin() - where a report comes from: the schema of its JSON,
 *	the tscprobe that wrote it, the host and kernel it ran on, and when
 * @m: the model, the report's object open
 *
 * "schema" is TP_REPORT_SCHEMA: a key added keeps it, a key that goes or
 * changes its meaning, unit or type bumps it (Documentation/tscprobe.rst).
 * "started" is null for a stored result: when it ran is not known.
 */
void tp_report_origin(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	char kernel[128], host[128], at[32];
	struct tm tm;

	tp_machine(kernel, host, sizeof(kernel));
	tp_u64(m, "schema", TP_REPORT_SCHEMA, NULL);
	tp_str(m, "version", TSCPROBE_VERSION, NULL);
	tp_str(m, "host", host, NULL);
	tp_str(m, "kernel", kernel, NULL);
	if (r->started && gmtime_r(&r->started, &tm) &&
	    strftime(at, sizeof(at), "%Y-%m-%dT%H:%M:%SZ", &tm))
		tp_str(m, "started", at, NULL);
	else
		tp_null(m, "started", NULL);
}

/**
 * tp_report_head() - what every report starts with: kind, engine, run_id,
 *	state, stop_reason and tsc_khz, where it comes from
 *	(tp_report_origin()), and the run's Prometheus families
 * @m: the model, its report's object open
 * @kind: the kind's name
 *
 * A TSC rate of 0 is unknown: no tscprobe_tsc_frequency_hertz sample.
 */
void tp_report_head(struct tp_model *m, const char *kind)
{
	const struct tp_result *r = tp_model_result(m);

	tp_family(m, &tp_run_info);
	tp_family(m, &tp_run_elapsed);
	tp_family(m, &tp_tsc_hertz);
	tp_run_info_sample(m, kind);
	tp_str(m, "kind", kind, &(struct tp_opts){ .csv = 1 });
	tp_str(m, "engine", tp_result_engine(r), &(struct tp_opts){ .csv = 2 });
	tp_u64(m, "run_id", r->run_id, &(struct tp_opts){ .csv = 4 });
	tp_str(m, "state", tp_state_name(r->state), NULL);
	tp_str(m, "stop_reason", tp_stop_reason_name(r->reason), NULL);
	/* every CSV row has the rate, to turn its cycles into time */
	tp_u64(m, "tsc_khz", r->tsc_khz, &(struct tp_opts){ .csv = 900,
	       .prom = r->tsc_khz ? &tp_tsc_hertz : NULL, .scale = 1000 });
	tp_report_origin(m);
}

/**
 * tp_report_cpu_model() - what names a CPU's row and how it ran: "cpu",
 *	"node" and "incomplete" (CSV columns @csv on), "starved", "held"
 * @m: the model, the CPU's row open
 * @c: the CPU
 * @csv: the CSV place of its first column
 */
void tp_report_cpu_model(struct tp_model *m, const struct tp_cpu_res *c,
			 unsigned int csv)
{
	tp_u64(m, "cpu", c->cpu, &(struct tp_opts){ .csv = csv });
	tp_u64(m, "node", c->node, &(struct tp_opts){ .csv = csv + 1 });
	tp_bool(m, "incomplete", c->flags & TSCPROBE_CPU_F_INCOMPLETE,
		&(struct tp_opts){ .csv = csv + 2 });
	tp_bool(m, "starved", c->flags & TSCPROBE_CPU_F_STARVED, NULL);
	tp_bool(m, "held", c->flags & TSCPROBE_CPU_F_HELD, NULL);
}

/* A CPU table's last column: "  INCOMPLETE", " (starved)" when it starved. */
void tp_report_cpu_note(struct tp_model *m, const struct tp_cpu_res *c)
{
	bool incomplete = c->flags & TSCPROBE_CPU_F_INCOMPLETE;
	bool starved = incomplete && (c->flags & TSCPROBE_CPU_F_STARVED);
	char note[32];

	snprintf(note, sizeof(note), "%s%s", incomplete ? "  INCOMPLETE" : "",
		 starved ? " (starved)" : "");
	tp_str(m, "note", note, &(struct tp_opts){ .not_in = TP_ONLY_TEXT });
}

/* ", run 7 done (completed)" of the module's runs, in a text heading. */
void tp_report_run_text(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);

	if (!r->user_engine)
		tp_text(m, ", run %llu %s (%s)", (unsigned long long)r->run_id,
			tp_state_name(r->state), tp_stop_reason_name(r->reason));
	tp_text(m, "\n");
}

/*
 * A CPU's /proc/interrupts rows over the run, in the open object, null
 * where not known; with @head (NULL: not in text) their text line:
 * "@head LOC 1, RES 4, ...", or "@head unknown (...)".
 */
static void tp_irq_fields(struct tp_model *m, unsigned int cpu,
			  const char *head)
{
	const struct tp_context *x = tp_model_result(m)->ctx;
	bool known = tp_irq_known(x, cpu);
	char fmt[48];
	unsigned int k;

	if (head)
		tp_text(m, "%s%s", head, known ? "" :
			" unknown (not in both readings of /proc/interrupts)\n");
	for (k = 0; k < TP_IRQ_CATS; k++) {
		snprintf(fmt, sizeof(fmt), " %s %%llu%s", tp_irq_cat_name(k),
			 k + 1 < TP_IRQ_CATS ? "," : "\n");
		if (known)
			tp_u64(m, tp_irq_cat_name(k), tp_irq_delta(x, k, cpu),
			       head ? &(struct tp_opts){ .text = fmt } : NULL);
		else
			tp_null(m, tp_irq_cat_name(k), NULL);
	}
}

/**
 * tp_context_cpu_model() - a CPU's "interrupts" and "scheduler", and their
 *	lines in its text block
 * @m: the model, the CPU's row open
 * @c: the CPU
 */
void tp_context_cpu_model(struct tp_model *m, const struct tp_cpu_res *c)
{
	bool sched = c->ctx_vol.ok;
	bool irqs = tp_irq_known(tp_model_result(m)->ctx, c->cpu);

	tp_obj_known(m, "interrupts", irqs);
	if (irqs)
		tp_irq_fields(m, c->cpu, "  /proc/interrupts over the run:");
	tp_end(m);
	tp_obj(m, "scheduler");
	tp_counter(m, "voluntary_switches", &c->ctx_vol, !sched ? NULL :
		   &(struct tp_opts){ .text = "  the measuring thread: %llu voluntary" });
	tp_counter(m, "involuntary_switches", &c->ctx_invol, !sched ? NULL :
		   &(struct tp_opts){ .text = " and %llu involuntary context switches" });
	tp_counter(m, "migrations", &c->migrations, !sched ? NULL :
		   &(struct tp_opts){ .text = ", %llu migrations\n" });
	tp_end(m);
}

/**
 * tp_context_cpus_model() - "interrupts": every CPU of the run with its
 *	interrupts, for reports that are not per CPU (skew); and in text a
 *	line each
 * @m: the model, the report's object open
 * @text: write the text lines too
 */
void tp_context_cpus_model(struct tp_model *m, bool text)
{
	const struct tp_result *r = tp_model_result(m);
	char head[32];
	int cpu = -1;

	if (!r->ctx || !r->ctx->have_irqs) {
		tp_null(m, "interrupts", NULL);
		return;
	}
	if (text)
		tp_text(m, "interrupts during the run:\n");
	tp_arr(m, "interrupts");
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		snprintf(head, sizeof(head), "  cpu %d:", cpu);
		tp_obj(m, NULL);
		tp_u64(m, "cpu", (uint64_t)cpu, NULL);
		tp_irq_fields(m, (unsigned int)cpu, text ? head : NULL);
		tp_end(m);
	}
	tp_end(m);
}

/* A clock that moved by more than this over a CPU's run is warned of. */
#define TP_CLOCK_MOVED_PCT	5
/* The CPUs whose move is spelt out; -j has every one. */
#define TP_CLOCK_MOVED_LINES	8

static bool tp_clock_read(const struct tp_cpu_res *c)
{
	return c->clock_before_khz && c->clock_after_khz;
}

static bool tp_clock_moved(const struct tp_cpu_res *c)
{
	uint64_t b = c->clock_before_khz, a = c->clock_after_khz;

	return tp_clock_read(c) &&
	       (a > b ? a - b : b - a) * 100 > TP_CLOCK_MOVED_PCT * b;
}

/**
 * struct tp_clock_span - the clocks of a run's CPUs, before and after
 * @lo: the lowest before [0] and after [1], kHz
 * @hi: the highest
 * @nread: CPUs with both clocks
 * @unread: CPUs without
 * @moved: CPUs whose clock moved (tp_clock_moved())
 */
struct tp_clock_span {
	uint32_t lo[2];
	uint32_t hi[2];
	unsigned int nread;
	struct tp_cpuset unread;
	struct tp_cpuset moved;
};

static void tp_clock_span(const struct tp_result *r, struct tp_clock_span *s)
{
	unsigned int i, k;

	memset(s, 0, sizeof(*s));
	s->lo[0] = s->lo[1] = UINT32_MAX;
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];
		const uint32_t khz[2] = { c->clock_before_khz, c->clock_after_khz };

		if (!tp_clock_read(c)) {
			tp_cpuset_add(&s->unread, c->cpu);
			continue;
		}
		s->nread++;
		for (k = 0; k < 2; k++) {
			s->lo[k] = khz[k] < s->lo[k] ? khz[k] : s->lo[k];
			s->hi[k] = khz[k] > s->hi[k] ? khz[k] : s->hi[k];
		}
		if (tp_clock_moved(c))
			tp_cpuset_add(&s->moved, c->cpu);
	}
}

static void tp_mhz_range_text(struct tp_model *m, uint32_t lo, uint32_t hi)
{
	if (lo / 1000 == hi / 1000)
		tp_text(m, "%u", lo / 1000);
	else
		tp_text(m, "%u-%u", lo / 1000, hi / 1000);
}

/* Each CPU whose clock moved, up to TP_CLOCK_MOVED_LINES of them. */
static void tp_clock_moved_text(struct tp_model *m, const struct tp_result *r,
				const struct tp_clock_span *s)
{
	unsigned int i, n = 0, total = tp_cpuset_count(&s->moved);

	for (i = 0; i < r->ncpus && n < TP_CLOCK_MOVED_LINES; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		if (!tp_clock_moved(c))
			continue;
		n++;
		tp_text_wrap(m, "  ", "warning: CPU %u: the clock moved %+.1f %% during its run (%u -> %u MHz): its cycle figures mix two clocks\n",
			     c->cpu, 100.0 * ((double)c->clock_after_khz -
					      c->clock_before_khz) /
			     c->clock_before_khz, c->clock_before_khz / 1000,
			     c->clock_after_khz / 1000);
	}
	if (total > n)
		tp_text(m, "warning: and on %u more CPUs (-j lists each)\n",
			total - n);
}

static void tp_clock_text(struct tp_model *m, const struct tp_result *r,
			  const struct tp_clock_span *s)
{
	char cpus[256];

	if (!s->nread) {
		tp_text(m, "effective clock: not read (no APERF/MPERF on these CPUs)\n");
		return;
	}
	tp_text(m, "effective clock (APERF/MPERF) before -> after the run: ");
	tp_mhz_range_text(m, s->lo[0], s->hi[0]);
	tp_text(m, " -> ");
	tp_mhz_range_text(m, s->lo[1], s->hi[1]);
	tp_text(m, " MHz");
	if (tp_cpuset_count(&s->unread)) {
		tp_cpuset_who(&s->unread, cpus, sizeof(cpus));
		tp_text(m, "; not read on %s", cpus);
	}
	tp_text(m, "\n");
	tp_clock_moved_text(m, r, s);
}

static void tp_khz_as_mhz(struct tp_model *m, const char *key, uint32_t khz)
{
	tp_dbl(m, key, khz ? khz / 1000.0 : NAN, NULL);
}

/*
 * Cache and skew read the effective clock before and after each CPU's
 * measurement (noise has its own, per window): "clock", null from the
 * userspace engine, which reads no MSR; in text the ranges over the CPUs
 * and a warning for each CPU whose clock moved.
 */
static void tp_clock_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);
	struct tp_clock_span s;
	unsigned int i;

	if (r->kind == TSCPROBE_KIND_NOISE)
		return;
	if (r->user_engine) {
		tp_text(m, "effective clock: not read (the userspace engine reads no MSR)\n");
		tp_null(m, "clock", NULL);
		return;
	}
	tp_clock_span(r, &s);
	tp_clock_text(m, r, &s);
	tp_obj(m, "clock");
	tp_u64(m, "moved_above_pct", TP_CLOCK_MOVED_PCT, NULL);
	tp_cpuset(m, "moved_cpus", &s.moved);
	tp_arr(m, "cpus");
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		tp_obj(m, NULL);
		tp_u64(m, "cpu", c->cpu, NULL);
		tp_khz_as_mhz(m, "before_mhz", c->clock_before_khz);
		tp_khz_as_mhz(m, "after_mhz", c->clock_after_khz);
		tp_bool(m, "moved", tp_clock_moved(c), NULL);
		tp_end(m);
	}
	tp_end(m);
	tp_end(m);
}

/* Where the CLI ran and the conditions it held: their own writers. */
static void tp_held_json(const void *ctx, struct jw *j)
{
	const struct tp_result *r = ctx;

	tp_placement_json(&r->cli, j);
	tp_conditions_json(&r->held, j);
}

static void tp_held_text(const void *ctx, FILE *f)
{
	const struct tp_result *r = ctx;

	tp_placement_text(&r->cli, f);
	tp_conditions_text(&r->held, f);
}

/* The load, the actions and the environment audit: their own writers. */
static void tp_around_json(const void *ctx, struct jw *j)
{
	const struct tp_result *r = ctx;

	tp_load_json(&r->load, j);
	tp_actions_json(&r->actions, j);
	if (r->ctx && r->ctx->have_env)
		tp_env_json(&r->ctx->env, j, "environment");
	else
		jw_null(j, "environment");
}

static void tp_around_text(const void *ctx, FILE *f)
{
	const struct tp_result *r = ctx;

	tp_load_text(&r->load, f);
	tp_actions_text(&r->actions, f);
	if (!r->ctx || !r->ctx->have_env || !r->ctx->env.nwarn)
		return;
	fprintf(f, "environment (tscprobe env):\n");
	tp_env_warnings_text(&r->ctx->env, f);
}

/**
 * tp_context_model() - the machine around the run: "cli", "conditions",
 *	"clock" (cache and skew), "load", "actions" and "environment", and
 *	their lines in text (the environment's warnings)
 * @m: the model, the report's object open
 */
void tp_context_model(struct tp_model *m)
{
	const struct tp_result *r = tp_model_result(m);

	tp_raw(m, tp_held_json, tp_held_text, r);
	tp_clock_model(m);
	tp_raw(m, tp_around_json, tp_around_text, r);
}
