/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel API the module uses that differs between Linux 5.10 and the
 * newest release, in one place; the rest of kmod/ uses the tp_ names.
 *
 * What a kernel offers is decided by probes compiled against its headers
 * when the module is built (kmod/probes/, one file per fact, each naming
 * the upstream change it detects; kmod/probe.sh writes probes.h), never by
 * its version number: distribution kernels backport APIs into older
 * version numbers.  Documentation/tscprobe.rst, "Kernels", says how to add
 * a probe.
 */
#ifndef TSCPROBE_KMOD_COMPAT_H
#define TSCPROBE_KMOD_COMPAT_H

#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kernel_stat.h>
#include <linux/kthread.h>
#include <linux/mmzone.h>
#include <linux/sched.h>
#include <asm/msr.h>
#include <net/genetlink.h>

#include "probes.h"

/**
 * tp_dump_attrs() - the attributes of a genetlink dump request, parsed
 * @cb: the dump's callback state
 *
 * Return: the attribute table, indexed by attribute type.
 */
static inline struct nlattr **tp_dump_attrs(struct netlink_callback *cb)
{
#if TP_HAVE_GENL_DUMPIT_INFO_INFO
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * TP_MAX_PAGE_ORDER: the largest order the page allocator hands out.  A
 * zone has a free list per order on every kernel, so the length of that
 * array says it, whereas MAX_ORDER changed its meaning in 6.4 ("mm,
 * treewide: redefine MAX_ORDER sanely") and became MAX_PAGE_ORDER in 6.8.
 */
#define TP_MAX_PAGE_ORDER \
	((int)(sizeof_field(struct zone, free_area) / \
	       sizeof(struct free_area)) - 1)

/*
 * The module's pauses are interruptible, so that a thread parked between
 * windows does not count as a hung task; without usleep_range_state() the
 * sleep is open-coded as 5.16 factored it out.
 */
#if TP_HAVE_USLEEP_RANGE_STATE
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
		/* A wake-up before the deadline sleeps again. */
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
 * Where kthread_create_on_cpu() is not exported, the same thread is made
 * by hand; it is then not marked as a per-CPU kthread, which
 * kthread_park() relies on, and the module never parks its threads.
 *
 * Return: the task, or an ERR_PTR().
 */
static inline struct task_struct *
tp_kthread_create_on_cpu(int (*fn)(void *data), void *data, unsigned int cpu,
			 const char *namefmt)
{
#if TP_HAVE_KTHREAD_CREATE_ON_CPU
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
 * TP_GENL_REQ_ATTR_CHECK(): true when @info lacks attribute @attr.  Without
 * GENL_REQ_ATTR_CHECK() the extended ack cannot report the missing
 * attribute: the caller's own message names it.
 */
#if TP_HAVE_GENL_REQ_ATTR_CHECK
#define TP_GENL_REQ_ATTR_CHECK(info, attr)	GENL_REQ_ATTR_CHECK(info, attr)
#else
#define TP_GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[(attr)])
#endif

/*
 * TP_NL_SET_ERR_MSG_FMT(): an extended-ack message formatted from @fmt, or
 * the fixed @msg.  NL_SET_ERR_MSG_FMT() gives the extended ack a buffer of
 * its own, so the message lives as long as the ack it is sent in.  Without
 * it the ack holds only a pointer, read after the handler has returned, so
 * the message must outlive every request that can point at it: only a
 * string constant does.
 */
#if TP_HAVE_NL_SET_ERR_MSG_FMT
#define TP_NL_SET_ERR_MSG_FMT(extack, msg, fmt, ...) \
	NL_SET_ERR_MSG_FMT(extack, fmt, ##__VA_ARGS__)
#else
#define TP_NL_SET_ERR_MSG_FMT(extack, msg, fmt, ...) \
	NL_SET_ERR_MSG(extack, msg)
#endif

/**
 * tp_rdmsr_safe() - read a 64-bit MSR, without a fault if it does not exist
 * @msr: the MSR
 * @value: set to its value
 *
 * Return: 0, or a negative errno when the read faulted.
 */
static inline int tp_rdmsr_safe(u32 msr, u64 *value)
{
#if TP_HAVE_RDMSRQ_SAFE
	return rdmsrq_safe(msr, value);
#else
	return rdmsrl_safe(msr, value);
#endif
}

/*
 * Genetlink families: per-operation policies (.policy and .maxattr in
 * struct genl_ops, used by every command here) exist since 5.10.
 * resv_start_op came in 6.1: from it on, with the value 0 the module
 * leaves it at, the core refuses non-zero reserved header bits and nlmsg
 * flags it does not know for every command.  Before, the field does not
 * exist and those bits are ignored, as they are for every family there.
 */

/**
 * tp_steal_ns() - the steal time the kernel has accounted to @cpu, in ns
 * @cpu: the CPU
 *
 * The paravirt steal clock itself (real time) has been a static call
 * since 5.12, whose key is not exported, so the module reads the
 * scheduler's account, which moves at the tick: between two readings with
 * interrupts off it cannot move (see tp_noise_readable()).
 *
 * Return: nanoseconds of steal time since boot.
 */
static inline u64 tp_steal_ns(unsigned int cpu)
{
	return kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL];
}

#endif /* TSCPROBE_KMOD_COMPAT_H */
