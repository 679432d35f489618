/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Batched loops that end on time: the deadline is checked between batches,
 * and each batch is cut to the units that fit before it at the pace so far,
 * so a window (interrupts off in the kernel) overruns by about one unit.
 */
#ifndef TSCPROBE_CORE_PACE_H
#define TSCPROBE_CORE_PACE_H

#include "host.h"

/* Units done so far and the TSC cycles they took inside windows. */
struct tp_pace {
	uint64_t units;
	uint64_t cycles;
};

/* Runs n >= 1 units; returns the TSC after the last (ideally one it read). */
typedef uint64_t (*tp_batch_fn)(void *state, uint64_t n);

uint64_t tp_paced_window(struct tp_pace *pace, tp_batch_fn fn, void *state,
			 uint64_t units, uint32_t batch, uint64_t deadline);

#endif /* TSCPROBE_CORE_PACE_H */
