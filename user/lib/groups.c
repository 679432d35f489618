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

#include "result.h"

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

/**
 * tp_result_group() - group a noise result's events across its CPUs
 * @r: the result; its events' @group, @groups and @ngroups are set
 *
 * A CPU's TSC offset is applied when the module gave it (@tsc_aligned);
 * without offsets the TSCs are taken as one clock, and the reports say
 * whether they are known to be in sync (@tsc_in_sync).  Does nothing for
 * other measurements.
 */
void tp_result_group(struct tp_result *r)
{
	struct tp_grouping g = { .ncpus = r->ncpus };
	struct tp_gevent *ev;
	unsigned int i, k;
	uint32_t n = 0;

	if (r->kind != TSCPROBE_KIND_NOISE)
		return;
	for (i = 0; i < r->ncpus; i++)
		n += r->cpu[i].nevents;
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
}
