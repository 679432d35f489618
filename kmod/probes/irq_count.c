// SPDX-License-Identifier: GPL-2.0
/*
 * The entries of the 7.2 interrupt-count array (irq_stat_counts.c) that
 * are not interrupts of their own and exist only in some configurations
 * (CONFIG_X86_LOCAL_APIC, _MCE, _IO_APIC): performance-monitoring
 * interrupts, which x86 delivers as NMIs (counted in IRQ_COUNT_NMI), APIC
 * ICR read retries, machine-check exceptions and polls, misrouted IO-APIC
 * interrupts.
 *
 * probe-items: APIC_PERF ICR_READ_RETRY MCE_EXCEPTION MCE_POLL
 * probe-items: IOAPIC_MISROUTED
 */
#include <linux/cache.h>
#include <linux/percpu.h>
#include <asm/hardirq.h>

#define TP_INDEX(item)	IRQ_COUNT_ ## item
#define TP_INDEX_OF(item)	TP_INDEX(item)

static __maybe_unused int tp_probe(void)
{
	return TP_INDEX_OF(TP_PROBE_ITEM);
}
