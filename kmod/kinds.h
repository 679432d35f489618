/* SPDX-License-Identifier: GPL-2.0 */
/* The interface a measurement ("kind") implements; its loops are in core/. */
#ifndef TSCPROBE_KMOD_KINDS_H
#define TSCPROBE_KMOD_KINDS_H

#include <linux/types.h>

struct netlink_ext_ack;
struct nlattr;
struct seq_file;
struct sk_buff;
struct tp_cpu;
struct tp_run;

/* Where a CPU's dump stands (tp_kind_ops.dump_cpu): a phase, an index. */
#define TP_POS(phase, idx)	(((unsigned long)(phase) << 32) | (idx))
#define TP_POS_PHASE(pos)	((pos) >> 32)
#define TP_POS_IDX(pos)		((u32)(pos))

/*
 * What a measurement provides to the run machinery.  Optional (NULL):
 * @alloc, @cpu_init, @free, @run_main, @nr_pairs, @put_final.  @parse runs
 * with the CPU hotplug lock held.  @cpu_init sets up c->hot (zeroed, on the
 * CPU's node), the first snapshot; @free also runs after @alloc or
 * @cpu_init failed part way.  @cpu_main returns true when complete; false
 * marks the CPU incomplete unless the run was stopped.  @run_main, an
 * unbound thread driving the CPU threads (skew), returns false when stopped
 * or hotplug left nothing.  @put_progress: under 160 bytes, one GET_STATUS
 * reply holds every CPU.  @dump_cpu resumes at *@pos and, like @put_pair,
 * returns -EMSGSIZE when the message is full; @nr_pairs pair messages follow
 * the CPU messages.  The first @snap_size bytes of c->hot are published.
 */
struct tp_kind_ops {
	unsigned int kind;
	int (*parse)(struct tp_run *run, struct nlattr **attrs,
		     struct netlink_ext_ack *extack);
	int (*alloc)(struct tp_run *run);
	int (*cpu_init)(struct tp_run *run, struct tp_cpu *c);
	void (*free)(struct tp_run *run);
	bool (*cpu_main)(struct tp_run *run, struct tp_cpu *c);
	bool (*run_main)(struct tp_run *run);
	int (*put_params)(struct sk_buff *skb, const struct tp_run *run);
	int (*put_progress)(struct sk_buff *skb, struct tp_cpu *c);
	int (*dump_cpu)(struct sk_buff *skb, struct tp_cpu *c, void *snap,
			unsigned long *pos);
	size_t cpu_size;
	size_t snap_size;
	void (*show)(struct seq_file *m, struct tp_run *run);
	unsigned int (*nr_pairs)(const struct tp_run *run);
	int (*put_pair)(struct sk_buff *skb, const struct tp_run *run,
			unsigned int idx);
	int (*put_final)(struct sk_buff *skb, struct tp_cpu *c);
};

extern const struct tp_kind_ops tp_noise_ops;
extern const struct tp_kind_ops tp_skew_ops;
extern const struct tp_kind_ops tp_cache_ops;

#endif /* TSCPROBE_KMOD_KINDS_H */
