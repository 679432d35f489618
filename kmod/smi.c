// SPDX-License-Identifier: GPL-2.0
/*
 * Where a measured CPU's SMI count comes from: MSR_SMI_COUNT (Intel), or
 * on AMD Zen and later, which have no such MSR, the core PMU's count of
 * SMIs received (event 0x2B, LS_SMI_RX) through a kernel perf counter
 * pinned to the CPU for its measurement.  Neither under a hypervisor: its
 * count, where it offers one, is its own, not the host's.  Where none can
 * be had the count is unknown, never 0.
 */
#include <linux/moduleparam.h>
#include <linux/perf_event.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/processor.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "smi.h"

/* AMD's PMC event 0x2B, SMIs received (PPR: LsSmiRx), from family 0x17. */
#define TP_AMD_LS_SMI_RX	0x2b
#define TP_AMD_ZEN_FAMILY	0x17

/*
 * Under a hypervisor MSR_SMI_COUNT is the hypervisor's (KVM's reads 0), and
 * the host's SMIs are in no count the guest can read: unknown, never 0.
 */
static bool tp_smi_hidden(void)
{
	return boot_cpu_has(X86_FEATURE_HYPERVISOR);
}

/*
 * Test hook, off by default: the MSR counts as unreadable, as on AMD,
 * where QEMU's emulated CPUs all have one.
 */
static bool tp_test_no_smi_msr;
module_param_named(test_no_smi_msr, tp_test_no_smi_msr, bool, 0600);
MODULE_PARM_DESC(test_no_smi_msr,
		 "test hook: take MSR_SMI_COUNT as unreadable, as on AMD (0)");

/* On the caller's CPU; it faults on AMD, in most VMs and on old Intel. */
bool tp_smi_msr_readable(void)
{
	u64 v;

	if (tp_smi_hidden() || READ_ONCE(tp_test_no_smi_msr))
		return false;
	return tp_rdmsr_safe(MSR_SMI_COUNT, &v) == 0;
}

/* The CPUs that count the SMIs they receive: AMD's from Zen on, Hygon's. */
static bool tp_smi_pmu_cpu(void)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;

	return !tp_smi_hidden() &&
	       (c->x86_vendor == X86_VENDOR_AMD ||
		c->x86_vendor == X86_VENDOR_HYGON) &&
	       c->x86 >= TP_AMD_ZEN_FAMILY;
}

/*
 * For GET_INFO: such a CPU with the core performance counters the kernel
 * drives (PERFCTR_CORE: no guest without a PMU has it).  Whether a counter
 * is free is each run's to find out.
 */
bool tp_smi_pmu_capable(void)
{
	return tp_smi_pmu_cpu() && boot_cpu_has(X86_FEATURE_PERFCTR_CORE);
}

/* Pinned: never multiplexed, so it counts all the time or not at all. */
static struct perf_event *tp_smi_perf_open(unsigned int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_RAW,
		.size = sizeof(attr),
		.config = TP_AMD_LS_SMI_RX,
		.pinned = 1,
	};

	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/**
 * tp_smi_open() - find where a CPU's SMI count comes from
 * @s: the CPU's state
 * @cpu: the CPU; the caller runs on it (its measuring thread, before the
 *	first window)
 *
 * MSR_SMI_COUNT where it reads; else, on AMD Zen and later, a counter of
 * the PMU's SMIs received pinned to @cpu, held until tp_smi_close(), if
 * perf gives one (it asks the PMU itself, so a CPU without is not worth a
 * check of its own); else none.  So Intel CPUs and guests take no
 * counter.  May sleep.
 */
void tp_smi_open(struct tp_smi *s, unsigned int cpu)
{
	struct perf_event *event;

	s->source = TSCPROBE_SMI_SOURCE_NONE;
	s->event = NULL;
	if (tp_smi_msr_readable()) {
		s->source = TSCPROBE_SMI_SOURCE_MSR;
		return;
	}
	if (!tp_smi_pmu_cpu())
		return;
	/* No PMU driver, or no such event: no count, as without the MSR. */
	event = tp_smi_perf_open(cpu);
	if (IS_ERR(event))
		return;
	s->event = event;
	s->source = TSCPROBE_SMI_SOURCE_PERF;
}

/**
 * tp_smi_close() - give back what tp_smi_open() took
 * @s: the CPU's state; its source stays, to say where the count came from
 *
 * Idempotent; from any CPU, even once @s's has gone offline.  May sleep.
 */
void tp_smi_close(struct tp_smi *s)
{
	if (s->event)
		perf_event_release_kernel(s->event);
	s->event = NULL;
}

/*
 * What perf_event_read_local() does for a pinned CPU event, which a module
 * cannot call (it is not exported): with interrupts off the event is not
 * scheduled in or out meanwhile, so it is either counting on this CPU,
 * where its PMU's read brings the count up to date, or not at all (no
 * counter was free when it was pinned: perf put it in error).
 */
static bool tp_smi_perf_read(struct perf_event *event, u64 *value)
{
	unsigned long flags;
	bool ok;

	local_irq_save(flags);
	ok = READ_ONCE(event->oncpu) == smp_processor_id();
	if (ok) {
		event->pmu->read(event);
		*value = local64_read(&event->count);
	}
	local_irq_restore(flags);
	return ok;
}

/**
 * tp_smi_read() - the SMI count of the caller's CPU
 * @s: the CPU's state, from tp_smi_open() on that CPU
 * @value: set to the count, 0 when it cannot be read
 *
 * Bounded and never sleeps: the noise loop calls it with interrupts off.
 *
 * Return: false when the count cannot be read here (no source, an MSR
 * that faults, a counter that is not counting on this CPU): unknown.
 */
bool tp_smi_read(const struct tp_smi *s, u64 *value)
{
	*value = 0;
	switch (s->source) {
	case TSCPROBE_SMI_SOURCE_MSR:
		return tp_rdmsr_safe(MSR_SMI_COUNT, value) == 0;
	case TSCPROBE_SMI_SOURCE_PERF:
		return s->event && tp_smi_perf_read(s->event, value);
	default:
		return false;
	}
}
