/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel API the module uses that changed between Linux 5.10 and the
 * newest mainline, in one place.  Each shim names the release that made the
 * change; the rest of kmod/ uses the tp_ name and never tests a version.
 *
 * Build-tested (W=1, sparse, checkpatch) and run in the test guest:
 * Debian's 6.1 and 6.12, generic ("cloud") and PREEMPT_RT, Debian 11's
 * 5.10 cloud kernel (so every "before" branch below), and the project's
 * 6.1 debug kernel.  The branches for the releases in between were
 * written from those kernels' sources and checked by reading only
 * (Documentation/tscprobe.rst, "Kernels").
 *
 * Version tests, not feature tests, because one change kept its name and
 * changed its meaning (MAX_ORDER in 6.4).  Distribution kernels that
 * backport one of these changes into an older base (RHEL does) need their
 * own condition here.
 *
 * Not needed, so not here: the module has no timer_list (so neither
 * del_timer() -> timer_delete(), 6.2, with del_timer() gone in 6.15, nor
 * from_timer() -> timer_container_of(), 6.16, applies) and no hrtimer of
 * its own (its pauses are usleep_range_state(), below).
 */
#ifndef TSCPROBE_KMOD_COMPAT_H
#define TSCPROBE_KMOD_COMPAT_H

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <linux/version.h>
#include <net/genetlink.h>

/**
 * tp_dump_attrs() - the attributes of a genetlink dump request, parsed
 * @cb: the dump's callback state
 *
 * Linux 6.6 embedded a struct genl_info in struct genl_dumpit_info
 * ("genetlink: add struct genl_info to struct genl_dumpit_info", with
 * genl_info_dump()) and dropped its own attrs ("genetlink: use attrs from
 * struct genl_info").
 *
 * Return: the attribute table, indexed by attribute type.
 */
static inline struct nlattr **tp_dump_attrs(struct netlink_callback *cb)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * TP_MAX_PAGE_ORDER: the largest order the page allocator hands out.
 * Before 6.4 MAX_ORDER was one past it; 6.4 ("mm, treewide: redefine
 * MAX_ORDER sanely") made MAX_ORDER the largest order itself, and 6.8
 * renamed it MAX_PAGE_ORDER.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define TP_MAX_PAGE_ORDER	MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define TP_MAX_PAGE_ORDER	MAX_ORDER
#else
#define TP_MAX_PAGE_ORDER	(MAX_ORDER - 1)
#endif

/*
 * usleep_range_state() came in 5.16 ("timers: implement usleep_idle_range()");
 * before it, usleep_range() always slept uninterruptibly.  The module's
 * pauses are interruptible so that a thread parked between windows does not
 * count as a hung task, hence the open-coded equivalent on older kernels
 * (what 5.16 factored out).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
#define tp_usleep_range_state	usleep_range_state
#else
static inline void tp_usleep_range_state(unsigned long min_us,
					 unsigned long max_us,
					 unsigned int state)
{
	ktime_t expires = ktime_add_us(ktime_get(), min_us);
	u64 delta = (u64)(max_us - min_us) * NSEC_PER_USEC;

	for (;;) {
		__set_current_state(state);
		/* A wake-up before the deadline sleeps again, as in 5.16. */
		if (!schedule_hrtimeout_range(&expires, delta, HRTIMER_MODE_ABS))
			break;
	}
}
#endif

/**
 * tp_kthread_create_on_cpu() - a kernel thread bound to @cpu, not started
 * @fn: the thread function
 * @data: its argument
 * @cpu: the CPU, also the argument of @namefmt
 * @namefmt: the thread's name, with one %u for the CPU
 *
 * kthread_create_on_cpu() is exported to modules since 5.16 (commit
 * 800977f6f32e).  Before, the same thread is made by hand; it is then not
 * marked as a per-CPU kthread, which kthread_park() relies on, and the
 * module never parks its threads: it stops them when their CPU goes.
 *
 * Return: the task, or an ERR_PTR().
 */
static inline struct task_struct *
tp_kthread_create_on_cpu(int (*fn)(void *data), void *data, unsigned int cpu,
			 const char *namefmt)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 16, 0)
	return kthread_create_on_cpu(fn, data, cpu, namefmt);
