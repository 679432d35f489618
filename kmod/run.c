// SPDX-License-Identifier: GPL-2.0
/*
 * The run machinery, shared by every measurement: one run at a time, one
 * measurement thread bound to each chosen CPU (plus, for a measurement that
 * needs one, an unbound thread that drives them), every CPU's state, CPU
 * hotplug, STOP, the end of a run and its notification (through the
 * struct tp_run_notify its starter gave: this file never calls netlink),
 * and the lifetime of results.
 *
 * Locking: tp_lock protects tp_current and every run's state and thread
 * pointers; a run's reason is set once, by cmpxchg() (a measuring CPU that
 * reaches stop-at sets it with interrupts off, without the lock).  Where
 * both are needed the CPU hotplug lock is taken first: START holds it so
 * that no chosen CPU can go away while threads are created, and the
 * hotplug callback runs with it held.  Measurement threads
 * never take tp_lock; they only publish their snapshot under their slot's
 * own mutex, so nothing that holds tp_lock ever waits for a thread that
 * waits for tp_lock.  Nor does anything wait for a thread on its own CPU,
 * where a task of higher priority may keep it from ever running: threads
 * are moved to the waiter's CPU first (tp_thread_move_away()), and the
 * run's watch gives up on those that cannot start (tp_run_watch()).
 *
 * Lifetime: a run is reference counted.  tp_current holds one reference, a
 * running run holds one for its finisher, and every reader (status, dump,
 * debugfs) holds one while it reads, so results can be replaced by a new
 * START at any moment without pulling them from under a reader.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "attrs.h"
#include "kinds.h"
#include "run.h"
#include "core/names.h"
#include "trace.h"

/* Protects tp_current and every run's state, reason and threads. */
DEFINE_MUTEX(tp_lock);
static struct tp_run *tp_current;	/* under tp_lock */
static u64 tp_last_id;			/* under tp_lock */
static bool tp_shutting_down;		/* under tp_lock */
static int tp_hp_state = -1;
static struct workqueue_struct *tp_wq;	/* finishers; drained on unload */

static void tp_run_release(struct kref *ref)
{
	struct tp_run *run = container_of(ref, struct tp_run, ref);
	unsigned int i;

	if (run->slots) {
		if (run->ops->free)
			run->ops->free(run);
		for (i = 0; i < run->nr_cpus; i++) {
			kvfree(run->slots[i].hot);
			kvfree(run->slots[i].snap);
			mutex_destroy(&run->slots[i].lock);
		}
		kfree(run->slots);
	}
	free_cpumask_var(run->cpus);
	kfree(run);
}

/**
 * tp_run_put() - drop a reference to a run
 * @run: the run, or NULL
 */
void tp_run_put(struct tp_run *run)
{
	if (run)
		kref_put(&run->ref, tp_run_release);
}

/**
 * tp_run_get_current() - the current run (running or finished), referenced
 *
 * Return: the run, to be released with tp_run_put(), or NULL if there are
 * no results.
 */
struct tp_run *tp_run_get_current(void)
{
	struct tp_run *run;

	mutex_lock(&tp_lock);
	run = tp_current;
	if (run)
		kref_get(&run->ref);
	mutex_unlock(&tp_lock);
	return run;
}

/**
 * tp_run_state() - the enum tscprobe_state of a run
 * @run: the run, or NULL for "no run"
 *
 * Return: the state; TSCPROBE_STATE_IDLE for NULL.
 */
unsigned int tp_run_state(const struct tp_run *run)
{
	return run ? READ_ONCE(run->state) : TSCPROBE_STATE_IDLE;
}

/**
 * tp_run_elapsed_ns() - time since START, or the run's length once ended
 * @run: the run
 *
 * Return: nanoseconds.
 */
u64 tp_run_elapsed_ns(const struct tp_run *run)
{
	u64 end = READ_ONCE(run->end_ns);

	return (end ? end : ktime_get_ns()) - run->start_ns;
}

/**
 * tp_cpu_should_stop() - whether a measurement thread must end now
 * @c: the thread's slot
 *
 * Measurements call this between two windows: STOP, unload and the CPU
 * going offline all end a CPU's measurement within one window.
 *
 * Return: true when the thread must return from its cpu_main.
 */
bool tp_cpu_should_stop(const struct tp_cpu *c)
{
	return READ_ONCE(c->run->stop) || tp_cpu_gone(c);
}

/**
 * tp_cpu_gone() - whether a CPU's measurement is over for good
 * @c: the CPU's slot
 *
 * Return: true when the CPU is going offline, or its thread could not get
 * the CPU and was moved away from it (starved).
 */
bool tp_cpu_gone(const struct tp_cpu *c)
{
	return test_bit(TP_CPU_OFFLINE, &c->flags) ||
	       test_bit(TP_CPU_STARVED, &c->flags);
}

