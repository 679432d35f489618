// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/group.c on synthetic events: simultaneous gaps on
 * every CPU make one machine-wide group, disjoint gaps make local ones,
 * chains of overlaps are one group, the CPUs' TSC offsets are applied, and
 * on random events the groups match a naive recomputation (every pair of
 * events compared, overlaps joined transitively) with every event in
 * exactly one group.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "core/group.h"
#include "prng.h"

#define MAX_EV		512
#define MAX_CPUS	16

/* The scratch space and output of one grouping. */
struct grouped {
	uint32_t order[MAX_EV];
	uint32_t stamp[MAX_CPUS];
	struct tp_group groups[MAX_EV];
	uint32_t n;
};

static uint32_t group(struct tp_gevent *ev, uint32_t n, uint32_t ncpus,
		      const int64_t *offset, uint64_t slack, struct grouped *out)
{
	struct tp_grouping g = {
		.offset = offset, .ncpus = ncpus, .slack = slack,
		.order = out->order, .stamp = out->stamp,
		.groups = out->groups,
	};

	memset(out->stamp, 0, sizeof(out->stamp));
	out->n = tp_group_events(ev, n, &g);
	return out->n;
}

static struct tp_gevent gev(uint32_t cpu, uint64_t tsc, uint64_t cycles)
{
	return (struct tp_gevent){ .tsc = tsc, .cycles = cycles, .cpu = cpu,
				   .group = 99999 };
}

TEST(simultaneous_gaps_of_every_cpu_are_one_machine_wide_group)
{
	struct tp_gevent ev[4];
	struct grouped g;
	uint32_t i;

	/* An SMI: every CPU stopped around the same 50000 cycles. */
	for (i = 0; i < 4; i++)
		ev[i] = gev(i, 1000000 + 7 * i, 50000 - 3 * i);
	ASSERT_EQ(1, group(ev, 4, 4, NULL, 0, &g));
	EXPECT_EQ(TP_GROUP_MACHINE, g.groups[0].kind);
	EXPECT_EQ(4, g.groups[0].cpus);
	EXPECT_EQ(4, g.groups[0].events);
	EXPECT_EQ(1000000 - 50000, g.groups[0].start);
	EXPECT_EQ(1000000 + 21, g.groups[0].end);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, ev[i].group);
}

TEST(disjoint_gaps_are_local_groups)
{
	struct tp_gevent ev[4] = {
		gev(2, 40000, 1000), gev(0, 10000, 1000),
		gev(1, 20000, 1000), gev(3, 30000, 1000),
	};
	struct grouped g;
	uint32_t i;

	ASSERT_EQ(4, group(ev, 4, 4, NULL, 0, &g));
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(TP_GROUP_LOCAL, g.groups[i].kind);
		EXPECT_EQ(1, g.groups[i].cpus);
	}
	/* In time order: the group of CPU 0's gap comes first. */
	EXPECT_EQ(0, ev[1].group);
	EXPECT_EQ(1, ev[2].group);
	EXPECT_EQ(2, ev[3].group);
	EXPECT_EQ(3, ev[0].group);
}

TEST(a_chain_of_overlaps_is_one_group)
{
	/* 0 meets 1, 1 meets 2, but 0 and 2 do not meet: one group. */
	struct tp_gevent ev[3] = {
		gev(0, 2000, 1000), gev(1, 2900, 1000), gev(2, 3800, 1000),
	};
	struct grouped g;

	ASSERT_EQ(1, group(ev, 3, 4, NULL, 0, &g));
	EXPECT_EQ(TP_GROUP_PARTIAL, g.groups[0].kind);
	EXPECT_EQ(3, g.groups[0].cpus);
	EXPECT_EQ(1000, g.groups[0].start);
	EXPECT_EQ(3800, g.groups[0].end);
	/* Touching ends overlap; one cycle apart they do not ... */
	ev[1] = gev(1, 3000, 999);
	EXPECT_EQ(2, group(ev, 2, 4, NULL, 0, &g));
	/* ... unless the slack covers it. */
	EXPECT_EQ(1, group(ev, 2, 4, NULL, 1, &g));
}

TEST(two_gaps_of_one_cpu_in_a_group_count_it_once)
{
	struct tp_gevent ev[3] = {
		gev(0, 2000, 1000), gev(1, 2500, 1000), gev(0, 3200, 1000),
	};
	struct grouped g;

	ASSERT_EQ(1, group(ev, 3, 2, NULL, 0, &g));
	EXPECT_EQ(2, g.groups[0].cpus);
	EXPECT_EQ(3, g.groups[0].events);
	EXPECT_EQ(TP_GROUP_MACHINE, g.groups[0].kind);
}

TEST(one_measured_cpu_is_only_ever_local)
{
	struct tp_gevent ev[1] = { gev(0, 2000, 1000) };
	struct grouped g;

	ASSERT_EQ(1, group(ev, 1, 1, NULL, 0, &g));
	EXPECT_EQ(TP_GROUP_LOCAL, g.groups[0].kind);
}

