// SPDX-License-Identifier: GPL-2.0
/*
 * The skew measurement: core/'s hand-off on every ordered pair of the
 * chosen CPUs, one pair at a time, both sides with interrupts off for that
 * pair only (Documentation/skew.rst).
 *
 * Threads: each chosen CPU's bound thread is a worker that sleeps until
 * given a side; the unbound run_main thread is the controller, which walks
 * the pairs: three wake-ups a pair, no thread created per pair.
 *
 * Bounds: a side waits for its partner with interrupts on (at most
 * TP_SKEW_ARRIVE_NS), then hands off with interrupts off, each wait ending
 * TP_SKEW_WAIT_NS after the last hand-off and the whole by TP_SKEW_CAP_NS.
 * A side that gives up raises the abort flag: its partner stops at once and
 * the pair is TIMEOUT, or OFFLINE if a CPU went away, never with numbers.
 *
 * Hotplug and starved workers end as in run.c.  A side handed out but not
 * taken is taken back by the controller (cmpxchg against the worker's
 * claim: exactly one wins), which then aborts the partner.  STOP and unload
 * end the run after the pair (or repeat) in progress.
 *
 * Results: the controller writes a pair's figures once, then publishes it
 * as settled (smp_store_release); readers look only at settled pairs.
 */
#include <linux/cpu.h>
#include <linux/gfp.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/vmalloc.h>
#include <linux/wait.h>
#include <asm/cpufeature.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "attrs.h"
#include "cycles.h"
#include "info.h"
#include "kinds.h"
#include "run.h"
#include "skew_kind.h"
#include "core/skew.h"
#include "trace.h"

/* The wait for the partner is preemptible: a generous limit is cheap. */
#define TP_SKEW_ARRIVE_NS	NSEC_PER_SEC
/*
 * How long an arrived side looks with preemption off before it lets the
 * scheduler in (tp_skew_wait_partner()): long enough that two waiting
 * sides meet at once, short against a stop_machine waiting for this CPU.
 */
#define TP_SKEW_LOOK_NS		(50 * NSEC_PER_USEC)
/*
 * The wait for the next hand-off, interrupts off: well under a microsecond
 * on hardware, but the host may deschedule a vCPU for a time slice or more.
 */
#define TP_SKEW_WAIT_NS		(100 * NSEC_PER_MSEC)
#define TP_SKEW_WAIT_VM_NS	(500 * NSEC_PER_MSEC)
/*
 * A side's log: the 1 s cap of every window, under a hypervisor too (a
 * pair a loaded host slows past it is a timeout).  Reported as WIDTH_NS.
 */
#define TP_SKEW_CAP_NS		TSCPROBE_MAX_WIDTH_NS

/* A worker's side, as the controller and the worker see it. */
enum {
	TP_SIDE_IDLE,		/* nothing to do */
	TP_SIDE_ASSIGNED,	/* handed out, not yet taken */
	TP_SIDE_RUNNING,	/* taken by the worker */
	TP_SIDE_DONE,		/* finished; @end says how */
};

/*
 * One worker (its slot's c->hot).  @state: IDLE -> ASSIGNED by the
 * controller, ASSIGNED -> RUNNING by the worker or back to IDLE by the
 * controller (cmpxchg), RUNNING -> DONE by the worker, DONE -> IDLE by the
 * controller.
 */
struct tp_skew_cpu {
	u64 *log;		/* TP_SKEW_ENTRIES(samples), CPU's node */
	unsigned int order;
	wait_queue_head_t wq;	/* the worker sleeps here between sides */
	atomic_t state;
	unsigned int side;	/* set before ASSIGNED */
	int end;		/* enum tp_skew_end, set before DONE */
	bool gone;		/* the worker has returned */
};

static const unsigned long tp_skew_attrs[BITS_TO_LONGS(TSCPROBE_A_MAX + 1)] = {
	BIT(TSCPROBE_A_SAMPLES) | BIT(TSCPROBE_A_REPEATS),
};

static int tp_skew_parse(struct tp_run *run, struct nlattr **attrs,
			 struct netlink_ext_ack *extack)
{
	struct tp_params *p = &run->params;
	int err;

