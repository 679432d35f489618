// SPDX-License-Identifier: GPL-2.0
/*
 * The topology groups of CPU pairs (topology.h): the module's relation,
 * refined by sysfs where the module says only "same package".
 */
#include <stdbool.h>

#include "cli.h"
#include "env.h"
#include "topology.h"
#include "tscprobe.h"

static const char *const tp_topo_names[TP_TOPO_GROUPS] = {
	[TP_TOPO_SMT] = "SMT siblings",
	[TP_TOPO_L3] = "same die/L3",
	[TP_TOPO_PACKAGE] = "same package",
	[TP_TOPO_PACKAGES] = "across packages",
	[TP_TOPO_NODES] = "across NUMA nodes",
	[TP_TOPO_UNKNOWN] = "unknown",
};

/**
 * tp_topo_group_name() - a group as the report names it
 * @group: an enum tp_topo_group
 *
 * Return: the name; "unknown" for a value out of range.
 */
const char *tp_topo_group_name(unsigned int group)
{
	return tp_topo_names[group < TP_TOPO_GROUPS ? group : TP_TOPO_UNKNOWN];
}

/* Both CPUs list each other in the same file (an L3's shared_cpu_list). */
static bool tp_topo_shares(unsigned int i, unsigned int j, const char *rel)
{
	struct tp_cpuset set;

	return !tp_env_cpu_list(i, rel, &set) && tp_cpuset_has(&set, j);
}

/*
 * Same die: die_id is per package, so the two CPUs' package and die ids
 * must both be equal; unknown when either file is missing.
 */
static int tp_topo_same_die(unsigned int i, unsigned int j)
{
	long pi = tp_env_cpu_long(i, "topology/physical_package_id");
	long pj = tp_env_cpu_long(j, "topology/physical_package_id");
	long di = tp_env_cpu_long(i, "topology/die_id");
	long dj = tp_env_cpu_long(j, "topology/die_id");

	if (pi < 0 || pj < 0 || di < 0 || dj < 0)
		return -1;
	return pi == pj && di == dj;
}

/**
 * tp_topo_group() - the group of a pair
 * @relation: the pair's enum tscprobe_relation (the module's, or the
 *	userspace engine's from the same rule)
 * @i: one CPU
 * @j: the other
 *
 * "Same package" is split: same die or a shared L3 (cache/index3) is
 * TP_TOPO_L3, else TP_TOPO_PACKAGE.  A machine whose sysfs says neither is
 * TP_TOPO_PACKAGE: nothing is claimed that sysfs did not say.
 *
 * Return: an enum tp_topo_group.
 */
unsigned int tp_topo_group(uint32_t relation, unsigned int i, unsigned int j)
{
	switch (relation) {
	case TSCPROBE_REL_SMT:
		return TP_TOPO_SMT;
	case TSCPROBE_REL_PACKAGE:
		if (tp_topo_shares(i, j, "cache/index3/shared_cpu_list") ||
		    tp_topo_same_die(i, j) == 1)
			return TP_TOPO_L3;
		return TP_TOPO_PACKAGE;
	case TSCPROBE_REL_OTHER_PACKAGE:
		return TP_TOPO_PACKAGES;
	case TSCPROBE_REL_OTHER_NODE:
		return TP_TOPO_NODES;
	default:
		return TP_TOPO_UNKNOWN;
	}
}
