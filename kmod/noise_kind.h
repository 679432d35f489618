/* SPDX-License-Identifier: GPL-2.0 */
/* The noise kind's state, which noise.c measures and noise_report.c reports. */
#ifndef TSCPROBE_KMOD_NOISE_KIND_H
#define TSCPROBE_KMOD_NOISE_KIND_H

#include <linux/types.h>

#include <linux/tscprobe.h>
#include "core/counter.h"
#include "core/noise.h"
#include "smi.h"
#include "src_probes.h"

struct tp_report_ops;
struct tp_run;

/* The counters an event's cause is read from. */
struct tp_reading {
	u64 smi;
	u64 nmi;
	u64 irq;
	u64 steal;
};

/* One CPU's noise state, working copy and snapshot alike. */
struct tp_noise_cpu {
	struct tp_noise loop;
	u64 windows;
	u64 first_tsc;
	u64 last_tsc;
	u64 end_tsc;			/* the run's duration after first_tsc */
	struct tp_smi smi_from;		/* where smi comes from */
	struct tp_counter smi;
	struct tp_counter nmi;
	struct tp_counter irq;		/* device, local timer, IPIs */
	struct tp_counter aperf;	/* over the windows only */
	struct tp_counter mperf;
	u64 notified;			/* events.total at the last EVENT */
	u64 not_notified;
	u64 cause_events[__TSCPROBE_CAUSE_MAX];
	u64 cause_cycles[__TSCPROBE_CAUSE_MAX];
	u16 readable;			/* TP_EVENT_*: what events carry here */
	struct tp_reading prev;		/* window start or previous event */
	u64 smi_end;			/* at the end of the last window */
	bool smi_end_ok;
	struct tp_run *run;		/* for stop-at */
	unsigned int cpu;
	struct tp_noise_cpu *undo;	/* irqs on: the state before a window */
	bool warming;			/* in the warm-up: nothing kept */
	struct tp_src_here *src;	/* what the probes saw on this CPU */
	/* Of that, inside the windows; its threads are the events' too. */
	struct tp_src_windows sources;
	u16 src_kinds;			/* traced BIT(TP_SRC_*); 0 in warm-up */
	struct tp_event_sources ev_next;	/* the event being explained */
	/* What ran inside each kept event's gap, by its slot. */
	struct tp_event_sources ev_src[TSCPROBE_MAX_EVENTS];
};

extern const struct tp_report_ops tp_noise_report_ops;

struct sk_buff;
void tp_noise_source_name(const struct tp_src_total *e, char *buf, size_t len);
int tp_noise_put_event(struct sk_buff *skb, const struct tp_event *ev,
		       const struct tp_event_sources *s,
		       const struct tp_src_threads *th);

#endif /* TSCPROBE_KMOD_NOISE_KIND_H */