	err = tp_nla_reject(attrs, tp_skew_attrs, "skew", extack);
	if (err)
		return err;
	if (run->nr_cpus < 2) {
		NL_SET_ERR_MSG_ATTR(extack, attrs[TSCPROBE_A_CPUS],
				    "skew needs at least two CPUs");
		return -EINVAL;
	}
	if (run->nr_cpus > TSCPROBE_MAX_SKEW_CPUS) {
		tp_set_err(extack, attrs[TSCPROBE_A_CPUS],
			   "too many CPUs for a skew run",
			   "%u CPUs: a skew run measures at most %u",
			   run->nr_cpus, TSCPROBE_MAX_SKEW_CPUS);
		return -E2BIG;
	}
	err = tp_info_need_tsc_khz(extack);
	if (err)
		return err;
	p->samples = tp_attr_u32(attrs, TSCPROBE_A_SAMPLES,
				 TSCPROBE_DEFAULT_SAMPLES);
	p->repeats = tp_attr_u32(attrs, TSCPROBE_A_REPEATS,
				 TSCPROBE_DEFAULT_REPEATS);
	/*
	 * Reported as the longest interrupts-off stretch.  After STOP the run
	 * machinery allows two of it and 2 s (tp_run_end_slack()): more than
	 * a side's every limit added up.
	 */
	p->width_ns = TP_SKEW_CAP_NS;
	return 0;
}

/* Where CPUs i and j sit relative to each other. */
static u32 tp_skew_relation(unsigned int i, unsigned int j)
{
	if (cpu_to_node(i) != cpu_to_node(j))
		return TSCPROBE_REL_OTHER_NODE;
	if (cpumask_test_cpu(j, topology_sibling_cpumask(i)))
		return TSCPROBE_REL_SMT;
	if (topology_physical_package_id(i) == topology_physical_package_id(j))
		return TSCPROBE_REL_PACKAGE;
	return TSCPROBE_REL_OTHER_PACKAGE;
}

static int tp_skew_alloc_pairs(struct tp_run *run, struct tp_skew_run *sk)
{
	unsigned int i, j, n = 0;

	sk->nr_pairs = run->nr_cpus * (run->nr_cpus - 1);
	sk->pairs = kvcalloc(sk->nr_pairs, sizeof(*sk->pairs), GFP_KERNEL);
	if (!sk->pairs)
		return -ENOMEM;
	for (i = 0; i < run->nr_cpus; i++) {
		for (j = 0; j < run->nr_cpus; j++) {
			struct tp_skew_pair *pr = &sk->pairs[n];

			if (i == j)
				continue;
			pr->i = i;
			pr->j = j;
			pr->from = run->slots[i].cpu;
			pr->to = run->slots[j].cpu;
			pr->status = TSCPROBE_PAIR_SKIPPED;
			pr->relation = tp_skew_relation(pr->from, pr->to);
			tp_skew_stats_init(&pr->st);
			n++;
		}
	}
	return 0;
}

/* The run-wide state; the workers' come after it (tp_skew_cpu_init()). */
static int tp_skew_alloc(struct tp_run *run)
{
	const struct tp_params *p = &run->params;
	struct tp_skew_run *sk;
	u64 wait_ns;

	sk = kzalloc(sizeof(*sk), GFP_KERNEL);
	run->priv = sk;
	if (!sk)
		return -ENOMEM;
	init_waitqueue_head(&sk->ctl_wq);
	sk->entries = TP_SKEW_ENTRIES(p->samples);
	wait_ns = boot_cpu_has(X86_FEATURE_HYPERVISOR) ? TP_SKEW_WAIT_VM_NS :
		TP_SKEW_WAIT_NS;
	sk->lim.arrive = tp_ns_to_cycles(TP_SKEW_ARRIVE_NS);
	sk->lim.wait = tp_ns_to_cycles(wait_ns);
	sk->lim.cap = tp_ns_to_cycles(p->width_ns);
	sk->look = tp_ns_to_cycles(TP_SKEW_LOOK_NS);
	sk->side_ns = TP_SKEW_ARRIVE_NS + p->width_ns + wait_ns;
	/* 128 bytes: kmalloc aligns a power-of-two size to itself. */
	sk->sync = kzalloc(sizeof(*sk->sync), GFP_KERNEL);
	if (!sk->sync || tp_skew_alloc_pairs(run, sk))
		return -ENOMEM;	/* ->free() cleans up */
	return 0;
}

