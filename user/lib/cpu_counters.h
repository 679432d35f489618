/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's counters as userspace can read them between noise windows:
 * each /proc/interrupts and /proc/softirqs row of its column, and its
 * steal time (/proc/stat).  The userspace noise engine reads them after
 * each window, to explain the window's events and to name, by count, what
 * interrupted the CPU over the run.
 */
#ifndef TSCPROBE_USER_CPU_COUNTERS_H
#define TSCPROBE_USER_CPU_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "user/lib/proc_rows.h"

struct tp_cpu_res;

/**
 * struct tp_proc_paths - where the counters are read (tests set their own)
 * @interrupts: /proc/interrupts
 * @softirqs: /proc/softirqs
 * @stat: /proc/stat, for the steal time
 */
struct tp_proc_paths {
	const char *interrupts;
	const char *softirqs;
	const char *stat;
};

extern const struct tp_proc_paths tp_proc_paths_live;

/**
 * struct tp_cpu_counters - a CPU's counters, reading after reading
 * @irqs: its /proc/interrupts rows that count interrupts it took
 *	(tp_irq_row_taken())
 * @softirqs: its /proc/softirqs rows
 * @stat: /proc/stat, for the steal time
 * @cpu: the CPU
 * @opened: tp_cpu_counters_open() ran (a thread that never started did not)
 * @steal_ok: @steal_ns was read at the last reading
 * @steal_ns: its steal time then
 */
struct tp_cpu_counters {
	struct tp_proc_rows irqs;
	struct tp_proc_rows softirqs;
	struct tp_proc_file stat;
	unsigned int cpu;
	bool opened;
	bool steal_ok;
	uint64_t steal_ns;
};

/**
 * struct tp_cpu_window - what a CPU counted between two readings
 * @irq_ok: @irq is known
 * @irq: interrupts it took
 * @steal_ok: @steal_ns is known
 * @steal_ns: steal time
 */
struct tp_cpu_window {
	bool irq_ok;
	uint64_t irq;
	bool steal_ok;
	uint64_t steal_ns;
};

void tp_cpu_counters_open(struct tp_cpu_counters *c, unsigned int cpu,
			  const struct tp_proc_paths *paths);
void tp_cpu_counters_read(struct tp_cpu_counters *c, struct tp_cpu_window *d);
void tp_cpu_counters_sources(const struct tp_cpu_counters *c,
			     struct tp_cpu_res *res);
void tp_cpu_counters_close(struct tp_cpu_counters *c);

#endif /* TSCPROBE_USER_CPU_COUNTERS_H */
