// SPDX-License-Identifier: GPL-2.0
/*
 * 6.6 embedded a struct genl_info in struct genl_dumpit_info ("genetlink:
 * add struct genl_info to struct genl_dumpit_info") and dropped the dump's
 * own attrs ("genetlink: use attrs from struct genl_info").
 */
#include <net/genetlink.h>

static __maybe_unused struct nlattr **tp_probe(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->info.attrs;
}
