/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.c: the run machinery shared by every measurement.
 *
 * Layers, each calling only those below it: attrs.c; run.c; info.c;
 * debugfs.c; the measurements (noise.c, cache.c, skew.c); netlink.c;
 * main.c.  What a lower layer must tell a higher one (a run has ended,
 * noise events) goes through a struct tp_run_notify the higher one gave.
 */
#ifndef TSCPROBE_KMOD_RUN_H
#define TSCPROBE_KMOD_RUN_H

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/workqueue.h>

#include "core/noise.h"	/* struct tp_event: the event that stopped a run */

struct netlink_ext_ack;
struct nlattr;
struct tp_kind_ops;
struct tp_run;

/**
 * struct tp_params - the parameters of a run, after validation
 * @duration_ns: noise: run length
 * @width_ns: longest interrupts-off window
 * @gap_ns: interrupts-on pause between windows
 * @threshold_ns: noise: event threshold in ns
 * @threshold_cycles: the same in TSC cycles
 * @irqs: enum tscprobe_irqs
 * @clock: enum tscprobe_clock
 * @rounds: cache: rounds per CPU
 * @batch: cache: rounds between deadline checks
 * @levels: cache: measure the memory-level curve
 * @nodes: cache: measure every NUMA node
 * @samples: skew: samples per pair
 * @repeats: skew: repeats per pair
 * @stop_at_ns: noise: a gap at least this long ends the run (0: never)
 * @stop_at_cycles: the same in TSC cycles (0: never)
 * @trace_stop: noise: call tracing_off() when @stop_at_cycles is reached
 */
struct tp_params {
	u64 duration_ns;
	u64 width_ns;
	u64 gap_ns;
	u64 threshold_ns;
	u64 threshold_cycles;
	u32 irqs;
	u32 clock;
	u64 rounds;
	u32 batch;
	bool levels;
	bool nodes;
	u32 samples;
	u32 repeats;
	u64 stop_at_ns;
	u64 stop_at_cycles;
	bool trace_stop;
};

/**
 * struct tp_run_notify - how a run tells its listeners about itself
 * @finished: the run has ended and its state and reason are final.
 *	Called by the run's finisher (a workqueue, process context, tp_lock
 *	not held) before the run's completion: unload waits for that and
 *	then unregisters the family, so the listeners hear the end first.
 * @events: optional; a noise window's events on @cpu.  Called by the
 *	CPU's measurement thread with interrupts on, between two windows.
 *	Returns how many of the @n events reached the listeners: @n, or 0
 *	when nobody listens or the notification failed.
 *
 * The run machinery and the measurements know nothing of netlink: the
 * netlink family hands this to tp_run_start(), and the run calls it.
 */
struct tp_run_notify {
	void (*finished)(const struct tp_run *run);
	unsigned int (*events)(const struct tp_run *run, unsigned int cpu,
			       const struct tp_event *ev, unsigned int n);
};

/*
 * Bits of tp_cpu.flags; TSCPROBE_CPU_F_* are the ones that travel.  A CPU
 * is incomplete when it went offline mid-run, measured nothing, or its
 * thread could not get it (starved).
 */
#define TP_CPU_DONE		0	/* TSCPROBE_CPU_F_DONE */
#define TP_CPU_INCOMPLETE	1	/* TSCPROBE_CPU_F_INCOMPLETE */
#define TP_CPU_STARVED		2	/* TSCPROBE_CPU_F_STARVED */
#define TP_CPU_OFFLINE		3	/* asked to end: CPU going down */
#define TP_CPU_CLAIMED		4	/* the thread started, or was given up */
#define TP_CPU_FLAGS_SENT	(BIT(TP_CPU_DONE) | BIT(TP_CPU_INCOMPLETE) | \
				 BIT(TP_CPU_STARVED))

/**
 * struct tp_cpu - one measured CPU of a run
 * @cpu: the CPU number
 * @run: the run it belongs to
 * @task: its measurement thread, NULL once reaped
 * @flags: TP_CPU_* bits
 * @hot: the kind's working state, touched only by the thread
 * @lock: protects @snap
 * @snap: the kind's last published copy of @hot, for readers
 * @published: jiffies of the last publication
 * @nvcsw: the thread's voluntary context switches during the run
 * @nivcsw: its involuntary context switches during the run
 * @migrations: its migrations during the run
 */
