/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's interrupt count and hypervisor steal time, as userspace can
 * read them (/proc/interrupts, /proc/stat): what the userspace noise
 * engine reads between its windows to explain their events.
 */
#ifndef TSCPROBE_USER_CPU_COUNTERS_H
#define TSCPROBE_USER_CPU_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "context.h"

/**
 * struct tp_cpu_counters - a reading of one CPU's counters
 * @irq_ok: @irq was read
 * @irq: interrupts taken so far, modulo 2^32 (tp_irq_taken())
 * @steal_ok: @steal_ns was read
 * @steal_ns: steal time so far (/proc/stat, in clock ticks, as ns)
 */
struct tp_cpu_counters {
	bool irq_ok;
	uint64_t irq;
	bool steal_ok;
	uint64_t steal_ns;
};

void tp_cpu_counters_read(unsigned int cpu, struct tp_irq_counts *scratch,
			  struct tp_cpu_counters *c);
bool tp_proc_stat_steal_ns(const char *path, unsigned int cpu,
			   uint64_t *ns);

#endif /* TSCPROBE_USER_CPU_COUNTERS_H */
