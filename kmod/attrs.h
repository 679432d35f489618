/* SPDX-License-Identifier: GPL-2.0 */
/* attrs.c: attribute helpers, the bottom layer (calls nothing in kmod/) */
#ifndef TSCPROBE_KMOD_ATTRS_H
#define TSCPROBE_KMOD_ATTRS_H

#include <net/netlink.h>

#include "compat.h"	/* TP_NL_SET_ERR_MSG_FMT, for tp_set_err() */

struct cpumask;
struct tp_event;
struct tp_hist;

/* Every attribute set in the contract pads 64-bit values with type 1. */
#define TP_PAD	1

/* START's attribute table ends at its policy's last attribute. */
#define TP_START_MAXATTR	TSCPROBE_A_WARM_UP_NS

/* An extack message at @attr (may be NULL): @fmt, or @msg (compat.h). */
#define tp_set_err(extack, attr, msg, fmt, ...) do {			\
	struct netlink_ext_ack *__tp_extack = (extack);			\
									\
	TP_NL_SET_ERR_MSG_FMT(__tp_extack, msg, fmt, ##__VA_ARGS__);	\
	NL_SET_BAD_ATTR(__tp_extack, attr);				\
} while (0)

u64 tp_attr_u64(struct nlattr **attrs, int type, u64 dflt);
u32 tp_attr_u32(struct nlattr **attrs, int type, u32 dflt);
int tp_nla_reject(struct nlattr **attrs, const unsigned long *allowed,
		  const char *kind, struct netlink_ext_ack *extack);
int tp_nla_put_u64(struct sk_buff *skb, int type, u64 value);
int tp_nla_put_cpumask(struct sk_buff *skb, int type,
		       const struct cpumask *mask);
int tp_nla_get_cpumask(const struct nlattr *attr, struct cpumask *mask,
		       struct netlink_ext_ack *extack);
int tp_nla_put_buckets(struct sk_buff *skb, const struct tp_hist *h, u32 *idx);
int tp_nla_put_event_fields(struct sk_buff *skb, const struct tp_event *ev);
int tp_nla_put_event_as(struct sk_buff *skb, int type,
			const struct tp_event *ev);

#endif /* TSCPROBE_KMOD_ATTRS_H */
