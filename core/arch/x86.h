/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64: the TSC and its reads in the orders the clock variants name
 * (Documentation/tscprobe.rst, "Clock variants"), the fences, the flush,
 * the pause and the timed load of the cache measurement.  Every read has a
 * "memory" clobber, so the compiler keeps program order; what the CPU may
 * reorder is the point of the variants.  Included by core/tsc.h only.
 */
#ifndef TSCPROBE_CORE_ARCH_X86_H
#define TSCPROBE_CORE_ARCH_X86_H

#include "../host.h"

#define TP_ARCH_HAS_RDTSCP	1

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

/* The strings the bracket is made of; variants leave one out. */
#define TP_LFENCE	"lfence\n\t"
#define TP_NOFENCE	""
#define TP_FLUSH	"clflush (%[p])\n\tmfence\n\t"
#define TP_LOAD		"mov (%[p]), %[v]\n\t"

/*
 * TP_CACHE_TIMER() defines "uint64_t name(const void *p, uint64_t *end)":
 * the cycles between two rdtsc around @body, with fences f1 f2 before and
 * f3 f4 after, the second read in *end.  One asm statement, so the compiler
 * can put nothing inside the bracket.  Every output is early-clobber: the
 * first rdtsc writes EAX/EDX before p is used.  The benchmark instantiates
 * it with one fence left out at a time.
 */
#define TP_CACHE_TIMER(name, pre, f1, f2, f3, f4, body)			\
static tp_always_inline uint64_t name(const void *p,		\
				      uint64_t *end)			\
{									\
	uint64_t lo0, hi0, lo1, hi1, v;					\
									\
	__asm__ __volatile__(pre f1 "rdtsc\n\t"				\
			     "mov %%eax, %k[lo0]\n\t"			\
			     "mov %%edx, %k[hi0]\n\t"			\
			     f2 body f3 "rdtsc\n\t" f4			\
			     : [lo0] "=&r" (lo0), [hi0] "=&r" (hi0),	\
			       [v] "=&r" (v), "=&a" (lo1), "=&d" (hi1)	\
			     : [p] "r" (p)				\
			     : "memory");				\
	(void)v;							\
	*end = tp_tsc_join(lo1, hi1);					\
	return *end - tp_tsc_join(lo0, hi0);				\
}

TP_CACHE_TIMER(tp_cache_time_overhead, "", TP_LFENCE, TP_LFENCE, TP_LFENCE,
	       TP_LFENCE, "")
TP_CACHE_TIMER(tp_cache_time_uncached, TP_FLUSH, TP_LFENCE, TP_LFENCE,
	       TP_LFENCE, TP_LFENCE, TP_LOAD)
TP_CACHE_TIMER(tp_cache_time_cached, "", TP_LFENCE, TP_LFENCE, TP_LFENCE,
	       TP_LFENCE, TP_LOAD)

#endif /* TSCPROBE_CORE_ARCH_X86_H */
