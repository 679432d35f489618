// SPDX-License-Identifier: GPL-2.0
/*
 * Grouping noise events of several CPUs by overlap in time: sort the gaps
 * by their start on the reference time line (heapsort: bounded, no
 * recursion, no allocation), then sweep, starting a new group whenever a
 * gap starts after every gap of the current group has ended.
 */
#include "group.h"

/* The start and the end of event @i's gap on the reference time line. */
static uint64_t tp_gev_start(const struct tp_gevent *ev, uint32_t i,
			     const struct tp_grouping *g)
{
	uint64_t start = ev[i].tsc - ev[i].cycles;

	return g->offset ? start - (uint64_t)g->offset[ev[i].cpu] : start;
}

static uint64_t tp_gev_end(const struct tp_gevent *ev, uint32_t i,
			   const struct tp_grouping *g)
{
	return g->offset ? ev[i].tsc - (uint64_t)g->offset[ev[i].cpu] :
		ev[i].tsc;
}

/* Does event @a come before event @b (by start, then CPU, then index)? */
static bool tp_gev_before(const struct tp_gevent *ev, uint32_t a, uint32_t b,
			  const struct tp_grouping *g)
{
	uint64_t sa = tp_gev_start(ev, a, g), sb = tp_gev_start(ev, b, g);

	if (sa != sb)
		return sa < sb;
	if (ev[a].cpu != ev[b].cpu)
		return ev[a].cpu < ev[b].cpu;
	return a < b;
}

/* Restore the max-heap below @root, in the first @n entries of @order. */
static void tp_gev_sift(const struct tp_gevent *ev, uint32_t *order,
			uint32_t root, uint32_t n, const struct tp_grouping *g)
{
	uint32_t child, tmp;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n &&
		    tp_gev_before(ev, order[child], order[child + 1], g))
			child++;
		if (!tp_gev_before(ev, order[root], order[child], g))
			return;
		tmp = order[root];
		order[root] = order[child];
		order[child] = tmp;
		root = child;
	}
}

/* @order: the indexes of @n events, sorted by start. */
static void tp_gev_sort(const struct tp_gevent *ev, uint32_t n,
			const struct tp_grouping *g)
{
	uint32_t *order = g->order;
	uint32_t i, tmp;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n / 2; i-- > 0;)
		tp_gev_sift(ev, order, i, n, g);
	for (i = n; i-- > 1;) {
		tmp = order[0];
		order[0] = order[i];
		order[i] = tmp;
		tp_gev_sift(ev, order, 0, i, g);
	}
}

/* How far a group of @cpus CPUs reaches, of @ncpus measured. */
static uint32_t tp_group_kind_of(uint32_t cpus, uint32_t ncpus)
{
	if (cpus <= 1)
		return TP_GROUP_LOCAL;
	return cpus >= ncpus ? TP_GROUP_MACHINE : TP_GROUP_PARTIAL;
}

/**
 * tp_group_events() - group events that overlap in time
 * @ev: the events; each one's @group is set
 * @n: how many
 * @g: the CPUs' offsets, the slack, the scratch space and the output
 *
 * Every event ends up in exactly one group; the groups are in time order,
 * do not overlap one another (widened by the slack), and their events add
 * up to @n.
 *
 * Return: the number of groups written to @g->groups.
 */
uint32_t tp_group_events(struct tp_gevent *ev, uint32_t n,
			 const struct tp_grouping *g)
{
	struct tp_group *cur = NULL;
	uint32_t ngroups = 0;
	uint32_t i, e;

	tp_gev_sort(ev, n, g);
	for (i = 0; i < n; i++) {
		uint64_t start, end;

		e = g->order[i];
		start = tp_gev_start(ev, e, g);
		end = tp_gev_end(ev, e, g);
		if (!cur || start > cur->end + g->slack) {
			cur = &g->groups[ngroups++];
			cur->start = start;
			cur->end = end;
			cur->events = 0;
			cur->cpus = 0;
		}
		if (end > cur->end)
			cur->end = end;
		cur->events++;
		ev[e].group = ngroups - 1;
		if (g->stamp[ev[e].cpu] != ngroups) {
			g->stamp[ev[e].cpu] = ngroups;
			cur->cpus++;
		}
		cur->kind = tp_group_kind_of(cur->cpus, g->ncpus);
	}
	return ngroups;
}
