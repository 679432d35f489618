/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batched loops that end on time.  A measurement made of many short units
 * of work (a cache round, a block of pointer-chasing loads) checks its
 * window's TSC deadline only between batches, so that the check costs
 * nothing inside a batch.  A fixed batch could run far past the deadline
 * where one unit is slow (a DRAM miss, an emulator), and in the kernel
 * the window runs with interrupts off: so every batch is also cut to the
 * units that fit before the deadline at the pace measured so far.  A
 * window therefore overruns its deadline by about one unit, whatever the
 * batch size.
 */
#ifndef TSCPROBE_CORE_PACE_H
#define TSCPROBE_CORE_PACE_H

#include "host.h"

/**
 * struct tp_pace - how fast a batched loop has gone so far
 * @units: units of work done
 * @cycles: TSC cycles they took, counted inside windows only
 */
struct tp_pace {
	uint64_t units;
	uint64_t cycles;
};

/**
 * typedef tp_batch_fn - run a batch of units of work
 * @state: the loop's state
 * @n: units to run, at least 1
 *
 * Return: the TSC after the last unit (ideally one the unit read anyway).
 */
typedef uint64_t (*tp_batch_fn)(void *state, uint64_t n);

uint64_t tp_paced_window(struct tp_pace *pace, tp_batch_fn fn, void *state,
			 uint64_t units, uint32_t batch, uint64_t deadline);

#endif /* TSCPROBE_CORE_PACE_H */
