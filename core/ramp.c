// SPDX-License-Identifier: GPL-2.0
#include "ramp.h"

void tp_ramp_init(struct tp_ramp *r)
{
	r->spun_ns = 0;
	r->reads = 0;
	r->khz = 0;
	r->settled = false;
}

static bool tp_ramp_agree(uint32_t a, uint32_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d * 100 <= (uint64_t)a * TP_RAMP_STEADY_PCT;
}

/**
 * tp_ramp_step() - take one reading of the effective clock
 * @r: the readings so far
 * @khz: the reading, 0 if unreadable
 * @ns: the spin it was taken over
 *
 * A reading counts once TP_RAMP_MIN_NS have been spun, readings included,
 * and it agrees with the one before: two readings in the ramp may agree
 * while the clock waits for its next step.  An unreadable one ends it all.
 *
 * Return: true while another reading is needed; @r->khz is the clock once
 * false (the last reading, @r->settled false, if none agreed in time).
 */
bool tp_ramp_step(struct tp_ramp *r, uint32_t khz, uint64_t ns)
{
	uint32_t before = r->khz;

	r->khz = khz;
	r->reads++;
	r->spun_ns += ns;
	if (!khz)
		return false;
	if (r->spun_ns >= TP_RAMP_MIN_NS && before &&
	    tp_ramp_agree(before, khz)) {
		r->settled = true;
		return false;
	}
	return r->spun_ns < TP_RAMP_MAX_NS && r->reads < TP_RAMP_MAX_READS;
}

/**
 * tp_ramp_settle() - read the effective clock until it has settled
 * @r: initialised by tp_ramp_init()
 * @read: one reading
 * @state: passed to @read
 *
 * Return: the clock in kHz, as @r->khz.
 */
uint32_t tp_ramp_settle(struct tp_ramp *r, tp_clock_read_fn read, void *state)
{
	uint64_t ns;
	uint32_t khz;

	do {
		ns = 0;
		khz = read(state, &ns);
	} while (tp_ramp_step(r, khz, ns));
	return r->khz;
}
