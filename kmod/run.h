/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.c: the run machinery shared by every measurement.  Layers, each
 * calling only those below: attrs.c; run.c; info.c; debugfs.c; noise.c,
 * cache.c, skew.c and their *_report.c; netlink.c; main.c.  News for a higher layer (a run
 * ended, noise events) goes through a struct tp_run_notify it gave.
 */
#ifndef TSCPROBE_KMOD_RUN_H
#define TSCPROBE_KMOD_RUN_H

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/workqueue.h>

#include "core/noise.h"	/* struct tp_event: the event that stopped a run */
#include "kinds.h"		/* TP_PROGRESS */

struct netlink_ext_ack;
struct nlattr;
struct tp_kind;
struct tp_run;

/* A run's parameters, validated; the kinds named use them. */
struct tp_params {
	u64 duration_ns;		/* noise */
	u64 width_ns;		/* longest interrupts-off window */
	u64 gap_ns;			/* interrupts-on pause */
	u64 threshold_ns;		/* noise, and in TSC cycles: */
	u64 threshold_cycles;
	u32 irqs;			/* enum tscprobe_irqs */
	u32 clock;			/* enum tscprobe_clock */
	u64 rounds;			/* cache: per CPU */
	u32 batch;			/* cache: rounds per deadline check */
	bool levels;			/* cache */
	bool nodes;			/* cache */
	u32 samples;			/* skew: per pair */
	u32 repeats;			/* skew: per pair */
	u64 stop_at_ns;		/* noise, 0: never; and in TSC cycles: */
	u64 stop_at_cycles;
	bool trace_stop;		/* noise: tracing_off() at stop-at */
	u64 warm_up_ns;			/* noise: measured first, dropped */
};

/*
 * A noise window's events to notify: @put adds the @i-th of the @n as a
 * TSCPROBE_CPU_A_EVENT nest, with its sources (threads by pid and name if
 * @named); on -EMSGSIZE it adds nothing.  The measurement knows its
 * events; the listener, its messages.
 */
struct tp_notify_batch {
	unsigned int n;
	int (*put)(struct sk_buff *skb, const struct tp_notify_batch *b,
		   unsigned int i, bool named);
};

/*
 * How a run tells its listeners (the netlink family) of its end, with
 * state and reason final (@finished: from a workqueue, tp_lock not held),
 * and of a noise window's events (@events, optional: from the measuring
 * thread between windows; returns how many of @b's reached a listener).
 */
struct tp_run_notify {
	void (*finished)(const struct tp_run *run);
	unsigned int (*events)(const struct tp_run *run, unsigned int cpu,
			       const struct tp_notify_batch *b);
};

/* Bits of tp_cpu.flags; TSCPROBE_CPU_F_* are the ones that travel. */
#define TP_CPU_DONE		0	/* TSCPROBE_CPU_F_DONE */
#define TP_CPU_INCOMPLETE	1	/* TSCPROBE_CPU_F_INCOMPLETE */
#define TP_CPU_STARVED		2	/* TSCPROBE_CPU_F_STARVED */
#define TP_CPU_HELD		3	/* TSCPROBE_CPU_F_HELD */
#define TP_CPU_OFFLINE		8	/* asked to end: CPU going down */
#define TP_CPU_CLAIMED		9	/* the thread started, or was given up */
#define TP_CPU_ENDING		10	/* measured: publishing its last figures */
#define TP_CPU_FLAGS_SENT	(BIT(TP_CPU_DONE) | BIT(TP_CPU_INCOMPLETE) | \
				 BIT(TP_CPU_STARVED) | BIT(TP_CPU_HELD))

/* One measured CPU of a run. */
struct tp_cpu {
	unsigned int cpu;
	struct tp_run *run;
	struct task_struct *task;	/* NULL once reaped */
	unsigned long flags;		/* TP_CPU_* */
	void *hot;			/* the kind's working state */
	struct mutex lock;		/* protects snap and gen */
	void *snap;			/* the last published copy of hot */
	unsigned long gen;		/* publications so far */
	seqcount_t progress_seq;	/* protects progress */
	u64 progress[TP_PROGRESS];	/* report->progress() of snap */
	unsigned long published;	/* jiffies */
	u64 busy_at_start;		/* tp_cpu_busy_ns() at START */
	u64 ran_at_start;		/* its thread's runtime at START */
	u64 own_at_start;		/* tp_task_busy_ns() of it at START */
	unsigned long started_at;	/* jiffies, 0 until its thread starts */
	u64 nvcsw;			/* the thread's, during the run */
	u64 nivcsw;
	u64 migrations;
	u32 clock_before_khz;		/* 0: not read (clock_around) */
	u32 clock_after_khz;
	bool test_gap_done;		/* the test_gap_ms hook's, thread only */
};

