// SPDX-License-Identifier: GPL-2.0
/*
 * How every report prints the machine around a run (context.c): per CPU
 * its interrupts and scheduling, then the environment audit.
 */
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "context_report.h"
#include "json_write.h"
#include "result.h"

static void tp_context_irqs_line(const struct tp_context *x, unsigned int cpu,
				 FILE *f)
{
	unsigned int k;

	for (k = 0; k < TP_IRQ_CATS; k++)
		fprintf(f, " %s %llu%s", tp_irq_cat_name(k),
			(unsigned long long)tp_irq_delta(x, k, cpu),
			k + 1 < TP_IRQ_CATS ? "," : "");
	fprintf(f, "\n");
}

/**
 * tp_context_cpu_text() - one CPU's interrupts and scheduling, in a line
 * @r: the run
 * @c: the CPU
 * @f: where to
 */
void tp_context_cpu_text(const struct tp_result *r, const struct tp_cpu_res *c,
			 FILE *f)
{
	if (tp_irq_known(r->ctx, c->cpu)) {
		fprintf(f, "  interrupts:");
		tp_context_irqs_line(r->ctx, c->cpu, f);
	}
	if (c->ctx_vol.ok)
		fprintf(f, "  scheduler: %llu voluntary and %llu involuntary context switches, %llu migrations\n",
			(unsigned long long)c->ctx_vol.v,
			(unsigned long long)c->ctx_invol.v,
			(unsigned long long)c->migrations.v);
}

/**
 * tp_context_cpus_text() - the interrupts of every CPU of the run, a line
 *	each, for reports that are not per CPU (skew)
 * @r: the run
 * @f: where to
 */
void tp_context_cpus_text(const struct tp_result *r, FILE *f)
{
	int cpu = -1;

	if (!r->ctx || !r->ctx->have_irqs)
		return;
	fprintf(f, "interrupts during the run:\n");
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		fprintf(f, "  cpu %d:", cpu);
		if (tp_irq_known(r->ctx, (unsigned int)cpu))
			tp_context_irqs_line(r->ctx, (unsigned int)cpu, f);
		else
			fprintf(f, " unknown (not in both readings of /proc/interrupts)\n");
	}
}

/**
 * tp_context_cpus_json() - "interrupts": a list of {cpu, LOC, ...}
 * @r: the run
 * @j: the writer, inside the report's top-level object
 */
void tp_context_cpus_json(const struct tp_result *r, struct jw *j)
{
	unsigned int k;
	int cpu = -1;

	if (!r->ctx || !r->ctx->have_irqs) {
		jw_null(j, "interrupts");
		return;
	}
	jw_arr(j, "interrupts");
	while ((cpu = tp_cpuset_next(&r->cpus, cpu)) >= 0) {
		jw_obj(j, NULL);
		jw_u64(j, "cpu", (uint64_t)cpu);
		for (k = 0; k < TP_IRQ_CATS; k++)
			if (tp_irq_known(r->ctx, (unsigned int)cpu))
				jw_u64(j, tp_irq_cat_name(k),
				       tp_irq_delta(r->ctx, k, (unsigned int)cpu));
			else
				jw_null(j, tp_irq_cat_name(k));
		jw_obj_end(j);
	}
	jw_arr_end(j);
}

/* A clock that moved by more than this over a CPU's run is warned of. */
#define TP_CLOCK_MOVED_PCT	5
/* The CPUs whose move is spelt out; -j has every one. */
#define TP_CLOCK_MOVED_LINES	8

/* Cache and skew read the clocks (noise has its own, per window). */
static bool tp_clock_reported(const struct tp_result *r)
{
	return r->kind != TSCPROBE_KIND_NOISE;
}

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

static void tp_mhz_range_text(uint32_t lo, uint32_t hi, FILE *f)
{
	if (lo / 1000 == hi / 1000)
		fprintf(f, "%u", lo / 1000);
	else
		fprintf(f, "%u-%u", lo / 1000, hi / 1000);
}

/* Each CPU whose clock moved, up to TP_CLOCK_MOVED_LINES of them. */
static void tp_clock_moved_text(const struct tp_result *r,
				const struct tp_clock_span *s, FILE *f)
{
	unsigned int i, n = 0, total = tp_cpuset_count(&s->moved);

	for (i = 0; i < r->ncpus && n < TP_CLOCK_MOVED_LINES; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		if (!tp_clock_moved(c))
			continue;
		n++;
		fprintf(f, "warning: CPU %u: the clock moved %+.1f %% during its run (%u -> %u MHz): its cycle figures mix two clocks\n",
			c->cpu,
			100.0 * ((double)c->clock_after_khz - c->clock_before_khz) /
			c->clock_before_khz,
			c->clock_before_khz / 1000, c->clock_after_khz / 1000);
	}
	if (total > n)
		fprintf(f, "warning: and on %u more CPUs (-j lists each)\n", total - n);
}

