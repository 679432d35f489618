/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counter, read in the order a clock variant names, from the
 * architecture's primitives (core/arch/): the x86 names are the project's
 * vocabulary, and each architecture gives them its nearest meaning.
 */
#ifndef TSCPROBE_CORE_TSC_H
#define TSCPROBE_CORE_TSC_H

#include <linux/tscprobe.h>
#include "host.h"

#if defined(__x86_64__)
#include "arch/x86.h"
#elif defined(__aarch64__)
#include "arch/arm64.h"
#else
#error "tscprobe measures on x86-64 and arm64 only"
#endif

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