/**
 * tp_cpu_here() - whether a measurement thread runs on its own CPU
 * @c: the thread's slot
 *
 * Called with interrupts off (or, for a skew side, preemption off) at the
 * start of every window and every skew side, which keep them off until
 * their figures are taken: a figure comes from the CPU it is booked to.
 * The threads are bound to their CPUs, but a CPU going down is no longer
 * active from sched_cpu_deactivate() on, well before the module's hotplug
 * callback (CPUHP_AP_ONLINE_DYN) ends its thread; on 5.11 and later a
 * wake-up there moves a bound thread that is not one of the kernel's own
 * per-CPU threads to another CPU (select_fallback_rq()).  The module also
 * moves a starved thread away itself (tp_thread_move_away()).  Either way
 * the CPU's measurement ends, incomplete, and the window is not counted.
 *
 * Return: true when the thread is on its CPU.
 */
bool tp_cpu_here(struct tp_cpu *c)
{
	if (likely(smp_processor_id() == c->cpu))
		return true;
	tp_cpu_moved(c);
	return false;
}

/**
 * tp_cpu_moved() - a measurement thread was found moved off its CPU
 * @c: the thread's slot
 *
 * Ends the CPU's measurement (tp_cpu_gone() becomes true): moved by the
 * module, the thread is starved; otherwise the CPU is going offline.
 */
void tp_cpu_moved(struct tp_cpu *c)
{
	if (!test_bit(TP_CPU_STARVED, &c->flags))
		set_bit(TP_CPU_OFFLINE, &c->flags);
}

/**
 * tp_run_should_stop() - whether a run's driving thread must end now
 * @run: the run
 *
 * Return: true after STOP or on unload.
 */
bool tp_run_should_stop(const struct tp_run *run)
{
	return READ_ONCE(run->stop);
}

/**
 * tp_cpu_sleep_gap() - the interrupts-on pause between two windows
 * @run: the run, for its gap parameter
 *
 * Sleeping (rather than spinning with interrupts on) lets the tick, IPIs,
 * softirqs, RCU and the lockup watchdogs' threads run on this CPU, which is
 * what keeps long runs with interrupts off invisible to the watchdogs.
 */
void tp_cpu_sleep_gap(const struct tp_run *run)
{
	unsigned long us = div_u64(run->params.gap_ns, NSEC_PER_USEC);

	tp_usleep_range_state(us, us + max(us / 8, 10UL), TASK_INTERRUPTIBLE);
}

/**
 * tp_cpu_window_begin() - start a window once nothing waits for the CPU
 * @irqs_off: the window runs with interrupts off
 *
 * A task that outranks the measurement thread and wakes on its CPU (an
 * interrupt thread: every device interrupt's on PREEMPT_RT, threaded
 * handlers elsewhere; any real-time thread) must wait for no more than the
 * window in progress.  On PREEMPT_RT it preempts the thread as soon as
 * interrupts are on.  With voluntary or no preemption only schedule() lets
 * it in, and tp_cpu_sleep_gap() does not always get there: usleep_range()
 * returns without sleeping when its timer expired before it was armed,
 * which a short gap and the interrupts taken after a window can make
 * common.  So the thread yields here while a reschedule is pending.  The
 * flag is read after the window's start and, for an interrupts-off window,
 * with interrupts already off: a wake-up that set it before the start
 * holds the window back, one that comes later found the window running.
 *
 * Return: the TSC at which the window starts (interrupts off when asked).
 */
u64 tp_cpu_window_begin(bool irqs_off)
{
	u64 start;

	for (;;) {
		if (irqs_off)
			local_irq_disable();
		start = rdtsc();
		if (!need_resched())
			return start;
		if (irqs_off)
			local_irq_enable();
		schedule();
	}
}

/**
 * tp_cpu_publish() - copy a thread's working state to its snapshot
 * @c: the thread's slot
 * @force: publish even if the last publication is recent
 *
 * Readers only ever see snapshots, so a histogram is never read while it is
 * being updated: a bucket's calls and cycles always belong to one moment.
 * Publications are limited to 50 per second to keep short windows cheap.
 */
void tp_cpu_publish(struct tp_cpu *c, bool force)
{
	if (!c->run->ops->snap_size)
		return;		/* a kind without per-CPU snapshots (skew) */
	if (!force && time_before(jiffies, c->published + HZ / 50))
		return;
	mutex_lock(&c->lock);
	memcpy(c->snap, c->hot, c->run->ops->snap_size);
	mutex_unlock(&c->lock);
	c->published = jiffies;
}

/**
 * tp_cpu_copy_snap() - copy a CPU's last published snapshot
 * @c: the CPU's slot; its kind has a snapshot (snap_size > 0)
 * @dst: snap_size bytes
 *
 * Under the slot's lock, so that the copy is one publication, never half
 * of two; the reader can then take its time while the thread goes on.
 */
