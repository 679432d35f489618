// SPDX-License-Identifier: GPL-2.0
/*
 * The interrupts and NMIs a CPU has taken, from the kernel's per-CPU counts:
 * device interrupts (kstat) and the x86 system vectors (irq_stat), less the
 * counted elsewhere (NMIs; performance-monitoring interrupts, which arrive
 * as NMIs; TLB shootdowns, which arrive as function-call IPIs) and the no
 * interrupts (ICR read retries, machine checks, misrouted IO-APIC ones);
 * kmod/probes/irq_stat.c and irq_count.c say which exist.  Both are modulo
 * 2^32, for tp_counter_step(..., 32).
 */
#include <linux/kernel_stat.h>
#include <asm/hardirq.h>

#include "compat.h"
#include "irqs.h"

#if TP_HAVE_IRQ_STAT_COUNTS
#define TP_INDEX(item)	IRQ_COUNT_ ## item

/* The array's entries that count no interrupt of their own. */
static const unsigned int tp_irq_skipped[] = {
	IRQ_COUNT_NMI, IRQ_COUNT_TLB, TP_HAVE_IRQ_COUNT_EACH(TP_INDEX)
};

/* Every entry, less the skipped ones: modulo 2^32 that is exact. */
static u32 tp_irq_vectors(const irq_cpustat_t *s)
{
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < IRQ_COUNT_MAX; i++)
		sum += s->counts[i];
	for (i = 0; i < ARRAY_SIZE(tp_irq_skipped); i++)
		sum -= s->counts[tp_irq_skipped[i]];
	return sum;
}

static u32 tp_nmis(const irq_cpustat_t *s)
{
	return s->counts[IRQ_COUNT_NMI];
}
#else
#define TP_OFFSET(field)	offsetof(irq_cpustat_t, field)

/* The fields this kernel has, of those kmod/probes/irq_stat.c names. */
static const size_t tp_irq_fields[] = { TP_HAVE_IRQ_STAT_EACH(TP_OFFSET) };

static u32 tp_irq_vectors(const irq_cpustat_t *s)
{
	unsigned int i;
	u32 sum = 0;

	for (i = 0; i < ARRAY_SIZE(tp_irq_fields); i++)
		sum += *(const unsigned int *)((const char *)s + tp_irq_fields[i]);
	return sum;
}

static u32 tp_nmis(const irq_cpustat_t *s)
{
	return s->__nmi_count;
}
#endif

u32 tp_irq_count(unsigned int cpu)
{
	return (u32)kstat_cpu_irqs_sum(cpu) +
	       tp_irq_vectors(&per_cpu(irq_stat, cpu));
}

u32 tp_nmi_count(unsigned int cpu)
{
	return tp_nmis(&per_cpu(irq_stat, cpu));
}
