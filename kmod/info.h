/* SPDX-License-Identifier: GPL-2.0 */
/* info.c: what the module knows about the machine */
#ifndef TSCPROBE_KMOD_INFO_H
#define TSCPROBE_KMOD_INFO_H

#include <linux/types.h>

struct netlink_ext_ack;
struct seq_file;
struct sk_buff;

u32 tp_info_features(void);
u32 tp_info_kinds(void);
int tp_info_fill(struct sk_buff *skb);
void tp_info_show(struct seq_file *m);
int tp_info_need_tsc_khz(struct netlink_ext_ack *extack);
u32 tp_info_tsc_sync(void);
struct tp_tsc_offsets;
struct tp_tsc_offsets *tp_tsc_offsets_alloc(u64 run_id, unsigned int ref);
void tp_tsc_offsets_set(struct tp_tsc_offsets *o, unsigned int cpu,
			s64 cycles);
void tp_info_publish_tsc_offsets(struct tp_tsc_offsets *o);
bool tp_info_tsc_offset(unsigned int cpu, s64 *cycles, u64 *run_id);
void tp_info_exit(void);

#endif /* TSCPROBE_KMOD_INFO_H */