void tp_cpu_copy_snap(struct tp_cpu *c, void *dst)
{
	mutex_lock(&c->lock);
	memcpy(dst, c->snap, c->run->ops->snap_size);
	mutex_unlock(&c->lock);
}

/**
 * tp_run_notify_events() - pass a window's noise events to the listeners
 * @run: the run
 * @cpu: the CPU that saw them
 * @ev: the events
 * @n: how many
 *
 * Called by the measuring thread with interrupts on; a run nobody listens
 * to (no struct tp_run_notify, or one without @events) drops them.
 *
 * Return: how many of the @n events reached a listener (@n or 0).
 */
unsigned int tp_run_notify_events(const struct tp_run *run, unsigned int cpu,
				  const struct tp_event *ev, unsigned int n)
{
	if (run->notify && run->notify->events)
		return run->notify->events(run, cpu, ev, n);
	return 0;
}

/**
 * tp_run_stop_at() - a measuring CPU saw a gap at or above stop-at
 * @run: the run
 * @cpu: the CPU
 * @ev: the event, explained
 *
 * Called from the noise loop's slow path, interrupts off: it takes no lock
 * and does not sleep.  The first call of a run wins: it records the CPU
 * and the event and sets the reason to THRESHOLD unless a STOP came
 * first; only then does it freeze the ftrace buffer (when the run asked
 * for it), so that a frozen buffer always has a THRESHOLD run and its
 * event to explain it.  It sets @run->stop, which every CPU checks at the
 * end of its current window or interrupts-on pause: the run then ends
 * through the same path as a STOP.  Later calls do nothing.
 */
void tp_run_stop_at(struct tp_run *run, unsigned int cpu,
		    const struct tp_event *ev)
{
	if (atomic_cmpxchg(&run->stop_claimed, 0, 1) != 0)
		return;
	run->stop_cpu = cpu;
	run->stop_event = *ev;
	/* Readers that see THRESHOLD see the CPU and the event. */
	smp_wmb();
	if (cmpxchg(&run->reason, TSCPROBE_STOP_NONE,
		    TSCPROBE_STOP_THRESHOLD) == TSCPROBE_STOP_NONE &&
	    run->params.trace_stop)
		tracing_off();
	WRITE_ONCE(run->stop, true);
}

/**
 * tp_run_stopped_at() - whether stop-at ended the run
 * @run: the run
 *
 * Return: true when the run's reason is THRESHOLD; @run->stop_cpu and
 * @run->stop_event can then be read.
 */
bool tp_run_stopped_at(const struct tp_run *run)
{
	if (READ_ONCE(run->reason) != TSCPROBE_STOP_THRESHOLD)
		return false;
	smp_rmb();	/* pairs with smp_wmb() in tp_run_stop_at() */
	return true;
}

/* A thread has ended; the last one queues the run's finisher. */
static void tp_run_thread_ended(struct tp_run *run)
{
	if (atomic_dec_and_test(&run->active))
		queue_work(tp_wq, &run->finish_work);
}