struct tp_cpu {
	unsigned int cpu;
	struct tp_run *run;
	struct task_struct *task;
	unsigned long flags;
	void *hot;
	struct mutex lock;	/* protects snap */
	void *snap;
	unsigned long published;
	u64 nvcsw;
	u64 nivcsw;
	u64 migrations;
};

/**
 * struct tp_run - one START, from its threads to its results
 * @ref: held by tp_current, by the finisher while running, by readers
 * @id: TSCPROBE_A_RUN_ID
 * @ops: the measurement
 * @notify: who hears of its end and its events (NULL: nobody)
 * @params: its validated parameters
 * @cpus: the measured CPUs
 * @nr_cpus: how many
 * @slots: the tp_cpu of each measured CPU, in CPU order
 * @main_task: the ops->run_main thread (NULL: none, or reaped)
 * @priv: the kind's run-wide state (allocated by ops->alloc)
 * @active: threads still measuring
 * @stop: set to end the run early (READ_ONCE in the threads)
 * @stop_claimed: the first event at or above stop-at sets it (atomically),
 *	then fills @stop_cpu and @stop_event, then sets @reason to THRESHOLD
 * @stop_cpu: the CPU of the event that reached stop-at
 * @stop_event: that event (valid once @reason is THRESHOLD)
 * @main_incomplete: run_main returned false
 * @main_done: run_main has returned
 * @state: enum tscprobe_state (under tp_lock)
 * @reason: enum tscprobe_stop_reason; set from NONE by cmpxchg() (a STOP
 *	under tp_lock, or a measuring CPU reaching stop-at), else by the
 *	finisher once every thread has ended
 * @start_ns: ktime_get_ns() at START
 * @end_ns: ktime_get_ns() when the last thread ended
 * @start_tsc: TSC at START
 * @start_jiffies: jiffies at START, for the start deadline
 * @ending_since: jiffies when the run was asked to end (STOP, unload,
 *	stop-at, its driving thread done); 0 while not (under tp_lock)
 * @done: completed when the run has ended, its results are final and its
 *	listeners have been told
 * @finish_work: ends the run once every thread has ended
 * @watch: gives up on threads that cannot get their CPU (tp_run_watch())
 */
struct tp_run {
	struct kref ref;
	u64 id;
	const struct tp_kind_ops *ops;
	const struct tp_run_notify *notify;
	struct tp_params params;
	cpumask_var_t cpus;
	unsigned int nr_cpus;
	struct tp_cpu *slots;
	struct task_struct *main_task;
	void *priv;
	atomic_t active;
	bool stop;
	atomic_t stop_claimed;
	unsigned int stop_cpu;
	struct tp_event stop_event;
	bool main_incomplete;
	bool main_done;
	unsigned int state;
	unsigned int reason;
	u64 start_ns;
	u64 end_ns;
	u64 start_tsc;
	unsigned long start_jiffies;
	unsigned long ending_since;
	struct completion done;
	struct work_struct finish_work;
	struct delayed_work watch;
};

extern struct mutex tp_lock;
int tp_run_init(void);
void tp_run_shutdown(void);
void tp_run_exit(void);
int tp_run_start(const struct tp_kind_ops *ops, struct nlattr **attrs,
		 const struct tp_run_notify *notify,
		 struct netlink_ext_ack *extack, struct tp_run **started);
int tp_run_stop(struct netlink_ext_ack *extack);
int tp_run_reset(struct netlink_ext_ack *extack);
struct tp_run *tp_run_get_current(void);
void tp_run_put(struct tp_run *run);
unsigned int tp_run_state(const struct tp_run *run);
u64 tp_run_elapsed_ns(const struct tp_run *run);
bool tp_cpu_should_stop(const struct tp_cpu *c);
bool tp_cpu_gone(const struct tp_cpu *c);
bool tp_cpu_here(struct tp_cpu *c);
void tp_cpu_moved(struct tp_cpu *c);
void tp_test_delay(void);
bool tp_run_should_stop(const struct tp_run *run);
void tp_cpu_sleep_gap(const struct tp_run *run);
u64 tp_cpu_window_begin(bool irqs_off);
void tp_cpu_publish(struct tp_cpu *c, bool force);
void tp_cpu_copy_snap(struct tp_cpu *c, void *dst);
unsigned int tp_run_notify_events(const struct tp_run *run, unsigned int cpu,
				  const struct tp_event *ev, unsigned int n);
void tp_run_stop_at(struct tp_run *run, unsigned int cpu,
		    const struct tp_event *ev);
bool tp_run_stopped_at(const struct tp_run *run);

#endif /* TSCPROBE_KMOD_RUN_H */
