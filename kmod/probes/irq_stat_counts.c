// SPDX-License-Identifier: GPL-2.0
/*
 * 7.2 turned the x86 per-CPU interrupt counts from named fields into an
 * array indexed by enum irq_stat_counts ("x86/irq: Make irqstats array
 * based").
 */
#include <linux/cache.h>
#include <linux/percpu.h>
#include <asm/hardirq.h>

static __maybe_unused unsigned int tp_probe(void)
{
	return per_cpu(irq_stat, 0).counts[IRQ_COUNT_NMI];
}
