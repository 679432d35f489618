/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the machine did around a measurement, for every report: the
 * /proc/interrupts rows of the measured CPUs before and after the run
 * (LOC, RES, TLB, CAL, NMI, device rows summed, the rest), and the
 * environment audit of those CPUs.
 */
#ifndef TSCPROBE_USER_CONTEXT_H
#define TSCPROBE_USER_CONTEXT_H

#include <stdio.h>

#include "user/lib/env.h"


/** enum tp_irq_cat - the /proc/interrupts rows a report tells apart */
enum tp_irq_cat {
	TP_IRQ_LOC,	/* local timer: the tick */
	TP_IRQ_RES,	/* rescheduling IPIs */
	TP_IRQ_TLB,	/* TLB shootdowns */
	TP_IRQ_CAL,	/* function-call IPIs */
	TP_IRQ_NMI,
	TP_IRQ_DEV,	/* the numbered rows: devices */
	TP_IRQ_OTHER,	/* every other named row */
	TP_IRQ_CATS
};

/* Per-CPU interrupt counts from /proc/interrupts, by category. */
struct tp_irq_counts {
	uint64_t cat[TP_IRQ_CATS][TP_MAX_CPUS];
	bool seen[TP_MAX_CPUS];		/* the CPU has a column */
};

/**
 * struct tp_context - the machine around one run
 * @before: /proc/interrupts when the run started
 * @after: and when it ended
 * @have_irqs: both could be read
 * @env: the environment audit of the run's CPUs
 * @have_env: @env was read
 */
struct tp_context {
	struct tp_irq_counts before;
	struct tp_irq_counts after;
	bool have_irqs;
	struct tp_env env;
	bool have_env;
};

const char *tp_irq_cat_name(enum tp_irq_cat cat);
int tp_read_proc_interrupts(const char *path, struct tp_irq_counts *k);
bool tp_irq_row_taken(const char *label);
bool tp_irq_known(const struct tp_context *x, unsigned int cpu);
uint32_t tp_irq_taken(const struct tp_irq_counts *k, unsigned int cpu);
uint64_t tp_irq_delta(const struct tp_context *x, enum tp_irq_cat cat,
		      unsigned int cpu);
uint64_t tp_irq_delta_all(const struct tp_context *x, unsigned int cpu);
struct tp_context *tp_context_begin(void);
void tp_context_end(struct tp_context *x, const struct tp_cpuset *cpus,
		    uint32_t tsc_khz);
struct tp_context *tp_context_env(const struct tp_cpuset *cpus,
				  uint32_t tsc_khz);
void tp_context_free(struct tp_context *x);
#endif /* TSCPROBE_USER_CONTEXT_H */
