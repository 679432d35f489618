// SPDX-License-Identifier: GPL-2.0
/*
 * The run machinery shared by every measurement: one run at a time, a
 * thread bound to each chosen CPU (plus an unbound driving thread for a
 * kind that needs one), hotplug, STOP, the end of a run and its
 * notification (through struct tp_run_notify: no netlink here), and the
 * lifetime of results.
 *
 * Locking: the CPU hotplug lock (START holds it so no chosen CPU goes away)
 * before tp_lock, which protects tp_current and every run's state and
 * threads.  A run's reason is set once, by cmpxchg() (stop-at sets it with
 * interrupts off, without the lock).  Threads never take tp_lock, only
 * their slot's mutex to publish, which only their end waits for (readers
 * hold it, tp_cpu_publish()); nothing waits for a thread on that
 * thread's own CPU, where a task of higher priority may starve it: it is
 * moved away first (tp_thread_move_away()).
 *
 * Lifetime: tp_current and a running run's finisher hold a reference, and
 * a reader holds one for one call (a netlink dump call, a debugfs read):
 * a RESET or a new START frees the results it replaces once the calls
 * reading them have returned, whatever dumps are open.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "cycles.h"
#include "attrs.h"
#include "kinds.h"
#include "run.h"
#include "src_probes.h"
#include "core/names.h"
#include "core/ramp.h"
#include "trace.h"

/* Protects tp_current and every run's state, reason and threads. */
DEFINE_MUTEX(tp_lock);
static struct tp_run *tp_current;	/* under tp_lock */
static u64 tp_last_id;			/* under tp_lock */
static bool tp_shutting_down;		/* under tp_lock */
static int tp_hp_state = -1;
static struct workqueue_struct *tp_wq;	/* finishers; drained on unload */
static atomic_t tp_runs_alive = ATOMIC_INIT(0);

/**
 * tp_run_count_alive() - how many runs the module holds in memory
 *
 * The current one, a finished one still being told of, and one a reader
 * is using for the length of its call; debugfs' info shows it, so that a
 * test can tell that nothing keeps a replaced run.
 *
 * Return: the count.
 */
int tp_run_count_alive(void)
{
	return atomic_read(&tp_runs_alive);
}

static void tp_run_release(struct kref *ref)
{
	struct tp_run *run = container_of(ref, struct tp_run, ref);
	unsigned int i;

	if (run->slots) {
		if (run->kind->measure->free)
			run->kind->measure->free(run);
		for (i = 0; i < run->nr_cpus; i++) {
			kvfree(run->slots[i].hot);
			kvfree(run->slots[i].snap);
			mutex_destroy(&run->slots[i].lock);
		}
		kfree(run->slots);
	}
	free_cpumask_var(run->cpus);
	kfree(run);
	atomic_dec(&tp_runs_alive);
}

void tp_run_put(struct tp_run *run)
{
	if (run)
		kref_put(&run->ref, tp_run_release);
}

/* The current run (running or finished), referenced; NULL if none. */
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

unsigned int tp_run_state(const struct tp_run *run)
{
	return run ? READ_ONCE(run->state) : TSCPROBE_STATE_IDLE;
}

/* Time since START, or the run's length once it ended. */
u64 tp_run_elapsed_ns(const struct tp_run *run)
{
	u64 end = READ_ONCE(run->end_ns);

	return (end ? end : ktime_get_ns()) - run->start_ns;
}

/**
 * tp_cpu_owned() - whether another task owns @c's CPU
 * @c: the CPU, whose thread is not measuring (yet)
 * @waited_ns: the time since START
 *
 * Owned when tasks and interrupts other than @c's own thread kept the CPU
 * busy for at least half of the time since START that the thread did not
 * run: one of higher priority runs there.  If not, the CPU itself hardly
 * ran (TSCPROBE_CPU_F_HELD).  The thread's own time is left out of both:
 * a noise warm-up spins for as long as the user asks, and the thread may
 * then be held from its first measured window with the CPU running
 * nothing.  Left out of the busy time as the scheduler charged it, tick
 * by tick (a tick that a window with interrupts off, or a vCPU its host
 * did not run, held back is lost to both), and out of the time waited as
 * the thread ran it, exactly.
 *
 * Return: true when owned.
 */
static bool tp_cpu_owned(const struct tp_cpu *c, u64 waited_ns)
{
	bool self = c->task == current && raw_smp_processor_id() == c->cpu;
	u64 busy = tp_cpu_busy_ns(c->cpu, !self);
	u64 own = 0, ran = 0;

	/* The fetch at START may count time a flush later leaves out. */
	busy = busy > c->busy_at_start ? busy - c->busy_at_start : 0;

	if (c->task) {
		own = tp_task_busy_ns(c->task) - c->own_at_start;
		ran = READ_ONCE(c->task->se.sum_exec_runtime) - c->ran_at_start;
	}
	busy = busy > own ? busy - own : 0;
	waited_ns = waited_ns > ran ? waited_ns - ran : 0;
	return busy && busy >= waited_ns / 2;
}

/* Time since START on a clock every CPU shares; 0 if it went back. */
static u64 tp_run_since_start_ns(const struct tp_run *run)
{
	s64 ns = ktime_get_mono_fast_ns() - run->start_ns;

	return ns > 0 ? ns : 0;
}

