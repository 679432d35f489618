// SPDX-License-Identifier: GPL-2.0
/*
 * What ran on the measured CPUs: probes on the kernel's own tracepoints,
 * found by name (for_each_kernel_tracepoint(): none of them is exported),
 * attached by each noise START and detached when its run has ended.  Each
 * probe returns at once on a CPU that the run does not measure; on a
 * measured one it stamps the TSC and records into that CPU's struct
 * tp_src_here, never touching the loop's state.
 */
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/tracepoint.h>
#include <asm/nmi.h>
#include <asm/trace/irq_vectors.h>
#include <asm/tsc.h>
#include <trace/events/irq.h>
#include <trace/events/nmi.h>
#include <trace/events/sched.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "cycles.h"
#include "irqs.h"
#include "src_probes.h"

static DEFINE_PER_CPU(struct tp_src_here *, tp_src_here);

/* NMI handlers by index, the span's id; filled from NMI context. */
static void *tp_src_nmi_handlers[TP_SRC_NMI_HANDLERS];

static u64 tp_src_tsc(void)
{
	return rdtsc();
}

/* The instant a probe records on its CPU (see tp_src_now()). */
static struct tp_src_at tp_src_at_now(const struct tp_src_here *h)
{
	return tp_src_now(&h->src, tp_src_tsc);
}

/*
 * A handler with a thread (every device's on PREEMPT_RT, where the hard
 * part only wakes it; a threaded handler elsewhere) tells which thread is
 * the interrupt's: the kernel's own link, irqaction's thread, never a
 * guess from a name ("irq/45-virtio0", which any task can take and which
 * the comm's 15 characters cut).  A thread whose handler's hard part ran
 * on another CPU stays a thread here.
 */
static void tp_src_irq_entry(void *data, int irq, struct irqaction *action)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);
	struct tp_src_key key = { .kind = TP_SRC_IRQ, .id = irq };
	struct task_struct *thread;

	if (!h)
		return;
	tp_src_enter(&h->src, &key, action->name, tp_src_at_now(h));
	thread = READ_ONCE(action->thread);
	if (thread)
		tp_src_irq_thread(&h->src, task_pid_nr(thread), thread->comm,
				  irq, action->name);
}

static void tp_src_irq_exit(void *data, int irq, struct irqaction *action,
			    int ret)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);

	if (h)
		tp_src_exit(&h->src, TP_SRC_IRQ, tp_src_at_now(h));
}

/*
 * The local APIC's system vectors (the tick, IPIs, irq_work, thermal...)
 * run no irqaction, so irq_handler_entry never sees them: x86 traces each
 * on its own, and @data is the vector's name, as osnoise does.  Their
 * numbers (236 and up) are no IRQ numbers: a server's MSI-X interrupts
 * pass 236 too, so a vector is keyed apart.
 */
static void tp_src_vector_entry(void *data, int vector)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);
	struct tp_src_key key = {
		.kind = TP_SRC_IRQ, .flags = TP_SRC_VECTOR, .id = vector,
	};

	if (h)
		tp_src_enter(&h->src, &key, data, tp_src_at_now(h));
}

static void tp_src_vector_exit(void *data, int vector)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);

	if (h)
		tp_src_exit(&h->src, TP_SRC_IRQ, tp_src_at_now(h));
}

static const char *const tp_src_softirqs[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

/* softirq_to_name[] is not exported; the vectors have kept these names. */
const char *tp_src_softirq_name(unsigned int vec)
{
	return vec < ARRAY_SIZE(tp_src_softirqs) ? tp_src_softirqs[vec] : "?";
}

/*
 * Softirqs run with interrupts on, the other probes' tracepoints with them
 * off: an interrupt that came between the stamp and the frame's update
 * would run outside a frame that then claims its time (its nested time
 * not subtracted), so both are done with interrupts off.
 */
static void tp_src_softirq_entry(void *data, unsigned int vec)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);
	struct tp_src_key key = { .kind = TP_SRC_SOFTIRQ, .id = vec };
	unsigned long flags;

	if (!h)
		return;
	local_irq_save(flags);
	tp_src_enter(&h->src, &key, tp_src_softirq_name(vec), tp_src_at_now(h));
	local_irq_restore(flags);
}

static void tp_src_softirq_exit(void *data, unsigned int vec)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);
	unsigned long flags;

	if (!h)
		return;
	local_irq_save(flags);
	tp_src_exit(&h->src, TP_SRC_SOFTIRQ, tp_src_at_now(h));
	local_irq_restore(flags);
}

