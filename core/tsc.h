/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86 timing primitives.  Every TSC read has a "memory" clobber, so the
 * compiler keeps program order; what the CPU may reorder is the point of
 * the variants (Documentation/tscprobe.rst, "Clock variants").
 */
#ifndef TSCPROBE_CORE_TSC_H
#define TSCPROBE_CORE_TSC_H

#include <linux/tscprobe.h>
#include "host.h"

/* 64-bit halves: writing EAX/EDX clears the upper halves, no extension. */
static tp_always_inline uint64_t tp_tsc_join(uint64_t lo, uint64_t hi)
{
	return (hi << 32) | lo;
}

static tp_always_inline uint64_t tp_rdtsc(void)
{
	uint64_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi) : : "memory");
	return tp_tsc_join(lo, hi);
}

static tp_always_inline uint64_t tp_rdtsc_lfence(void)
{
	uint64_t lo, hi;

	__asm__ __volatile__("lfence\n\trdtsc"
			     : "=a" (lo), "=d" (hi) : : "memory");
	return tp_tsc_join(lo, hi);
}

static tp_always_inline uint64_t tp_rdtscp(void)
{
	uint64_t lo, hi, aux;

	__asm__ __volatile__("rdtscp"
			     : "=a" (lo), "=d" (hi), "=c" (aux) : : "memory");
	(void)aux;
	return tp_tsc_join(lo, hi);
}

static tp_always_inline uint64_t tp_rdtsc_mfence(void)
{
	uint64_t lo, hi;

	__asm__ __volatile__("mfence\n\trdtsc"
			     : "=a" (lo), "=d" (hi) : : "memory");
	return tp_tsc_join(lo, hi);
}

static tp_always_inline void tp_lfence(void)
{
	__asm__ __volatile__("lfence" : : : "memory");
}

static tp_always_inline void tp_mfence(void)
{
	__asm__ __volatile__("mfence" : : : "memory");
}

static tp_always_inline void tp_sfence(void)
{
	__asm__ __volatile__("sfence" : : : "memory");
}

static tp_always_inline void tp_cpu_relax(void)
{
	__asm__ __volatile__("pause" : : : "memory");
}

/* Ordered only by mfence: callers timing the next access fence it. */
static tp_always_inline void tp_clflush(const void *p)
{
	__asm__ __volatile__("clflush %0" : : "m" (*(const char *)p) : "memory");
}

/*
 * Unknown @clock reads like LFENCE.  Hot loops pass a compile-time constant,
 * so the switch folds away; a run-time one costs a branch per read.
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
