/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A counter followed by repeated readings, each step taken modulo its width
 * so that a wrap adds what it really counted.  A sum of 32-bit counters is
 * a 32-bit counter too.
 */
#ifndef TSCPROBE_CORE_COUNTER_H
#define TSCPROBE_CORE_COUNTER_H

#include "host.h"

/* Once a reading fails (!ok), the change is unknown. */
struct tp_counter {
	bool ok;
	uint64_t last;
	uint64_t delta;
};

static inline void tp_counter_begin(struct tp_counter *k, bool ok,
				    uint64_t value)
{
	k->ok = ok;
	k->last = value;
	k->delta = 0;
}

/* Exact while fewer than 2^@bits (1 to 64) events occur between readings. */
static inline void tp_counter_step(struct tp_counter *k, bool ok,
				   uint64_t value, unsigned int bits)
{
	uint64_t mask = bits < 64 ? ((uint64_t)1 << bits) - 1 : TP_U64_MAX;

	if (!ok)
		k->ok = false;
	if (k->ok)
		k->delta += (value - k->last) & mask;
	k->last = value;
}

#endif /* TSCPROBE_CORE_COUNTER_H */