/* A worker: its wait queue and its log, on its CPU's node. */
static int tp_skew_cpu_init(struct tp_run *run, struct tp_cpu *c)
{
	const struct tp_skew_run *sk = run->priv;
	size_t bytes = sk->entries * sizeof(u64);
	struct tp_skew_cpu *w = c->hot;
	struct page *pg;

	init_waitqueue_head(&w->wq);
	atomic_set(&w->state, TP_SIDE_IDLE);
	/* Whole pages from the direct map: page-aligned, few TLB entries. */
	w->order = get_order(bytes);
	pg = alloc_pages_node(cpu_to_node(c->cpu), GFP_KERNEL | __GFP_ZERO,
			      w->order);
	if (!pg)
		return -ENOMEM;	/* ->free() cleans up */
	w->log = page_address(pg);
	return 0;
}

/* The logs and the run-wide state; the run machinery frees the workers. */
static void tp_skew_free(struct tp_run *run)
{
	struct tp_skew_run *sk = run->priv;
	unsigned int i;

	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_skew_cpu *w = run->slots[i].hot;

		if (w && w->log)
			free_pages((unsigned long)w->log, w->order);
	}
	if (sk) {
		kvfree(sk->pairs);
		kfree(sk->sync);
		kfree(sk);
	}
}

/* The worker of @c must leave: its CPU is gone (or going), or it is stopped. */
static bool tp_skew_must_go(const struct tp_cpu *c)
{
	return tp_cpu_gone(c) || kthread_should_stop();
}

/*
 * Wait for the partner preemptibly: CPU hotplug's stop_machine needs every
 * CPU, and a side spinning with preemption off for a partner the stopper
 * holds up would hold up the stopper in turn.  So a side is "here" only
 * while it cannot be preempted: it says so with preemption off, looks for
 * TP_SKEW_LOOK_NS and withdraws before it lets the scheduler in
 * (tp_skew_leave()); when both are here, nothing comes between the meeting
 * and interrupts going off.  It says so only on its own CPU (tp_cpu_here()).
 *
 * Return: enum tp_skew_end; on TP_SKEW_OK preemption is disabled.
 */
static int tp_skew_wait_partner(struct tp_skew_run *sk, struct tp_cpu *c,
				unsigned int side)
{
	u64 deadline = rdtsc() + sk->lim.arrive, look_end;
	int end;

	for (;;) {
		preempt_disable();
		if (!tp_cpu_here(c)) {
			preempt_enable();
			tp_skew_abort(sk->sync);
			return TP_SKEW_ABORTED;
		}
		tp_skew_here(sk->sync, side);
		look_end = rdtsc() + sk->look;
		do {
			end = tp_skew_partner(sk->sync);
			if (end == TP_SKEW_OK)
				return end;
			cpu_relax();
		} while (end != TP_SKEW_ABORTED && rdtsc() < look_end);
		/* Met at the last moment: the partner is on its way. */
		if (end != TP_SKEW_ABORTED && !tp_skew_leave(sk->sync, side))
			return TP_SKEW_OK;
		preempt_enable();
		if (end == TP_SKEW_ABORTED)
			return end;
		if (rdtsc() >= deadline) {
			tp_skew_abort(sk->sync);
			return TP_SKEW_TIMEOUT;
		}
		cond_resched();
	}
}

/* A worker's side of a pair. */
static void tp_skew_run_side(struct tp_skew_run *sk, struct tp_cpu *c,
			     struct tp_skew_cpu *w)
{
	unsigned long flags;
	int end;

	if (tp_skew_must_go(c) ||
	    atomic_cmpxchg(&w->state, TP_SIDE_ASSIGNED, TP_SIDE_RUNNING) !=
	    TP_SIDE_ASSIGNED)
		return;	/* taken back by the controller, or leaving: not ours */
	/* As the original program: pull the log into L1 right before use. */
	memset(w->log, 0, sk->entries * sizeof(u64));
	end = tp_skew_wait_partner(sk, c, w->side);
	if (end == TP_SKEW_OK) {
		local_irq_save(flags);
		end = tp_skew_side(sk->sync, w->side, w->log, sk->entries,
				   &sk->lim);
		trace_tscprobe_skew_side(c->cpu, w->side, end);
		local_irq_restore(flags);
		preempt_enable();
	}
	w->end = end;
	atomic_set_release(&w->state, TP_SIDE_DONE);
	wake_up(&sk->ctl_wq);
}

