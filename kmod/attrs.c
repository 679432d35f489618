// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink attribute helpers: START's attributes with their defaults, and
 * the contract's shared shapes (64-bit values, CPU bitmaps, histogram
 * buckets, noise events).  The bottom layer: calls nothing in kmod/.
 */
#include <linux/tscprobe.h>
#include "attrs.h"
#include "core/hist.h"
#include "core/names.h"
#include "core/noise.h"

/* @attrs are already validated by the policy. */
u64 tp_attr_u64(struct nlattr **attrs, int type, u64 dflt)
{
	return attrs[type] ? nla_get_u64(attrs[type]) : dflt;
}

u32 tp_attr_u32(struct nlattr **attrs, int type, u32 dflt)
{
	return attrs[type] ? nla_get_u32(attrs[type]) : dflt;
}

/* Refuse what is not in @allowed; every measurement takes KIND and CPUS. */
int tp_nla_reject(struct nlattr **attrs, const unsigned long *allowed,
		  const char *kind, struct netlink_ext_ack *extack)
{
	unsigned int type;

	for (type = 1; type <= TP_START_MAXATTR; type++) {
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

int tp_nla_put_u64(struct sk_buff *skb, int type, u64 value)
{
	return nla_put_u64_64bit(skb, type, value, TP_PAD);
}

/* CPU n is bit n % 8 of byte n / 8, as many bytes as nr_cpu_ids needs. */
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

/* The policy checked the length; a CPU beyond nr_cpu_ids is refused. */
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

/*
 * The non-empty buckets from *@idx on, inside a SERIES nest.  On -EMSGSIZE
 * *@idx is the first not put: the next message resumes there.
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

/*
 * One event shape for GET_RESULT, EVENT and the STOP_EVENT, inside the
 * caller's nest: a counter that could not be read is absent, never 0.
 */
int tp_nla_put_event_fields(struct sk_buff *skb, const struct tp_event *ev)
{
	if (tp_nla_put_u64(skb, TSCPROBE_EVENT_A_TSC, ev->tsc) ||
	    tp_nla_put_u64(skb, TSCPROBE_EVENT_A_CYCLES, ev->cycles) ||
	    nla_put_u32(skb, TSCPROBE_EVENT_A_CAUSE, ev->cause) ||
	    tp_nla_put_event_deltas(skb, ev))
		return -EMSGSIZE;
	return 0;
}

/* The event in a nest of @type.  Nothing added on -EMSGSIZE. */
int tp_nla_put_event_as(struct sk_buff *skb, int type,
			const struct tp_event *ev)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest)
		return -EMSGSIZE;
	if (tp_nla_put_event_fields(skb, ev)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}
