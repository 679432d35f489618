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
 * waits for tp_lock.
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
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/tsc.h>

#include "compat.h"
#include "tp.h"
#include "names.h"
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
	return READ_ONCE(c->run->stop) || test_bit(TP_CPU_OFFLINE, &c->flags);
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
 * One that did not complete is marked incomplete when it went offline, or
 * when nothing stopped the run (a noise CPU that measured nothing): the
 * reader of a complete CPU's figures must be able to trust them.  After
 * STOP or on unload every CPU ends early, which the run's reason says.
 */
static void tp_cpu_end(struct tp_cpu *c, bool complete)
{
	struct tp_run *run = c->run;

	if (!complete && (test_bit(TP_CPU_OFFLINE, &c->flags) ||
			  !READ_ONCE(run->stop)))
		set_bit(TP_CPU_INCOMPLETE, &c->flags);
	tp_cpu_publish(c, true);
	/* Readers that see DONE see the counters above (tp_put_sched()). */
	smp_mb__before_atomic();
	set_bit(TP_CPU_DONE, &c->flags);
	tp_run_thread_ended(run);
}

static int tp_cpu_thread(void *data)
{
	struct tp_cpu *c = data;
	struct tp_run *run = c->run;
	unsigned long nvcsw = current->nvcsw, nivcsw = current->nivcsw;
	u64 migrations = current->se.nr_migrations;
	bool complete;

	complete = run->ops->cpu_main(run, c);
	/* What the scheduler did to the thread, for the report. */
	c->nvcsw = current->nvcsw - nvcsw;
	c->nivcsw = current->nivcsw - nivcsw;
	c->migrations = current->se.nr_migrations - migrations;
	tp_cpu_end(c, complete);
	tp_cpu_wait_for_reap();
	return 0;
}

/* The ops->run_main thread; counted in run->active like a CPU's. */
static int tp_run_main_thread(void *data)
{
	struct tp_run *run = data;

	if (!run->ops->run_main(run))
		WRITE_ONCE(run->main_incomplete, true);
	tp_run_thread_ended(run);
	tp_cpu_wait_for_reap();
	return 0;
}

/* Stop every thread that is still there.  Called with tp_lock held. */
static void tp_run_reap(struct tp_run *run)
{
	unsigned int i;

	if (run->main_task) {
		kthread_stop(run->main_task);
		run->main_task = NULL;
	}

	for (i = 0; i < run->nr_cpus; i++) {
		if (run->slots[i].task) {
			kthread_stop(run->slots[i].task);
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
	trace_tscprobe_run_end(run->id, run->ops->kind, run->state,
			       run->reason);
	/*
	 * Notify before completing: unload waits for the completion and then
	 * unregisters the family, so a notification sent after it could find
	 * the family gone and the listeners would never hear that the module
	 * went away (found by selftests/vm/test_faults.c, rmmod_mid_run).
	 */
	if (run->notify)
		run->notify->finished(run);
	complete_all(&run->done);
	tp_run_put(run);	/* the reference of the running run */
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
			tp_set_err(extack, attr, "CPU %u is offline", cpu);
			return -EINVAL;
		}
	}
	run->nr_cpus = cpumask_weight(run->cpus);
	if (run->nr_cpus > TSCPROBE_MAX_RUN_CPUS) {
		tp_set_err(extack, attr, "%u CPUs: a run measures at most %u",
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
			/* Never woken, so they exit without running. */
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
		tp_set_err(extack, NULL,
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

/* With tp_lock held: ask a running run to end; returns it referenced. */
static struct tp_run *tp_run_request_stop(unsigned int reason)
{
	struct tp_run *run = tp_current;

	if (!run || run->state != TSCPROBE_STATE_RUNNING)
		return NULL;
	/* A CPU that reached stop-at may have set it already. */
	cmpxchg(&run->reason, TSCPROBE_STOP_NONE, reason);
	WRITE_ONCE(run->stop, true);
	tp_run_wake_threads(run);	/* sleepers see the stop at once */
	kref_get(&run->ref);
	return run;
}

/**
 * tp_run_stop() - end the current run early and wait until it has ended
 * @extack: where "nothing runs" is reported
 *
 * Return: 0; -ENOENT when no run is in progress; -ETIMEDOUT if the threads
 * did not end within two windows and a gap (they will still end).
 */
int tp_run_stop(struct netlink_ext_ack *extack)
{
	unsigned long timeout;
	struct tp_run *run;
	int err = 0;

	mutex_lock(&tp_lock);
	run = tp_run_request_stop(TSCPROBE_STOP_REQUESTED);
	mutex_unlock(&tp_lock);
	if (!run) {
		NL_SET_ERR_MSG(extack, "no run is in progress");
		return -ENOENT;
	}
	timeout = nsecs_to_jiffies(2 * run->params.width_ns +
				   run->params.gap_ns) + 2 * HZ;
	if (!wait_for_completion_timeout(&run->done, timeout)) {
		NL_SET_ERR_MSG(extack, "the run has not ended yet");
		err = -ETIMEDOUT;
	}
	tp_run_put(run);
	return err;
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

/* A CPU is going down: end its measurement, mark it incomplete. */
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
			/* The thread ends within a window and a gap. */
			kthread_stop(c->task);
			c->task = NULL;
			/*
			 * A thread woken by START but stopped before it first
			 * ran never enters tp_cpu_thread(): kthread() checks
			 * for a stop before calling it.  Without this its CPU
			 * would never count as ended, and the run, STOP and
			 * unload would wait for it forever.
			 */
			if (!test_bit(TP_CPU_DONE, &c->flags))
				tp_cpu_end(c, false);
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
 * hear that the run ended because the module went away.
 */
void tp_run_shutdown(void)
{
	struct tp_run *run;

	mutex_lock(&tp_lock);
	tp_shutting_down = true;
	run = tp_run_request_stop(TSCPROBE_STOP_UNLOAD);
	mutex_unlock(&tp_lock);
	if (!run)
		return;
	wait_for_completion(&run->done);
	tp_run_put(run);
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