static bool tp_skew_cpu_main(struct tp_run *run, struct tp_cpu *c)
{
	struct tp_skew_run *sk = run->priv;
	struct tp_skew_cpu *w = c->hot;

	for (;;) {
		wait_event_interruptible(w->wq,
					 atomic_read(&w->state) == TP_SIDE_ASSIGNED ||
					 READ_ONCE(sk->finished) ||
					 tp_skew_must_go(c));
		if (tp_skew_must_go(c))
			break;
		if (atomic_read_acquire(&w->state) == TP_SIDE_ASSIGNED)
			tp_skew_run_side(sk, c, w);
		else if (READ_ONCE(sk->finished))
			break;
	}
	WRITE_ONCE(w->gone, true);
	wake_up(&sk->ctl_wq);
	return !tp_cpu_gone(c);
}

/* The CPU of a slot is gone, or going: no side will run there. */
static bool tp_skew_cpu_gone(const struct tp_cpu *c)
{
	const struct tp_skew_cpu *w = c->hot;

	return tp_cpu_gone(c) || READ_ONCE(w->gone) ||
	       test_bit(TP_CPU_DONE, &c->flags) || !cpu_online(c->cpu);
}

static bool tp_skew_side_done(const struct tp_cpu *c)
{
	const struct tp_skew_cpu *w = c->hot;

	return atomic_read_acquire(&w->state) == TP_SIDE_DONE;
}

/*
 * The controller need not wait for side @c any more: it is done, or it was
 * never taken and never will be useful (its CPU is going, or its partner
 * @other has already finished, which without this side means it gave up).
 */
static bool tp_skew_side_settled(const struct tp_cpu *c,
				 const struct tp_cpu *other)
{
	const struct tp_skew_cpu *w = c->hot;
	int state = atomic_read(&w->state);

	return state == TP_SIDE_DONE ||
	       (state == TP_SIDE_ASSIGNED &&
		(tp_skew_cpu_gone(c) || tp_skew_side_done(other)));
}

static void tp_skew_assign(struct tp_cpu *c, unsigned int side)
{
	struct tp_skew_cpu *w = c->hot;

	w->side = side;
	atomic_set_release(&w->state, TP_SIDE_ASSIGNED);
	wake_up(&w->wq);
}

/*
 * Take back a side that was handed out but not taken: it is settled (see
 * above), or its worker did not come within @deadline.  Returns true when
 * it was taken back (the partner is then told to stop waiting).
 */
static bool tp_skew_cancel(struct tp_skew_run *sk, struct tp_cpu *c,
			   const struct tp_cpu *other, unsigned long deadline)
{
	struct tp_skew_cpu *w = c->hot;

	if (atomic_read(&w->state) != TP_SIDE_ASSIGNED ||
	    (!tp_skew_side_settled(c, other) && time_before(jiffies, deadline)))
		return false;
	if (atomic_cmpxchg(&w->state, TP_SIDE_ASSIGNED, TP_SIDE_IDLE) !=
	    TP_SIDE_ASSIGNED)
		return false;
	tp_skew_abort(sk->sync);
	return true;
}

/*
 * How a pair with a CPU that is gone ended: TIMEOUT when a worker could
 * not get its CPU (a side that never came), SKIPPED when a STOP came
 * before a worker had started (the run machinery gives those up), else
 * OFFLINE.
 */
static u32 tp_skew_gone_status(const struct tp_cpu *a, const struct tp_cpu *b)
{
	if (test_bit(TP_CPU_STARVED, &a->flags) ||
	    test_bit(TP_CPU_STARVED, &b->flags))
		return TSCPROBE_PAIR_TIMEOUT;
	if (!tp_cpu_gone(a) && !tp_cpu_gone(b) && cpu_online(a->cpu) &&
	    cpu_online(b->cpu))
		return TSCPROBE_PAIR_SKIPPED;
	return TSCPROBE_PAIR_OFFLINE;
}

