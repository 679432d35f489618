/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tscprobe.yaml */
/* YNL-GEN kernel header */
/* YNL-ARG --function-prefix tp-nl */
/* To regenerate run: tools/net/ynl/ynl-regen.sh */

#ifndef _LINUX_TSCPROBE_GEN_H
#define _LINUX_TSCPROBE_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/tscprobe.h>

/* Ops table for tscprobe */
extern const struct genl_split_ops tscprobe_nl_ops[7];

int tp_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info);
int tp_nl_start_doit(struct sk_buff *skb, struct genl_info *info);
int tp_nl_stop_doit(struct sk_buff *skb, struct genl_info *info);
int tp_nl_get_status_doit(struct sk_buff *skb, struct genl_info *info);
int tp_nl_get_status_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tp_nl_get_result_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tp_nl_reset_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	TSCPROBE_NLGRP_EVENTS,
	TSCPROBE_NLGRP_EVENTS_NAMED,
};

#endif /* _LINUX_TSCPROBE_GEN_H */
