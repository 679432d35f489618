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

#include "user/lib/cpuset.h"

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

/**
 * struct tp_topo_cpu - what sysfs says of one CPU (-1: it does not)
 * @package: physical_package_id
 * @die: die_id
 * @l3: the first CPU of its L3's shared_cpu_list, naming that L3
 */
struct tp_topo_cpu {
	long package;
	long die;
	long l3;
};

/**
 * struct tp_topo - the CPUs of a run, read once
 * @cpu: indexed by CPU number, TP_MAX_CPUS entries
 */
struct tp_topo {
	struct tp_topo_cpu cpu[TP_MAX_CPUS];
};

struct tp_topo *tp_topo_read(const struct tp_cpuset *cpus);
const char *tp_topo_group_name(unsigned int group);
unsigned int tp_topo_group(const struct tp_topo *t, uint32_t relation,
			   unsigned int i, unsigned int j);

#endif /* TSCPROBE_USER_TOPOLOGY_H */
