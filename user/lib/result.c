// SPDX-License-Identifier: GPL-2.0
/*
 * A run's results as the CLI holds them (result.h): their entries, and
 * what every report asks of them.  decode.c fills them from the module's
 * messages, the userspace engines from their own threads.
 */
#include <stdlib.h>
#include <string.h>

#include "user/lib/cli.h"
#include "user/lib/context.h"
#include "core/names.h"
#include "core/report.h"
#include "user/lib/result.h"
#include "user/lib/format.h"

void tp_result_init(struct tp_result *r, uint32_t kind)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
}

/**
 * tp_result_drop_items() - forget the CPUs and pairs, what a dump of the
 *	results fills in, before it is read again
 * @r: the result
 */
void tp_result_drop_items(struct tp_result *r)
{
	unsigned int i, s;

	for (i = 0; i < r->ncpus; i++)
		for (s = 0; s <= TSCPROBE_SERIES_MAX; s++)
			free(r->cpu[i].series[s].hist);
	free(r->cpu);
	r->cpu = NULL;
	r->ncpus = r->cap = 0;
	free(r->pair);
	r->pair = NULL;
	r->npairs = r->pairs_cap = 0;
}

void tp_result_free(struct tp_result *r)
{
	tp_result_drop_items(r);
	tp_context_free(r->ctx);
	r->ctx = NULL;
	free(r->groups);
	r->groups = NULL;
	r->ngroups = 0;
	r->grouped = false;
}

/**
 * tp_cpu_incomplete_why() - why a CPU's figures are not the whole run's
 * @c: the CPU's entry
 * @samples: what it measured (noise: gaps; other kinds: nonzero)
 *
 * The module flags a CPU incomplete when it went offline mid-run, when a
 * noise CPU measured nothing though nothing stopped the run, or when its
 * thread could not get the CPU (STARVED: other tasks kept it busy, as a
 * SCHED_FIFO poller does; with HELD, the CPU ran nothing else either, as
 * an overcommitted VM's vCPU that its host does not schedule); for the
 * first two its samples tell.
 *
 * Return: "" when the CPU is complete, else the reason, as words.
 */
const char *tp_cpu_incomplete_why(const struct tp_cpu_res *c, uint64_t samples)
{
	if (!(c->flags & TSCPROBE_CPU_F_INCOMPLETE))
		return "";
	if (c->flags & TSCPROBE_CPU_F_HELD)
		return "not measured: its CPU ran nothing, not even its thread";
	if (c->flags & TSCPROBE_CPU_F_STARVED)
		return samples ? "starved: its thread lost the CPU" :
		       "not measured: its thread never got the CPU";
	return samples ? "went offline" : "measured nothing";
}

/**
 * tp_grow() - make room for one more entry of an array
 * @a: the array (NULL when empty)
 * @n: entries in use
 * @cap: entries allocated, updated
 * @first: entries of the first allocation
 * @size: an entry's size
 *
 * Results arrive one CPU or pair at a time; the array doubles so that
 * every append is cheap.  There is no way to report without the memory,
 * so running out ends the program.
 *
 * Return: the array, with room at index @n.
 */
static void *tp_grow(void *a, unsigned int n, unsigned int *cap,
		     unsigned int first, size_t size)
{
	if (n < *cap)
		return a;
	*cap = *cap ? 2 * *cap : first;
	a = realloc(a, *cap * size);
	if (!a) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	return a;
}

/**
 * tp_result_cpu() - the entry of a CPU, created on first use
 * @r: the result
 * @cpu: the CPU number
 *
 * Return: the entry; the program exits if memory runs out.
 */
struct tp_cpu_res *tp_result_cpu(struct tp_result *r, unsigned int cpu)
{
	struct tp_cpu_res *c;
	unsigned int i;