/* Wait, doing nothing, until the finisher or hotplug reaps the thread. */
static void tp_cpu_wait_for_reap(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * A CPU's measurement has ended: publish it; the last one ends the run.
 * One that did not complete is marked incomplete when it went offline or
 * starved, or when nothing stopped the run (a noise CPU that measured
 * nothing): the reader of a complete CPU's figures must be able to trust
 * them.  After STOP or on unload every CPU ends early, which the run's
 * reason says.
 */
static void tp_cpu_end(struct tp_cpu *c, bool complete)
{
	struct tp_run *run = c->run;

	if (!complete && (tp_cpu_gone(c) || !READ_ONCE(run->stop)))
		set_bit(TP_CPU_INCOMPLETE, &c->flags);
	tp_cpu_publish(c, true);
	/* Readers that see DONE see the counters above (tp_put_sched()). */
	smp_mb__before_atomic();
	set_bit(TP_CPU_DONE, &c->flags);
	tp_run_thread_ended(run);
}

/*
 * With tp_lock held: end a CPU whose thread has not started, because it
 * did not get the CPU in time (@why TP_CPU_STARVED), the CPU is going
 * offline (TP_CPU_OFFLINE), or the run was stopped (-1).  The thread and
 * this race for TP_CPU_CLAIMED: a thread that loses never measures.
 * Returns false when the thread had started.
 */
static bool tp_cpu_give_up(struct tp_cpu *c, int why)
{
	if (test_and_set_bit(TP_CPU_CLAIMED, &c->flags))
		return false;
	if (why >= 0)
		set_bit(why, &c->flags);
	tp_cpu_end(c, false);
	return true;
}

/*
 * Move @t off CPU @from to a CPU where ordinary threads run now, the
 * caller's own (or any active one when the caller runs on @from, as the
 * hotplug callback does): a thread that cannot get its CPU, because a task
 * of higher priority owns it (a SCHED_FIFO poller with RT throttling off)
 * or because the CPU is going offline, gets out there.  It measures
 * nothing there: every window and skew side checks its CPU
 * (tp_cpu_here()).  Bounded: a thread that is queued or asleep moves at
 * once; one running on @from is moved by the CPU's stopper, at the end of
 * its interrupts-off window at the latest.
 */
static void tp_thread_move_away(struct task_struct *t, unsigned int from)
{
	unsigned int here = raw_smp_processor_id();

	if (here != from)
		set_cpus_allowed_ptr(t, cpumask_of(here));
	else if (!cpu_active(from))
		set_cpus_allowed_ptr(t, cpu_active_mask);
	/* else the caller runs on @from: so can the thread */
}

/* Stop a thread wherever it can run; see tp_thread_move_away(). */
static void tp_thread_stop(struct task_struct *t, unsigned int from)
{
	tp_thread_move_away(t, from);
	kthread_stop(t);
}

static int tp_cpu_thread(void *data)
{
	struct tp_cpu *c = data;
	struct tp_run *run = c->run;
	unsigned long nvcsw = current->nvcsw, nivcsw = current->nivcsw;
	u64 migrations = current->se.nr_migrations;
	bool complete;

	/* Too late: the run gave up on this CPU (tp_cpu_give_up()). */
	if (test_and_set_bit(TP_CPU_CLAIMED, &c->flags)) {
		tp_cpu_wait_for_reap();
		return 0;
	}
	complete = run->ops->cpu_main(run, c);
	/* What the scheduler did to the thread, for the report. */
	c->nvcsw = current->nvcsw - nvcsw;
	c->nivcsw = current->nivcsw - nivcsw;
	c->migrations = current->se.nr_migrations - migrations;
	tp_cpu_end(c, complete);
	tp_cpu_wait_for_reap();
	return 0;
}

static void tp_run_watch_in(struct tp_run *run, unsigned long delay);
static unsigned long tp_run_end_slack(const struct tp_run *run);

/* The ops->run_main thread; counted in run->active like a CPU's. */
static int tp_run_main_thread(void *data)
{
	struct tp_run *run = data;

	if (!run->ops->run_main(run))
		WRITE_ONCE(run->main_incomplete, true);
	/* The CPU threads are due to end now: the watch sees to it. */
	WRITE_ONCE(run->main_done, true);
	tp_run_watch_in(run, tp_run_end_slack(run));
	tp_run_thread_ended(run);
	tp_cpu_wait_for_reap();
	return 0;
}

/* Stop every thread that is still there.  Called with tp_lock held. */
static void tp_run_reap(struct tp_run *run)
{
	unsigned int i;

	if (run->main_task) {
		tp_thread_stop(run->main_task, task_cpu(run->main_task));
		run->main_task = NULL;
	}

	for (i = 0; i < run->nr_cpus; i++) {
		if (run->slots[i].task) {
			tp_thread_stop(run->slots[i].task, run->slots[i].cpu);
			run->slots[i].task = NULL;
		}
	}
}

static unsigned int tp_run_end_reason(struct tp_run *run)
{
	unsigned int i;

	if (run->reason != TSCPROBE_STOP_NONE)
		return run->reason;
	/* Not stopped, yet incomplete: CPUs going offline left it nothing. */
	if (READ_ONCE(run->main_incomplete))
		return TSCPROBE_STOP_HOTPLUG;
	/* Completed unless every CPU was cut short by going offline. */
	for (i = 0; i < run->nr_cpus; i++)
		if (!test_bit(TP_CPU_INCOMPLETE, &run->slots[i].flags) ||
		    !test_bit(TP_CPU_OFFLINE, &run->slots[i].flags))
			return TSCPROBE_STOP_COMPLETED;
	return TSCPROBE_STOP_HOTPLUG;
}

/*
 * Test hook (module parameter test_delay_ms, 0 by default): hold open the
 * two race windows the fault tests need, between a run's end and its
 * RUN_FINISHED notification, and between a refused request's error
 * message and its ack (netlink.c).  Documented in the admin guide.
 */
static unsigned int tp_test_delay_ms;
module_param_named(test_delay_ms, tp_test_delay_ms, uint, 0600);
MODULE_PARM_DESC(test_delay_ms,
		 "test hook: ms to hold RUN_FINISHED and error acks back (0)");

/**
 * tp_test_delay() - sleep for the test_delay_ms module parameter, if set
 */
void tp_test_delay(void)
{
	unsigned int ms = READ_ONCE(tp_test_delay_ms);

	if (ms)
		msleep(min(ms, 10000U));
}

/* Runs once every thread has ended: make the results final and say so. */
static void tp_run_finish(struct work_struct *work)
{
	struct tp_run *run = container_of(work, struct tp_run, finish_work);

	mutex_lock(&tp_lock);
	tp_run_reap(run);
	WRITE_ONCE(run->end_ns, ktime_get_ns());
	/* Every thread has ended: no stop-at can race this; readers don't lock. */
	WRITE_ONCE(run->reason, tp_run_end_reason(run));
	WRITE_ONCE(run->state, run->reason == TSCPROBE_STOP_COMPLETED ?
		   TSCPROBE_STATE_DONE : TSCPROBE_STATE_STOPPED);
	mutex_unlock(&tp_lock);
	/* Nothing arms the watch once the run is not running. */
	cancel_delayed_work_sync(&run->watch);
	trace_tscprobe_run_end(run->id, run->ops->kind, run->state,
			       run->reason);
	tp_test_delay();
	/*
	 * Notify before completing: unload waits for the completion and then
	 * unregisters the family, so the listeners hear the end first.
	 */
	if (run->notify)
		run->notify->finished(run);
	complete_all(&run->done);
	tp_run_put(run);	/* the reference of the running run */
}

/*
 * How long after a run should have ended its threads may take to end: a
 * window to finish, a gap, another window, and two seconds for the
 * scheduler (a skew pair in progress takes up to its sides' limits, which
 * add up to less: see tp_skew_parse()).
 */
static unsigned long tp_run_end_slack(const struct tp_run *run)
{
	return nsecs_to_jiffies(2 * run->params.width_ns +
				run->params.gap_ns) + 2 * HZ;
}

/* (Re)arm the watch to look at @run in @delay jiffies. */
static void tp_run_watch_in(struct tp_run *run, unsigned long delay)
{
	mod_delayed_work(tp_wq, &run->watch, delay);
}

/*
 * When every thread of @run should have ended, in jiffies; 0 while that is
 * not known.  A run that was asked to end (STOP, unload, stop-at, its
 * driving thread done) ends within tp_run_end_slack(); a noise run ends at
 * the latest its duration after its last CPU started, which is within
 * TSCPROBE_START_TIMEOUT_MS of START.  Called with tp_lock held.
 */
static unsigned long tp_run_due(struct tp_run *run, unsigned long now)
{
	unsigned long slack = tp_run_end_slack(run), due = 0;

	/* Stop-at and the driving thread's end take no lock to say so. */
	if (!run->ending_since &&
	    (READ_ONCE(run->stop) || READ_ONCE(run->main_done)))
		run->ending_since = now ?: 1;
	if (run->ending_since)
		due = run->ending_since + slack;
	if (run->params.duration_ns) {
		unsigned long end = run->start_jiffies +
			msecs_to_jiffies(TSCPROBE_START_TIMEOUT_MS) +
			nsecs_to_jiffies(run->params.duration_ns) + slack;

		if (!due || time_before(end, due))
			due = end;
	}
	return due;
}

/**
 * tp_run_watch() - deal with threads that cannot get their CPU
 * @work: the run's watch
 *
 * A thread bound to a CPU that a task of higher priority owns (a SCHED_FIFO
 * poller with RT throttling off, as on DPDK and isolcpus machines) never
 * runs there, and nothing may wait for it without bound: not the run's
 * end, STOP, unload or hotplug.  So, once TSCPROBE_START_TIMEOUT_MS after
 * START, a CPU whose thread has not started is given up: not measured,
 * marked starved and incomplete, and the run goes on with the others.
 * And once the run should have ended (tp_run_due()), a thread that has not
 * is moved to a CPU where it can run, and ends there: starved, its
 * figures those of before.  Threads that did get their CPUs never meet
 * the watch: it runs at most a few times a run, never in a loop.
 */
static void tp_run_watch(struct work_struct *work)
{
	struct tp_run *run = container_of(to_delayed_work(work), struct tp_run,
					  watch);
	unsigned long now = jiffies, start_by, due, next = 0;
	unsigned int i;

	mutex_lock(&tp_lock);
	if (run->state != TSCPROBE_STATE_RUNNING)
		goto out;
	start_by = run->start_jiffies +
		msecs_to_jiffies(TSCPROBE_START_TIMEOUT_MS);
	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_cpu *c = &run->slots[i];

		if (test_bit(TP_CPU_CLAIMED, &c->flags))
			continue;
		if (time_before(now, start_by)) {
			next = start_by;
			continue;
		}
		/* It loses the race for the slot and exits unmeasured. */
		if (tp_cpu_give_up(c, TP_CPU_STARVED) && c->task)
			tp_thread_move_away(c->task, c->cpu);
	}
	due = tp_run_due(run, now);
	if (due && time_after_eq(now, due)) {
		for (i = 0; i < run->nr_cpus; i++) {
			struct tp_cpu *c = &run->slots[i];

			if (!c->task || test_bit(TP_CPU_DONE, &c->flags))
				continue;
			set_bit(TP_CPU_STARVED, &c->flags);
			tp_thread_move_away(c->task, c->cpu);
		}
		if (run->main_task)
			tp_thread_move_away(run->main_task,
					    task_cpu(run->main_task));
		/* Once more if a thread is starved again where it went. */
		due = now + tp_run_end_slack(run);
	}
	if (due && (!next || time_before(due, next)))
		next = due;
	if (next)
		tp_run_watch_in(run, time_after(next, now) ? next - now : 0);
out:
	mutex_unlock(&tp_lock);
}

