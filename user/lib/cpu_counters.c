// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU's interrupt count and steal time from /proc.  Both files are
 * read whole, which takes tens of microseconds: never inside a window.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cpu_counters.h"

/**
 * tp_proc_stat_steal_ns() - a CPU's steal time from a /proc/stat file
 * @path: the file (settable for tests)
 * @cpu: the CPU
 * @ns: set to its steal time in ns (the eighth value of its "cpuN" line,
 *	in clock ticks)
 *
 * Return: false when the file, the line or the field is missing.
 */
bool tp_proc_stat_steal_ns(const char *path, unsigned int cpu, uint64_t *ns)
{
	unsigned long long v[8];
	long hz = sysconf(_SC_CLK_TCK);
	char line[512], name[32];
	bool found = false;
	FILE *f = fopen(path, "r");

	if (!f || hz <= 0) {
		if (f)
			fclose(f);
		return false;
	}
	snprintf(name, sizeof(name), "cpu%u ", cpu);
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, strlen(name)))
			continue;
		found = sscanf(line + strlen(name),
			       "%llu %llu %llu %llu %llu %llu %llu %llu",
			       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			       &v[7]) == 8;
	}
	fclose(f);
	if (found)
		*ns = (uint64_t)v[7] * (1000000000ULL / (uint64_t)hz);
	return found;
}

/**
 * tp_cpu_counters_read() - read a CPU's interrupts and steal time now
 * @cpu: the CPU
 * @scratch: room for a /proc/interrupts reading (large: one per thread)
 * @c: the reading; a counter that cannot be read is marked so
 */
void tp_cpu_counters_read(unsigned int cpu, struct tp_irq_counts *scratch,
			  struct tp_cpu_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (cpu < TP_MAX_CPUS &&
	    !tp_read_proc_interrupts("/proc/interrupts", scratch) &&
	    scratch->seen[cpu]) {
		c->irq_ok = true;
		c->irq = tp_irq_taken(scratch, cpu);
	}
	c->steal_ok = tp_proc_stat_steal_ns("/proc/stat", cpu, &c->steal_ns);
}
