// SPDX-License-Identifier: GPL-2.0
#include "noise.h"
#include "tsc.h"

tp_static_assert(sizeof(struct tp_noise) <= 32 * 1024,
		 "struct tp_noise must stay within a 32 KiB L1D");

/* Clearing the slots warms them, and nothing stale is ever copied out. */
void tp_events_init(struct tp_events *e)
{
	unsigned int i;

	e->total = 0;
	e->dropped = 0;
	e->n = 0;
	e->smallest = 0;
	for (i = 0; i < TSCPROBE_MAX_EVENTS; i++) {
		struct tp_event *ev = &e->ev[i];

		ev->tsc = 0;
		ev->cycles = 0;
		ev->steal_ns = 0;
		ev->smi = 0;
		ev->nmi = 0;
		ev->irq = 0;
		ev->valid = 0;
		ev->cause = TSCPROBE_CAUSE_NONE;
	}
}

/* @e must not be empty. */
static uint32_t tp_events_find_smallest(const struct tp_events *e)
{
	uint32_t i, s = 0;

	for (i = 1; i < e->n; i++)
		if (e->ev[i].cycles < e->ev[s].cycles)
			s = i;
	return s;
}

void tp_events_add(struct tp_events *e, uint64_t tsc, uint64_t cycles)
{
	struct tp_event ev = {
		.tsc = tsc, .cycles = cycles, .cause = TSCPROBE_CAUSE_NONE,
	};

	tp_events_add_event(e, &ev);
}

/*
 * Once full, every new event counts as dropped and displaces the smallest if
 * larger (a tie keeps the older).  Only a displacement rescans the set.
 * Returns the slot it took, or TP_EVENT_NOT_KEPT.
 */
uint32_t tp_events_add_event(struct tp_events *e, const struct tp_event *new)
{
	struct tp_event *ev;

	e->total++;
	if (e->n < TSCPROBE_MAX_EVENTS) {
		if (!e->n || new->cycles < e->ev[e->smallest].cycles)
			e->smallest = e->n;
		ev = &e->ev[e->n++];
	} else {
		e->dropped++;
		ev = &e->ev[e->smallest];
		if (new->cycles <= ev->cycles)
			return TP_EVENT_NOT_KEPT;
	}
	*ev = *new;
	if (e->n == TSCPROBE_MAX_EVENTS)
		e->smallest = tp_events_find_smallest(e);
	return (uint32_t)(ev - e->ev);
}

/* The rule of enum tscprobe_cause (Documentation/tscprobe.rst, "Causes"). */
unsigned int tp_event_cause(const struct tp_event *ev)
{
	if ((ev->valid & TP_EVENT_SMI) && ev->smi)
		return TSCPROBE_CAUSE_SMI;
	if ((ev->valid & TP_EVENT_NMI) && ev->nmi)
		return TSCPROBE_CAUSE_NMI;
	if ((ev->valid & TP_EVENT_IRQ) && ev->irq)
		return TSCPROBE_CAUSE_IRQ;
	if ((ev->valid & TP_EVENT_STEAL) && ev->steal_ns)
		return TSCPROBE_CAUSE_STEAL;
	return TSCPROBE_CAUSE_UNEXPLAINED;
}

/* Out of line: the loop carries only the call.  Every event is explained. */
void tp_noise_event(struct tp_noise *n, uint64_t tsc, uint64_t cycles)
{
	struct tp_event ev = {
		.tsc = tsc, .cycles = cycles, .cause = TSCPROBE_CAUSE_NONE,
	};
	uint32_t slot;

	if (n->explain)
		n->explain(n, &ev);
	slot = tp_events_add_event(&n->events, &ev);
	if (n->kept && slot != TP_EVENT_NOT_KEPT)
		n->kept(n, slot);
}

/* Clearing the histogram also warms it for the first window. */
void tp_noise_init(struct tp_noise *n, uint64_t threshold_cycles)
{
	tp_hist_reset(&n->hist);
	tp_events_init(&n->events);
	/* a gap of 0 (two reads in one tick) is never noise */
	n->threshold = threshold_cycles ? threshold_cycles : 1;
	n->min = TP_U64_MAX;
	n->max = 0;
	n->measured = 0;
	n->samples = 0;
	n->explain = NULL;
	n->kept = NULL;
	n->skipped = 0;
	n->resumed_at = 0;
	n->resumed_by = 0;
	n->followed = false;
	n->steps_back = 0;
	n->step_back_max = 0;
	n->step_back_cycles = 0;
}

/*
 * What only the slow path touches.  @back: cycles the TSC stepped back; the
 * reads telescope through them, the measured time must not.
 */
struct tp_noise_acct {
	uint64_t back;
	uint64_t lost;
	bool stepped;
	uint64_t now;
};

/* Out of line, as is the next: nothing here to share with the fast path. */
static tp_noinline void tp_noise_count_step(struct tp_noise *n, uint64_t step)
{
	n->steps_back++;
	n->step_back_max = step > n->step_back_max ? step : n->step_back_max;
	n->step_back_cycles += step;
}

/* A step back that the fast path took for a gap: out of the histogram. */
static tp_noinline void tp_noise_unrecord(struct tp_noise *n, uint64_t gap)
{
	tp_hist_sub(&n->hist, gap);
	tp_noise_count_step(n, 0 - gap);
}

/*
 * A step back ends the window (its deadline is on the old count) through
 * the loop's own test: *@now goes to UINT64_MAX, its read kept in @a.
 */