/* One START, from its threads to its results; run.c says the rules. */
struct tp_run {
	struct kref ref;
	u64 id;
	const struct tp_kind *kind;
	const struct tp_run_notify *notify;	/* NULL: nobody listens */
	struct tp_params params;
	cpumask_var_t cpus;
	unsigned int nr_cpus;
	struct tp_cpu *slots;			/* in CPU order */
	struct task_struct *main_task;		/* measure->run_main's, or NULL */
	void *priv;				/* measure->alloc's */
	bool probes_attached;			/* its START attached them */
	atomic_t active;			/* threads not yet ended */
	bool stop;
	atomic_t stop_claimed;			/* tp_run_stop_at() */
	unsigned int stop_cpu;
	struct tp_event stop_event;
	bool main_incomplete;
	bool main_done;
	unsigned int state;			/* under tp_lock */
	unsigned int reason;			/* from NONE by cmpxchg() */
	u64 start_ns;
	u64 end_ns;				/* 0 while running */
	u64 start_tsc;
	unsigned long start_jiffies;
	unsigned long started_by;		/* jiffies; under tp_lock */
	unsigned long ending_since;		/* jiffies; under tp_lock */
	unsigned long watch_from;		/* jiffies; the test hook's */
	struct completion done;			/* ended, listeners told */
	struct work_struct finish_work;
	struct delayed_work watch;		/* tp_run_watch() */
};

extern struct mutex tp_lock;
int tp_run_init(void);
void tp_run_shutdown(void);
void tp_run_exit(void);
int tp_run_start(const struct tp_kind *kind, struct nlattr **attrs,
		 const struct tp_run_notify *notify,
		 struct netlink_ext_ack *extack, struct tp_run **started);
int tp_run_stop(struct netlink_ext_ack *extack);
int tp_run_reset(struct netlink_ext_ack *extack);
unsigned long tp_run_probe_attaches(void);
int tp_run_count_alive(void);
struct tp_run *tp_run_get_current(void);
void tp_run_put(struct tp_run *run);
unsigned int tp_run_state(const struct tp_run *run);
u64 tp_run_elapsed_ns(const struct tp_run *run);
bool tp_run_start_late(const struct tp_run *run, u64 after_ns);
void tp_cpu_start_missed(struct tp_cpu *c);
void tp_cpu_test_late(const struct tp_cpu *c, bool warmed_up);
bool tp_cpu_should_stop(const struct tp_cpu *c);
bool tp_cpu_gone(const struct tp_cpu *c);
bool tp_cpu_here(struct tp_cpu *c);
void tp_cpu_moved(struct tp_cpu *c);
void tp_test_delay(void);
bool tp_run_should_stop(const struct tp_run *run);
void tp_cpu_sleep_gap(struct tp_cpu *c);

/**
 * struct tp_window_ops - the parts of a measurement window
 * @begin: with interrupts off, at the window's start TSC @start: false
 *	declines the window (nothing measured); NULL: none
 * @body: the measurement, with interrupts off unless the window is open
 * @end: with interrupts off, on the CPU measured, after @body; NULL: none
 *
 * tp_cpu_window() runs them; none of them turns interrupts on or off.
 */
struct tp_window_ops {
	bool (*begin)(struct tp_cpu *c, void *arg, u64 start);
	void (*body)(struct tp_cpu *c, void *arg, u64 start);
	void (*end)(struct tp_cpu *c, void *arg, u64 start);
};

enum tp_window_end {
	TP_WINDOW_NONE,		/* not measured */
	TP_WINDOW_MOVED,	/* open, and its thread left its CPU */
	TP_WINDOW_DONE,
};

enum tp_window_end tp_cpu_window(struct tp_cpu *c,
				 const struct tp_window_ops *ops, void *arg,
				 bool open);

void tp_cpu_publish(struct tp_cpu *c, bool force);
void tp_cpu_copy_snap(struct tp_cpu *c, void *dst);
void tp_cpu_read_progress(const struct tp_cpu *c, u64 *v);
unsigned int tp_run_notify_events(const struct tp_run *run, unsigned int cpu,
				  const struct tp_notify_batch *b);
void tp_run_stop_at(struct tp_run *run, unsigned int cpu,
		    const struct tp_event *ev);
bool tp_run_stopped_at(const struct tp_run *run);

#endif /* TSCPROBE_KMOD_RUN_H */