static struct tp_run *tp_run_alloc(const struct tp_kind_ops *ops,
				   const struct tp_run_notify *notify)
{
	struct tp_run *run = kzalloc(sizeof(*run), GFP_KERNEL);

	if (!run)
		return NULL;
	if (!zalloc_cpumask_var(&run->cpus, GFP_KERNEL)) {
		kfree(run);
		return NULL;
	}
	kref_init(&run->ref);
	run->ops = ops;
	run->notify = notify;
	init_completion(&run->done);
	INIT_WORK(&run->finish_work, tp_run_finish);
	INIT_DELAYED_WORK(&run->watch, tp_run_watch);
	return run;
}

/* CPUS: default every online CPU; each must be online; not too many. */
static int tp_run_parse_cpus(struct tp_run *run, struct nlattr **attrs,
			     struct netlink_ext_ack *extack)
{
	struct nlattr *attr = attrs[TSCPROBE_A_CPUS];
	unsigned int cpu;
	int err;

	if (!attr) {
		cpumask_copy(run->cpus, cpu_online_mask);
	} else {
		err = tp_nla_get_cpumask(attr, run->cpus, extack);
		if (err)
			return err;
	}
	if (cpumask_empty(run->cpus)) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "the CPU set is empty");
		return -EINVAL;
	}
	for_each_cpu(cpu, run->cpus) {
		if (!cpu_online(cpu)) {
			tp_set_err(extack, attr, "a CPU of the set is offline",
				   "CPU %u is offline", cpu);
			return -EINVAL;
		}
	}
	run->nr_cpus = cpumask_weight(run->cpus);
	if (run->nr_cpus > TSCPROBE_MAX_RUN_CPUS) {
		tp_set_err(extack, attr, "too many CPUs for one run",
			   "%u CPUs: a run measures at most %u",
			   run->nr_cpus, TSCPROBE_MAX_RUN_CPUS);
		return -E2BIG;
	}
	return 0;
}

