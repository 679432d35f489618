/* SPDX-License-Identifier: GPL-2.0 */
/* netlink.c: the top layer; nothing in kmod/ but main.c calls it */
#ifndef TSCPROBE_KMOD_NETLINK_H
#define TSCPROBE_KMOD_NETLINK_H

struct genl_family;

extern struct genl_family tp_genl_family;
int tp_netlink_init(void);
void tp_netlink_exit(void);

#endif /* TSCPROBE_KMOD_NETLINK_H */
