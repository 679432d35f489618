// SPDX-License-Identifier: GPL-2.0
/*
 * The paced batch runner shared by the cache rounds, the NUMA node probe
 * and the pointer chase.
 */
#include "pace.h"
#include "tsc.h"

/*
 * The units of a batch: at most @batch and @left, and at most the units
 * that fit before @deadline at the pace so far (plus one, so that a
 * window always ends past its deadline and never a unit short of it).
 * The very first unit of a loop has no pace yet and runs alone, as does
 * one started past the deadline.
 */
static uint64_t tp_pace_batch(const struct tp_pace *pace, uint64_t done,
			      uint64_t spent, uint64_t left, uint32_t batch,
			      uint64_t now, uint64_t deadline)
{
	uint64_t n = left < batch ? left : batch;
	uint64_t units = pace->units + done, per, fit;

	if (n <= 1)
		return n;
	if (!units || now >= deadline)
		return 1;
	per = (pace->cycles + spent) / units;
	fit = (deadline - now) / (per ? per : 1) + 1;
	return n < fit ? n : fit;
}

/**
 * tp_paced_window() - run batches of a loop until it is done or a deadline
 * @pace: the loop's pace; updated with the units and cycles of this window
 * @fn: runs one batch
 * @state: passed to @fn
 * @units: units still to do
 * @batch: the most units between two deadline checks (0 counts as 1)
 * @deadline: TSC value after which no further batch starts
 *
 * The caller bounds the window (interrupts off in the kernel); this runs
 * batches back to back and checks @deadline after each, with the TSC the
 * batch itself read last.  The first batch runs even if @deadline has
 * passed, so that a caller looping over windows always makes progress:
 * every loop is bounded by @units, and each window by @deadline plus
 * about one unit.
 *
 * Return: the units done in this window, at least 1 if @units is.
 */
uint64_t tp_paced_window(struct tp_pace *pace, tp_batch_fn fn, void *state,
			 uint64_t units, uint32_t batch, uint64_t deadline)
{
	uint64_t start = tp_rdtsc_lfence(), now = start, done = 0, n;

	if (!units)
		return 0;
	if (!batch)
		batch = 1;
	do {
		n = tp_pace_batch(pace, done, now - start, units - done, batch,
				  now, deadline);
		now = fn(state, n);
		done += n;
	} while (done < units && now < deadline);
	pace->units += done;
	pace->cycles += now - start;
	return done;
}
