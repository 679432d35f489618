/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load-to-use latency by pointer chasing, for the memory-level curve.
 *
 * A working set of N cache lines is linked into one random cycle (one
 * pointer per line, Sattolo's algorithm), and the chase p = *p follows it:
 * every load depends on the one before, so the time per load is the
 * latency of wherever the working set fits (L1, L2, L3, DRAM), and the
 * random order leaves the hardware prefetchers nothing to predict.  For
 * working sets from 4 KiB to 256 MiB the steps between the levels show.
 *
 * The memory is given as equal power-of-two chunks (the module uses
 * physically contiguous pages of the direct map, so that large working
 * sets are not also measuring TLB misses; userspace one mapping with
 * transparent huge pages); a working set is the first N lines of it.
 * Building is resumable, a bounded number of steps at a time, because in
 * the kernel it must stop for the scheduler and for STOP.
 */
#ifndef TSCPROBE_CORE_CHASE_H
#define TSCPROBE_CORE_CHASE_H

#include "host.h"
#include "pace.h"

/* Loads per unit of a chase batch, timed together: one bracket each. */
#define TP_CHASE_UNIT		1024
/*
 * A unit that takes more than this many times the fastest unit was
 * disturbed (an interrupt, an SMI, a preemption) and is left out.
 */
#define TP_CHASE_DISTURBED	8
/* Loads timed per working set (and at most this many warm it up). */
#define TP_CHASE_LOADS		(1024U * 1024)
/* Build steps per call of tp_chase_build() in the module. */
#define TP_CHASE_BUILD_STEPS	(64U * 1024)
/* Units (of TP_CHASE_UNIT loads) between two deadline checks of a chase. */
#define TP_CHASE_BATCH		64

/**
 * struct tp_chase - one working set and the chase through it
 * @chunks: base addresses of the chunks, each 1 << @chunk_shift lines
 * @chunk_shift: log2 of the lines per chunk
 * @lines: lines in the working set (>= 2)
 * @step: build progress, 0..3 * @lines (done)
 * @rng: the permutation's random state (never 0)
 * @pos: where the chase stands (a line of the cycle) once built
 * @pace: units (of TP_CHASE_UNIT loads) chased, for the windows
 * @loads: loads timed and kept
 * @cycles: TSC cycles they took
 * @fastest: cycles of the fastest unit so far (kept across a counts reset)
 * @disturbed: units left out, slower than TP_CHASE_DISTURBED x @fastest
 */
struct tp_chase {
	void *const *chunks;
	unsigned int chunk_shift;
	uint64_t lines;
	uint64_t step;
	uint64_t rng;
	void **pos;
	struct tp_pace pace;
	uint64_t loads;
	uint64_t cycles;
	uint64_t fastest;
	uint64_t disturbed;
};

/**
 * struct tp_chase_host - what timing a working set needs from its runner
 * @stop: between build steps: true when the run must end (the module also
 *	yields the CPU here: the build runs with interrupts on)
 * @windows: chase @units units of @ch (tp_chase_batch(), TP_CHASE_BATCH
 *	units per deadline check) in the runner's paced windows; false when
 *	the run ended first
 * @arg: for both
 */
struct tp_chase_host {
	bool (*stop)(void *arg);
	bool (*windows)(void *arg, struct tp_chase *ch, uint64_t units);
	void *arg;
};

struct tp_latency;

bool tp_chase_level(void *const *chunks, unsigned int chunk_shift,
		    uint64_t bytes, unsigned int cpu,
		    const struct tp_chase_host *host, struct tp_latency *lat);
void tp_chase_init(struct tp_chase *ch, void *const *chunks,
		   unsigned int chunk_shift, uint64_t lines, uint64_t seed);
bool tp_chase_build(struct tp_chase *ch, uint64_t steps);
void tp_chase_reset_counts(struct tp_chase *ch);
uint64_t tp_chase_batch(void *chase, uint64_t units);
uint64_t tp_chase_warmup_units(const struct tp_chase *ch);

#endif /* TSCPROBE_CORE_CHASE_H */
