/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where two CPUs sit, as the skew report groups its pairs on big machines:
 * SMT siblings, one die or L3, one package, two packages, two NUMA nodes.
 * The module's relation of a pair (TSCPROBE_PAIR_A_RELATION) says most of
 * it; sysfs (under $TSCPROBE_SYSROOT) splits "same package" by die and L3.
 */
#ifndef TSCPROBE_USER_TOPOLOGY_H
#define TSCPROBE_USER_TOPOLOGY_H

#include <stdint.h>

/** enum tp_topo_group - the groups, nearest first */
enum tp_topo_group {
	TP_TOPO_SMT,		/* SMT siblings of one core */
	TP_TOPO_L3,		/* other core, same die or the same L3 */
	TP_TOPO_PACKAGE,	/* same package, another die and L3 */
	TP_TOPO_PACKAGES,	/* two packages, one NUMA node */
	TP_TOPO_NODES,		/* two NUMA nodes */
	TP_TOPO_UNKNOWN,	/* the relation is unknown */
	TP_TOPO_GROUPS
};

const char *tp_topo_group_name(unsigned int group);
unsigned int tp_topo_group(uint32_t relation, unsigned int i, unsigned int j);

#endif /* TSCPROBE_USER_TOPOLOGY_H */
