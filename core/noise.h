/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise measurement: the gaps between consecutive TSC reads, and the
 * gaps at or above a threshold kept as events (Documentation/tscprobe.rst,
 * "noise").
 */
#ifndef TSCPROBE_CORE_NOISE_H
#define TSCPROBE_CORE_NOISE_H

#include <linux/tscprobe.h>
#include "host.h"
#include "hist.h"

/* struct tp_event.valid: the deltas read; the others are unknown, not 0. */
#define TP_EVENT_SMI	0x1U
#define TP_EVENT_NMI	0x2U
#define TP_EVENT_IRQ	0x4U
#define TP_EVENT_STEAL	0x8U

/*
 * A gap ending at @tsc, with the counters' deltas since the previous
 * reading; @cause stays TSCPROBE_CAUSE_NONE when nothing explains events.
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
 * Fills an event's deltas, valid and cause, on the measuring CPU inside the
 * loop (interrupts off in the kernel).  Its time goes to @skipped, never
 * into a gap.
 */
typedef void (*tp_noise_explain_fn)(struct tp_noise *n, struct tp_event *ev);

/* After @explain: the event took slot @slot of the event set. */
typedef void (*tp_noise_kept_fn)(struct tp_noise *n, uint32_t slot);

/*
 * The largest events; @total == @n + @dropped.  @ev is in time order only
 * until full: a new event then takes the smallest's slot, so sort by tsc.
 */
struct tp_events {
	uint64_t total;
	uint64_t dropped;
	uint32_t n;
	uint32_t smallest;
	struct tp_event ev[TSCPROBE_MAX_EVENTS];
};

/*
 * One CPU's noise measurement, in cycles, accumulated over windows.  About
 * 25 KiB, all touched by the loop: it must stay in a 32 KiB L1D.  @skipped
 * is the event path's time, neither measured nor a gap; @explain is set
 * after tp_noise_init(), which clears it.  @followed, for @explain: the
 * gap after the event's is at or above the threshold too, and has passed
 * already (the loop sees a gap one read late), so counters read now
 * would count both.  A caller keeping TSC values
 * across windows moves them back by @step_back_cycles.
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
	tp_noise_kept_fn kept;
	uint64_t resumed_at;
	uint64_t resumed_by;
	bool followed;
	uint64_t steps_back;
	uint64_t step_back_max;
	uint64_t step_back_cycles;
};

void tp_events_init(struct tp_events *e);
void tp_events_add(struct tp_events *e, uint64_t tsc, uint64_t cycles);
#define TP_EVENT_NOT_KEPT	(~(uint32_t)0)
uint32_t tp_events_add_event(struct tp_events *e, const struct tp_event *ev);
unsigned int tp_event_cause(const struct tp_event *ev);
void tp_noise_event(struct tp_noise *n, uint64_t tsc, uint64_t cycles);
void tp_noise_init(struct tp_noise *n, uint64_t threshold_cycles);
uint64_t tp_noise_window(struct tp_noise *n, enum tscprobe_clock clock,
			 uint64_t deadline);

#endif /* TSCPROBE_CORE_NOISE_H */