/*
 * Cache and skew: the effective clock before and after each CPU's run,
 * as ranges over the CPUs, and a warning for each CPU where it moved.
 */
static void tp_clock_text(const struct tp_result *r, FILE *f)
{
	struct tp_clock_span s;
	char cpus[256];

	if (!tp_clock_reported(r))
		return;
	if (r->user_engine) {
		fprintf(f, "effective clock: not read (the userspace engine reads no MSR)\n");
		return;
	}
	tp_clock_span(r, &s);
	if (!s.nread) {
		fprintf(f, "effective clock: not read (no APERF/MPERF on these CPUs)\n");
		return;
	}
	fprintf(f, "effective clock (APERF/MPERF) before -> after the run: ");
	tp_mhz_range_text(s.lo[0], s.hi[0], f);
	fprintf(f, " -> ");
	tp_mhz_range_text(s.lo[1], s.hi[1], f);
	fprintf(f, " MHz");
	if (tp_cpuset_count(&s.unread)) {
		tp_cpuset_who(&s.unread, cpus, sizeof(cpus));
		fprintf(f, "; not read on %s", cpus);
	}
	fprintf(f, "\n");
	tp_clock_moved_text(r, &s, f);
}

static void tp_json_khz_as_mhz(struct jw *j, const char *key, uint32_t khz)
{
	if (khz)
		jw_double(j, key, khz / 1000.0);
	else
		jw_null(j, key);
}

/* Cache and skew: "clock", null from the userspace engine. */
static void tp_clock_json(const struct tp_result *r, struct jw *j)
{
	struct tp_clock_span s;
	unsigned int i;

	if (!tp_clock_reported(r))
		return;
	if (r->user_engine) {
		jw_null(j, "clock");
		return;
	}
	tp_clock_span(r, &s);
	jw_obj(j, "clock");
	jw_u64(j, "moved_above_pct", TP_CLOCK_MOVED_PCT);
	jw_cpuset(j, "moved_cpus", &s.moved);
	jw_arr(j, "cpus");
	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		jw_obj(j, NULL);
		jw_u64(j, "cpu", c->cpu);
		tp_json_khz_as_mhz(j, "before_mhz", c->clock_before_khz);
		tp_json_khz_as_mhz(j, "after_mhz", c->clock_after_khz);
		jw_bool(j, "moved", tp_clock_moved(c));
		jw_obj_end(j);
	}
	jw_arr_end(j);
	jw_obj_end(j);
}

/**
 * tp_context_text() - where the CLI ran, and the environment warnings of
 *	the run's CPUs
 * @r: the run
 * @f: where to
 */
void tp_context_text(const struct tp_result *r, FILE *f)
{
	tp_placement_text(&r->cli, f);
	tp_conditions_text(&r->held, f);
	tp_clock_text(r, f);
	tp_load_text(&r->load, f);
	tp_actions_text(&r->actions, f);
	if (!r->ctx || !r->ctx->have_env || !r->ctx->env.nwarn)
		return;
	fprintf(f, "environment (tscprobe env):\n");
	tp_env_warnings_text(&r->ctx->env, f);
}

/**
 * tp_context_cpu_json() - a CPU's "interrupts" and "scheduler" objects
 * @r: the run
 * @c: the CPU
 * @j: the writer, inside the CPU's object
 */
void tp_context_cpu_json(const struct tp_result *r, const struct tp_cpu_res *c,
			 struct jw *j)
{
	unsigned int k;

	if (tp_irq_known(r->ctx, c->cpu)) {
		jw_obj(j, "interrupts");
		for (k = 0; k < TP_IRQ_CATS; k++)
			jw_u64(j, tp_irq_cat_name(k),
			       tp_irq_delta(r->ctx, k, c->cpu));
		jw_obj_end(j);
	} else {
		jw_null(j, "interrupts");
	}
	jw_obj(j, "scheduler");
	tp_json_counter(j, "voluntary_switches", &c->ctx_vol);
	tp_json_counter(j, "involuntary_switches", &c->ctx_invol);
	tp_json_counter(j, "migrations", &c->migrations);
	jw_obj_end(j);
}

/**
 * tp_context_json() - the run's "cli", "conditions", "clock" (cache and
 *	skew), "load", "actions" and "environment" objects
 * @r: the run
 * @j: the writer, inside the report's top-level object
 */
void tp_context_json(const struct tp_result *r, struct jw *j)
{
	tp_placement_json(&r->cli, j);
	tp_conditions_json(&r->held, j);
	tp_clock_json(r, j);
	tp_load_json(&r->load, j);
	tp_actions_json(&r->actions, j);
	if (r->ctx && r->ctx->have_env)
		tp_env_json(&r->ctx->env, j, "environment");
	else
		jw_null(j, "environment");
}
