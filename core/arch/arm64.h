/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64: the generic timer's virtual count (CNTVCT_EL0) in place of the
 * TSC, under the x86 names core/ is written with.  The count ticks at
 * CNTFRQ_EL0 (25 MHz to 1 GHz), not at the CPU clock, so a read resolves
 * no better than one tick: the reports say so (Documentation/tscprobe.rst,
 * "arm64").  Included by core/tsc.h only.
 *
 * The orders: "isb" before a read is what lfence is on x86 (earlier
 * instructions complete first; the kernel's own ordered read); "dsb sy"
 * before it also waits for earlier memory accesses, as mfence does.  arm64
 * has no rdtscp: the CLI refuses that variant (TP_ARCH_HAS_RDTSCP), and it
 * reads as the default here.
 */
#ifndef TSCPROBE_CORE_ARCH_ARM64_H
#define TSCPROBE_CORE_ARCH_ARM64_H

#include "../host.h"

#define TP_ARCH_HAS_RDTSCP	0

static tp_always_inline uint64_t tp_rdtsc(void)
{
	uint64_t v;

	__asm__ __volatile__("mrs %0, cntvct_el0" : "=r" (v) : : "memory");
	return v;
}

static tp_always_inline uint64_t tp_rdtsc_lfence(void)
{
	uint64_t v;

	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0"
			     : "=r" (v) : : "memory");
	return v;
}

static tp_always_inline uint64_t tp_rdtscp(void)
{
	return tp_rdtsc_lfence();
}

static tp_always_inline uint64_t tp_rdtsc_mfence(void)
{
	uint64_t v;

	__asm__ __volatile__("dsb sy\n\tisb\n\tmrs %0, cntvct_el0"
			     : "=r" (v) : : "memory");
	return v;
}

static tp_always_inline void tp_lfence(void)
{
	__asm__ __volatile__("isb" : : : "memory");
}

static tp_always_inline void tp_mfence(void)
{
	__asm__ __volatile__("dsb sy" : : : "memory");
}

/* Earlier stores before later ones, as seen by the other CPUs. */
static tp_always_inline void tp_sfence(void)
{
	__asm__ __volatile__("dmb ishst" : : : "memory");
}

static tp_always_inline void tp_cpu_relax(void)
{
	__asm__ __volatile__("yield" : : : "memory");
}

/* To the point of coherency; ordered only by a dsb. */
static tp_always_inline void tp_clflush(const void *p)
{
	__asm__ __volatile__("dc civac, %0" : : "r" (p) : "memory");
}

/*
 * The cache measurement's brackets: "isb; mrs" reads the count after what
 * came before; "dsb ish; isb" after the load waits for the load to
 * complete and keeps the second read behind it.  The uncached load's line
 * is cleaned and invalidated first, and the dsb waits for that.
 */
#define TP_A64_T0	"isb\n\tmrs %[t0], cntvct_el0\n\tisb\n\t"
#define TP_A64_T1	"dsb ish\n\tisb\n\tmrs %[t1], cntvct_el0\n\tisb\n\t"
#define TP_A64_FLUSH	"dc civac, %[p]\n\tdsb ish\n\t"
#define TP_A64_LOAD	"ldr %[v], [%[p]]\n\t"

#define TP_A64_CACHE_TIMER(name, pre, body)				\
static tp_always_inline uint64_t name(const void *p, uint64_t *end)	\
{									\
	uint64_t t0, t1, v;						\
									\
	__asm__ __volatile__(pre TP_A64_T0 body TP_A64_T1		\
			     : [t0] "=&r" (t0), [t1] "=&r" (t1),	\
			       [v] "=&r" (v)				\
			     : [p] "r" (p)				\
			     : "memory");				\
	(void)v;							\
	*end = t1;							\
	return t1 - t0;							\
}

TP_A64_CACHE_TIMER(tp_cache_time_overhead, "", "")
TP_A64_CACHE_TIMER(tp_cache_time_uncached, TP_A64_FLUSH, TP_A64_LOAD)
TP_A64_CACHE_TIMER(tp_cache_time_cached, "", TP_A64_LOAD)

#endif /* TSCPROBE_CORE_ARCH_ARM64_H */
