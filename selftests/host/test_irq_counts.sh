#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Which of x86's per-CPU counts the module's irq_count sums (kmod/irqs.c):
# before 7.2 the named fields kmod/probes/irq_stat.c lists, from 7.2 every
# entry of the array but those irqs.c and kmod/probes/irq_count.c skip.
# Each count of every x86 kernel is classified below, once: an interrupt
# the CPU took (summed), an NMI (never summed: the NMI count has it; the
# performance-monitoring interrupt, PMI, is one), a TLB shootdown (it
# arrives as a function-call IPI and is counted there) or no interrupt.
# The lists must sum exactly the interrupts, and every count of the
# kernels installed here (the 6.1, 6.12 and newest lines' headers) must be
# in the table, so that a new one is classified before it is summed.
# shellcheck source=selftests/host/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The named fields of irq_cpustat_t before 7.2.
declare -A FIELD=(
	[__nmi_count]=nmi [apic_perf_irqs]=nmi
	[irq_tlb_count]=tlb
	[icr_read_retry_count]=none
	[apic_timer_irqs]=irq [irq_spurious_count]=irq [x86_platform_ipis]=irq
	[apic_irq_work_irqs]=irq [irq_resched_count]=irq [irq_call_count]=irq
	[irq_thermal_count]=irq [irq_threshold_count]=irq
	[irq_deferred_error_count]=irq [irq_hv_callback_count]=irq
	[irq_hv_reenlightenment_count]=irq [hyperv_stimer0_count]=irq
	[kvm_posted_intr_ipis]=irq [kvm_posted_intr_wakeup_ipis]=irq
	[kvm_posted_intr_nested_ipis]=irq [posted_msi_notification_count]=irq
)
# The entries of enum irq_stat_counts from 7.2 (IRQ_COUNT_ less).
declare -A ENTRY=(
	[NMI]=nmi [APIC_PERF]=nmi
	[TLB]=tlb
	[ICR_READ_RETRY]=none [MCE_EXCEPTION]=none [MCE_POLL]=none
	[IOAPIC_MISROUTED]=none
	[APIC_TIMER]=irq [SPURIOUS]=irq [IRQ_WORK]=irq [X86_PLATFORM_IPI]=irq
	[RESCHEDULE]=irq [CALL_FUNCTION]=irq [THERMAL_APIC]=irq
	[THRESHOLD_APIC]=irq [DEFERRED_ERROR]=irq [HYPERVISOR_CALLBACK]=irq
	[HYPERV_REENLIGHTENMENT]=irq [HYPERV_STIMER0]=irq [POSTED_INTR]=irq
	[POSTED_INTR_NESTED]=irq [POSTED_INTR_WAKEUP]=irq
	[PERF_GUEST_MEDIATED_PMI]=irq [POSTED_MSI_NOTIFICATION]=irq
	[PIC_APIC_ERROR]=irq
)

# The probe-items of a probe, one a line, sorted.
items() {
	sed -n 's/^ \* probe-items: //p' "$REPO/kmod/probes/$1" | tr ' ' '\n' |
		sed '/^$/d' | sort
}

# The names of a table whose class is (or, with !, is not) $2, sorted.
of_class() {
	local -n table=$1
	local name

	for name in "${!table[@]}"; do
		if [[ $2 == !* ]]; then
			[[ ${table[$name]} != "${2#!}" ]] && echo "$name"
		else
			[[ ${table[$name]} == "$2" ]] && echo "$name"
		fi
	done | sort
}

same() {
	diff <(echo "$1") <(echo "$2") && return 0
	echo "(< $3, > the table's)"
	return 1
}

named_fields_summed_are_the_interrupts() {
	same "$(items irq_stat.c)" "$(of_class FIELD irq)" \
		"kmod/probes/irq_stat.c's probe-items"
}

# irqs.c skips NMI and TLB by name, and irq_count.c's items where present.
array_entries_skipped_are_the_rest() {
	local fixed

	fixed=$(sed -n '/tp_irq_skipped\[\] = {/,/};/p' "$REPO/kmod/irqs.c" |
		grep -oE '(^|[^A-Z_])IRQ_COUNT_[A-Z0-9_]+' | sed 's/.*IRQ_COUNT_//')
	same "$(printf '%s\n' $fixed $(items irq_count.c) | sort)" \
		"$(of_class ENTRY '!irq')" \
		"irqs.c's skipped entries and kmod/probes/irq_count.c's items"
}

# Every count of the x86 kernels whose headers are installed is classified.
HEADERS=$(ls /usr/src/linux-headers-*/arch/x86/include/asm/hardirq.h \
	"$REPO"/build/trixie/root/usr/src/linux-headers-*/arch/x86/include/asm/hardirq.h \
	2>/dev/null)

every_count_is_classified() {
	local h name bad=0

	[[ -n $HEADERS ]] || { echo "no x86 kernel headers installed (make deps)"; return 1; }
	for h in $HEADERS; do
		for name in $(sed -n '/^typedef struct {/,/irq_cpustat_t;/p' "$h" |
			sed -n 's/^\s*unsigned int \([a-z0-9_]*\);.*/\1/p'); do
			[[ -n ${FIELD[$name]:-} ]] || { echo "$h: field $name"; bad=1; }
		done
		for name in $(sed -n '/^enum irq_stat_counts {/,/};/p' "$h" |
			sed -n 's/^\s*IRQ_COUNT_\([A-Z0-9_]*\),.*/\1/p'); do
			[[ $name == MAX || -n ${ENTRY[$name]:-} ]] ||
				{ echo "$h: entry $name"; bad=1; }
		done
	done
	return $bad
}

tap_check "before 7.2 the interrupts are summed, no NMI (PMI), no TLB" \
	named_fields_summed_are_the_interrupts
tap_check "from 7.2 every entry but the NMIs (PMI), TLB and no interrupts" \
	array_entries_skipped_are_the_rest
tap_check "every count of the installed x86 kernels is classified" \
	every_count_is_classified
tap_done