/**
 * tp_run_start_late() - whether a CPU may no longer start measuring
 * @run: the run
 * @after_ns: how long after TSCPROBE_START_LIMIT_MS it still may (noise: its
 *	measurement, after a warm-up that started in time)
 *
 * A CPU whose measurement would start TSCPROBE_START_LIMIT_MS or more after
 * START is not measured: the run would end as much later.  The watch sees
 * to threads that have not run by then; a thread that runs late checks
 * for itself, since its CPU may run before the watch's worker gets one.
 * No lock, no sleep: noise calls it with interrupts off.  Timed on the
 * kernel's monotonic clock, not the TSC: START read its time on another
 * CPU, whose TSC may not agree with this one's (the skew measures that).
 *
 * Return: true when it is too late now.
 */
bool tp_run_start_late(const struct tp_run *run, u64 after_ns)
{
	u64 limit = TSCPROBE_START_LIMIT_MS * NSEC_PER_MSEC + after_ns;

	return tp_run_since_start_ns(run) >= limit;
}

/*
 * @c's thread found that it is too late (tp_run_start_late()): the CPU
 * is not measured, flagged as the watch would have flagged it
 * (tp_cpu_start_hopeless()).
 */
void tp_cpu_start_missed(struct tp_cpu *c)
{
	if (!tp_cpu_owned(c, tp_run_since_start_ns(c->run)))
		set_bit(TP_CPU_HELD, &c->flags);
	set_bit(TP_CPU_STARVED, &c->flags);
}

/* Checked between windows: STOP, unload and hotplug end a CPU within one. */
bool tp_cpu_should_stop(const struct tp_cpu *c)
{
	return READ_ONCE(c->run->stop) || tp_cpu_gone(c);
}

/* Over for good: the CPU is going offline, or its thread starved. */
bool tp_cpu_gone(const struct tp_cpu *c)
{
	return test_bit(TP_CPU_OFFLINE, &c->flags) ||
	       test_bit(TP_CPU_STARVED, &c->flags);
}

/*
 * Checked with interrupts (a skew side: preemption) off at the start of
 * every window and side, which keep them off until their figures are
 * taken: a figure comes from the CPU it is booked to.  A bound thread is
 * still moved off a CPU going down (select_fallback_rq(), 5.11+) or one it
 * starves on; see "A CPU that goes away" in Documentation/tscprobe.rst.
 */
bool tp_cpu_here(struct tp_cpu *c)
{
	if (likely(smp_processor_id() == c->cpu))
		return true;
	tp_cpu_moved(c);
	return false;
}

/* Moved by the module, the thread is starved; else its CPU is going down. */
void tp_cpu_moved(struct tp_cpu *c)
{
	if (!test_bit(TP_CPU_STARVED, &c->flags))
		set_bit(TP_CPU_OFFLINE, &c->flags);
}

bool tp_run_should_stop(const struct tp_run *run)
{
	return READ_ONCE(run->stop);
}

/*
 * How often a window's start yields to a pending reschedule before it
 * begins all the same: schedule() clears the flag, so a second try is
 * rare and a hundredth one means a wake-up storm, which then waits for
 * one window like any task.
 */
#define TP_WINDOW_YIELDS	100

/**
 * tp_cpu_window() - one measurement window on @c's CPU
 * @c: the CPU
 * @ops: the window's parts; @ops->body is the only one required
 * @arg: passed to each part
 * @open: @ops->body runs with interrupts on (noise --irqs on)
 *
 * Interrupts go off here and come back on here, whatever the window does:
 * no part touches them.  The window starts once no reschedule is pending,
 * so that a task outranking the thread waits at most one window: with
 * voluntary or no preemption only schedule() lets it in, and
 * usleep_range() in the gap may return without sleeping.  The flag is read
 * after the start TSC, with interrupts off: no wake-up slips in.  Then,
 * with interrupts off, @ops->begin (may decline: nothing measured),
 * @ops->body, and @ops->end, which takes the window's figures on the CPU
 * they are booked to (an open window whose thread moved meanwhile is
 * over: its figures are not this CPU's).
 *
 * Return: TP_WINDOW_DONE when every part ran; TP_WINDOW_MOVED when an
 * open window's thread left its CPU during the body; else TP_WINDOW_NONE
 * (not on its CPU, tp_cpu_here(), or declined).  Interrupts are on.
 */
enum tp_window_end tp_cpu_window(struct tp_cpu *c,
				 const struct tp_window_ops *ops, void *arg,
				 bool open)
{
	enum tp_window_end end = TP_WINDOW_NONE;
	unsigned int yields;
	u64 start, moves;

	for (yields = 0;; yields++) {
		local_irq_disable();
		start = rdtsc();
		if (!need_resched() || yields == TP_WINDOW_YIELDS)
			break;
		local_irq_enable();
		schedule();
	}
	if (!tp_cpu_here(c))
		goto out;
	moves = current->se.nr_migrations;
	if (ops->begin && !ops->begin(c, arg, start))
		goto out;
	if (open)
		local_irq_enable();
	ops->body(c, arg, start);
	if (open) {
		local_irq_disable();
		if (current->se.nr_migrations != moves || !tp_cpu_here(c)) {
			tp_cpu_moved(c);
			end = TP_WINDOW_MOVED;
			goto out;
		}
	}
	if (ops->end)
		ops->end(c, arg, start);
	end = TP_WINDOW_DONE;
out:
	local_irq_enable();
	return end;
}

/*
 * The figures of the snapshot just published, with c->lock held, or
 * first set before the run is seen.
 */