/*
 * Every CPU's working state and snapshot, on the CPU's own node: the thread
 * works on it with interrupts off, and a remote node would add its latency
 * to what is measured.  The snapshot starts as a copy of the initialized
 * state, so a reader before the first publication sees a valid empty one.
 */
static int tp_run_alloc_cpu_state(struct tp_run *run, struct tp_cpu *c)
{
	const struct tp_kind_ops *ops = run->ops;
	int node = cpu_to_node(c->cpu);
	int err;

	c->hot = kvzalloc_node(ops->cpu_size, GFP_KERNEL, node);
	if (!c->hot)
		return -ENOMEM;
	if (ops->snap_size) {
		c->snap = kvzalloc_node(ops->snap_size, GFP_KERNEL, node);
		if (!c->snap)
			return -ENOMEM;
	}
	if (ops->cpu_init) {
		err = ops->cpu_init(run, c);
		if (err)
			return err;
	}
	if (ops->snap_size)
		memcpy(c->snap, c->hot, ops->snap_size);
	return 0;
}

/* The slots and the kind's state; on an error release frees what exists. */
static int tp_run_alloc_slots(struct tp_run *run)
{
	unsigned int cpu, i = 0;
	int err;

	run->slots = kcalloc(run->nr_cpus, sizeof(*run->slots), GFP_KERNEL);
	if (!run->slots)
		return -ENOMEM;
	for_each_cpu(cpu, run->cpus) {
		struct tp_cpu *c = &run->slots[i++];

		c->cpu = cpu;
		c->run = run;
		mutex_init(&c->lock);
	}
	if (run->ops->alloc) {
		err = run->ops->alloc(run);
		if (err)
			return err;
	}
	for (i = 0; i < run->nr_cpus; i++) {
		err = tp_run_alloc_cpu_state(run, &run->slots[i]);
		if (err)
			return err;
	}
	return 0;
}