/*
 * Every thread but the measuring one is a source while it has the CPU; a
 * softirq it was running when preempted goes on when it comes back, and
 * so does an interrupt thread's run, preempted or blocked on an RT lock.
 */
static void tp_src_switch(TP_SCHED_SWITCH_PARAMS)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);
	struct tp_src_at at;

	if (!h)
		return;
	at = tp_src_at_now(h);
	if (prev != h->measurer)
		tp_src_switch_out(&h->src, task_pid_nr(prev),
				  preempt || TP_SWITCH_RTLOCK_WAIT, at);
	if (next != h->measurer)
		tp_src_switch_in(&h->src, task_pid_nr(next), next->comm, at);
}

/* The handler's index, claimed on first sight; the last one is "other". */
static unsigned int tp_src_nmi_id(void *handler)
{
	unsigned int i;

	for (i = 0; i < TP_SRC_NMI_HANDLERS - 1; i++) {
		void *seen = READ_ONCE(tp_src_nmi_handlers[i]);

		if (!seen)
			seen = cmpxchg(&tp_src_nmi_handlers[i], NULL, handler) ?:
				handler;
		if (seen == handler)
			return i;
	}
	return TP_SRC_NMI_HANDLERS - 1;
}

void *tp_src_nmi_handler(unsigned int id)
{
	return id < TP_SRC_NMI_HANDLERS - 1 ?
		READ_ONCE(tp_src_nmi_handlers[id]) : NULL;
}

/* After the handler: it ran @delta_ns up to now. */
static void tp_src_nmi_done(void *data, void *handler, s64 delta_ns,
			    int handled)
{
	struct tp_src_here *h = this_cpu_read(tp_src_here);
	u64 now, cycles;

	if (!h || delta_ns < 0)
		return;
	now = rdtsc();
	cycles = min(tp_ns_to_cycles(delta_ns), now);
	tp_src_nmi(&h->src, tp_src_nmi_id(handler), NULL, now - cycles, cycles,
		   tp_nmi_count(smp_processor_id()), handled > 0);
}

/*
 * @data: the probe's own argument; @kind: the kind of source it records,
 * known when all its probes that are not @vector are on (a kernel built
 * without some system vector has no tracepoint for it).
 */
struct tp_src_probe {
	const char *name;
	void *fn;
	void *data;
	unsigned int kind;
	bool vector;
	struct tracepoint *tp;
	bool on;
	bool missing;	/* at the last attach: not in this kernel, or refused */
};

#define TP_SRC_VECTOR_ENTRY(v) \
	{ #v "_entry", tp_src_vector_entry, #v, TP_SRC_IRQ, true }
#define TP_SRC_VECTOR_EXIT(v) \
	{ #v "_exit", tp_src_vector_exit, #v, TP_SRC_IRQ, true }

static struct tp_src_probe tp_src_probes[] = {
	{ "irq_handler_entry", tp_src_irq_entry, NULL, TP_SRC_IRQ },
	{ "irq_handler_exit", tp_src_irq_exit, NULL, TP_SRC_IRQ },
	{ "softirq_entry", tp_src_softirq_entry, NULL, TP_SRC_SOFTIRQ },
	{ "softirq_exit", tp_src_softirq_exit, NULL, TP_SRC_SOFTIRQ },
	{ "sched_switch", tp_src_switch, NULL, TP_SRC_THREAD },
	{ "nmi_handler", tp_src_nmi_done, NULL, TP_SRC_NMI },
	TP_SRC_VECTOR_ENTRY(local_timer),
	TP_SRC_VECTOR_EXIT(local_timer),
	TP_SRC_VECTOR_ENTRY(reschedule),
	TP_SRC_VECTOR_EXIT(reschedule),
	TP_SRC_VECTOR_ENTRY(call_function),
	TP_SRC_VECTOR_EXIT(call_function),
	TP_SRC_VECTOR_ENTRY(call_function_single),
	TP_SRC_VECTOR_EXIT(call_function_single),
	TP_SRC_VECTOR_ENTRY(irq_work),
	TP_SRC_VECTOR_EXIT(irq_work),
	TP_SRC_VECTOR_ENTRY(x86_platform_ipi),
	TP_SRC_VECTOR_EXIT(x86_platform_ipi),
	TP_SRC_VECTOR_ENTRY(thermal_apic),
	TP_SRC_VECTOR_EXIT(thermal_apic),
	TP_SRC_VECTOR_ENTRY(threshold_apic),
	TP_SRC_VECTOR_EXIT(threshold_apic),
	TP_SRC_VECTOR_ENTRY(deferred_error_apic),
	TP_SRC_VECTOR_EXIT(deferred_error_apic),
	TP_SRC_VECTOR_ENTRY(spurious_apic),
	TP_SRC_VECTOR_EXIT(spurious_apic),
	TP_SRC_VECTOR_ENTRY(error_apic),
	TP_SRC_VECTOR_EXIT(error_apic),
};

static_assert(ARRAY_SIZE(tp_src_probes) == TP_SRC_PROBES);

/* The compiler checks each probe against its tracepoint's prototype. */
static inline void tp_src_check_types(void)
{
	check_trace_callback_type_irq_handler_entry(tp_src_irq_entry);
	check_trace_callback_type_irq_handler_exit(tp_src_irq_exit);
	check_trace_callback_type_softirq_entry(tp_src_softirq_entry);
	check_trace_callback_type_softirq_exit(tp_src_softirq_exit);
	check_trace_callback_type_sched_switch(tp_src_switch);
	check_trace_callback_type_nmi_handler(tp_src_nmi_done);
	/* Every system vector's tracepoint is of this one class. */
	check_trace_callback_type_local_timer_entry(tp_src_vector_entry);
	check_trace_callback_type_local_timer_exit(tp_src_vector_exit);
}

static void tp_src_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tp_src_probes); i++)
		if (!strcmp(tp->name, tp_src_probes[i].name))
			tp_src_probes[i].tp = tp;
}

