/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic notifications of the events group, built as the module builds
 * them, for the host tests of what the CLI does with them.
 */
#ifndef TSCPROBE_TEST_NOTIFICATIONS_H
#define TSCPROBE_TEST_NOTIFICATIONS_H

#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/tscprobe.h>

/* A notification of @cmd in @buf, as the module sends it. */
static inline struct nlmsghdr *notification(char *buf, uint8_t cmd,
					    uint64_t run)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	nlh->nlmsg_type = 0x20;
	g->cmd = cmd;
	g->version = TSCPROBE_GENL_VERSION;
	mnl_attr_put_u64(nlh, TSCPROBE_A_RUN_ID, run);
	return nlh;
}

/* One source of an event's gap, as the module's probes named it. */
static inline void put_event_source(struct nlmsghdr *nlh, uint32_t kind,
				    uint32_t id, const char *name,
				    uint64_t count, uint64_t cycles,
				    bool vector)
{
	struct nlattr *s = mnl_attr_nest_start(nlh, TSCPROBE_EVENT_A_SOURCE);

	mnl_attr_put_u32(nlh, TSCPROBE_SOURCE_A_KIND, kind);
	mnl_attr_put_u32(nlh, TSCPROBE_SOURCE_A_ID, id);
	mnl_attr_put_strz(nlh, TSCPROBE_SOURCE_A_NAME, name);
	mnl_attr_put_u64(nlh, TSCPROBE_SOURCE_A_COUNT, count);
	mnl_attr_put_u64(nlh, TSCPROBE_SOURCE_A_CYCLES, cycles);
	if (vector)
		mnl_attr_put(nlh, TSCPROBE_SOURCE_A_VECTOR, 0, NULL);
	mnl_attr_nest_end(nlh, s);
}

/*
 * One EVENT nest, left open for its sources (put_event_source(), then the
 * unexplained cycles); @smi < 0: the MSR is unreadable (left out).
 */
static inline struct nlattr *put_event_open(struct nlmsghdr *nlh,
					    unsigned int type, uint64_t tsc,
					    uint64_t cycles, uint32_t cause,
					    int smi)
{
	struct nlattr *ev = mnl_attr_nest_start(nlh, type);

	mnl_attr_put_u64(nlh, TSCPROBE_EVENT_A_TSC, tsc);
	mnl_attr_put_u64(nlh, TSCPROBE_EVENT_A_CYCLES, cycles);
	mnl_attr_put_u32(nlh, TSCPROBE_EVENT_A_CAUSE, cause);
	if (smi >= 0)
		mnl_attr_put_u32(nlh, TSCPROBE_EVENT_A_SMI, (uint32_t)smi);
	mnl_attr_put_u32(nlh, TSCPROBE_EVENT_A_NMI, 0);
	mnl_attr_put_u32(nlh, TSCPROBE_EVENT_A_IRQ, 0);
	return ev;
}

/* One EVENT nest without sources: the probes were not attached. */
static inline void put_event(struct nlmsghdr *nlh, unsigned int type,
			     uint64_t tsc, uint64_t cycles, uint32_t cause,
			     int smi)
{
	mnl_attr_nest_end(nlh, put_event_open(nlh, type, tsc, cycles, cause,
					      smi));
}

#endif /* TSCPROBE_TEST_NOTIFICATIONS_H */
