// SPDX-License-Identifier: GPL-2.0
/*
 * The noise loop, and the event set it reports long gaps to.
 *
 * How fast the loop goes is the measurement's resolution: the shortest
 * noise it can see is about one loop period, and every cycle the loop adds
 * to a bare "lfence; rdtsc" loop is a cycle of blindness.  So the loop body
 * is arranged around what lfence does; see tp_noise_loop().
 */
#include "noise.h"
#include "tsc.h"

/* What the loop touches must fit in L1D next to the stack. */
tp_static_assert(sizeof(struct tp_noise) <= 32 * 1024,
		 "struct tp_noise must stay within a 32 KiB L1D");

/**
 * tp_events_init() - empty an event set
 * @e: the event set
 *
 * The slots are cleared too: it pulls them into the cache before the first
 * window, and nothing stale is ever copied out.
 */
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

/* The index of the shortest kept event; @e must not be empty. */
static uint32_t tp_events_find_smallest(const struct tp_events *e)
{
	uint32_t i, s = 0;

	for (i = 1; i < e->n; i++)
		if (e->ev[i].cycles < e->ev[s].cycles)
			s = i;
	return s;
}

/**
 * tp_events_add() - report a gap at or above the threshold, unexplained
 * @e: the event set
 * @tsc: TSC at the end of the gap
 * @cycles: length of the gap
 *
 * tp_events_add_event() of an event without cause or counters.
 */
void tp_events_add(struct tp_events *e, uint64_t tsc, uint64_t cycles)
{
	struct tp_event ev = {
		.tsc = tsc, .cycles = cycles, .cause = TSCPROBE_CAUSE_NONE,
	};

	tp_events_add_event(e, &ev);
}

/**
 * tp_events_add_event() - report a gap at or above the threshold
 * @e: the event set
 * @new: the event
 *
 * The loop's slow path.  Until the set is full the event is appended.  Once
 * full, it is counted as dropped, and it displaces the smallest kept event
 * if it is larger (a tie keeps the older one): the set always holds the
 * TSCPROBE_MAX_EVENTS largest gaps.  The smallest is tracked, so an event
 * that is not kept costs O(1); only a displacement rescans the set.
 */
void tp_events_add_event(struct tp_events *e, const struct tp_event *new)
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
			return;
	}
	*ev = *new;
	if (e->n == TSCPROBE_MAX_EVENTS)
		e->smallest = tp_events_find_smallest(e);
}

/**
 * tp_event_cause() - the cause of an event, from its counter deltas
 * @ev: the event, with its deltas and @valid filled in
 *
 * The rule of enum tscprobe_cause: the first of SMI, NMI, IRQ and steal
 * that was read and moved, in that order (an SMI stops the whole CPU and
 * hides what else happened; steal is only the kernel's accounting).
 *
 * Return: enum tscprobe_cause, never TSCPROBE_CAUSE_NONE.
 */
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

/**
 * tp_noise_event() - the loop's slow path: a gap at or above the threshold
 * @n: the state
 * @tsc: TSC at the end of the gap
 * @cycles: length of the gap
 *
 * Out of line, so that the loop carries only the call: the event is
 * explained (when the caller gave an @explain) and then offered to the
 * event set.  Every event is explained, also one the set will not keep.
 */
void tp_noise_event(struct tp_noise *n, uint64_t tsc, uint64_t cycles)
{
	struct tp_event ev = {
		.tsc = tsc, .cycles = cycles, .cause = TSCPROBE_CAUSE_NONE,
	};

	if (n->explain)
		n->explain(n, &ev);
	tp_events_add_event(&n->events, &ev);
}

/**
 * tp_noise_init() - start a noise measurement
 * @n: the state
 * @threshold_cycles: gaps at or above it are kept as events
 *
 * Clearing the histogram also warms it: the first window then does not pay
 * for cache misses on its buckets.
 */
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
	n->skipped = 0;
	n->resumed_at = 0;
	n->resumed_by = 0;
	n->steps_back = 0;
	n->step_back_max = 0;
	n->step_back_cycles = 0;
}

/**
 * struct tp_noise_acct - a window's accounting that only the slow path
 *	touches (after inlining the loop keeps it out of its fast path)
 * @back: cycles the TSC stepped back by between two reads of the window:
 *	the reads telescope through them, the measured time must not
 * @lost: gaps read but not recorded (steps back)
 * @stepped: a step back ended the window
 * @now: then, the window's last read
 */
struct tp_noise_acct {
	uint64_t back;
	uint64_t lost;
	bool stepped;
	uint64_t now;
};

