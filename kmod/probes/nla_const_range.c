// SPDX-License-Identifier: GPL-2.0
/*
 * 6.7 made a policy's range pointer const ("netlink: make range pointers
 * in policies const"), as ynl-gen-c's ranges are.  A static_assert: a
 * const pointer in a non-const one only warns.
 */
#include <linux/build_bug.h>
#include <net/netlink.h>

static __maybe_unused void tp_probe(void)
{
	static_assert(__same_type(((struct nla_policy *)NULL)->range,
				  const struct netlink_range_validation *));
}
