// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink attribute helpers for every part of the module: reading START's
 * attributes with their defaults, refusing those a measurement does not
 * take, and putting the contract's shared attribute shapes (64-bit values,
 * CPU bitmaps, histogram buckets, noise events).
 *
 * The bottom layer: it calls nothing else in kmod/, so the run machinery,
 * the measurements and the netlink family can all use it without any of
 * them calling up into another.
 */
#include <linux/tscprobe.h>
#include "attrs.h"
#include "core/hist.h"
#include "core/names.h"
#include "core/noise.h"

/**
 * tp_attr_u64() - a u64 attribute of a request, or its default
 * @attrs: the request's attributes (already validated by the policy)
 * @type: the attribute type
 * @dflt: the value when the attribute is absent
 *
 * Return: the attribute's value, or @dflt.
 */
u64 tp_attr_u64(struct nlattr **attrs, int type, u64 dflt)
{
	return attrs[type] ? nla_get_u64(attrs[type]) : dflt;
}

/**
 * tp_attr_u32() - a u32 attribute of a request, or its default
 * @attrs: the request's attributes (already validated by the policy)
 * @type: the attribute type
 * @dflt: the value when the attribute is absent
 *
 * Return: the attribute's value, or @dflt.
 */
u32 tp_attr_u32(struct nlattr **attrs, int type, u32 dflt)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : dflt;
}

/**
 * tp_nla_reject() - refuse START attributes that a measurement does not take
 * @attrs: START's attributes
 * @allowed: bitmap of the attribute types the measurement takes
 * @kind: the measurement's name, for the message
 * @extack: where the first stray attribute is reported
 *
 * KIND and CPUS are taken by every measurement and always allowed.
 *
 * Return: 0, or -EINVAL naming the first attribute that does not apply.
 */
int tp_nla_reject(struct nlattr **attrs, const unsigned long *allowed,
		  const char *kind, struct netlink_ext_ack *extack)
{
	unsigned int type;

	for (type = 1; type <= TSCPROBE_A_MAX; type++) {
		if (!attrs[type] || type == TSCPROBE_A_KIND ||
		    type == TSCPROBE_A_CPUS || test_bit(type, allowed))
			continue;
		tp_set_err(extack, attrs[type],
			   "the attribute does not apply to this measurement",
			   "%s does not apply to a %s run",
			   tp_attr_name(type), kind);
		return -EINVAL;
	}
	return 0;
}

/**
 * tp_nla_put_u64() - put a 64-bit attribute, padded with the set's PAD
 * @skb: the message
 * @type: the attribute type
 * @value: its value
 *
 * Return: 0 or -EMSGSIZE.
 */
int tp_nla_put_u64(struct sk_buff *skb, int type, u64 value)
{
	return nla_put_u64_64bit(skb, type, value, TP_PAD);
}

/**
 * tp_nla_put_cpumask() - put a CPU set as the contract's byte bitmap
 * @skb: the message
 * @type: the attribute type
 * @mask: the CPUs
 *
 * The bitmap is as long as nr_cpu_ids needs: CPU n is bit n % 8 of byte n / 8.
 *
 * Return: 0 or -EMSGSIZE.
 */
int tp_nla_put_cpumask(struct sk_buff *skb, int type,
		       const struct cpumask *mask)
{
	unsigned int bytes = DIV_ROUND_UP(nr_cpu_ids, 8);
	struct nlattr *attr;
	unsigned int cpu;
	u8 *bits;

	attr = nla_reserve(skb, type, bytes);
	if (!attr)
		return -EMSGSIZE;
	bits = nla_data(attr);
	memset(bits, 0, bytes);
	for_each_cpu(cpu, mask)
		bits[cpu / 8] |= BIT(cpu % 8);
	return 0;
}

/**
 * tp_nla_get_cpumask() - read a CPU set from the contract's byte bitmap
 * @attr: the attribute (its length already checked by the policy)
 * @mask: filled with the CPUs
 * @extack: where a CPU number beyond nr_cpu_ids is reported
 *
 * Return: 0, or -EINVAL when a bit names a CPU this kernel cannot have.
 */
int tp_nla_get_cpumask(const struct nlattr *attr, struct cpumask *mask,
		       struct netlink_ext_ack *extack)
{
	const u8 *bits = nla_data(attr);
	unsigned int n = nla_len(attr) * 8;
	unsigned int cpu;