	for (i = 0; i < r->ncpus; i++)
		if (r->cpu[i].cpu == cpu)
			return &r->cpu[i];
	r->cpu = tp_grow(r->cpu, r->ncpus, &r->cap, 8, sizeof(*r->cpu));
	c = &r->cpu[r->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	for (i = 0; i <= TSCPROBE_SERIES_MAX; i++)
		tp_stats_init(&c->series[i].stats);
	return c;
}

/**
 * tp_series_hist() - a series' histogram, allocated (empty) on first use
 * @s: the series
 *
 * Return: the histogram; the program exits if memory runs out.
 */
struct tp_hist *tp_series_hist(struct tp_series_res *s)
{
	if (!s->hist) {
		s->hist = calloc(1, sizeof(*s->hist));
		if (!s->hist) {
			tp_err("out of memory");
			exit(TP_EXIT_FAIL);
		}
	}
	return s->hist;
}

/**
 * tp_result_add_pair() - append a skew pair (status SKIPPED, no numbers)
 * @r: the result
 * @from: CPU i
 * @to: CPU j
 *
 * Return: the entry; the program exits if memory runs out.
 */
struct tp_pair_res *tp_result_add_pair(struct tp_result *r, unsigned int from,
				       unsigned int to)
{
	struct tp_pair_res *p;

	r->pair = tp_grow(r->pair, r->npairs, &r->pairs_cap, 16,
			  sizeof(*r->pair));
	p = &r->pair[r->npairs++];
	memset(p, 0, sizeof(*p));
	p->from = from;
	p->to = to;
	p->status = TSCPROBE_PAIR_SKIPPED;
	tp_skew_stats_init(&p->st);
	return p;
}

/**
 * tp_result_smi_why() - why a result has no SMI count on some CPU
 * @r: a noise result
 *
 * The module leaves the count out where neither MSR_SMI_COUNT nor a PMU
 * counter of SMIs (AMD Zen) can be read, and always under a hypervisor (the kernel's X86_FEATURE_HYPERVISOR, which
 * /proc/cpuinfo shows as "hypervisor": the environment audit's).
 *
 * Return: TP_SMI_READABLE when every CPU has its count, else the reason.
 */
enum tp_smi_why tp_result_smi_why(const struct tp_result *r)
{
	unsigned int i;
	bool all = true;

