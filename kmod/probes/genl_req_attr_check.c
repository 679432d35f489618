// SPDX-License-Identifier: GPL-2.0
/*
 * 6.0 added GENL_REQ_ATTR_CHECK() ("genetlink: add helper for checking
 * required attrs and use it in devlink"), which reports a missing
 * attribute in the extended ack (NLMSGERR_ATTR_MISS_TYPE).
 */
#include <net/genetlink.h>

static __maybe_unused bool tp_probe(struct genl_info *info)
{
	return GENL_REQ_ATTR_CHECK(info, 1);
}
