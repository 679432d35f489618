// SPDX-License-Identifier: GPL-2.0
/*
 * 6.2 added struct genl_split_ops ("genetlink: introduce split op
 * representation"), the type of the ops table ynl-gen-c writes.
 */
#include <net/genetlink.h>

static __maybe_unused unsigned int tp_probe(const struct genl_split_ops *op)
{
	return op->maxattr;
}