	for (i = 0; i < r->ncpus; i++)
		all &= r->cpu[i].smi.ok;
	if (all)
		return TP_SMI_READABLE;
	if (r->user_engine)
		return TP_SMI_USERSPACE;
	if (!r->ctx || !r->ctx->have_env)
		return TP_SMI_UNKNOWN;
	return r->ctx->env.hypervisor ? TP_SMI_VM : TP_SMI_NO_MSR;
}

/**
 * tp_cpu_smi_source() - where a CPU's SMI count came from
 * @c: a CPU of a noise result
 *
 * A module before TSCPROBE_CPU_A_SMI_SOURCE read MSR_SMI_COUNT only.
 *
 * Return: enum tscprobe_smi_source; NONE exactly when the count is unknown.
 */
unsigned int tp_cpu_smi_source(const struct tp_cpu_res *c)
{
	if (!c->smi.ok)
		return TSCPROBE_SMI_SOURCE_NONE;
	if (c->smi_source == TSCPROBE_SMI_SOURCE_NONE)
		return TSCPROBE_SMI_SOURCE_MSR;
	return c->smi_source;
}

/**
 * tp_features_smi_source() - where the module counts SMIs, from GET_INFO
 * @features: TSCPROBE_FEAT_* bits
 *
 * Return: enum tscprobe_smi_source: PERF where the CPU's PMU counts them
 * (a run still needs a counter free on each CPU).
 */
unsigned int tp_features_smi_source(uint32_t features)
{
	if (features & TSCPROBE_FEAT_SMI_COUNT)
		return TSCPROBE_SMI_SOURCE_MSR;
	if (features & TSCPROBE_FEAT_SMI_PMU)
		return TSCPROBE_SMI_SOURCE_PERF;
	return TSCPROBE_SMI_SOURCE_NONE;
}

/**
 * tp_smi_why_key() - a reason for a missing SMI count, for JSON
 * @why: the reason
 *
 * Return: "virtual-machine", "userspace", "no-msr", "unknown"; NULL for
 * TP_SMI_READABLE.
 */
const char *tp_smi_why_key(enum tp_smi_why why)
{
	static const char *const key[] = {
		[TP_SMI_VM] = "virtual-machine",
		[TP_SMI_USERSPACE] = "userspace",
		[TP_SMI_NO_MSR] = "no-msr",
		[TP_SMI_UNKNOWN] = "unknown",
	};

	return why < TP_ARRAY_SIZE(key) ? key[why] : "unknown";
}

/**
 * tp_smi_why_text() - a reason for a missing SMI count, in words
 * @why: the reason
 *
 * Return: the sentence (no newline); "" for TP_SMI_READABLE.
 */
const char *tp_smi_why_text(enum tp_smi_why why)
{
	static const char *const text[] = {
		[TP_SMI_READABLE] = "",
		[TP_SMI_VM] = "a virtual machine: its MSR_SMI_COUNT, where there is one, is the hypervisor's (KVM's reads 0 forever), and the host's SMIs, which stop this guest too, are in no count it can read",
		[TP_SMI_USERSPACE] = "the userspace engine cannot read MSRs",
		[TP_SMI_NO_MSR] = "neither MSR_SMI_COUNT (Intel) nor a PMU counter of SMIs (AMD Zen: no PMU, or no counter free) could be read on this CPU",
		[TP_SMI_UNKNOWN] = "the module did not send it",
	};

	return why < TP_ARRAY_SIZE(text) ? text[why] : text[TP_SMI_UNKNOWN];
}

/**
 * tp_event_cause_word() - an event's cause as a word
 * @e: the event
 *
 * Return: "smi", "nmi", "irq", "steal", "unexplained", or "n/a" when no
 * cause was given.
 */
const char *tp_event_cause_word(const struct tp_event_res *e)
{
	return e->has_cause ? tp_cause_name(e->cause) : "n/a";
}

/**
 * tp_result_max_gap() - a noise run's largest gap so far, and its CPU
 * @r: results, or a status reply
 * @cpu: set to the CPU that saw it (the first CPU when none saw one);
 *	unchanged without CPUs.  May be NULL.
 *
 * Return: the gap in cycles (0: none).
 */
uint64_t tp_result_max_gap(const struct tp_result *r, unsigned int *cpu)
{
	uint64_t max = 0, m;
	unsigned int i;

	for (i = 0; i < r->ncpus; i++) {
		m = r->cpu[i].series[TSCPROBE_SERIES_GAP].stats.max;
		if (!i || m > max) {
			max = m;
			if (cpu)
				*cpu = r->cpu[i].cpu;
		}
	}
	return max;
}

/**
 * tp_result_action_end() - how a run ended, as the --on-end actions see it
 * @r: the run's results
 * @end: filled in
 *
 * Return: @end.
 */
const struct tp_action_end *tp_result_action_end(const struct tp_result *r,
						 struct tp_action_end *end)
{
	*end = (struct tp_action_end){
		.run_id = r->run_id,
		.reason = r->reason,
		.tsc_khz = r->tsc_khz,
	};
	end->max_gap = tp_result_max_gap(r, &end->max_gap_cpu);
	return end;
}

/**
 * tp_result_action_event() - an event of a run, as the --on-threshold
 *	actions see it
 * @r: the run, as START answered it
 * @cpu: the CPU that saw the event
 * @e: the event
 * @out: filled in
 *
 * Return: @out.
 */
const struct tp_action_event *
tp_result_action_event(const struct tp_result *r, unsigned int cpu,
		       const struct tp_event_res *e, struct tp_action_event *out)
{
	*out = (struct tp_action_event){
		.run_id = r->run_id,
		.cpu = cpu,
		.cycles = e->cycles,
		.cause = e->has_cause ? tp_cause_name(e->cause) : "",
		.tsc_khz = r->tsc_khz,
	};
	return out;
}