static void tp_cpu_set_progress(struct tp_cpu *c)
{
	const struct tp_report_ops *report = c->run->kind->report;

	if (!report->progress)
		return;
	preempt_disable();
	write_seqcount_begin(&c->progress_seq);
	report->progress(c->snap, c->progress);
	write_seqcount_end(&c->progress_seq);
	preempt_enable();
}

/**
 * tp_cpu_publish() - copy @c's figures where readers read them
 * @c: the CPU, by its measuring thread
 * @force: publish now, waiting for readers (the CPU's end); false: between
 *	windows, at most 50 times a second, and never waiting
 *
 * Readers see only snapshots, never a histogram being updated, and each
 * one whole: the old or the new.  Between windows the slot's lock is only
 * tried: any user may read results (GET_RESULT, GET_STATUS), and a reader
 * preempted while it holds the lock (SCHED_IDLE, a throttled cgroup; a
 * mutex lends a SCHED_OTHER waiter no priority) would otherwise hold the
 * thread in its gap, its CPU unmeasured.  A publication so skipped is
 * tried again after the next window, and the CPU's end waits for the
 * lock: the last one is never lost.
 */
void tp_cpu_publish(struct tp_cpu *c, bool force)
{
	if (!c->run->kind->measure->snap_size)
		return;		/* a kind without per-CPU snapshots (skew) */
	if (!force && time_before(jiffies, c->published + HZ / 50))
		return;
	if (force)
		mutex_lock(&c->lock);
	else if (!mutex_trylock(&c->lock))
		return;
	memcpy(c->snap, c->hot, c->run->kind->measure->snap_size);
	tp_cpu_set_progress(c);
	WRITE_ONCE(c->gen, c->gen + 1);	/* tp_test_dump_stall() reads it */
	mutex_unlock(&c->lock);
	c->published = jiffies;
}

/**
 * tp_cpu_read_progress() - the figures of @c's last publication
 * @c: the CPU
 * @v: TP_PROGRESS figures, as its kind's report->progress() gave them
 *
 * Without the CPU's lock, which a reader of its snapshot may hold for as
 * long as it is preempted.  The writer cannot be preempted meanwhile, so
 * the retries end.
 */
void tp_cpu_read_progress(const struct tp_cpu *c, u64 *v)
{
	unsigned int seq;

	do {
		seq = read_seqcount_begin(&c->progress_seq);
		memcpy(v, c->progress, sizeof(c->progress));
	} while (read_seqcount_retry(&c->progress_seq, seq));
}

/* Under the slot's lock: one publication, never half of two. */
void tp_cpu_copy_snap(struct tp_cpu *c, void *dst)
{
	mutex_lock(&c->lock);
	memcpy(dst, c->snap, c->run->kind->measure->snap_size);
	mutex_unlock(&c->lock);
}

unsigned int tp_run_notify_events(const struct tp_run *run, unsigned int cpu,
				  const struct tp_notify_batch *b)
{
	if (run->notify && run->notify->events)
		return run->notify->events(run, cpu, b);
	return 0;
}