#else
	struct task_struct *p;

	p = kthread_create_on_node(fn, data, cpu_to_node(cpu), namefmt, cpu);
	if (!IS_ERR(p))
		kthread_bind(p, cpu);
	return p;
#endif
}

/*
 * TP_GENL_REQ_ATTR_CHECK(): true when @info lacks attribute @attr.  Linux
 * 6.0 added GENL_REQ_ATTR_CHECK() ("genetlink: add helper for checking
 * required attrs and use it in devlink") with the extended ack's missing-
 * attribute report (NL_SET_ERR_ATTR_MISS, "netlink: add support for
 * ext_ack missing attributes").  Before 6.0 there is no such report: the
 * caller's own message names the attribute.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 0, 0)
#define TP_GENL_REQ_ATTR_CHECK(info, attr)	GENL_REQ_ATTR_CHECK(info, attr)
#else
#define TP_GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[(attr)])
#endif

/*
 * TP_NL_SET_ERR_MSG_FMT(): an extended-ack message formatted from @fmt, or
 * the fixed @msg.  Linux 6.2 gave the extended ack a buffer of its own for
 * formatted messages, with NL_SET_ERR_MSG_FMT() ("netlink: add support for
 * formatted extack messages"): the message then lives as long as the ack
 * it is sent in.  Before 6.2 the ack holds only a pointer, read after the
 * handler has returned, so the message must outlive every request that can
 * point at it: only a string constant does.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define TP_NL_SET_ERR_MSG_FMT(extack, msg, fmt, ...) \
	NL_SET_ERR_MSG_FMT(extack, fmt, ##__VA_ARGS__)
#else
#define TP_NL_SET_ERR_MSG_FMT(extack, msg, fmt, ...) \
	NL_SET_ERR_MSG(extack, msg)
#endif

/*
 * Beyond 6.18: 7.2 turned the x86 irq_stat fields the noise measurement
 * sums (apic_timer_irqs, irq_spurious_count, ...) into an array
 * ("x86/irq: Make irqstats array based"); kmod/noise.c names them and does
 * not build there yet.
 *
 * Genetlink families: per-operation policies (.policy and .maxattr in
 * struct genl_ops, used by every command here) exist since 5.10 ("genetlink:
 * bring back per op policy").  resv_start_op came in 6.1: from it on, with
 * the value 0 the module leaves it at, the core refuses non-zero reserved
 * header bits and nlmsg flags it does not know for every command.  On 5.10
 * to 6.0 the field does not exist and those bits are ignored, as they are
 * for every family there; nothing else differs.  struct genl_ops with
 * .start/.dumpit/.done still works in 6.18 beside the split ops of 6.2.
 */

/**
 * tp_steal_ns() - the steal time the kernel has accounted to @cpu, in ns
 * @cpu: the CPU
 *
 * What a module can read of the hypervisor's steal time.  The paravirt
 * steal clock itself (paravirt_steal_clock(), real time) was a pv_ops
 * call up to 5.11, which a module could make; 5.12 turned it into a
 * static call ("x86/paravirt: Switch time pvops functions to use
 * static_call()") whose key is not exported, and paravirt_steal_enabled
 * never was.  So on every kernel the module reads the scheduler's
 * account, kernel_cpustat's CPUTIME_STEAL (exported on 5.10 to 6.18),
 * which moves at the tick: between two readings with interrupts off it
 * cannot move (see tp_noise_readable()).
 *
 * Return: nanoseconds of steal time since boot.
 */
static inline u64 tp_steal_ns(unsigned int cpu)
{
	return kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL];
}

/*
 * tracing_off() (the module's --trace-stop) is exported GPL and declared
 * in <linux/kernel.h> on 5.10 to 6.18, an empty inline without
 * CONFIG_TRACING; check_tsc_unstable() (TSCPROBE_A_TSC_SYNC) is exported
 * GPL and declared in <asm/tsc.h> on all of them.  Nothing to bridge.
 */

#endif /* TSCPROBE_KMOD_COMPAT_H */
