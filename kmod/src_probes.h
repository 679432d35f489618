/* SPDX-License-Identifier: GPL-2.0 */
/*
 * src_probes.c: the kernel's IRQ, softirq, scheduler and NMI tracepoints,
 * probed while a noise run is on, recording into core/sources.c's state
 * of each CPU a noise run measures what ran there.
 */
#ifndef TSCPROBE_KMOD_SRC_PROBES_H
#define TSCPROBE_KMOD_SRC_PROBES_H

#include <linux/types.h>

#include "core/sources.h"

struct seq_file;
struct task_struct;

/*
 * A measured CPU's sources; @measurer is the thread that measures it.
 * Freed by tp_src_free(), after the probes that may still read it.
 */
struct tp_src_here {
	struct rcu_head rcu;
	struct task_struct *measurer;
	struct tp_src_cpu src;
	struct tp_src_gap_scratch gap;	/* the measurer's, at each event */
};

#define TP_SRC_NMI_HANDLERS	16
/*
 * IRQ entry and exit, softirq entry and exit, sched_switch, nmi_handler,
 * and the entry and exit of 11 system vectors.
 */
#define TP_SRC_PROBES		28

bool tp_src_probes_attach(void);
void tp_src_probes_detach(void);
void tp_src_publish(unsigned int cpu, struct tp_src_here *h);
void tp_src_free(struct tp_src_here *h);
void tp_src_probes_exit(void);
unsigned int tp_src_probes_attached(void);
unsigned int tp_src_kinds_probed(void);
void tp_src_probes_show(struct seq_file *m);
const char *tp_src_softirq_name(unsigned int vec);
void *tp_src_nmi_handler(unsigned int id);

#endif /* TSCPROBE_KMOD_SRC_PROBES_H */
