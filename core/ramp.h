/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU's effective clock once it has left idle: read over successive
 * spins until two readings agree, after at least the time the platform
 * takes to ramp its clock up, and at most a bounded time.
 *
 * A thread that starts on a CPU that was idle finds the clock where idle
 * left it.  With HWP (Intel) or CPPC (AMD) the processor itself raises it
 * once the CPU is busy: the kernel expects an HWP CPU's request to take
 * effect within 5 ms (intel_pstate's INTEL_CPUFREQ_TRANSITION_DELAY_HWP)
 * and AMD's CPPC firmware to pick a frequency on a 1 ms timescale
 * (amd-pstate's AMD_PSTATE_TRANSITION_DELAY), with 20 ms as the transition
 * latency it assumes when the firmware gives none
 * (AMD_PSTATE_TRANSITION_LATENCY).  A reading taken in that ramp is not
 * the clock the measurement then runs at.
 */
#ifndef TSCPROBE_CORE_RAMP_H
#define TSCPROBE_CORE_RAMP_H

#include "host.h"

/* The spin before a reading can count: the longest of the ramps above. */
#define TP_RAMP_MIN_NS		5000000ULL
/* Past this, the clock is taken as it is: AMD's default latency. */
#define TP_RAMP_MAX_NS		20000000ULL
/* Readings at most this far apart (per cent of the first) agree. */
#define TP_RAMP_STEADY_PCT	1
/* A bound on the readings whatever their spins say. */
#define TP_RAMP_MAX_READS	64

/**
 * struct tp_ramp - the readings so far
 * @spun_ns: the time spun over them
 * @reads: how many
 * @khz: the last one (0: unreadable)
 * @settled: it agreed with the one before, after TP_RAMP_MIN_NS
 */
struct tp_ramp {
	uint64_t spun_ns;
	unsigned int reads;
	uint32_t khz;
	bool settled;
};

/*
 * One reading of the effective clock in kHz over a spin of *@ns (set by
 * the function); 0 when it cannot be read, or not on the CPU meant.
 */
typedef uint32_t (*tp_clock_read_fn)(void *state, uint64_t *ns);

void tp_ramp_init(struct tp_ramp *r);
bool tp_ramp_step(struct tp_ramp *r, uint32_t khz, uint64_t ns);
uint32_t tp_ramp_settle(struct tp_ramp *r, tp_clock_read_fn read, void *state);

#endif /* TSCPROBE_CORE_RAMP_H */