TEST(offsets_align_the_cpus)
{
	/* CPU 1's TSC runs 100000 cycles ahead of CPU 0's. */
	const int64_t offset[2] = { 0, 100000 };
	const int64_t behind[2] = { 0, -100000 };
	struct tp_gevent ev[2] = {
		gev(0, 50000, 1000), gev(1, 150000, 1000),
	};
	struct grouped g;

	/* The same moment on both clocks: apart raw, together aligned. */
	EXPECT_EQ(2, group(ev, 2, 2, NULL, 0, &g));
	ASSERT_EQ(1, group(ev, 2, 2, offset, 0, &g));
	EXPECT_EQ(TP_GROUP_MACHINE, g.groups[0].kind);
	EXPECT_EQ(49000, g.groups[0].start);
	EXPECT_EQ(50000, g.groups[0].end);
	/* Together raw, apart once aligned. */
	ev[1] = gev(1, 50000, 1000);
	EXPECT_EQ(1, group(ev, 2, 2, NULL, 0, &g));
	EXPECT_EQ(2, group(ev, 2, 2, offset, 0, &g));
	EXPECT_EQ(2, group(ev, 2, 2, behind, 0, &g));
}

/* Naive: join every overlapping pair (union-find), then compare. */
static uint32_t find(uint32_t *parent, uint32_t i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

static void naive_components(const struct tp_gevent *ev, uint32_t n,
			     const int64_t *off, uint32_t *parent)
{
	uint32_t i, k;

	for (i = 0; i < n; i++)
		parent[i] = i;
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++) {
			int64_t si = (int64_t)(ev[i].tsc - ev[i].cycles) - off[ev[i].cpu];
			int64_t ei = (int64_t)ev[i].tsc - off[ev[i].cpu];
			int64_t sk = (int64_t)(ev[k].tsc - ev[k].cycles) - off[ev[k].cpu];
			int64_t ek = (int64_t)ev[k].tsc - off[ev[k].cpu];

			if (si <= ek && sk <= ei)
				parent[find(parent, i)] = find(parent, k);
		}
}

TEST(random_events_match_a_naive_grouping)
{
	static struct tp_gevent ev[MAX_EV];
	static uint32_t parent[MAX_EV], cpus_seen[MAX_EV][MAX_CPUS];
	static struct grouped g;
	uint64_t state = 0x5eed0f9a0fULL;
	int64_t off[MAX_CPUS];
	uint32_t round, i, k, n, ncpus, sum;

	for (round = 0; round < 200; round++) {
		ncpus = 1 + tr_below(&state, MAX_CPUS);
		n = 1 + tr_below(&state, MAX_EV);
		for (i = 0; i < ncpus; i++)
			off[i] = (int64_t)tr_below(&state, 20000) - 10000;
		for (i = 0; i < n; i++) {
			ev[i] = gev(tr_below(&state, ncpus),
				    1000000 + tr_below(&state, 50 * n * 100),
				    1 + tr_log(&state, 12));
			/* Now and then, one moment on every CPU's clock. */
			if (i + ncpus < n && !tr_below(&state, 50)) {
				int64_t at = (int64_t)ev[i].tsc - off[ev[i].cpu];
				uint64_t len = ev[i].cycles;

				for (k = 0; k < ncpus; k++)
					ev[i + k] = gev(k, at + off[k], len);
				i += ncpus - 1;
			}
		}
		group(ev, n, ncpus, off, 0, &g);
		naive_components(ev, n, off, parent);
		/* Same partition: two events share a group iff naive says so. */
		for (i = 0; i < n; i++) {
			ASSERT_LT(ev[i].group, g.n) TH_LOG("round %u", round);
			for (k = i + 1; k < n; k++)
				ASSERT_EQ(find(parent, i) == find(parent, k),
					  ev[i].group == ev[k].group)
					TH_LOG("round %u events %u %u", round, i, k);
		}
		/* Every event in exactly one group; counts add up. */
		memset(cpus_seen, 0, sizeof(cpus_seen));
		sum = 0;
		for (i = 0; i < g.n; i++)
			sum += g.groups[i].events;
		ASSERT_EQ(n, sum) TH_LOG("round %u", round);
		for (i = 0; i < n; i++)
			cpus_seen[ev[i].group][ev[i].cpu] = 1;
		for (i = 0; i < g.n; i++) {
			uint32_t c = 0;

			for (k = 0; k < ncpus; k++)
				c += cpus_seen[i][k];
			ASSERT_EQ(c, g.groups[i].cpus) TH_LOG("round %u", round);
			ASSERT_EQ(c == 1 ? TP_GROUP_LOCAL : c == ncpus ?
				  TP_GROUP_MACHINE : TP_GROUP_PARTIAL,
				  g.groups[i].kind);
			/* In time order, and apart from the next one. */
			if (i + 1 < g.n)
				ASSERT_LT(g.groups[i].end, g.groups[i + 1].start);
		}
	}
}

TEST_HARNESS_MAIN