/* Under tp_start_lock (kmod/run.c), with rmmod's tp_src_probes_exit(). */
static bool tp_src_looked_up;
static bool tp_src_on;
static bool tp_src_ever;

static bool tp_src_enabled = true;
module_param_named(sources, tp_src_enabled, bool, 0444);
MODULE_PARM_DESC(sources,
		 "attach the tracepoint probes that name noise sources while a noise run is on (Y); N: none, nothing patched, no sources");

/**
 * tp_src_probes_attach() - attach the probes for a noise run
 *
 * Called by a noise START (tp_run_start(), under its start lock) while no
 * run is on, before the run's threads exist: attaching patches kernel text
 * and waits for every CPU to take an IPI, which a window with interrupts
 * off would hold back, and attaching soon after a detach waits for an RCU
 * grace period; neither may happen inside a run.  Not at insmod: a module
 * loaded for cache or skew only, or for its info, patches nothing; nor
 * does one loaded with sources=N.  A tracepoint this kernel lacks, or one
 * that refuses the probe, leaves its sources unnamed.
 *
 * Return: true if this call attached them (tp_src_probes_detach() undoes
 * it), false if they were on already or stay off.
 */
bool tp_src_probes_attach(void)
{
	unsigned int i;

	if (tp_src_on || !tp_src_enabled)
		return false;
	if (!tp_src_looked_up) {
		tp_src_check_types();
		for_each_kernel_tracepoint(tp_src_find, NULL);
		tp_src_looked_up = true;
	}
	for (i = 0; i < ARRAY_SIZE(tp_src_probes); i++) {
		struct tp_src_probe *p = &tp_src_probes[i];
		bool on = p->tp &&
			  !tracepoint_probe_register(p->tp, p->fn, p->data);

		/* Read without a lock by debugfs' info. */
		WRITE_ONCE(p->missing, !on);
		WRITE_ONCE(p->on, on);
	}
	tp_src_on = true;
	tp_src_ever = true;
	return true;
}

/**
 * tp_src_probes_detach() - detach the probes once no run is on
 *
 * Under the start lock, after the run's threads have ended: nothing of the
 * run reads the probes' records any more.  A probe still running on
 * another CPU finishes with memory that lives a grace period longer
 * (tp_src_free()) and with the module's text, which rmmod keeps until
 * none runs (tp_src_probes_exit()).
 */
void tp_src_probes_detach(void)
{
	unsigned int i;

	if (!tp_src_on)
		return;
	for (i = 0; i < ARRAY_SIZE(tp_src_probes); i++) {
		struct tp_src_probe *p = &tp_src_probes[i];

		if (p->on)
			tracepoint_probe_unregister(p->tp, p->fn, p->data);
		WRITE_ONCE(p->on, false);
	}
	tp_src_on = false;
}

