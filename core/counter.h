/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hardware or kernel counter followed across a run by repeated readings:
 * its change is summed step by step, each step taken modulo the counter's
 * width, so a counter that wraps between two readings adds what it really
 * counted.  A sum of 32-bit counters is a 32-bit counter too: the step of
 * the sum, modulo 2^32, is the sum of the steps, whichever of them wrapped.
 */
#ifndef TSCPROBE_CORE_COUNTER_H
#define TSCPROBE_CORE_COUNTER_H

#include "host.h"

/**
 * struct tp_counter - a counter's change since the first reading
 * @ok: every reading succeeded; once one fails, the change is unknown
 * @last: the previous reading
 * @delta: the change since the first reading
 */
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

/**
 * tp_counter_step() - add the change since the previous reading
 * @k: the counter
 * @ok: whether @value could be read
 * @value: the reading
 * @bits: the counter's width (1 to 64): fewer events than 2^@bits
 *	between two readings are counted exactly, across a wrap
 */
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