/*
 * The TSC went back by @step cycles (firmware writing IA32_TSC_ADJUST, a
 * VM restored on another host): no gap, and no noise, but a step of its
 * own kind, counted apart.  Out of line, as is tp_noise_unrecord(): the
 * compiler must find nothing here to share with the fast path.
 */
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
 * The window ends at a step back, which hwlat and osnoise do too: the
 * deadline was set on the old count, so the window would otherwise last
 * as much longer as the step, interrupts off.  The loop ends on its own
 * test, now < deadline: *@now goes to UINT64_MAX, and the read it held is
 * kept for after the loop.
 */
static tp_always_inline void tp_noise_end_window(uint64_t *now,
						 struct tp_noise_acct *a)
{
	a->stepped = true;
	a->now = *now;
	*now = TP_U64_MAX;
}

/*
 * The slow path: a gap at or above the threshold.  A "gap" of 2^63
 * cycles or more is a read below the one before it: a step back of the
 * TSC, taken out of the histogram again (tp_noise_record()) and counted
 * apart.  Any other is an event.
 *
 * The event path: the event, then a fresh read.  It runs after the read
 * that ended the next gap (*@now) was taken, so its own time -- the explain
 * hook reads counters: an rdmsr, in a VM a trap to the hypervisor -- would
 * land in the gap after that one, and with a threshold near that cost
 * every event would make the next gap an event too.  So *@now moves past
 * the path, and the stretch goes to *@skipped, time that was not measured.
 * The loop then takes the moved read for the end of the gap that really
 * ended at the old one; @n->resumed_at and @n->resumed_by undo that here,
 * on this path only, so that the loop itself carries nothing for it.  A
 * fresh read below *@now is a step back during the path: *@now stays, so
 * that the window ends where it was last measured.
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
 * Everything done with one gap apart from computing it: the histogram,
 * min and max (compare and select: no branch to mispredict), and the rare
 * jump to the slow path.  Max compares signed: a step back of the TSC, a
 * "gap" of 2^63 cycles or more, is below every real one there; for min it
 * is above every real one, so it can only be min while min holds nothing.
 * The slow path puts the histogram right, the end of the loop min.
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

/**
 * tp_noise_loop() - one window of the noise loop, for one way of reading
 * @n: the state
 * @clock: a compile-time constant after inlining, so that tp_read_tsc()
 *	folds to its one instruction sequence and no switch is left in the loop
 * @deadline: TSC value at which to stop
 *
 * Why the loop is software-pipelined: "lfence; rdtsc" starts reading the
 * TSC only when every earlier instruction has completed.  Whatever the body
 * does after a read is therefore on the loop's critical path *unless* it
 * can execute while the read itself is still in flight -- and it can if it
 * does not depend on that read.  So iteration k records the gap of
 * iteration k-1, which has been sitting in a register: the bucket index,
 * the load/add/store of the bucket, min, max and the threshold test all run
 * in the shadow of rdtsc's latency (tens of cycles).  What depends on the
 * new value is only what must: the subtraction giving the next gap and the
 * comparison with the deadline.  The last gap is recorded after the loop.
 *
 * Even the threshold test is deferred (the event keeps the TSC at which its
 * gap ended, prev): on the critical path it would only add a dependent
 * compare.  Measured on an AMD EPYC VM, the mean loop period is 1.5-2.5 %
 * above a bare "lfence; rdtsc; cmp; jb" loop, where the original noise
 * program's loop, which updates its table right after the read, is 15 % above
 * (see selftests/host/bench_noise.c).
 *
 * The sample count and the start TSC live in registers; the measured time
 * is not summed per gap at all, since the gaps telescope to last - first,
 * less the stretches the event path took (tp_noise_slow()) and plus the
 * steps back.  Only the slow path touches the accounting in @a, and a
 * step back ends the loop through its own test (tp_noise_end_window()):
 * the fast path carries nothing for it.
 *
 * Return: the TSC of the last read (the first one >= @deadline, or the
 * read that ended the window after a step back).
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
		/* the pending gap, which ended at prev: in rdtsc's shadow */
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
 * tp_noise_window() - measure until a deadline
 * @n: the state, from tp_noise_init(); the window's gaps are added to it
 * @clock: how to read the TSC (enum tscprobe_clock; unknown means LFENCE)
 * @deadline: TSC value at which to stop
 *
 * Spins reading the TSC until a read is >= @deadline, recording the gap
 * between every two consecutive reads.  The first read of a window only
 * starts the chain, so whatever happened between two windows is not
 * counted; nor is the event path's own time (@n->skipped), so that
 * explaining an event never makes the next gap one.  A read below the one
 * before it (the TSC stepped back) ends the window early and is counted in
 * @n->steps_back, never as a gap.  The caller bounds the window
 * (interrupts off in the kernel).
 *
 * Return: the TSC of the last read: >= @deadline, unless the TSC stepped
 * back (@n->step_back_cycles grew by the steps).
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
