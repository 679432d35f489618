/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a measurement ("kind") implements: how it measures (noise.c, run.c
 * calls it) and how it reports (noise_report.c, netlink.c and debugfs.c
 * call it).  Its loops are in core/.  Members marked optional may be NULL.
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

/* Where a CPU's dump stands (tp_report_ops.dump_cpu): a phase, an index. */
#define TP_POS(phase, idx)	(((unsigned long)(phase) << 32) | (idx))
#define TP_POS_PHASE(pos)	((pos) >> 32)
#define TP_POS_IDX(pos)		((u32)(pos))

struct tp_measure_ops {
	/* Runs with the CPU hotplug lock held. */
	int (*parse)(struct tp_run *run, struct nlattr **attrs,
		     struct netlink_ext_ack *extack);
	int (*alloc)(struct tp_run *run);			/* optional */
	/*
	 * Optional: sets up c->hot (zeroed, on the CPU's node), the first
	 * snapshot.
	 */
	int (*cpu_init)(struct tp_run *run, struct tp_cpu *c);
	/* Optional; also runs after @alloc or @cpu_init failed part way. */
	void (*free)(struct tp_run *run);
	/* True when complete; false marks the CPU incomplete unless stopped. */
	bool (*cpu_main)(struct tp_run *run, struct tp_cpu *c);
	/*
	 * Optional: an unbound thread driving the CPU threads (skew); false
	 * when stopped or hotplug left nothing.
	 */
	bool (*run_main)(struct tp_run *run);
	/*
	 * Read each CPU's effective clock before and after @cpu_main (noise
	 * reads APERF/MPERF in every window instead).
	 */
	bool clock_around;
	/* Name what ran on each CPU: the probes of src_probes.c go on first. */
	bool sources;
	size_t cpu_size;
	/* The first @snap_size bytes of c->hot are published. */
	size_t snap_size;
};

/* A CPU's figures that GET_STATUS and RUN_FINISHED send, at most. */
#define TP_PROGRESS	6

struct tp_report_ops {
	int (*put_params)(struct sk_buff *skb, const struct tp_run *run);
	/*
	 * Optional: at each publication, from the snapshot @snap, the few
	 * figures @put_progress and @put_final send (@v, TP_PROGRESS of
	 * them), which they read without the CPU's lock: a reader holding
	 * it never holds up another's GET_STATUS, nor the run's end.
	 */
	void (*progress)(const void *snap, u64 *v);
	/* Under 160 bytes: one GET_STATUS reply holds every CPU. */
	int (*put_progress)(struct sk_buff *skb, const u64 *v);
	/*
	 * Resumes at *@pos; -EMSGSIZE when the message is full, as @put_pair.
	 * Called with c->lock held, @snap its published snapshot; the
	 * threads' pids and names only if @named (the reader may see them).
	 */
	int (*dump_cpu)(struct sk_buff *skb, struct tp_cpu *c, void *snap,
			unsigned long *pos, bool named);
	void (*show)(struct seq_file *m, struct tp_run *run);
	/* Optional: this many pair messages follow the CPU messages. */
	unsigned int (*nr_pairs)(const struct tp_run *run);
	int (*put_pair)(struct sk_buff *skb, const struct tp_run *run,
			unsigned int idx);
	/* Optional: a CPU's final counts, in RUN_FINISHED, from @progress. */
	int (*put_final)(struct sk_buff *skb, const u64 *v);
};

struct tp_kind {
	unsigned int id;			/* TSCPROBE_KIND_* */
	const struct tp_measure_ops *measure;
	const struct tp_report_ops *report;
};

extern const struct tp_kind tp_noise_kind;
extern const struct tp_kind tp_skew_kind;
extern const struct tp_kind tp_cache_kind;

#endif /* TSCPROBE_KMOD_KINDS_H */
