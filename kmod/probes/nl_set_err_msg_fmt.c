// SPDX-License-Identifier: GPL-2.0
/*
 * 6.2 added NL_SET_ERR_MSG_FMT() ("netlink: add support for formatted
 * extack messages"): the extended ack keeps a formatted message in a
 * buffer of its own.
 */
#include <linux/netlink.h>

static __maybe_unused void tp_probe(struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG_FMT(extack, "%d", 1);
}
