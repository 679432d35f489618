// SPDX-License-Identifier: GPL-2.0
/*
 * 6.7 added GENL_MCAST_CAP_NET_ADMIN ("genetlink: Use internal flags for
 * multicast groups"), backported to the 6.1 and 5.15 stable lines:
 * genetlink refuses to join a group with the flag to a task without
 * CAP_NET_ADMIN.
 */
#include <net/genetlink.h>

static const struct genl_multicast_group tp_probe_group __maybe_unused = {
	.name = "probe",
	.flags = GENL_MCAST_CAP_NET_ADMIN,
};
