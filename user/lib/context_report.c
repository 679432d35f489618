// SPDX-License-Identifier: GPL-2.0
/*
 * How every report prints the machine around a run (context.c): per CPU
 * its interrupts and scheduling, then the environment audit.
 */
#include <stdio.h>

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
 * tp_context_json() - the run's "cli", "conditions", "load", "actions"
 *	and "environment" objects
 * @r: the run
 * @j: the writer, inside the report's top-level object
 */
void tp_context_json(const struct tp_result *r, struct jw *j)
{
	tp_placement_json(&r->cli, j);
	tp_conditions_json(&r->held, j);
	tp_load_json(&r->load, j);
	tp_actions_json(&r->actions, j);
	if (r->ctx && r->ctx->have_env)
		tp_env_json(&r->ctx->env, j, "environment");
	else
		jw_null(j, "environment");
}
