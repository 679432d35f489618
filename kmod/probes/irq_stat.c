// SPDX-License-Identifier: GPL-2.0
/*
 * The named x86 per-CPU interrupt counts before 7.2 (irq_stat_counts.c)
 * that count interrupts the CPU took.  Which of them exist depends on the
 * release and the configuration: the posted-MSI count came with posted
 * MSI in 6.10, the posted-interrupt counts depend on CONFIG_HAVE_KVM in 6.1
 * and on CONFIG_KVM in 6.12, the Hyper-V ones on CONFIG_HYPERV.  Not
 * apic_perf_irqs: x86 delivers the performance-monitoring interrupt as an
 * NMI, which __nmi_count has counted already.
 *
 * probe-items: apic_timer_irqs irq_spurious_count x86_platform_ipis
 * probe-items: apic_irq_work_irqs irq_resched_count
 * probe-items: irq_call_count irq_thermal_count irq_threshold_count
 * probe-items: irq_deferred_error_count irq_hv_callback_count
 * probe-items: irq_hv_reenlightenment_count hyperv_stimer0_count
 * probe-items: kvm_posted_intr_ipis kvm_posted_intr_wakeup_ipis
 * probe-items: kvm_posted_intr_nested_ipis posted_msi_notification_count
 */
#include <linux/cache.h>
#include <linux/percpu.h>
#include <asm/hardirq.h>

static __maybe_unused unsigned int tp_probe(void)
{
	return per_cpu(irq_stat, 0).TP_PROBE_ITEM;
}
