// SPDX-License-Identifier: GPL-2.0
/*
 * The topology groups of CPU pairs (topology.h): the module's relation,
 * refined by sysfs where the module says only "same package".  sysfs is
 * read once per CPU, not once per pair: 256 CPUs are 65,280 pairs.
 */
#include <stdbool.h>
#include <stdlib.h>

#include <linux/tscprobe.h>
#include "user/lib/env.h"
#include "user/lib/topology.h"

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

/**
 * tp_topo_read() - the package, die and L3 of every CPU of a set
 * @cpus: the CPUs
 *
 * Return: the topology (free()), or NULL when out of memory.
 */
struct tp_topo *tp_topo_read(const struct tp_cpuset *cpus)
{
	struct tp_topo *t = malloc(sizeof(*t));
	struct tp_cpuset l3;
	unsigned int i;
	int cpu = -1;

	if (!t)
		return NULL;
	for (i = 0; i < TP_MAX_CPUS; i++)
		t->cpu[i] = (struct tp_topo_cpu){ -1, -1, -1 };
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		struct tp_topo_cpu *c = &t->cpu[cpu];

		c->package = tp_env_cpu_long(cpu, "topology/physical_package_id");
		c->die = tp_env_cpu_long(cpu, "topology/die_id");
		if (!tp_env_cpu_list(cpu, "cache/index3/shared_cpu_list", &l3))
			c->l3 = tp_cpuset_next(&l3, -1);
	}
	return t;
}

/* One L3, or one die of one package; false when sysfs does not say. */
static bool tp_topo_same_l3(const struct tp_topo *t, unsigned int i,
			    unsigned int j)
{
	const struct tp_topo_cpu *a = &t->cpu[i], *b = &t->cpu[j];

	if (a->l3 >= 0 && a->l3 == b->l3)
		return true;
	return a->package >= 0 && a->die >= 0 && a->package == b->package &&
	       a->die == b->die;
}

/**
 * tp_topo_group() - the group of a pair
 * @t: the run's topology (tp_topo_read()), or NULL: the relation alone
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
unsigned int tp_topo_group(const struct tp_topo *t, uint32_t relation,
			   unsigned int i, unsigned int j)
{
	switch (relation) {
	case TSCPROBE_REL_SMT:
		return TP_TOPO_SMT;
	case TSCPROBE_REL_PACKAGE:
		if (t && i < TP_MAX_CPUS && j < TP_MAX_CPUS &&
		    tp_topo_same_l3(t, i, j))
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
