// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tscprobe.yaml */
/* YNL-GEN kernel source */
/* YNL-ARG --function-prefix tp-nl */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "netlink_gen.h"

#include <uapi/linux/tscprobe.h>

/* Integer value ranges */
static const struct netlink_range_validation tscprobe_a_duration_ns_range = {
	.min	= 1000000ULL,
	.max	= 86400000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_width_ns_range = {
	.min	= 10000ULL,
	.max	= 1000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_gap_ns_range = {
	.min	= 10000ULL,
	.max	= 1000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_threshold_ns_range = {
	.min	= 1ULL,
	.max	= 1000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_threshold_cycles_range = {
	.min	= 1ULL,
	.max	= 10000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_rounds_range = {
	.min	= 1ULL,
	.max	= 1000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_batch_range = {
	.min	= 1ULL,
	.max	= 1000000ULL,
};

static const struct netlink_range_validation tscprobe_a_stop_at_ns_range = {
	.min	= 1ULL,
	.max	= 1000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_stop_at_cycles_range = {
	.min	= 1ULL,
	.max	= 10000000000ULL,
};

static const struct netlink_range_validation tscprobe_a_warm_up_ns_range = {
	.max	= 3600000000000ULL,
};

/* TSCPROBE_CMD_START - do */
static const struct nla_policy tscprobe_start_nl_policy[TSCPROBE_A_WARM_UP_NS + 1] = {
	[TSCPROBE_A_KIND] = NLA_POLICY_RANGE(NLA_U32, 1, 3),
	[TSCPROBE_A_CPUS] = NLA_POLICY_MAX_LEN(TSCPROBE_CPUMASK_BYTES),
	[TSCPROBE_A_DURATION_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_duration_ns_range),
	[TSCPROBE_A_IRQS] = NLA_POLICY_MAX(NLA_U32, 1),
	[TSCPROBE_A_WIDTH_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_width_ns_range),
	[TSCPROBE_A_GAP_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_gap_ns_range),
	[TSCPROBE_A_THRESHOLD_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_threshold_ns_range),
	[TSCPROBE_A_THRESHOLD_CYCLES] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_threshold_cycles_range),
	[TSCPROBE_A_CLOCK] = NLA_POLICY_MAX(NLA_U32, 3),
	[TSCPROBE_A_ROUNDS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_rounds_range),
	[TSCPROBE_A_BATCH] = NLA_POLICY_FULL_RANGE(NLA_U32, &tscprobe_a_batch_range),
	[TSCPROBE_A_LEVELS] = { .type = NLA_FLAG, },
	[TSCPROBE_A_NODES] = { .type = NLA_FLAG, },
	[TSCPROBE_A_SAMPLES] = NLA_POLICY_RANGE(NLA_U32, 16, 4096),
	[TSCPROBE_A_REPEATS] = NLA_POLICY_RANGE(NLA_U32, 1, 1000),
	[TSCPROBE_A_STOP_AT_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_stop_at_ns_range),
	[TSCPROBE_A_STOP_AT_CYCLES] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_stop_at_cycles_range),
	[TSCPROBE_A_TRACE_STOP] = { .type = NLA_FLAG, },
	[TSCPROBE_A_WARM_UP_NS] = NLA_POLICY_FULL_RANGE(NLA_U64, &tscprobe_a_warm_up_ns_range),
};

/* TSCPROBE_CMD_GET_RESULT - dump */
static const struct nla_policy tscprobe_get_result_nl_policy[TSCPROBE_A_RUN_ID + 1] = {
	[TSCPROBE_A_RUN_ID] = { .type = NLA_U64, },
};

/* Ops table for tscprobe */
const struct genl_split_ops tscprobe_nl_ops[7] = {
	{
		.cmd	= TSCPROBE_CMD_GET_INFO,
		.doit	= tp_nl_get_info_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd		= TSCPROBE_CMD_START,
		.doit		= tp_nl_start_doit,
		.policy		= tscprobe_start_nl_policy,
		.maxattr	= TSCPROBE_A_WARM_UP_NS,
		.flags		= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= TSCPROBE_CMD_STOP,
		.doit	= tp_nl_stop_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
	{
		.cmd	= TSCPROBE_CMD_GET_STATUS,
		.doit	= tp_nl_get_status_doit,
		.flags	= GENL_CMD_CAP_DO,
	},
	{
		.cmd	= TSCPROBE_CMD_GET_STATUS,
		.dumpit	= tp_nl_get_status_dumpit,
		.flags	= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd		= TSCPROBE_CMD_GET_RESULT,
		.dumpit		= tp_nl_get_result_dumpit,
		.policy		= tscprobe_get_result_nl_policy,
		.maxattr	= TSCPROBE_A_RUN_ID,
		.flags		= GENL_CMD_CAP_DUMP,
	},
	{
		.cmd	= TSCPROBE_CMD_RESET,
		.doit	= tp_nl_reset_doit,
		.flags	= GENL_ADMIN_PERM | GENL_CMD_CAP_DO,
	},
};

static const struct genl_multicast_group tscprobe_nl_mcgrps[] = {
	[TSCPROBE_NLGRP_EVENTS] = { "events", },
	[TSCPROBE_NLGRP_EVENTS_NAMED] = { "events-named", },
};
