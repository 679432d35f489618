/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface a measurement ("kind") implements, and the kinds.  The
 * measurement loops themselves live in core/.
 */
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

/**
 * struct tp_kind_ops - what a measurement provides to the run machinery
 * @kind: enum tscprobe_kind
 * @parse: check START's attributes and fill @run->params; report the bad
 *	attribute through @extack.  Called with the CPU hotplug lock held.
 * @alloc: optional; allocate the run-wide state (run->priv).  Called
 *	before the per-CPU state exists.
 * @cpu_init: optional; set up a CPU's working state (c->hot, zeroed on
 *	the CPU's node by the run machinery); its snapshot is then taken
 *	from it
 * @free: optional; free what @alloc and @cpu_init allocated, also after
 *	either failed part way; the run machinery then frees c->hot and
 *	c->snap
 * @cpu_main: the body of a CPU's measurement thread; returns true when
 *	the measurement is complete, false when tp_cpu_should_stop() ended it
 *	or when it has nothing to show (the CPU is then marked incomplete
 *	unless the whole run was stopped)
 * @run_main: optional; the body of one more, unbound, thread that drives
 *	the CPU threads (skew: pairs one at a time); returns true when the
 *	run is complete, false when it was stopped or CPUs going offline
 *	left nothing to measure.  The run ends when it and every CPU thread
 *	have.
 * @put_params: add the kind's parameters to a reply
 * @put_progress: add a CPU's progress (from its snapshot) to a CPU nest;
 *	keep it under 160 bytes: one GET_STATUS reply holds every CPU
 * @dump_cpu: add a CPU's results to a dump message, resuming at *@pos;
 *	returns 0 when the CPU is complete, -EMSGSIZE when the message is
 *	full (*@pos says where to go on)
 * @cpu_size: bytes of a CPU's working state (c->hot)
 * @snap_size: bytes of a CPU's published snapshot (c->snap), the first
 *	@snap_size bytes of c->hot; 0: the kind publishes none
 * @show: the kind's debugfs view of the current results
 * @nr_pairs: optional; how many pair messages GET_RESULT sends after the
 *	CPU messages
 * @put_pair: add pair @idx (< nr_pairs) to a dump message: 0 or -EMSGSIZE
 * @put_final: optional; add a CPU's final counts (from its snapshot) to
 *	its CPU nest in the RUN_FINISHED notification; keep it small
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

/* noise.c */
extern const struct tp_kind_ops tp_noise_ops;

/* skew.c */
extern const struct tp_kind_ops tp_skew_ops;

/* cache.c */
extern const struct tp_kind_ops tp_cache_ops;

#endif /* TSCPROBE_KMOD_KINDS_H */
