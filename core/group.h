/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Noise events of different CPUs grouped by overlap in time, after each
 * CPU's TSC offset is subtracted (Documentation/tscprobe.rst, "Machine-wide
 * or local").  Overlap is transitive.
 */
#ifndef TSCPROBE_CORE_GROUP_H
#define TSCPROBE_CORE_GROUP_H

#include "host.h"

/* With one CPU measured every group is local; machine-wide needs two. */
enum tp_group_kind {
	TP_GROUP_LOCAL,
	TP_GROUP_PARTIAL,
	TP_GROUP_MACHINE,
};

/* The gap [tsc - cycles, tsc] on its CPU's TSC; cpu is an index < ncpus. */
struct tp_gevent {
	uint64_t tsc;
	uint64_t cycles;
	uint32_t cpu;
	uint32_t group;
};

/* start and end on the reference time line; cpus are distinct CPUs. */
struct tp_group {
	uint64_t start;
	uint64_t end;
	uint32_t events;
	uint32_t cpus;
	uint32_t kind;
};

/**
 * struct tp_grouping - what tp_group_events() needs besides the events
 * @offset: per CPU index, its TSC minus the reference TSC, in cycles
 *	(NULL: the TSCs are taken as one clock)
 * @ncpus: CPUs measured
 * @slack: cycles by which two gaps may miss each other and still overlap
 *	(the offsets' uncertainty; 0: they must touch)
 * @order: scratch, one entry per event
 * @stamp: scratch, @ncpus entries, zeroed by the caller
 * @groups: output, room for one group per event
 */
struct tp_grouping {
	const int64_t *offset;
	uint32_t ncpus;
	uint64_t slack;
	uint32_t *order;
	uint32_t *stamp;
	struct tp_group *groups;
};

uint32_t tp_group_events(struct tp_gevent *ev, uint32_t n,
			 const struct tp_grouping *g);

#endif /* TSCPROBE_CORE_GROUP_H */