static tp_always_inline void tp_noise_end_window(uint64_t *now,
						 struct tp_noise_acct *a)
{
	a->stepped = true;
	a->now = *now;
	*now = TP_U64_MAX;
}

/*
 * A "gap" of 2^63 cycles or more is a step back of the TSC.  Any other is an
 * event; the path's own time (an rdmsr, in a VM a trap) would land in the
 * next gap, so *@now moves past it and the stretch goes to *@skipped.  The
 * loop then takes the moved read for the end of the pending gap, which
 * @n->resumed_at/by undo here, so the loop carries nothing for it.
 */
static tp_always_inline void tp_noise_slow(struct tp_noise *n,
					   const enum tscprobe_clock clock,
					   uint64_t gap, uint64_t end,
					   uint64_t *now, uint64_t *skipped,
					   struct tp_noise_acct *a)
{
	uint64_t resumed;

	if (tp_unlikely((int64_t)gap < 0)) {
		tp_noise_unrecord(n, gap);
		a->back += 0 - gap;
		a->lost++;
		tp_noise_end_window(now, a);
		return;
	}
	n->followed = (int64_t)(*now - end) >= (int64_t)n->threshold;
	if (end == n->resumed_at)
		end -= n->resumed_by;
	tp_noise_event(n, end, gap);
	resumed = tp_read_tsc(clock);
	if (tp_unlikely(resumed < *now)) {
		n->resumed_by = 0;
		tp_noise_count_step(n, *now - resumed);
		tp_noise_end_window(now, a);
		return;
	}
	n->resumed_at = resumed;
	n->resumed_by = resumed - *now;
	*skipped += n->resumed_by;
	*now = resumed;
}

/*
 * Max compares signed, so a step back is never the max; it can be the min
 * only while min holds nothing, which the end of the loop puts right.
 */
static tp_always_inline void tp_noise_record(struct tp_noise *n,
					     const enum tscprobe_clock clock,
					     uint64_t gap, uint64_t end,
					     uint64_t thr,
					     uint64_t *min, int64_t *max,
					     uint64_t *now, uint64_t *skipped,
					     struct tp_noise_acct *a)
{
	int64_t g = (int64_t)gap;

	tp_hist_add(&n->hist, gap);
	*min = gap < *min ? gap : *min;
	*max = g > *max ? g : *max;
	if (tp_unlikely(gap >= thr))
		tp_noise_slow(n, clock, gap, end, now, skipped, a);
}

/*
 * Software-pipelined (Documentation/tscprobe.rst, "noise"): iteration k
 * records gap k-1 in the shadow of rdtsc, so only the subtraction and the
 * deadline test wait for the read.  @clock is a constant after inlining.
 * The measured time is not summed per gap: the gaps telescope.
 */
static tp_always_inline uint64_t tp_noise_loop(struct tp_noise *n,
					       const enum tscprobe_clock clock,
					       uint64_t deadline)
{
	const uint64_t thr = n->threshold;
	struct tp_noise_acct a = { .stepped = false };
	uint64_t min = n->min;
	int64_t max = (int64_t)n->max;
	uint64_t first, prev, now, gap, next, samples, skipped = 0;
	uint64_t after, not_measured = 0;

	/* The first read only starts the chain. */
	first = tp_read_tsc(clock);
	if (first >= deadline)
		return first;
	now = tp_read_tsc(clock);
	gap = now - first;
	samples = 1;
	while (now < deadline) {
		prev = now;
		now = tp_read_tsc(clock);
		next = now - prev;
		tp_noise_record(n, clock, gap, prev, thr, &min, &max, &now,
				&skipped, &a);
		gap = next;
		samples++;
	}
	if (tp_unlikely(a.stepped))
		now = a.now;
	/* The window ends at now: an event path after it is outside. */
	after = now;
	tp_noise_record(n, clock, gap, now, thr, &min, &max, &after,
			&not_measured, &a);
	if (tp_unlikely(a.stepped) && (int64_t)min < 0)
		min = TP_U64_MAX;	/* a step back, and no gap before it */

	n->min = min;
	n->max = (uint64_t)max;
	n->samples += samples - a.lost;
	n->measured += now - first - skipped + a.back;
	n->skipped += skipped;
	return now;
}

/**
 * tp_noise_window() - record the gaps between TSC reads until a deadline
 * @n: the state, from tp_noise_init()
 * @clock: how to read the TSC (unknown means LFENCE)
 * @deadline: TSC value at which to stop
 *
 * The first read only starts the chain, so the time between windows is not
 * counted.  A step back of the TSC ends the window early and is no gap.
 *
 * Return: the TSC of the last read: >= @deadline unless the TSC stepped back.
 */
uint64_t tp_noise_window(struct tp_noise *n, enum tscprobe_clock clock,
			 uint64_t deadline)
{
	switch (clock) {
	case TSCPROBE_CLOCK_RDTSCP:
		return tp_noise_loop(n, TSCPROBE_CLOCK_RDTSCP, deadline);
	case TSCPROBE_CLOCK_MFENCE:
		return tp_noise_loop(n, TSCPROBE_CLOCK_MFENCE, deadline);
	case TSCPROBE_CLOCK_PLAIN:
		return tp_noise_loop(n, TSCPROBE_CLOCK_PLAIN, deadline);
	case TSCPROBE_CLOCK_LFENCE:
	default:
		return tp_noise_loop(n, TSCPROBE_CLOCK_LFENCE, deadline);
	}
}
