/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Machine-wide or local: noise events of different CPUs that overlap in
 * time are grouped.  A gap seen on every measured CPU at once is
 * machine-wide (an SMI stops every core, so does a paused VM); a gap on one
 * CPU alone is local (an NMI, an interrupt, a preempted vCPU); anything
 * between is partial.
 *
 * Each event is the TSC interval [tsc - cycles, tsc] of its CPU.  CPUs'
 * TSCs may be offset from each other: each CPU's offset (its TSC minus the
 * reference TSC) is subtracted first, so that the intervals are on one
 * time line.  Overlap is transitive: a chain of overlapping gaps is one
 * group even if its first and last gaps do not meet.
 */
#ifndef TSCPROBE_CORE_GROUP_H
#define TSCPROBE_CORE_GROUP_H

#include "host.h"

/**
 * enum tp_group_kind - how far a group reaches
 * @TP_GROUP_LOCAL: one CPU alone (always, when one CPU was measured)
 * @TP_GROUP_PARTIAL: several CPUs, not all
 * @TP_GROUP_MACHINE: every measured CPU (two or more)
 */
enum tp_group_kind {
	TP_GROUP_LOCAL,
	TP_GROUP_PARTIAL,
	TP_GROUP_MACHINE,
};

/**
 * struct tp_gevent - an event to group
 * @tsc: TSC at the end of the gap, as its CPU read it
 * @cycles: the gap's length
 * @cpu: the CPU's index among the measured CPUs (< ncpus)
 * @group: set by tp_group_events(): the index of the event's group
 */
struct tp_gevent {
	uint64_t tsc;
	uint64_t cycles;
	uint32_t cpu;
	uint32_t group;
};

/**
 * struct tp_group - events that overlap in time
 * @start: the earliest start of its gaps, on the reference time line
 * @end: the latest end of its gaps, on the reference time line
 * @events: events in the group
 * @cpus: distinct CPUs among them
 * @kind: enum tp_group_kind
 */
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
 * @ncpus: CPUs measured (every event's @cpu is below it)
 * @slack: cycles by which two gaps may miss each other and still count
 *	as overlapping (the offsets' uncertainty; 0: they must touch)
 * @order: scratch, one entry per event
 * @stamp: scratch, @ncpus entries, zeroed by the caller
 * @groups: the groups, one entry per event at most, in time order
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
