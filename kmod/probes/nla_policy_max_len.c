// SPDX-License-Identifier: GPL-2.0
/*
 * 6.13 added NLA_POLICY_MAX_LEN() ("netlink: add NLA_POLICY_MAX_LEN
 * macro"), which ynl-gen-c writes for a binary attribute's max-len.
 */
#include <net/netlink.h>

static __maybe_unused struct nla_policy tp_probe(void)
{
	struct nla_policy p = NLA_POLICY_MAX_LEN(8);

	return p;
}