/* Create every thread, or none.  Threads stay asleep until woken. */
static int tp_run_create_threads(struct tp_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_cpu *c = &run->slots[i];
		struct task_struct *t;

		t = tp_kthread_create_on_cpu(tp_cpu_thread, c, c->cpu,
					     "tscprobe/%u");
		if (IS_ERR(t)) {
			/* Never woken, so they exit without running this. */
			tp_run_reap(run);
			return PTR_ERR(t);
		}
		c->task = t;
	}
	if (run->ops->run_main) {
		struct task_struct *t;

		t = kthread_create(tp_run_main_thread, run, "tscprobe/%s",
				   tp_kind_name(run->ops->kind));
		if (IS_ERR(t)) {
			tp_run_reap(run);
			return PTR_ERR(t);
		}
		run->main_task = t;
	}
	return 0;
}

static void tp_run_wake_threads(struct tp_run *run)
{
	unsigned int i;

	if (run->main_task)
		wake_up_process(run->main_task);

	for (i = 0; i < run->nr_cpus; i++)
		if (run->slots[i].task)
			wake_up_process(run->slots[i].task);
}

/* With tp_lock held: EBUSY if anything runs, ESHUTDOWN during unload. */
static int tp_run_check_idle(struct netlink_ext_ack *extack)
{
	struct tp_run *cur = tp_current;

	if (tp_shutting_down) {
		NL_SET_ERR_MSG(extack, "the module is being unloaded");
		return -ESHUTDOWN;
	}
	if (cur && cur->state == TSCPROBE_STATE_RUNNING) {
		tp_set_err(extack, NULL, "a run is in progress; stop it first",
			   "a %s run (id %llu) is in progress; stop it first",
			   tp_kind_name(cur->ops->kind), cur->id);
		return -EBUSY;
	}
	return 0;
}

/* Build a run whose threads exist but do not run yet. */
static int tp_run_prepare(struct tp_run *run, struct nlattr **attrs,
			  struct netlink_ext_ack *extack)
{
	int err;

	err = tp_run_check_idle(extack);
	if (!err)
		err = tp_run_parse_cpus(run, attrs, extack);
	if (!err)
		err = run->ops->parse(run, attrs, extack);
	if (!err)
		err = tp_run_alloc_slots(run);
	if (!err)
		err = tp_run_create_threads(run);
	return err;
}

/**
 * tp_run_start() - validate a START and start the run
 * @ops: the measurement
 * @attrs: START's attributes
 * @notify: who hears of the run's end and its events (NULL: nobody);
 *	it must outlive the run
 * @extack: where a bad attribute is reported
 * @started: set to the new run, referenced, on success
 *
 * Nothing starts unless everything is valid and every thread exists: on an
 * error the previous results are left as they were.
 *
 * Return: 0, or a negative errno with @extack saying why.
 */
int tp_run_start(const struct tp_kind_ops *ops, struct nlattr **attrs,
		 const struct tp_run_notify *notify,
		 struct netlink_ext_ack *extack, struct tp_run **started)
{
	struct tp_run *run = tp_run_alloc(ops, notify);
	struct tp_run *old = NULL;
	int err;

	if (!run)
		return -ENOMEM;
	cpus_read_lock();
	mutex_lock(&tp_lock);
	err = tp_run_prepare(run, attrs, extack);
	if (!err) {
		run->id = ++tp_last_id;
		run->start_ns = ktime_get_ns();
		run->start_tsc = rdtsc();
		run->start_jiffies = jiffies;
		run->state = TSCPROBE_STATE_RUNNING;
		atomic_set(&run->active,
			   run->nr_cpus + (run->main_task ? 1 : 0));
		kref_get(&run->ref);	/* for the finisher */
		kref_get(&run->ref);	/* for the caller */
		old = tp_current;
		tp_current = run;
		/* Before the threads run: it precedes their window events. */
		trace_tscprobe_run_start(run->id, ops->kind, run->nr_cpus,
					 run->params.threshold_cycles,
					 run->params.stop_at_cycles);
		tp_run_wake_threads(run);
		tp_run_watch_in(run,
				msecs_to_jiffies(TSCPROBE_START_TIMEOUT_MS));
	}
	mutex_unlock(&tp_lock);
	cpus_read_unlock();
	if (err) {
		tp_run_put(run);
		return err;
	}
	tp_run_put(old);
	*started = run;
	return 0;
}

/* With tp_lock held: ask a running run to end; false if none runs. */
static bool tp_run_request_stop(struct tp_run *run, unsigned int reason)
{
	unsigned int i;

	if (!run || run->state != TSCPROBE_STATE_RUNNING)
		return false;
	/* A CPU that reached stop-at may have set it already. */
	cmpxchg(&run->reason, TSCPROBE_STOP_NONE, reason);
	WRITE_ONCE(run->stop, true);
	/* A thread that has not started has nothing to end: none waited for. */
	for (i = 0; i < run->nr_cpus; i++)
		if (run->slots[i].task)
			tp_cpu_give_up(&run->slots[i], -1);
	tp_run_wake_threads(run);	/* sleepers see the stop at once */
	if (!run->ending_since) {
		run->ending_since = jiffies ?: 1;
		tp_run_watch_in(run, tp_run_end_slack(run));
	}
	return true;
}

