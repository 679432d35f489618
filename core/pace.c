// SPDX-License-Identifier: GPL-2.0
#include "pace.h"
#include "tsc.h"

/*
 * Units that fit before @deadline at the pace so far, plus one so that a
 * window ends past its deadline, never a unit short.  Without a pace yet,
 * or past the deadline, one unit runs alone.
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
 * tp_paced_window() - run batches of a loop until done or a deadline
 * @pace: the loop's pace, updated with this window's units and cycles
 * @fn: runs one batch
 * @state: passed to @fn
 * @units: units still to do
 * @batch: the most units between two deadline checks (0 counts as 1)
 * @deadline: TSC after which no further batch starts
 *
 * The first batch runs even past @deadline, so that a caller looping over
 * windows always makes progress.
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