/* Test hook, off by default: a TSC offset for one CPU, put into its logs. */
static int tp_test_skew_cpu = -1;
module_param_named(test_skew_cpu, tp_test_skew_cpu, int, 0600);
MODULE_PARM_DESC(test_skew_cpu,
		 "test hook: the CPU whose skew logs get test_skew_cycles added (-1)");
static int tp_test_skew_cycles;
module_param_named(test_skew_cycles, tp_test_skew_cycles, int, 0600);
MODULE_PARM_DESC(test_skew_cycles, "test hook: see test_skew_cpu (0)");

/*
 * As if @c's TSC ran tp_test_skew_cycles ahead.  The test VM's vCPUs
 * share one TSC: without an offset, a wrong sign or a pair reported the
 * wrong way round would not show.
 */
static void tp_test_skew_offset(const struct tp_cpu *c, u32 entries)
{
	struct tp_skew_cpu *w = c->hot;
	s64 off = READ_ONCE(tp_test_skew_cycles);
	u32 i;

	if ((int)c->cpu != READ_ONCE(tp_test_skew_cpu) || !off)
		return;
	for (i = 0; i < entries; i++)
		w->log[i] += off;
}

/* One repeat of one pair: hand out both sides, wait, read the logs. */
static u32 tp_skew_once(struct tp_run *run, struct tp_skew_run *sk,
			const struct tp_skew_pair *pr, struct tp_skew_stats *st)
{
	struct tp_cpu *c[2] = { &run->slots[pr->i], &run->slots[pr->j] };
	unsigned long deadline;
	bool back[2] = { false, false };
	int end[2], k;

	if (tp_skew_cpu_gone(c[0]) || tp_skew_cpu_gone(c[1]))
		return tp_skew_gone_status(c[0], c[1]);
	tp_skew_sync_init(sk->sync);
	/* Everything a side can take, and a second for the wake-ups. */
	deadline = jiffies + nsecs_to_jiffies(sk->side_ns) + HZ;
	tp_skew_assign(c[0], TP_SKEW_MASTER);
	tp_skew_assign(c[1], TP_SKEW_SLAVE);
	for (;;) {
		wait_event_interruptible_timeout(sk->ctl_wq,
						 tp_skew_side_settled(c[0], c[1]) &&
						 tp_skew_side_settled(c[1], c[0]),
						 HZ / 10);
		for (k = 0; k < 2; k++)
			back[k] = back[k] ||
				  tp_skew_cancel(sk, c[k], c[!k], deadline);
		if ((back[0] || tp_skew_side_done(c[0])) &&
		    (back[1] || tp_skew_side_done(c[1])))
			break;
	}
	for (k = 0; k < 2; k++) {
		struct tp_skew_cpu *w = c[k]->hot;

		end[k] = back[k] ? TP_SKEW_ABORTED : w->end;
		atomic_set(&w->state, TP_SIDE_IDLE);
	}
	if (end[0] == TP_SKEW_OK && end[1] == TP_SKEW_OK) {
		const struct tp_skew_cpu *master = c[0]->hot, *slave = c[1]->hot;

		tp_test_skew_offset(c[0], sk->entries);
		tp_test_skew_offset(c[1], sk->entries);
		/* Interrupts off stop neither SMIs nor the host: filtered. */
		tp_skew_analyze(st, master->log, slave->log,
				run->params.samples);
		return TSCPROBE_PAIR_OK;
	}
	if (tp_skew_cpu_gone(c[0]) || tp_skew_cpu_gone(c[1]))
		return tp_skew_gone_status(c[0], c[1]);
	return TSCPROBE_PAIR_TIMEOUT;
}

/* Every repeat of a pair; a failed repeat voids the pair's numbers. */
static void tp_skew_measure_pair(struct tp_run *run, struct tp_skew_run *sk,
				 struct tp_skew_pair *pr)
{
	u64 t0 = ktime_get_ns();
	struct tp_skew_stats rep;
	u32 status = TSCPROBE_PAIR_SKIPPED, r;

