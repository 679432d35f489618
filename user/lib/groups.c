// SPDX-License-Identifier: GPL-2.0
/*
 * A noise result's events grouped across CPUs, with core/'s one grouping
 * algorithm (core/group.c): each event gets its group, the result the
 * groups, for every report to print.
 *
 * Only the events the result kept are grouped: a CPU that found more than
 * it kept (events_dropped) contributes its largest ones.
 */
#include <stdlib.h>
#include <string.h>

#include "user/lib/result.h"

/* Memory for @n entries of @size, or the end of the program. */
static void *tp_groups_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		tp_err("out of memory");
		exit(TP_EXIT_FAIL);
	}
	return p;
}

/*
 * Every kept event of every CPU, in CPU order then the result's order, as
 * core/'s grouping takes them (a CPU's index is its entry in @r->cpu).
 */
static uint32_t tp_groups_collect(const struct tp_result *r,
				  struct tp_gevent *ev)
{
	uint32_t n = 0;
	unsigned int i, k;

	for (i = 0; i < r->ncpus; i++)
		for (k = 0; k < r->cpu[i].nevents; k++) {
			ev[n].tsc = r->cpu[i].events[k].tsc;
			ev[n].cycles = r->cpu[i].events[k].cycles;
			ev[n].cpu = i;
			ev[n].group = 0;
			n++;
		}
	return n;
}

/*
 * The module's offsets align the TSCs when it gave one for every CPU and
 * the kernel has not found the TSC unstable (then offsets measured once
 * say nothing about now).
 */
static bool tp_groups_offsets_usable(const struct tp_result *r)
{
	unsigned int i;

	if (!r->ncpus || r->tsc_sync == TSCPROBE_TSC_UNSTABLE)
		return false;
	for (i = 0; i < r->ncpus; i++)
		if (!r->cpu[i].has_tsc_offset)
			return false;
	return true;
}

/**
 * tp_result_group() - group a noise result's events across its CPUs
 * @r: the result; its events' @group, @groups and @ngroups are set
 *
 * The CPUs' TSC offsets are applied when the module gave them for every
 * CPU and the TSC is not unstable (@tsc_aligned); otherwise the TSCs are
 * taken as one clock, and the reports say whether they are known to be in
 * sync (@tsc_in_sync: the kernel found the TSC stable).  Does nothing for
 * other measurements.
 */
void tp_result_group(struct tp_result *r)
{
	struct tp_grouping g = { .ncpus = r->ncpus };
	int64_t *offset = NULL;
	struct tp_gevent *ev;
	unsigned int i, k;
	uint32_t n = 0;

	if (r->kind != TSCPROBE_KIND_NOISE)
		return;
	for (i = 0; i < r->ncpus; i++)
		n += r->cpu[i].nevents;
	if (tp_groups_offsets_usable(r)) {
		offset = tp_groups_alloc(r->ncpus, sizeof(*offset));
		for (i = 0; i < r->ncpus; i++)
			offset[i] = r->cpu[i].tsc_offset;
		g.offset = offset;
	}
	r->tsc_aligned = offset != NULL;
	r->tsc_in_sync = r->tsc_aligned || r->tsc_sync == TSCPROBE_TSC_STABLE;
	ev = tp_groups_alloc(n, sizeof(*ev));
	g.order = tp_groups_alloc(n, sizeof(*g.order));
	g.stamp = tp_groups_alloc(r->ncpus, sizeof(*g.stamp));
	free(r->groups);
	r->groups = tp_groups_alloc(n, sizeof(*r->groups));
	g.groups = r->groups;
	tp_groups_collect(r, ev);
	r->ngroups = tp_group_events(ev, n, &g);
	n = 0;
	for (i = 0; i < r->ncpus; i++)
		for (k = 0; k < r->cpu[i].nevents; k++)
			r->cpu[i].events[k].group = ev[n++].group;
	r->grouped = true;
	free(ev);
	free(g.order);
	free(g.stamp);
	free(offset);
}
