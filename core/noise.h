/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise measurement: spin reading the TSC and histogram the gap between
 * consecutive reads.  On a quiet CPU every gap is the loop's own period; a
 * longer one is time the CPU spent elsewhere (an SMI, an NMI, the
 * hypervisor, an interrupt when they are on).  Gaps at or above a threshold
 * are also kept individually, with the TSC at which they ended.
 *
 * The kernel module runs tp_noise_window() with interrupts off, one bounded
 * window at a time; the CLI's userspace engine runs the same code on pinned
 * threads.
 */
#ifndef TSCPROBE_CORE_NOISE_H
#define TSCPROBE_CORE_NOISE_H

#include <linux/tscprobe.h>
#include "host.h"
#include "hist.h"

/* struct tp_event.valid: which of the event's counter deltas were read */
#define TP_EVENT_SMI	0x1U
#define TP_EVENT_NMI	0x2U
#define TP_EVENT_IRQ	0x4U
#define TP_EVENT_STEAL	0x8U

/**
 * struct tp_event - one gap at or above the threshold
 * @tsc: TSC at the end of the gap (the read after it)
 * @cycles: length of the gap
 * @steal_ns: steal time accounted since the previous reading
 * @smi: SMIs since the previous reading (see enum tscprobe_cause)
 * @nmi: NMIs since then
 * @irq: interrupts since then
 * @valid: TP_EVENT_* bits: the deltas that could be read; the others are 0
 *	and must be reported as unknown, not as 0
 * @cause: enum tscprobe_cause; TSCPROBE_CAUSE_NONE when nobody explained
 *	the event (struct tp_noise has no @explain)
 */
struct tp_event {
	uint64_t tsc;
	uint64_t cycles;
	uint64_t steal_ns;
	uint32_t smi;
	uint32_t nmi;
	uint32_t irq;
	uint16_t valid;
	uint16_t cause;
};

struct tp_noise;

/*
 * Explains an event on the loop's slow path: fills its counter deltas,
 * @valid and @cause.  Runs on the measuring CPU, in the loop (interrupts
 * off in the kernel).  Its time is not measured: the loop reads the TSC
 * again after it (struct tp_noise @skipped), so it is never in a gap.
 */
typedef void (*tp_noise_explain_fn)(struct tp_noise *n, struct tp_event *ev);

/**
 * struct tp_events - a bounded set of events that keeps the largest
 * @total: gaps at or above the threshold seen
 * @dropped: of those, not kept (or kept and later displaced)
 * @n: events kept in @ev, <= TSCPROBE_MAX_EVENTS
 * @smallest: index of the smallest kept event (valid while @n > 0); it
 *	fills what would otherwise be padding
 * @ev: the kept events; in time order until @ev is full, after that a new
 *	event takes the slot of the smallest, so sort by @tsc to read them
 *	chronologically
 *
 * Invariant: @total == @n + @dropped.
 */
struct tp_events {
	uint64_t total;
	uint64_t dropped;
	uint32_t n;
	uint32_t smallest;
	struct tp_event ev[TSCPROBE_MAX_EVENTS];
};

/**
 * struct tp_noise - the state of one CPU's noise measurement
 * @hist: histogram of the gaps, in cycles
 * @events: the largest gaps at or above @threshold
 * @threshold: in cycles; gaps >= it are events (0 makes every gap one)
 * @min: shortest gap, cycles; UINT64_MAX until a gap is recorded
 * @max: longest gap, cycles; 0 until a gap is recorded
 * @measured: cycles covered by the gaps (their sum)
 * @samples: gaps recorded
 * @skipped: cycles the event path took inside windows: neither measured
 *	nor a gap (tp_noise_window())
 * @explain: optional; called for every event before it is kept, see
 *	tp_noise_explain_fn; set after tp_noise_init() (which clears it)
 * @resumed_at: the read that ended the last event path (tp_noise_slow())
 * @resumed_by: how far that read moved past the one before the path
 * @steps_back: times the TSC went backwards (a read below the one before
 *	it): each ended its window, and none is a gap (tp_noise_count_step())
 * @step_back_max: the largest of those steps, cycles
 * @step_back_cycles: all of them added up: a caller that keeps TSC values
 *	across windows moves them back by as much (the clock moved under them)
 *
 * All of it is touched by the loop: about 25 KiB, so that it stays in a
 * 32 KiB L1D and the loop never waits for memory.  Every field accumulates
 * over successive windows until tp_noise_init().
 */
struct tp_noise {
	struct tp_hist hist;
	struct tp_events events;
	uint64_t threshold;
	uint64_t min;
	uint64_t max;
	uint64_t measured;
	uint64_t samples;
	uint64_t skipped;
	tp_noise_explain_fn explain;
	uint64_t resumed_at;
	uint64_t resumed_by;
	uint64_t steps_back;
	uint64_t step_back_max;
	uint64_t step_back_cycles;
};

void tp_events_init(struct tp_events *e);
void tp_events_add(struct tp_events *e, uint64_t tsc, uint64_t cycles);
void tp_events_add_event(struct tp_events *e, const struct tp_event *ev);
unsigned int tp_event_cause(const struct tp_event *ev);
void tp_noise_event(struct tp_noise *n, uint64_t tsc, uint64_t cycles);
void tp_noise_init(struct tp_noise *n, uint64_t threshold_cycles);
uint64_t tp_noise_window(struct tp_noise *n, enum tscprobe_clock clock,
			 uint64_t deadline);

#endif /* TSCPROBE_CORE_NOISE_H */