	for (r = 0; r < run->params.repeats; r++) {
		if (r && tp_run_should_stop(run))
			break;	/* what was measured stands, nr says how much */
		tp_skew_stats_init(&rep);
		status = tp_skew_once(run, sk, pr, &rep);
		if (status != TSCPROBE_PAIR_OK)
			break;
		tp_skew_stats_merge(&pr->st, &rep);
		cond_resched();
	}
	if (status != TSCPROBE_PAIR_OK)
		tp_skew_stats_init(&pr->st);
	pr->elapsed = max(tp_ns_to_cycles(ktime_get_ns() - t0), 1ULL);
	pr->status = status;
}

/*
 * Whether any pair could be measured at all: when every pair ended offline,
 * every CPU that mattered went away, and the run ends as "cpus went
 * offline" (like a noise run whose every CPU went offline).
 */
static bool tp_skew_any_pair_ran(const struct tp_skew_run *sk)
{
	unsigned int p;

	for (p = 0; p < sk->nr_pairs; p++)
		if (sk->pairs[p].status != TSCPROBE_PAIR_OFFLINE)
			return true;
	return false;
}

/*
 * A completed run's view of the TSCs, for the runs that follow (noise
 * events of different CPUs put on one time line): every CPU's offset to
 * the lowest CPU measured, the mean skew of the pair (lowest, CPU) over
 * its samples that were not outliers, which is TSC(CPU) - TSC(lowest).
 * Pairs that did not end OK, or whose estimate is not sound (more samples
 * dropped than kept: tp_skew_sound()), leave their CPU without one.
 */
static void tp_skew_publish_offsets(struct tp_run *run,
				    const struct tp_skew_run *sk)
{
	struct tp_tsc_offsets *o;
	unsigned int p;

	o = tp_tsc_offsets_alloc(run->id, run->slots[0].cpu);
	if (!o)
		return;
	for (p = 0; p < sk->nr_pairs; p++) {
		const struct tp_skew_pair *pr = &sk->pairs[p];

		if (pr->i != 0 || pr->status != TSCPROBE_PAIR_OK ||
		    !tp_skew_sound(&pr->st))
			continue;
		/* skew2 holds doubled skews: mean = sum / (2 * count) */
		tp_tsc_offsets_set(o, pr->to,
				   div64_s64(pr->st.skew2.sum,
					     2 * (s64)pr->st.skew2.count));
	}
	tp_info_publish_tsc_offsets(o);
}

static bool tp_skew_run_main(struct tp_run *run)
{
	struct tp_skew_run *sk = run->priv;
	bool complete = true;
	unsigned int p, i;

	for (p = 0; p < sk->nr_pairs; p++) {
		if (tp_run_should_stop(run)) {
			complete = false;
			break;
		}
		tp_skew_measure_pair(run, sk, &sk->pairs[p]);
		WRITE_ONCE(sk->done, p + 1);
		/* Readers that see settled see the pair's results. */
		smp_store_release(&sk->settled, p + 1);
		cond_resched();
	}
	/* The pairs not reached stay SKIPPED, and are final too (release:
	 * pairs with the acquire in tp_skew_settled()).
	 */
	smp_store_release(&sk->settled, sk->nr_pairs);
	WRITE_ONCE(sk->finished, true);
	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_skew_cpu *w = run->slots[i].hot;

		wake_up(&w->wq);
	}
	complete = complete && tp_skew_any_pair_ran(sk);
	/* A STOP during the last pair leaves it short: not complete. */
	if (complete && !tp_run_should_stop(run))
		tp_skew_publish_offsets(run, sk);
	return complete;
}

static const struct tp_measure_ops tp_skew_measure_ops = {
	.parse = tp_skew_parse,
	.alloc = tp_skew_alloc,
	.cpu_init = tp_skew_cpu_init,
	.free = tp_skew_free,
	.cpu_main = tp_skew_cpu_main,
	.clock_around = true,
	.run_main = tp_skew_run_main,
	.cpu_size = sizeof(struct tp_skew_cpu),
	.snap_size = 0,
};

const struct tp_kind tp_skew_kind = {
	.id = TSCPROBE_KIND_SKEW,
	.measure = &tp_skew_measure_ops,
	.report = &tp_skew_report_ops,
};