/**
 * tp_run_stop() - ask the current run to end early
 * @extack: where "nothing runs" is reported
 *
 * Returns at once: the run's threads end within a window and a gap (a
 * thread that cannot get its CPU is moved away, see tp_run_watch()), and
 * then its listeners get RUN_FINISHED.  Waiting here would hold generic
 * netlink's cb_lock, and with it every family's registration, meanwhile.
 *
 * Return: 0; -ENOENT when no run is in progress.
 */
int tp_run_stop(struct netlink_ext_ack *extack)
{
	bool stopping;

	mutex_lock(&tp_lock);
	stopping = tp_run_request_stop(tp_current, TSCPROBE_STOP_REQUESTED);
	mutex_unlock(&tp_lock);
	if (!stopping) {
		NL_SET_ERR_MSG(extack, "no run is in progress");
		return -ENOENT;
	}
	return 0;
}

/**
 * tp_run_reset() - drop the results of the last run
 * @extack: where "still running" is reported
 *
 * Return: 0 (also when there was nothing to drop), or -EBUSY while a run
 * is in progress.
 */
int tp_run_reset(struct netlink_ext_ack *extack)
{
	struct tp_run *old;
	int err;

	mutex_lock(&tp_lock);
	err = tp_run_check_idle(extack);
	old = err ? NULL : tp_current;
	if (!err)
		tp_current = NULL;
	mutex_unlock(&tp_lock);
	tp_run_put(old);
	return err;
}

/*
 * A CPU is going down: end its measurement, mark it incomplete.  Its
 * thread ends on another CPU (it is moved there, and measures nothing
 * there), so this never waits for a thread that cannot get the CPU.
 */
static int tp_cpu_offline(unsigned int cpu)
{
	struct tp_run *run;
	unsigned int i;

	mutex_lock(&tp_lock);
	run = tp_current;
	if (run && run->state == TSCPROBE_STATE_RUNNING) {
		for (i = 0; i < run->nr_cpus; i++) {
			struct tp_cpu *c = &run->slots[i];

			if (c->cpu != cpu || !c->task)
				continue;
			set_bit(TP_CPU_OFFLINE, &c->flags);
			/* A thread that has not started never will here. */
			tp_cpu_give_up(c, TP_CPU_OFFLINE);
			tp_thread_move_away(c->task, cpu);
		}
	}
	mutex_unlock(&tp_lock);
	return 0;
}

/**
 * tp_run_init() - register the CPU hotplug callback
 *
 * Return: 0 or a negative errno.
 */
int tp_run_init(void)
{
	int ret;

	tp_wq = alloc_workqueue("tscprobe", WQ_UNBOUND, 0);
	if (!tp_wq)
		return -ENOMEM;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "tscprobe:online",
					NULL, tp_cpu_offline);
	if (ret < 0) {
		destroy_workqueue(tp_wq);
		return ret;
	}
	tp_hp_state = ret;
	return 0;
}

/**
 * tp_run_shutdown() - refuse new runs and end the current one
 *
 * Called on unload while netlink is still registered, so that listeners
 * hear that the run ended because the module went away: returns once every
 * finisher has notified, also one that had already set its run's final
 * state.  Bounded: tp_run_watch() moves away any thread that cannot get
 * its CPU.
 */
void tp_run_shutdown(void)
{
	struct tp_run *run;

	mutex_lock(&tp_lock);
	tp_shutting_down = true;
	run = tp_current;
	if (run) {
		kref_get(&run->ref);
		tp_run_request_stop(run, TSCPROBE_STOP_UNLOAD);
	}
	mutex_unlock(&tp_lock);
	if (run) {
		wait_for_completion(&run->done);
		tp_run_put(run);
	}
	/* An earlier run's finisher may still be notifying. */
	flush_workqueue(tp_wq);
}

/**
 * tp_run_exit() - drop the results and the hotplug callback
 *
 * tp_run_shutdown() has ended any run before this is called.
 */
void tp_run_exit(void)
{
	struct tp_run *old;

	tp_run_shutdown();
	/* Every finisher, of this run or an earlier one, has returned. */
	destroy_workqueue(tp_wq);
	if (tp_hp_state >= 0)
		cpuhp_remove_state_nocalls(tp_hp_state);
	mutex_lock(&tp_lock);
	old = tp_current;
	tp_current = NULL;
	mutex_unlock(&tp_lock);
	tp_run_put(old);
}
