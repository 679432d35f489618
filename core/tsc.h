/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 timing primitives: the ways of reading the TSC that tscprobe offers,
 * and the fences and cache-line flush the measurements are built from.
 *
 * Every TSC read is an asm volatile with a "memory" clobber: the compiler
 * must neither move memory accesses across it nor merge two reads, so the
 * program order of the C code is the order the instructions are issued in.
 * What the *CPU* may reorder is the point of the variants:
 *
 *  lfence; rdtsc   rdtsc starts only once every earlier instruction has
 *                  completed (loads included); the default.
 *  rdtscp          waits for earlier instructions, but later ones may
 *                  start before it has read the counter.
 *  mfence; rdtsc   additionally drains the store buffer first.
 *  rdtsc           no ordering at all: may execute early or late.
 */
#ifndef TSCPROBE_CORE_TSC_H
#define TSCPROBE_CORE_TSC_H

#include <linux/tscprobe.h>
#include "host.h"

/*
 * Combine the EDX:EAX halves that rdtsc and rdtscp return.  They are taken
 * as 64-bit registers: writing EAX/EDX clears the upper halves of RAX/RDX,
 * so no zero-extension is needed on the way to the result.
 */
static tp_always_inline uint64_t tp_tsc_join(uint64_t lo, uint64_t hi)
{
	return (hi << 32) | lo;
}

/** tp_rdtsc() - read the TSC with no ordering against other instructions */
static tp_always_inline uint64_t tp_rdtsc(void)
{
	uint64_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return tp_tsc_join(lo, hi);
}

/** tp_rdtsc_lfence() - read the TSC after all earlier instructions ended */
static tp_always_inline uint64_t tp_rdtsc_lfence(void)
{
	uint64_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc"
			     : "=a" (lo), "=d" (hi) : : "memory");
	return tp_tsc_join(lo, hi);
}

/**
 * tp_rdtscp() - read the TSC with rdtscp
 *
 * The TSC_AUX value (the CPU number on Linux) that rdtscp loads into ECX
 * is discarded.
 */
static tp_always_inline uint64_t tp_rdtscp(void)
{
	uint64_t lo, hi, aux;

	__asm__ __volatile__("rdtscp"
			     : "=a" (lo), "=d" (hi), "=c" (aux) : : "memory");
	(void)aux;
	return tp_tsc_join(lo, hi);
}

/** tp_rdtsc_mfence() - read the TSC after earlier loads and stores ended */
static tp_always_inline uint64_t tp_rdtsc_mfence(void)
{
	uint64_t lo, hi;

	__asm__ __volatile__("mfence\n\trdtsc"
			     : "=a" (lo), "=d" (hi) : : "memory");
	return tp_tsc_join(lo, hi);
}

/** tp_lfence() - wait for earlier instructions before starting later ones */
static tp_always_inline void tp_lfence(void)
{
	__asm__ __volatile__("lfence" : : : "memory");
}

/** tp_mfence() - order all earlier loads and stores before later ones */
static tp_always_inline void tp_mfence(void)
{
	__asm__ __volatile__("mfence" : : : "memory");
}

/** tp_sfence() - order earlier stores before later stores */
static tp_always_inline void tp_sfence(void)
{
	__asm__ __volatile__("sfence" : : : "memory");
}

/** tp_cpu_relax() - pause: a polite spin-wait hint to the core */
static tp_always_inline void tp_cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

/**
 * tp_clflush() - write back and evict the cache line holding @p
 * @p: any address in the line
 *
 * clflush is ordered only by mfence (and locked instructions); callers
 * that time the next access fence it themselves.
 */
static tp_always_inline void tp_clflush(const void *p)
{
	__asm__ __volatile__("clflush %0" : : "m" (*(const char *)p) : "memory");
}

/**
 * tp_read_tsc() - read the TSC the way @clock says
 * @clock: one of enum tscprobe_clock; anything else reads like LFENCE
 *
 * A switch: with a run-time @clock it costs a branch per read, so hot loops
 * must call it only with a compile-time constant (it is always inlined and
 * then folds to the one instruction sequence) or use the variants above.
 *
 * Return: the TSC value.
 */
static tp_always_inline uint64_t tp_read_tsc(enum tscprobe_clock clock)
{
	switch (clock) {
	case TSCPROBE_CLOCK_RDTSCP:
		return tp_rdtscp();
	case TSCPROBE_CLOCK_MFENCE:
		return tp_rdtsc_mfence();
	case TSCPROBE_CLOCK_PLAIN:
		return tp_rdtsc();
	case TSCPROBE_CLOCK_LFENCE:
	default:
		return tp_rdtsc_lfence();
	}
}

#endif /* TSCPROBE_CORE_TSC_H */