/*
 * By the measuring thread (@h) or at its end (NULL).  A probe that read
 * the old pointer finishes with memory that lives a grace period longer
 * (tp_src_free()).
 */
void tp_src_publish(unsigned int cpu, struct tp_src_here *h)
{
	WRITE_ONCE(per_cpu(tp_src_here, cpu), h);
}

void tp_src_free(struct tp_src_here *h)
{
	if (h)
		kvfree_rcu(h, rcu);
}

/*
 * A test hook: an NMI handler more on the local list, claiming none, so
 * that each NMI calls two, as on a bare-metal server the perf watchdog's
 * calls perf's and the CPU-backtrace one.  root's, off by default, and
 * only while the module is live (through sysfs): a load that fails after
 * parsing its arguments frees the module without calling anything of it,
 * and rmmod marks it going before its exit, which removes the handler
 * under kernel_param_lock(), as a parameter's writes hold it.
 */
static bool tp_test_second_nmi;

static int tp_test_nmi(unsigned int type, struct pt_regs *regs)
{
	return NMI_DONE;
}

static int tp_test_second_nmi_set(const char *val,
				  const struct kernel_param *kp)
{
	bool on;
	int err = kstrtobool(val, &on);

	if (err || on == tp_test_second_nmi)
		return err;
	if (READ_ONCE(THIS_MODULE->state) != MODULE_STATE_LIVE)
		return -EBUSY;
	if (on)
		err = register_nmi_handler(NMI_LOCAL, tp_test_nmi, 0,
					   "tscprobe_test");
	else
		unregister_nmi_handler(NMI_LOCAL, "tscprobe_test");
	if (!err)
		tp_test_second_nmi = on;
	return err;
}

static const struct kernel_param_ops tp_test_second_nmi_ops = {
	.set = tp_test_second_nmi_set,
	.get = param_get_bool,
};
module_param_cb(test_second_nmi, &tp_test_second_nmi_ops,
		&tp_test_second_nmi, 0600);
MODULE_PARM_DESC(test_second_nmi,
		 "test only: an NMI handler more, claiming none (N)");

/*
 * At unload, once no run is left (a run's end detached its probes): the
 * module's text stays until none of them still runs.  This waits for the
 * kernel's grace periods, which a task that owns a CPU can hold off (the
 * module loader waits for one too), not for anything of the module's.
 */
void tp_src_probes_exit(void)
{
	kernel_param_lock(THIS_MODULE);
	if (tp_test_second_nmi)
		unregister_nmi_handler(NMI_LOCAL, "tscprobe_test");
	tp_test_second_nmi = false;
	kernel_param_unlock(THIS_MODULE);
	tp_src_probes_detach();
	if (tp_src_ever)
		tracepoint_synchronize_unregister();
}

/* The kinds whose probes are all attached, bit (1 << TP_SRC_*). */
unsigned int tp_src_kinds_probed(void)
{
	unsigned int i, on = 0, off = 0;

	for (i = 0; i < ARRAY_SIZE(tp_src_probes); i++) {
		if (READ_ONCE(tp_src_probes[i].on))
			on |= BIT(tp_src_probes[i].kind);
		else if (!tp_src_probes[i].vector)
			off |= BIT(tp_src_probes[i].kind);
	}
	return on & ~off;
}

/**
 * tp_src_probes_show() - the probes attached, for debugfs' info: how many,
 *	and the tracepoints this kernel has not (a system vector left out of
 *	its configuration) or refused at the last attach
 * @m: the file
 */
void tp_src_probes_show(struct seq_file *m)
{
	unsigned int i;

	seq_printf(m, "probes:       %u of %u attached (noise sources%s)\n",
		   tp_src_probes_attached(), TP_SRC_PROBES,
		   !tp_src_enabled ? ": off, module parameter sources=N" :
		   ": while a noise run is on");
	seq_puts(m, "not probed:  ");
	for (i = 0; i < ARRAY_SIZE(tp_src_probes); i++)
		if (READ_ONCE(tp_src_probes[i].missing))
			seq_printf(m, " %s", tp_src_probes[i].name);
	seq_puts(m, "\n");
}

/* How many of the TP_SRC_PROBES probes are attached. */
unsigned int tp_src_probes_attached(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(tp_src_probes); i++)
		n += READ_ONCE(tp_src_probes[i].on);
	return n;
}
