/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel API that differs between 5.10 and the newest release; the
 * rest of kmod/ uses the tp_ names.  Build-time probes decide (kmod/probes/,
 * each naming its upstream change), never version numbers: distributions
 * backport.  "Kernels" in Documentation/tscprobe.rst says how to add one.
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

/* A dump request's parsed attributes: in .info since 6.6. */
static inline struct nlattr **tp_dump_attrs(struct netlink_callback *cb)
{
#if TP_HAVE_GENL_DUMPIT_INFO_INFO
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/*
 * The largest order the page allocator hands out, from the free-list array
 * every kernel has: MAX_ORDER changed its meaning in 6.4 ("mm, treewide:
 * redefine MAX_ORDER sanely") and became MAX_PAGE_ORDER in 6.8.
 */
#define TP_MAX_PAGE_ORDER \
	((int)(sizeof_field(struct zone, free_area) / \
	       sizeof(struct free_area)) - 1)

/*
 * Interruptible, so a thread between windows is no hung task; before 5.16
 * open-coded as usleep_range_state() factored it out.
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

/*
 * kthread_create_on_cpu() is exported since 5.16; by hand the thread is
 * not marked per-CPU, which only kthread_park() needs: never used here.
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

/* Before 6.0's GENL_REQ_ATTR_CHECK() the caller's message names @attr. */
#if TP_HAVE_GENL_REQ_ATTR_CHECK
#define TP_GENL_REQ_ATTR_CHECK(info, attr)	GENL_REQ_ATTR_CHECK(info, attr)
#else
#define TP_GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[(attr)])
#endif

/*
 * 6.2's NL_SET_ERR_MSG_FMT() keeps the message in the ack; before, the ack
 * points at it after the handler returned, so only the constant @msg will do.
 */
#if TP_HAVE_NL_SET_ERR_MSG_FMT
#define TP_NL_SET_ERR_MSG_FMT(extack, msg, fmt, ...) \
	NL_SET_ERR_MSG_FMT(extack, fmt, ##__VA_ARGS__)
#else
#define TP_NL_SET_ERR_MSG_FMT(extack, msg, fmt, ...) \
	NL_SET_ERR_MSG(extack, msg)
#endif

/*
 * A multicast group that only a task with CAP_NET_ADMIN may join.  Where
 * genetlink cannot refuse a group to a joiner, TP_MCGRP_ADMIN_OK is false:
 * the module then registers no such group.
 */
#if TP_HAVE_GENL_MCAST_ADMIN
#define TP_MCGRP_ADMIN(grp_name) \
	{ .name = (grp_name), .flags = GENL_MCAST_CAP_NET_ADMIN }
#define TP_MCGRP_ADMIN_OK	true
#else
#define TP_MCGRP_ADMIN(grp_name)	{ .name = (grp_name) }
#define TP_MCGRP_ADMIN_OK	false
#endif

/* A sched_switch probe's parameters: 5.18 added the previous task's state. */
#if TP_HAVE_SCHED_SWITCH_PREV_STATE
#define TP_SCHED_SWITCH_PARAMS	void *data, bool preempt,		\
				struct task_struct *prev,		\
				struct task_struct *next,		\
				unsigned int prev_state
#else
#define TP_SCHED_SWITCH_PARAMS	void *data, bool preempt,		\
				struct task_struct *prev,		\
				struct task_struct *next
#endif

/*
 * In a sched_switch probe: the task switched out blocked on a PREEMPT_RT
 * spinlock_t, whose @preempt is false.  Only a prev_state says so; an RT
 * kernel without it (5.17 and before: 5.10-rt's such locks sleep as
 * TASK_UNINTERRUPTIBLE) counts the block as a sleep, and so does any
 * kernel where the lock's owner woke the task before it was switched out.
 */
#if TP_HAVE_SCHED_SWITCH_PREV_STATE && defined(TASK_RTLOCK_WAIT)
#define TP_SWITCH_RTLOCK_WAIT	(prev_state & TASK_RTLOCK_WAIT)
#else
#define TP_SWITCH_RTLOCK_WAIT	0
#endif

/*
 * netlink_gen.c is what the newest kernel's ynl-gen-c writes; with these
 * it compiles unchanged on older kernels.  Its split ops table is compiled
 * but not registered (netlink.c): before 6.2, the type with the members it
 * sets is enough.
 */
#if !TP_HAVE_GENL_SPLIT_OPS
struct genl_split_ops {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 flags;
};
#endif

#if !TP_HAVE_NLA_POLICY_MAX_LEN
#define NLA_POLICY_MAX_LEN(_len)	NLA_POLICY_MAX(NLA_BINARY, _len)
#endif

/* Before 6.7 the range pointer is not const; the kernel only reads it. */
#if !TP_HAVE_NLA_CONST_RANGE
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}
#endif

/* rdmsrl_safe() became rdmsrq_safe() in 6.16. */
static inline int tp_rdmsr_safe(u32 msr, u64 *value)
{
#if TP_HAVE_RDMSRQ_SAFE
	return rdmsrq_safe(msr, value);
#else
	return rdmsrl_safe(msr, value);
#endif
}

/*
 * The paravirt steal clock is a static call with an unexported key since
 * 5.12: this is the scheduler's account, which moves only at the tick.
 */
static inline u64 tp_steal_ns(unsigned int cpu)
{
	return kcpustat_cpu(cpu).cpustat[CPUTIME_STEAL];
}

/*
 * The time @cpu spent running tasks and interrupts, as the scheduler
 * accounts it: idle, I/O wait and steal are not in it.  @fetch adds what
 * a nohz_full CPU's running task has not yet been charged; not where that
 * task is the caller, whose own account (tp_task_busy_ns()) lacks it too.
 */
static inline u64 tp_cpu_busy_ns(unsigned int cpu, bool fetch)
{
	struct kernel_cpustat kcs;
	const u64 *t = kcs.cpustat;

	if (fetch)
		kcpustat_cpu_fetch(&kcs, cpu);
	else
		kcs = kcpustat_cpu(cpu);
	return t[CPUTIME_USER] + t[CPUTIME_NICE] + t[CPUTIME_SYSTEM] +
	       t[CPUTIME_IRQ] + t[CPUTIME_SOFTIRQ];
}

/*
 * The part of tp_cpu_busy_ns() charged to @t: the same account, by the
 * same ticks (the interrupts it took included, unless the kernel accounts
 * interrupt time apart, which its runtime then leaves out as well).
 */
static inline u64 tp_task_busy_ns(const struct task_struct *t)
{
	return READ_ONCE(t->utime) + READ_ONCE(t->stime);
}

#endif /* TSCPROBE_KMOD_COMPAT_H */