	cpumask_clear(mask);
	for (cpu = 0; cpu < n; cpu++) {
		if (!(bits[cpu / 8] & BIT(cpu % 8)))
			continue;
		if (cpu >= nr_cpu_ids) {
			tp_set_err(extack, attr,
				   "a CPU of the set does not exist",
				   "CPU %u does not exist (nr_cpu_ids is %u)",
				   cpu, nr_cpu_ids);
			return -EINVAL;
		}
		cpumask_set_cpu(cpu, mask);
	}
	return 0;
}

/* One histogram bucket as a BUCKET nest; nothing added on -EMSGSIZE. */
static int tp_nla_put_bucket(struct sk_buff *skb, unsigned int idx,
			     const struct tp_bucket *b)
{
	struct nlattr *nest = nla_nest_start(skb, TSCPROBE_SERIES_A_BUCKET);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TSCPROBE_BUCKET_A_INDEX, idx) ||
	    tp_nla_put_u64(skb, TSCPROBE_BUCKET_A_CALLS, b->calls) ||
	    tp_nla_put_u64(skb, TSCPROBE_BUCKET_A_CYCLES, b->cycles)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * tp_nla_put_buckets() - put a histogram's non-empty buckets, resumably
 * @skb: the message, inside the SERIES nest the buckets belong to
 * @h: the histogram
 * @idx: the first bucket to put; on return, the first one not put
 *
 * A series' buckets may not all fit one message: the dump ends the
 * message at the first bucket that does not fit and resumes there in the
 * next one, every bucket sent exactly once.
 *
 * Return: 0 when every bucket from *@idx on was put, -EMSGSIZE when the
 * message is full.
 */
int tp_nla_put_buckets(struct sk_buff *skb, const struct tp_hist *h, u32 *idx)
{
	for (; *idx < TSCPROBE_HIST_BUCKETS; (*idx)++) {
		if (!h->b[*idx].calls)
			continue;
		if (tp_nla_put_bucket(skb, *idx, &h->b[*idx]))
			return -EMSGSIZE;
	}
	return 0;
}

/* The event's counter deltas: only those that could be read. */
static int tp_nla_put_event_deltas(struct sk_buff *skb,
				   const struct tp_event *ev)
{
	if (((ev->valid & TP_EVENT_SMI) &&
	     nla_put_u32(skb, TSCPROBE_EVENT_A_SMI, ev->smi)) ||
	    ((ev->valid & TP_EVENT_NMI) &&
	     nla_put_u32(skb, TSCPROBE_EVENT_A_NMI, ev->nmi)) ||
	    ((ev->valid & TP_EVENT_IRQ) &&
	     nla_put_u32(skb, TSCPROBE_EVENT_A_IRQ, ev->irq)) ||
	    ((ev->valid & TP_EVENT_STEAL) &&
	     tp_nla_put_u64(skb, TSCPROBE_EVENT_A_STEAL_NS, ev->steal_ns)))
		return -EMSGSIZE;
	return 0;
}

/**
 * tp_nla_put_event_as() - put one noise event as a nest of type @type
 * @skb: the message
 * @type: CPU_A_EVENT inside a CPU nest, or A_STOP_EVENT at the top
 * @ev: the event
 *
 * The same shape in GET_RESULT, in the EVENT notification and as the
 * event that stopped a run: TSC, cycles, cause, and each counter delta
 * that could be read (an unreadable one is absent, never 0).
 *
 * Return: 0, or -EMSGSIZE with nothing added.
 */
int tp_nla_put_event_as(struct sk_buff *skb, int type,
			const struct tp_event *ev)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (tp_nla_put_u64(skb, TSCPROBE_EVENT_A_TSC, ev->tsc) ||
	    tp_nla_put_u64(skb, TSCPROBE_EVENT_A_CYCLES, ev->cycles) ||
	    nla_put_u32(skb, TSCPROBE_EVENT_A_CAUSE, ev->cause) ||
	    tp_nla_put_event_deltas(skb, ev)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * tp_nla_put_event() - put one noise event as a CPU_A_EVENT nest
 * @skb: the message, inside a CPU nest
 * @ev: the event
 *
 * Return: 0, or -EMSGSIZE with nothing added.
 */
int tp_nla_put_event(struct sk_buff *skb, const struct tp_event *ev)
{
	return tp_nla_put_event_as(skb, TSCPROBE_CPU_A_EVENT, ev);
}