/*
 * A gap reached stop-at: from the noise loop's slow path with interrupts
 * off, so no lock and no sleep.  The first call wins; ftrace is frozen only
 * once the reason is THRESHOLD, so a frozen buffer always has its event.
 * The run then ends as after STOP.
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

/* True when stop-at ended @run: then stop_cpu and stop_event are valid. */
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
 * Cut short by hotplug, starvation or anything but STOP and unload (which
 * the run's reason says), a CPU is incomplete; the last one ends the run.
 * A CPU whose thread @claimed it publishes its last figures, waiting for
 * readers; one given up before its thread claimed it has none (its
 * snapshot is still the state it started with), and is given up under
 * tp_lock, which no reader may hold up.
 */
static void tp_cpu_end(struct tp_cpu *c, bool complete, bool claimed)
{
	struct tp_run *run = c->run;

	if (!complete && (tp_cpu_gone(c) || !READ_ONCE(run->stop)))
		set_bit(TP_CPU_INCOMPLETE, &c->flags);
	/* Readers may hold the lock a while: that is no starved thread. */
	set_bit(TP_CPU_ENDING, &c->flags);
	if (claimed)
		tp_cpu_publish(c, true);
	/* Readers that see DONE see the counters above (tp_put_sched()). */
	smp_mb__before_atomic();
	set_bit(TP_CPU_DONE, &c->flags);
	tp_run_thread_ended(run);
}

/*
 * With tp_lock held: end a CPU whose thread has not started (@why: the flag
 * to set, -1 after STOP).  The thread races this for TP_CPU_CLAIMED; false
 * when the thread won.
 */
static bool tp_cpu_give_up(struct tp_cpu *c, int why)
{
	if (test_and_set_bit(TP_CPU_CLAIMED, &c->flags))
		return false;
	if (why >= 0)
		set_bit(why, &c->flags);
	tp_cpu_end(c, false, false);
	return true;
}

/*
 * Move @t off @from, which it may never get, to the caller's CPU (any
 * active one if the caller is on @from, as in the hotplug callback); it
 * measures nothing there (tp_cpu_here()).  Bounded: a running thread is
 * moved by @from's stopper at the end of its window at the latest.
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

/*
 * Test hook, off by default: a CPU whose thread starts late, idle
 * meanwhile; or, with test_late_warmed_up, whose first window after its
 * warm-up comes late, as on a vCPU its host stops running then.
 */
static int tp_test_late_cpu = -1;
module_param_named(test_late_cpu, tp_test_late_cpu, int, 0600);
MODULE_PARM_DESC(test_late_cpu,
		 "test hook: the CPU whose thread sleeps test_late_ms first (-1)");
static unsigned int tp_test_late_ms;
module_param_named(test_late_ms, tp_test_late_ms, uint, 0600);
MODULE_PARM_DESC(test_late_ms, "test hook: see test_late_cpu (0, at most 30000)");
static bool tp_test_late_warmed_up;
module_param_named(test_late_warmed_up, tp_test_late_warmed_up, bool, 0600);
MODULE_PARM_DESC(test_late_warmed_up,
		 "test hook: test_late_cpu's thread sleeps after its noise warm-up, not before it starts (N)");

/*
 * The test hook's sleep, at the thread's start (@warmed_up false) or
 * after a noise warm-up (true).
 */
void tp_cpu_test_late(const struct tp_cpu *c, bool warmed_up)
{
	unsigned long end;

	if ((int)c->cpu != READ_ONCE(tp_test_late_cpu) ||
	    READ_ONCE(tp_test_late_warmed_up) != warmed_up)
		return;
	end = jiffies + msecs_to_jiffies(min(READ_ONCE(tp_test_late_ms), 30000U));
	while (!kthread_should_stop() && time_before(jiffies, end))
		schedule_timeout_interruptible(HZ / 10);
}

/*
 * Test hook, 0 by default: a pause that ends late unless the thread is
 * woken, as on a vCPU whose host runs it long after its timer is due.
 */
static unsigned int tp_test_gap_ms;
module_param_named(test_gap_ms, tp_test_gap_ms, uint, 0600);
MODULE_PARM_DESC(test_gap_ms,
		 "test hook: ms the first pause of test_late_cpu's thread lasts unless woken (0, at most 30000)");

static bool tp_test_long_gap(struct tp_cpu *c)
{
	unsigned int ms = READ_ONCE(tp_test_gap_ms);

	if (!ms || (int)c->cpu != READ_ONCE(tp_test_late_cpu) ||
	    c->test_gap_done)
		return false;
	c->test_gap_done = true;
	schedule_timeout_interruptible(msecs_to_jiffies(min(ms, 30000U)));
	return true;
}

/* Sleeping, not spinning, lets the tick, RCU and the watchdogs run here. */
void tp_cpu_sleep_gap(struct tp_cpu *c)
{
	unsigned long us = div_u64(c->run->params.gap_ns, NSEC_PER_USEC);

	if (tp_test_long_gap(c))
		return;
	tp_usleep_range_state(us, us + max(us / 8, 10UL), TASK_INTERRUPTIBLE);
}

/* Bounds the spin of tp_cpu_clock_read() should the TSC step back. */
#define TP_CLOCK_READ_SPINS	1000000

/*
 * One reading of the effective clock of the caller's CPU, *@data, in kHz:
 * the TSC rate times APERF/MPERF over TSCPROBE_CLOCK_READ_NS (*@ns) of
 * spinning with interrupts off, so the CPU stays in C0 and runs nothing
 * else.  0 where the CPU has no APERF/MPERF, a read faults, or the thread
 * is no longer on that CPU.
 */
static u32 tp_cpu_clock_read(void *data, u64 *ns)
{
	unsigned int cpu = *(unsigned int *)data, spins = 0;
	u64 a0, m0, a1 = 0, m1 = 0, end;
	unsigned long flags;
	bool ok;

	*ns = TSCPROBE_CLOCK_READ_NS;
	if (!boot_cpu_has(X86_FEATURE_APERFMPERF) || !tsc_khz)
		return 0;
	local_irq_save(flags);
	ok = raw_smp_processor_id() == cpu &&
	     !tp_rdmsr_safe(MSR_IA32_APERF, &a0) &&
	     !tp_rdmsr_safe(MSR_IA32_MPERF, &m0);
	end = rdtsc_ordered() + tp_ns_to_cycles(TSCPROBE_CLOCK_READ_NS);
	while (ok && rdtsc_ordered() < end && ++spins < TP_CLOCK_READ_SPINS)
		cpu_relax();
	ok = ok && !tp_rdmsr_safe(MSR_IA32_APERF, &a1) &&
	     !tp_rdmsr_safe(MSR_IA32_MPERF, &m1);
	local_irq_restore(flags);
	if (!ok || m1 <= m0 || a1 < a0)
		return 0;
	/* At most a second's counts: the product fits in 64 bits. */
	return min_t(u64, div64_u64((a1 - a0) * tsc_khz, m1 - m0), U32_MAX);
}

/*
 * The clock before a CPU's measurement, read once it has settled: the
 * thread has just woken the CPU from idle, where its clock may still be
 * ramping up (core/ramp.h says how long, and why).  Interrupts are on
 * between readings; at most TP_RAMP_MAX_NS of spinning.
 */
static u32 tp_cpu_clock_settled(unsigned int cpu)
{
	struct tp_ramp ramp;

	tp_ramp_init(&ramp);
	return tp_ramp_settle(&ramp, tp_cpu_clock_read, &cpu);
}

/* The clock after it: the CPU was busy until now, so one reading. */
static u32 tp_cpu_clock_now(unsigned int cpu)
{
	u64 ns;

	return tp_cpu_clock_read(&cpu, &ns);
}

/* The measurement of a CPU whose thread has claimed it in time. */
static bool tp_cpu_measure(struct tp_run *run, struct tp_cpu *c)
{
	unsigned long nvcsw = current->nvcsw, nivcsw = current->nivcsw;
	u64 migrations = current->se.nr_migrations;
	bool complete;

	if (run->kind->measure->clock_around)
		c->clock_before_khz = tp_cpu_clock_settled(c->cpu);
	complete = run->kind->measure->cpu_main(run, c);
	if (run->kind->measure->clock_around)
		c->clock_after_khz = tp_cpu_clock_now(c->cpu);
	/* What the scheduler did to the thread, for the report. */
	c->nvcsw = current->nvcsw - nvcsw;
	c->nivcsw = current->nivcsw - nivcsw;
	c->migrations = current->se.nr_migrations - migrations;
	return complete;
}

static int tp_cpu_thread(void *data)
{
	struct tp_cpu *c = data;
	struct tp_run *run = c->run;
	bool complete = false;

	tp_cpu_test_late(c, false);
	/* Too late: the run gave up on this CPU (tp_cpu_give_up()). */
	if (test_and_set_bit(TP_CPU_CLAIMED, &c->flags)) {
		tp_cpu_wait_for_reap();
		return 0;
	}
	/* The watch may not have run yet: the thread sees to the limit. */
	if (tp_run_start_late(run, 0)) {
		tp_cpu_start_missed(c);
	} else {
		WRITE_ONCE(c->started_at, jiffies ?: 1);
		complete = tp_cpu_measure(run, c);
	}
	tp_cpu_end(c, complete, true);
	tp_cpu_wait_for_reap();
	return 0;
}

static void tp_run_watch_in(struct tp_run *run, unsigned long delay);
static unsigned long tp_run_end_slack(const struct tp_run *run);

/* The measure->run_main thread; counted in run->active like a CPU's. */
static int tp_run_main_thread(void *data)
{
	struct tp_run *run = data;

	if (!run->kind->measure->run_main(run))
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

/* Test hook, 0 by default: holds open races the fault tests need. */
static unsigned int tp_test_delay_ms;
module_param_named(test_delay_ms, tp_test_delay_ms, uint, 0600);
MODULE_PARM_DESC(test_delay_ms,
		 "test hook: ms to hold RUN_FINISHED and error acks back (0)");

void tp_test_delay(void)
{
	unsigned int ms = READ_ONCE(tp_test_delay_ms);

	if (ms)
		msleep(min(ms, 10000U));
}

/* Every START and every noise run's end: the probes change between runs. */
static DEFINE_MUTEX(tp_start_lock);
/*
 * The end of a run that attached the probes holds tp_start_lock, or is
 * about to: a START refuses rather than wait for its detach
 * (tp_run_start_lock()).
 */
static bool tp_run_ending;

/* Test hook, 0 by default: a kernel slow to patch its text, at a run's end. */
static unsigned int tp_test_detach_ms;
module_param_named(test_detach_ms, tp_test_detach_ms, uint, 0600);
MODULE_PARM_DESC(test_detach_ms,
		 "test hook: ms a noise run's end waits before detaching its probes (0)");

/*
 * With tp_start_lock held, after the run has ended and said so (@ms: the
 * test hook's hold, read as it ended), if its START attached the probes
 * (a noise run, unless the module was loaded with sources=N): they write
 * nothing any more (each thread published NULL at its end), and no START
 * attaches them again before they are off.  Detaching patches kernel
 * text at every probed site, each batch with IPIs to every CPU that must
 * all answer (text_poke_bp()); in a 64-vCPU TCG guest that took seconds,
 * and forever once a CPU never ran what was queued for it: the run's end
 * does not wait for it.  Not under tp_lock: detaching takes the hotplug
 * lock, under which the offline callback takes tp_lock.
 */
static void tp_run_detach_sources(const struct tp_run *run, unsigned int ms)
{
	if (!run->probes_attached)
		return;
	if (ms)
		msleep(min(ms, 10000U));
	tp_src_probes_detach();
}

/*
 * Runs once every thread has ended: make the results final, say so, then
 * detach the probes.  tp_start_lock is held throughout, so that the next
 * START finds them off.
 */
static void tp_run_finish(struct work_struct *work)
{
	struct tp_run *run = container_of(work, struct tp_run, finish_work);
	unsigned int hold_ms = READ_ONCE(tp_test_detach_ms);

	/* Only a run whose START attached probes has a detach to wait for. */
	if (run->probes_attached)
		WRITE_ONCE(tp_run_ending, true);
	mutex_lock(&tp_start_lock);
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
	trace_tscprobe_run_end(run->id, run->kind->id, run->state,
			       run->reason);
	tp_test_delay();
	/* Before complete_all(): unload waits for it, then unregisters. */
	if (run->notify)
		run->notify->finished(run);
	complete_all(&run->done);
	tp_run_detach_sources(run, hold_ms);
	WRITE_ONCE(tp_run_ending, false);
	mutex_unlock(&tp_start_lock);
	tp_run_put(run);	/* the reference of the running run */
}

/*
 * How long threads may take to end: a window, a gap, a window and 2 s for
 * the scheduler (a skew pair's sides add up to less: tp_skew_parse()).
 * TSCPROBE_END_MARGIN_MS is this, and a second for the end to follow.
 */
static unsigned long tp_run_end_slack(const struct tp_run *run)
{
	return nsecs_to_jiffies(2 * run->params.width_ns +
				run->params.gap_ns) + 2 * HZ;
}

/* Test hook, 0 by default: a watch whose worker gets no CPU for a while. */
static unsigned int tp_test_watch_ms;
module_param_named(test_watch_ms, tp_test_watch_ms, uint, 0600);
MODULE_PARM_DESC(test_watch_ms,
		 "test hook: ms after START before the watch first looks at a run (0, at most 60000)");

/* Not before run->watch_from: the test hook's hold, read at START. */
static void tp_run_watch_in(struct tp_run *run, unsigned long delay)
{
	unsigned long now = jiffies;

	/* One reading of jiffies: a tick between two would wrap the delay. */
	if (time_before(now + delay, run->watch_from))
		delay = run->watch_from - now;
	mod_delayed_work(tp_wq, &run->watch, delay);
}

/*
 * With tp_lock held: the jiffies by which every thread should have ended,
 * 0 while unknown; a noise run's last CPU started by run->started_by.
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
		unsigned long end = run->started_by +
			nsecs_to_jiffies(run->params.duration_ns +
					 run->params.warm_up_ns) + slack;

		if (!due || time_before(end, due))
			due = end;
	}
	return due;
}

/* How often the watch looks again at a CPU it waits for. */
#define TP_START_POLL	(HZ / 4)

/*
 * With tp_lock held, @now at least TSCPROBE_START_TIMEOUT_MS after START:
 * whether to give up @c, whose thread has not started.  A CPU that other
 * tasks kept busy for half the time since START is owned by one; one that
 * ran nothing else is not running at all (a vCPU its host does not
 * schedule, interrupts kept off), and its thread may still start: it is
 * waited for up to TSCPROBE_START_LIMIT_MS, then given up as HELD.
 */
static bool tp_cpu_start_hopeless(struct tp_run *run, struct tp_cpu *c,
				  unsigned long now)
{
	if (tp_cpu_owned(c, jiffies_to_nsecs(now - run->start_jiffies)))
		return true;
	if (time_before(now, run->start_jiffies +
			msecs_to_jiffies(TSCPROBE_START_LIMIT_MS)))
		return false;
	set_bit(TP_CPU_HELD, &c->flags);
	return true;
}

/* With tp_lock held: a CPU of @run starts measuring by @at at the latest. */
static void tp_run_starts_by(struct tp_run *run, unsigned long at)
{
	if (time_after(at, run->started_by))
		run->started_by = at;
}

/*
 * With tp_lock held, @now at least TSCPROBE_START_TIMEOUT_MS after START:
 * the CPUs whose threads have not started.  A hopeless one is given up;
 * the others may start before the next look, TP_START_POLL away (or the
 * limit, when the last look is due).  Threads that started since the last
 * look count from when they did.  Returns when to look again, 0: no need.
 */
static unsigned long tp_run_watch_starts(struct tp_run *run, unsigned long now)
{
	unsigned long start_by, limit, next = 0;
	unsigned int i;

	start_by = run->start_jiffies +
		msecs_to_jiffies(TSCPROBE_START_TIMEOUT_MS);
	limit = run->start_jiffies + msecs_to_jiffies(TSCPROBE_START_LIMIT_MS);
	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_cpu *c = &run->slots[i];
		unsigned long at = READ_ONCE(c->started_at);

		if (at)
			tp_run_starts_by(run, at);
		if (test_bit(TP_CPU_CLAIMED, &c->flags))
			continue;
		if (time_before(now, start_by)) {
			next = start_by;
			continue;
		}
		if (!tp_cpu_start_hopeless(run, c, now)) {
			next = time_before(now + TP_START_POLL, limit) ?
				now + TP_START_POLL : limit;
			tp_run_starts_by(run, next);
			continue;
		}
		/* It loses the race for the slot and exits unmeasured. */
		if (tp_cpu_give_up(c, TP_CPU_STARVED) && c->task)
			tp_thread_move_away(c->task, c->cpu);
	}
	return next;
}

/*
 * With tp_lock held, when the run is due: @c's thread, still there, is
 * starved.  It is moved away, and woken: asleep in a pause, it would
 * otherwise sleep on until its CPU ran the pause's timer, which a vCPU its
 * host leaves out runs late.  It measures nothing where it wakes.
 */
static void tp_cpu_evict(struct tp_cpu *c)
{
	set_bit(TP_CPU_STARVED, &c->flags);
	tp_thread_move_away(c->task, c->cpu);
	wake_up_process(c->task);
}

/*
 * Threads that cannot get their CPU ("A CPU the module cannot get" in
 * Documentation/tscprobe.rst): a CPU whose thread has not started
 * TSCPROBE_START_TIMEOUT_MS after START is given up when it is owned, or
 * TSCPROBE_START_LIMIT_MS after START (tp_cpu_start_hopeless()), and a
 * thread still there when the run is due is evicted (tp_cpu_evict()).
 * Runs every TP_START_POLL while it waits for a CPU, else a few times a
 * run.  A worker that runs late changes none of this: a thread that
 * starts past the limit gives its CPU up itself (tp_run_start_late()).
 */
static void tp_run_watch(struct work_struct *work)
{
	struct tp_run *run = container_of(to_delayed_work(work), struct tp_run,
					  watch);
	unsigned long now = jiffies, due, next;
	unsigned int i;

	mutex_lock(&tp_lock);
	if (run->state != TSCPROBE_STATE_RUNNING)
		goto out;
	next = tp_run_watch_starts(run, now);
	due = tp_run_due(run, now);
	if (due && time_after_eq(now, due)) {
		for (i = 0; i < run->nr_cpus; i++) {
			struct tp_cpu *c = &run->slots[i];

			if (!c->task || test_bit(TP_CPU_DONE, &c->flags))
				continue;
			/*
			 * Measured, and publishing its last figures: not
			 * starved, but it may wait for a reader, or lose its
			 * CPU, anywhere: moved where it can run all the same.
			 */
			if (test_bit(TP_CPU_ENDING, &c->flags))
				tp_thread_move_away(c->task, c->cpu);
			else
				tp_cpu_evict(c);
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

static struct tp_run *tp_run_alloc(const struct tp_kind *kind,
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
	atomic_inc(&tp_runs_alive);
	run->kind = kind;
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
 * On the CPU's node: a remote one would add its latency to the windows.
 * The snapshot starts as a copy of the initialized state.
 */
static int tp_run_alloc_cpu_state(struct tp_run *run, struct tp_cpu *c)
{
	const struct tp_measure_ops *ops = run->kind->measure;
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
	if (ops->snap_size) {
		memcpy(c->snap, c->hot, ops->snap_size);
		tp_cpu_set_progress(c);
	}
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
		seqcount_init(&c->progress_seq);
	}
	if (run->kind->measure->alloc) {
		err = run->kind->measure->alloc(run);
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
	if (run->kind->measure->run_main) {
		struct task_struct *t;

		t = kthread_create(tp_run_main_thread, run, "tscprobe/%s",
				   tp_kind_name(run->kind->id));
		if (IS_ERR(t)) {
			tp_run_reap(run);
			return PTR_ERR(t);
		}
		run->main_task = t;
	}
	return 0;
}

/* Before the threads wake: what their CPUs and they had run until now. */
static void tp_run_note_busy(struct tp_run *run)
{
	unsigned int i;

	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_cpu *c = &run->slots[i];

		c->busy_at_start = tp_cpu_busy_ns(c->cpu, true);
		c->own_at_start = tp_task_busy_ns(c->task);
		c->ran_at_start = c->task->se.sum_exec_runtime;
	}
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
			   tp_kind_name(cur->kind->id), cur->id);
		return -EBUSY;
	}
	return 0;
}

/*
 * Everything a START can be refused for, and the run's memory, with the
 * hotplug lock and tp_lock held: nothing is patched or started yet.
 */
static int tp_run_validate(struct tp_run *run, struct nlattr **attrs,
			   struct netlink_ext_ack *extack)
{
	int err;

	err = tp_run_check_idle(extack);
	if (!err)
		err = tp_run_parse_cpus(run, attrs, extack);
	if (!err)
		err = run->kind->measure->parse(run, attrs, extack);
	if (!err)
		err = tp_run_alloc_slots(run);
	return err;
}

/*
 * With the locks taken again once the probes are on: what may have
 * changed since tp_run_validate() (an unload began, a CPU went offline),
 * then the threads, which exist but do not run yet.
 */
static int tp_run_prepare(struct tp_run *run, struct netlink_ext_ack *extack)
{
	unsigned int cpu;
	int err;

	err = tp_run_check_idle(extack);
	if (err)
		return err;
	for_each_cpu(cpu, run->cpus) {
		if (!cpu_online(cpu)) {
			tp_set_err(extack, NULL,
				   "a CPU of the set went offline during START",
				   "CPU %u went offline during START", cpu);
			return -EAGAIN;
		}
	}
	return tp_run_create_threads(run);
}

/* Probe attach operations since load: written under tp_start_lock. */
static unsigned long tp_probe_attaches;

/**
 * tp_run_probe_attaches() - how many times a START attached the source
 *	probes since the module was loaded
 *
 * Each time patched kernel text (IPIs to every CPU); debugfs' info shows
 * it, so that a test can tell that a refused START patched nothing.  Read
 * without tp_start_lock, which a run's end may hold for long (its detach).
 *
 * Return: the count.
 */
unsigned long tp_run_probe_attaches(void)
{
	return READ_ONCE(tp_probe_attaches);
}

/*
 * Test hook, 0 by default: a kernel slow to patch its text (or to end a
 * grace period) as a START attaches the probes.
 */
static unsigned int tp_test_attach_ms;
module_param_named(test_attach_ms, tp_test_attach_ms, uint, 0600);
MODULE_PARM_DESC(test_attach_ms,
		 "test hook: ms a noise START waits before attaching its probes (0, at most 10000)");

/*
 * With tp_start_lock held, after tp_run_validate() found no run on (none
 * can start meanwhile, and a run's end stops counting as running and
 * detaches its probes under that lock, in one), before the hotplug lock
 * (attaching takes it): a START of a kind that names sources attaches
 * their probes.  True if this START attached them: it detaches them if it
 * fails.
 */
static bool tp_run_attach_sources(const struct tp_kind *kind)
{
	unsigned int hold_ms = READ_ONCE(tp_test_attach_ms);

	if (!kind->measure->sources)
		return false;
	/*
	 * Uninterruptible, as the text patching it stands for: the tests find
	 * the held START by its D state.  Root's hook, off by default, 10 s
	 * at most.
	 */
	if (hold_ms)
		msleep(min(hold_ms, 10000U));
	if (!tp_src_probes_attach())
		return false;
	WRITE_ONCE(tp_probe_attaches, tp_probe_attaches + 1);
	return true;
}

/*
 * Test hook, 0 by default: ms the TSC that START records runs ahead
 * (negative: behind), as on a CPU whose TSC is not in step with the
 * measured CPUs'.
 */
static int tp_test_start_tsc_ms;
module_param_named(test_start_tsc_ms, tp_test_start_tsc_ms, int, 0600);
MODULE_PARM_DESC(test_start_tsc_ms,
		 "test hook: ms the START_TSC reported is ahead of the measured CPUs' TSCs, deciding nothing (0, at most +-60000)");

static u64 tp_test_start_tsc_offset(void)
{
	int ms = clamp(READ_ONCE(tp_test_start_tsc_ms), -60000, 60000);

	return (u64)(s64)ms * tsc_khz;
}

/*
 * With tp_start_lock held, once @run is validated: take the locks again,
 * make the threads and make @run the current run, its threads woken.
 * *@old is set to the run it replaces, whose reference the caller drops.
 */
static int tp_run_commit(struct tp_run *run, struct netlink_ext_ack *extack,
			 struct tp_run **old)
{
	int err;

	cpus_read_lock();
	mutex_lock(&tp_lock);
	err = tp_run_prepare(run, extack);
	if (!err) {
		run->id = ++tp_last_id;
		run->start_ns = ktime_get_ns();
		run->start_tsc = rdtsc() + tp_test_start_tsc_offset();
		run->start_jiffies = jiffies;
		run->started_by = run->start_jiffies +
			msecs_to_jiffies(TSCPROBE_START_TIMEOUT_MS);
		run->watch_from = run->start_jiffies +
			msecs_to_jiffies(min(READ_ONCE(tp_test_watch_ms), 60000U));
		tp_run_note_busy(run);
		run->state = TSCPROBE_STATE_RUNNING;
		atomic_set(&run->active,
			   run->nr_cpus + (run->main_task ? 1 : 0));
		kref_get(&run->ref);	/* for the finisher */
		kref_get(&run->ref);	/* for the caller */
		*old = tp_current;
		tp_current = run;
		/* Before the threads run: it precedes their window events. */
		trace_tscprobe_run_start(run->id, run->kind->id, run->nr_cpus,
					 run->params.threshold_cycles,
					 run->params.stop_at_cycles,
					 run->start_tsc);
		tp_run_wake_threads(run);
		tp_run_watch_in(run,
				msecs_to_jiffies(TSCPROBE_START_TIMEOUT_MS));
	}
	mutex_unlock(&tp_lock);
	cpus_read_unlock();
	return err;
}

/*
 * Takes tp_start_lock for a START.  The last run's end holds it while its
 * probes detach, which waits for the kernel's text patching, for as long
 * as a CPU takes to answer: a START, under genetlink's lock, never waits
 * for it.  Another START holds it while it validates and attaches, which
 * may wait for a grace period and for every CPU to answer the patching's
 * IPIs: that one is waited for (its run then refuses this one, EBUSY), in
 * an interruptible sleep, so that a signal ends the wait: a killed client
 * goes at once, and a waiting one is not counted as load.  Either refusal
 * is -EAGAIN, nothing started: the CLI asks again (and Ctrl-C ends that).
 */
static int tp_run_start_lock(struct netlink_ext_ack *extack)
{
	if (mutex_trylock(&tp_start_lock))
		return 0;
	if (READ_ONCE(tp_run_ending)) {
		NL_SET_ERR_MSG(extack,
			       "the last run's probes are being detached: try again");
		return -EAGAIN;
	}
	if (mutex_lock_interruptible(&tp_start_lock)) {
		NL_SET_ERR_MSG(extack,
			       "interrupted while waiting for another START: try again");
		return -EAGAIN;
	}
	return 0;
}

/*
 * Nothing starts unless everything is valid and every thread exists; on an
 * error the old results stay.  A START refused for its parameters, its
 * CPUs or a run in progress patches nothing: the probes go on only once
 * everything but the threads is ready.  A START that comes while the last
 * run's probes detach, or that a signal interrupts while it waits for
 * another START, is refused with -EAGAIN (tp_run_start_lock()).  @notify
 * (NULL: nobody) must outlive the run.
 */
int tp_run_start(const struct tp_kind *kind, struct nlattr **attrs,
		 const struct tp_run_notify *notify,
		 struct netlink_ext_ack *extack, struct tp_run **started)
{
	struct tp_run *run = tp_run_alloc(kind, notify);
	struct tp_run *old = NULL;
	bool attached;
	int err;

	if (!run)
		return -ENOMEM;
	err = tp_run_start_lock(extack);
	if (err) {
		tp_run_put(run);
		return err;
	}
	cpus_read_lock();
	mutex_lock(&tp_lock);
	err = tp_run_validate(run, attrs, extack);
	mutex_unlock(&tp_lock);
	cpus_read_unlock();
	if (!err) {
		attached = tp_run_attach_sources(kind);
		run->probes_attached = attached;
		err = tp_run_commit(run, extack, &old);
		/* A START that failed after all leaves no probe behind. */
		if (err && attached)
			tp_src_probes_detach();
	}
	mutex_unlock(&tp_start_lock);
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

/*
 * Returns at once, RUN_FINISHED comes later: waiting would hold genetlink's
 * cb_lock, and with it every family's registration.
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

/* Never waits for the thread: it is moved off the CPU and ends elsewhere. */
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

/*
 * On unload, while netlink is still registered: returns once every
 * finisher has told its listeners.
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
