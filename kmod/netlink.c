// SPDX-License-Identifier: GPL-2.0
/*
 * The "tscprobe" generic netlink family, the top layer; runs reach it only
 * through the struct tp_run_notify it gives them.  Every operation has a
 * strict policy, so anything a command does not take is refused with an
 * extended ack at it.  Changing state needs CAP_NET_ADMIN; reading is open
 * to every user: the figures describe the machine, and the names and pids
 * of other tasks go only to readers with CAP_NET_ADMIN.  A reader costs
 * the module a bounded amount, charged to the reader's memory cgroup
 * where it outlives the call: a reply of a page or less, and nothing at
 * all for an open dump.
 */
#include <linux/delay.h>
#include <linux/moduleparam.h>
#include <asm/tsc.h>
#include <net/genetlink.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "attrs.h"
#include "info.h"
#include "kinds.h"
#include "netlink.h"
#include "run.h"
#include "core/noise.h"

/*
 * The policies, from the spec (make nl-gen).  Included: they are static
 * there, and compat.h must come first on kernels older than the generator.
 */
#include "netlink_gen.c"

static_assert(ARRAY_SIZE(tscprobe_start_nl_policy) == TP_START_MAXATTR + 1);

/*
 * ynl-gen-c writes one length check of a binary attribute: START's policy
 * bounds CPUS from above, this from below.  The whole range, so that the
 * extended ack is the one a policy with both gives.
 */
static const struct nla_policy tp_cpus_policy[TSCPROBE_A_CPUS + 1] = {
	[TSCPROBE_A_CPUS] = NLA_POLICY_RANGE(NLA_BINARY, 1,
					     TSCPROBE_CPUMASK_BYTES),
};

/*
 * Commands without parameters: every attribute is "unsupported".  By hand:
 * ynl-gen-c writes no policy for them, and without a policy genetlink
 * ignores attributes instead of refusing them.
 */
static const struct nla_policy tp_no_attrs_policy[TSCPROBE_A_MAX + 1] = {};

static const struct tp_kind *tp_kind_of(unsigned int kind)
{
	switch (kind) {
	case TSCPROBE_KIND_NOISE:
		return &tp_noise_kind;
	case TSCPROBE_KIND_SKEW:
		return &tp_skew_kind;
	case TSCPROBE_KIND_CACHE:
		return &tp_cache_kind;
	default:
		return NULL;
	}
}

/* With reason THRESHOLD: the CPU and the event that ended the run. */
static int tp_put_stop_at(struct sk_buff *skb, const struct tp_run *run)
{
	if (!tp_run_stopped_at(run))
		return 0;
	if (nla_put_u32(skb, TSCPROBE_A_STOP_CPU, run->stop_cpu) ||
	    tp_nla_put_event_as(skb, TSCPROBE_A_STOP_EVENT, &run->stop_event))
		return -EMSGSIZE;
	return 0;
}

/* The skew run whose offsets the CPU nests carry, if any CPU has one. */
static int tp_put_offsets_run(struct sk_buff *skb, const struct tp_run *run)
{
	unsigned int cpu;
	u64 id;
	s64 off;

	for_each_cpu(cpu, run->cpus)
		if (tp_info_tsc_offset(cpu, &off, &id))
			return tp_nla_put_u64(skb, TSCPROBE_A_TSC_OFFSETS_RUN_ID,
					      id);
	return 0;
}

/* The attributes of a run message: identity, state and parameters. */
static int tp_put_run(struct sk_buff *skb, struct tp_run *run)
{
	if (tp_nla_put_u64(skb, TSCPROBE_A_RUN_ID, run->id) ||
	    nla_put_u32(skb, TSCPROBE_A_KIND, run->kind->id) ||
	    nla_put_u32(skb, TSCPROBE_A_STATE, tp_run_state(run)) ||
	    nla_put_u32(skb, TSCPROBE_A_STOP_REASON, READ_ONCE(run->reason)) ||
	    nla_put_u32(skb, TSCPROBE_A_TSC_KHZ, tsc_khz) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_ELAPSED_NS,
			   tp_run_elapsed_ns(run)) ||
	    tp_nla_put_u64(skb, TSCPROBE_A_START_TSC, run->start_tsc) ||
	    tp_nla_put_cpumask(skb, TSCPROBE_A_CPUS, run->cpus) ||
	    nla_put_u32(skb, TSCPROBE_A_TSC_SYNC, tp_info_tsc_sync()) ||
	    tp_put_offsets_run(skb, run) || tp_put_stop_at(skb, run))
		return -EMSGSIZE;
	return run->kind->report->put_params(skb, run);
}

/* Send a reply that was built without error, or drop it and fail. */
static int tp_reply(struct sk_buff *msg, void *hdr, int err,
		    struct genl_info *info)
{
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int tp_nl_get_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	void *hdr;

	/* Queued to the reader until read: charged to the reader. */
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL_ACCOUNT);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tp_genl_family, 0,
				TSCPROBE_CMD_GET_INFO);
	return tp_reply(msg, hdr, !hdr || tp_info_fill(msg) ? -EMSGSIZE : 0,
			info);
}

/* RUN_FINISHED's CPU nests: each CPU's final counts (report->put_final). */
static int tp_put_final(struct sk_buff *skb, const struct tp_run *run)
{
	unsigned int i;

	if (!run->kind->report->put_final)
		return 0;
	for (i = 0; i < run->nr_cpus; i++) {
		struct tp_cpu *c = &run->slots[i];
		struct nlattr *nest = nla_nest_start(skb, TSCPROBE_A_CPU);
		u64 v[TP_PROGRESS];

		tp_cpu_read_progress(c, v);
		if (!nest || nla_put_u32(skb, TSCPROBE_CPU_A_ID, c->cpu) ||
		    run->kind->report->put_final(skb, v))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* Room for RUN_FINISHED: the run, the stop event, 64 bytes per CPU. */
#define TP_FINISHED_CPU_SIZE	64

/*
 * The events groups registered: "events", and "events-named" where
 * genetlink can keep out a joiner without CAP_NET_ADMIN (compat.h).
 */
static unsigned int tp_nr_mcgrps(void)
{
	return tp_genl_family.n_mcgrps;
}

/* Whether @group's listeners may see thread names and pids. */
static bool tp_mcgrp_named(unsigned int group)
{
	return group == TSCPROBE_NLGRP_EVENTS_NAMED;
}

/* One RUN_FINISHED message, or NULL. */
static struct sk_buff *tp_finished_message(const struct tp_run *run)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE +
			  run->nr_cpus * TP_FINISHED_CPU_SIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &tp_genl_family, 0,
			  TSCPROBE_CMD_RUN_FINISHED);
	if (!hdr ||
	    tp_nla_put_u64(msg, TSCPROBE_A_RUN_ID, run->id) ||
	    nla_put_u32(msg, TSCPROBE_A_KIND, run->kind->id) ||
	    nla_put_u32(msg, TSCPROBE_A_STATE, run->state) ||
	    nla_put_u32(msg, TSCPROBE_A_STOP_REASON, run->reason) ||
	    tp_put_stop_at(msg, run) || tp_put_final(msg, run)) {
		nlmsg_free(msg);
		return NULL;
	}
	genlmsg_end(msg, hdr);
	return msg;
}

/*
 * To every events group: it names no task.  Best effort: without memory
 * nobody is told, GET_STATUS still is.
 */
static void tp_notify_finished(const struct tp_run *run)
{
	unsigned int group;

	for (group = 0; group < tp_nr_mcgrps(); group++) {
		struct sk_buff *msg = tp_finished_message(run);

		if (msg)
			genlmsg_multicast(&tp_genl_family, msg, 0, group,
					  GFP_KERNEL);
	}
}

/*
 * One EVENT message of @cpu's events from @b's @*next on, as many as fit
 * in a page, threads named if @named; *@next moves past them.  NULL if
 * none fits.
 */
static struct sk_buff *tp_notify_message(const struct tp_run *run,
					 unsigned int cpu,
					 const struct tp_notify_batch *b,
					 unsigned int *next, bool named)
{
	unsigned int first = *next;
	struct nlattr *nest;
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return NULL;
	hdr = genlmsg_put(msg, 0, 0, &tp_genl_family, 0, TSCPROBE_CMD_EVENT);
	if (!hdr || tp_nla_put_u64(msg, TSCPROBE_A_RUN_ID, run->id))
		goto drop;
	nest = nla_nest_start(msg, TSCPROBE_A_CPU);
	if (!nest || nla_put_u32(msg, TSCPROBE_CPU_A_ID, cpu))
		goto drop;
	while (*next < b->n && !b->put(msg, b, *next, named))
		(*next)++;
	if (*next == first)
		goto drop;
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return msg;
drop:
	nlmsg_free(msg);
	return NULL;
}

/*
 * @b's events to @group's listeners: as many messages as they need, each
 * whole, so that a listener's usual buffer reads them.  Each goes out
 * whatever became of the one before: a listener that cannot keep up (a
 * full buffer, -ENOBUFS where it asked for broadcast errors) loses only
 * what did not fit, and the others lose nothing.  A message nobody was
 * left to hear (-ESRCH) is not lost.  Returns how many events went out
 * to every listener.
 */
static unsigned int tp_notify_group(const struct tp_run *run,
				    unsigned int cpu,
				    const struct tp_notify_batch *b,
				    unsigned int group)
{
	unsigned int next = 0, sent = 0;

	while (next < b->n) {
		unsigned int first = next;
		struct sk_buff *msg;
		int err;

		msg = tp_notify_message(run, cpu, b, &next,
					tp_mcgrp_named(group));
		if (!msg)
			break;
		err = genlmsg_multicast(&tp_genl_family, msg, 0, group,
					GFP_KERNEL);
		if (!err || err == -ESRCH)
			sent += next - first;
	}
	return sent;
}

/*
 * A window's events to every group that has listeners, built for each
 * (only "events-named" names threads); nothing is built for nobody.  An
 * event counts as notified when the readers that may start runs got it:
 * "events-named"'s where it has listeners, else "events"'s.  A reader of
 * the open group that reads nothing must not make the count of the one
 * that started the run false.
 */
static unsigned int tp_notify_events(const struct tp_run *run,
				     unsigned int cpu,
				     const struct tp_notify_batch *b)
{
	unsigned int group, named = 0, open = 0;
	bool named_heard = false;

	for (group = 0; group < tp_nr_mcgrps(); group++) {
		if (!genl_has_listeners(&tp_genl_family, &init_net, group))
			continue;
		if (tp_mcgrp_named(group)) {
			named = tp_notify_group(run, cpu, b, group);
			named_heard = true;
		} else {
			open = tp_notify_group(run, cpu, b, group);
		}
	}
	return named_heard ? named : open;
}

/* Given to every run this family starts. */
static const struct tp_run_notify tp_nl_notify = {
	.finished = tp_notify_finished,
	.events = tp_notify_events,
};

int tp_nl_start_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *cpus = info->attrs[TSCPROBE_A_CPUS];
	const struct tp_kind *kind;
	struct tp_run *run;
	struct sk_buff *msg;
	void *hdr;
	int err;

	if (cpus) {
		err = nla_validate(cpus, cpus->nla_len, TSCPROBE_A_CPUS,
				   tp_cpus_policy, info->extack);
		if (err)
			return err;
	}
	if (TP_GENL_REQ_ATTR_CHECK(info, TSCPROBE_A_KIND)) {
		NL_SET_ERR_MSG(info->extack,
			       "kind is required: the measurement to start");
		return -EINVAL;
	}
	kind = tp_kind_of(nla_get_u32(info->attrs[TSCPROBE_A_KIND]));
	if (!kind) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TSCPROBE_A_KIND],
				    "this measurement is not supported by the module");
		return -EOPNOTSUPP;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = tp_run_start(kind, info->attrs, &tp_nl_notify, info->extack, &run);
	if (err) {
		nlmsg_free(msg);
		tp_test_delay();	/* test hook: the ack waits */
		return err;
	}
	hdr = genlmsg_put_reply(msg, info, &tp_genl_family, 0,
				TSCPROBE_CMD_START);
	err = hdr ? tp_put_run(msg, run) : -EMSGSIZE;
	tp_run_put(run);
	/* On an error the run goes on; only the echo of it is lost. */
	return tp_reply(msg, hdr, err, info);
}

int tp_nl_stop_doit(struct sk_buff *skb, struct genl_info *info)
{
	return tp_run_stop(info->extack);
}

int tp_nl_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	return tp_run_reset(info->extack);
}

/* The CPU nest's identity: its number and its TSCPROBE_CPU_F_* flags. */
static int tp_put_cpu_id(struct sk_buff *skb, const struct tp_cpu *c)
{
	BUILD_BUG_ON(BIT(TP_CPU_DONE) != TSCPROBE_CPU_F_DONE ||
		     BIT(TP_CPU_INCOMPLETE) != TSCPROBE_CPU_F_INCOMPLETE ||
		     BIT(TP_CPU_STARVED) != TSCPROBE_CPU_F_STARVED ||
		     BIT(TP_CPU_HELD) != TSCPROBE_CPU_F_HELD);
	if (nla_put_u32(skb, TSCPROBE_CPU_A_ID, c->cpu) ||
	    nla_put_u32(skb, TSCPROBE_CPU_A_FLAGS,
			READ_ONCE(c->flags) & TP_CPU_FLAGS_SENT))
		return -EMSGSIZE;
	return 0;
}

/* GET_STATUS's run message: the run, or only IDLE. */
static int tp_put_status(struct sk_buff *skb, struct tp_run *run)
{
	if (!run)
		return nla_put_u32(skb, TSCPROBE_A_STATE, TSCPROBE_STATE_IDLE);
	return tp_put_run(skb, run);
}

/*
 * The run message alone, one page: every CPU's progress in one reply would
 * be an allocation of many pages that any user could ask for.
 */
int tp_nl_get_status_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct tp_run *run = tp_run_get_current();
	struct sk_buff *msg;
	void *hdr;
	int err;

	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL_ACCOUNT);
	if (!msg) {
		tp_run_put(run);
		return -ENOMEM;
	}
	hdr = genlmsg_put_reply(msg, info, &tp_genl_family, 0,
				TSCPROBE_CMD_GET_STATUS);
	err = hdr ? tp_put_status(msg, run) : -EMSGSIZE;
	tp_run_put(run);
	return tp_reply(msg, hdr, err, info);
}

/*
 * Where a dump (GET_RESULT, GET_STATUS) stands, in cb->ctx.  It holds no
 * reference and no memory, so an open dump costs the module nothing: each
 * call takes the current run for its own length (tp_dump_run()).
 */
struct tp_dump_ctx {
	u64 run_id;		/* the run dumped, once header_done */
	u64 want;		/* the run asked for; 0: any */
	unsigned long gen;	/* the slot's publication being dumped */
	unsigned long pos;	/* the kind's position in the slot */
	unsigned int idx;	/* the slot being dumped */
	unsigned int pair;	/* after the slots */
	bool header_done;
	bool done;		/* all sent: the next call ends the dump */
	bool named;		/* the requester may see threads' pids, names */
};

static struct tp_dump_ctx *tp_dump_ctx(struct netlink_callback *cb)
{
	BUILD_BUG_ON(sizeof(struct tp_dump_ctx) > sizeof(cb->ctx));
	return (struct tp_dump_ctx *)cb->ctx;
}

/*
 * Linux 6.1 gives a dump's start callback no extended ack, so refusals are
 * made by the first dumpit call instead: they travel in NLMSG_DONE with
 * their message.  The capability is the requester's, judged here, where
 * the request is being sent (a later call runs in whichever task reads):
 * netlink_capable() as for GENL_ADMIN_PERM, the socket's opener and the
 * sender.  cb->seq starts at 1 so that NLM_F_DUMP_INTR can mark a change
 * (tp_dump_check_gen()).
 */
static int tp_nl_dump_start(struct netlink_callback *cb)
{
	struct nlattr *want = tp_dump_attrs(cb)[TSCPROBE_A_RUN_ID];
	struct tp_dump_ctx *ctx = tp_dump_ctx(cb);

	memset(ctx, 0, sizeof(*ctx));
	ctx->want = want ? nla_get_u64(want) : 0;
	ctx->named = netlink_capable(cb->skb, CAP_NET_ADMIN);
	cb->seq = 1;
	return 0;
}

/*
 * The run a dump call reads, referenced until the call returns; NULL
 * with *@err set when the dump must end.  At the first call: the current
 * run (ENOENT when there is none and not @none_ok, ESTALE when it is not
 * the one asked for).  At a later one: the same run, or ESTALE if it was
 * reset or replaced since.
 */
static struct tp_run *tp_dump_run(struct tp_dump_ctx *ctx,
				  struct netlink_callback *cb, bool none_ok,
				  int *err)
{
	struct tp_run *run = tp_run_get_current();

	*err = 0;
	if (ctx->header_done) {
		if (run && run->id == ctx->run_id)
			return run;
		NL_SET_ERR_MSG(cb->extack,
			       "the run was reset or replaced while its results were read");
		*err = -ESTALE;
	} else if (!run) {
		if (!none_ok) {
			NL_SET_ERR_MSG(cb->extack,
				       "no results: nothing has run since load or reset");
			*err = -ENOENT;
		}
	} else if (ctx->want && ctx->want != run->id) {
		tp_set_err(cb->extack, NULL,
			   "the results are of another run",
			   "the results are of another run (%llu, not %llu)",
			   run->id, ctx->want);
		*err = -ESTALE;
	} else {
		return run;
	}
	tp_run_put(run);
	return NULL;
}

/*
 * A dump message's header, with the request's command; NLM_F_DUMP_INTR
 * where cb->seq changed since the previous message.
 */
static void *tp_dump_put(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genlmsghdr *req = nlmsg_data(cb->nlh);
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &tp_genl_family, NLM_F_MULTI, req->cmd);
	if (hdr)
		genl_dump_check_consistent(cb, hdr);
	return hdr;
}

/* The run message, first of a dump; header_done once it is in @skb. */
static int tp_dump_header(struct sk_buff *skb, struct netlink_callback *cb,
			  struct tp_run *run)
{
	struct tp_dump_ctx *ctx = tp_dump_ctx(cb);
	void *hdr = tp_dump_put(skb, cb);

	if (!hdr || tp_put_status(skb, run)) {
		if (hdr)
			genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	ctx->run_id = run ? run->id : 0;
	ctx->header_done = true;
	return 0;
}

/*
 * With @c's lock held, before a message of @c: the slot's publication
 * that message comes from.  A CPU begun in an earlier message whose
 * figures were published anew since then is no longer one publication:
 * cb->seq moves on, so the message (and the reader) gets NLM_F_DUMP_INTR.
 */
static void tp_dump_check_gen(struct tp_dump_ctx *ctx,
			      struct netlink_callback *cb,
			      const struct tp_cpu *c)
{
	if (ctx->pos && ctx->gen != c->gen)
		cb->seq++;
	ctx->gen = c->gen;
}

/* A clock that was read; 0 was not. */
static int tp_put_khz(struct sk_buff *skb, int type, u32 khz)
{
	return khz ? nla_put_u32(skb, type, khz) : 0;
}

/* The thread's scheduling counters and clocks, once it has finished. */
static int tp_put_sched(struct sk_buff *skb, const struct tp_cpu *c)
{
	if (!test_bit(TP_CPU_DONE, &c->flags))
		return 0;
	smp_rmb();	/* pairs with smp_mb__before_atomic() in run.c */
	if (tp_nla_put_u64(skb, TSCPROBE_CPU_A_CTX_VOLUNTARY, c->nvcsw) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_CTX_INVOLUNTARY, c->nivcsw) ||
	    tp_nla_put_u64(skb, TSCPROBE_CPU_A_MIGRATIONS, c->migrations) ||
	    tp_put_khz(skb, TSCPROBE_CPU_A_CLOCK_BEFORE_KHZ,
		       c->clock_before_khz) ||
	    tp_put_khz(skb, TSCPROBE_CPU_A_CLOCK_AFTER_KHZ,
		       c->clock_after_khz))
		return -EMSGSIZE;
	return 0;
}

/* The CPU's TSC offset from the last completed skew run, where known. */
static int tp_put_tsc_offset(struct sk_buff *skb, const struct tp_cpu *c)
{
	s64 off;

	if (!tp_info_tsc_offset(c->cpu, &off, NULL))
		return 0;
	return nla_put_s64(skb, TSCPROBE_CPU_A_TSC_OFFSET, off,
			   TSCPROBE_CPU_A_PAD);
}

/*
 * One message of one CPU, with its lock held: from its published
 * snapshot, whose order the dump may change (sorting it), never its
 * figures.  Returns 0 when the CPU is complete, -EMSGSIZE when the
 * message is full (to be continued in the next one).
 *
 * A CPU is begun in an skb that holds earlier messages only if it ends
 * there too; otherwise it starts afresh in the next skb.  Only a CPU
 * larger than a whole skb then spans two reads, the one case in which
 * its slot publishing in between can interrupt the dump: readers of a
 * run publishing every few ms otherwise read again and again.
 */
static int tp_dump_cpu_locked(struct sk_buff *skb,
			      struct netlink_callback *cb,
			      const struct tp_run *run, struct tp_cpu *c)
{
	struct tp_dump_ctx *ctx = tp_dump_ctx(cb);
	unsigned long start_pos = ctx->pos;
	bool shared_skb = skb->len > 0;
	struct nlattr *nest;
	void *hdr;
	int err;

	tp_dump_check_gen(ctx, cb, c);
	hdr = tp_dump_put(skb, cb);
	if (!hdr)
		return -EMSGSIZE;
	if (tp_nla_put_u64(skb, TSCPROBE_A_RUN_ID, run->id))
		goto cancel;
	nest = nla_nest_start(skb, TSCPROBE_A_CPU);
	if (!nest || tp_put_cpu_id(skb, c) ||
	    nla_put_u32(skb, TSCPROBE_CPU_A_NODE, cpu_to_node(c->cpu)) ||
	    tp_put_sched(skb, c) ||
	    (start_pos == 0 && tp_put_tsc_offset(skb, c)))
		goto cancel;
	err = run->kind->report->dump_cpu(skb, c, c->snap, &ctx->pos,
					  ctx->named);
	if (err == -EMSGSIZE && (ctx->pos == start_pos ||
				 (start_pos == 0 && shared_skb))) {
		ctx->pos = start_pos;
		goto cancel;	/* begin it again in an empty skb */
	}
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return err;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * Test hook, 0 by default: the next this many dump calls that go on with
 * a CPU begun in an earlier message first wait, as a reader that was
 * descheduled, until that CPU publishes anew (at most 2 s: a run that has
 * ended publishes no more).
 */
static unsigned int tp_test_dump_stalls;
module_param_named(test_dump_stalls, tp_test_dump_stalls, uint, 0600);
MODULE_PARM_DESC(test_dump_stalls,
		 "test hook: dump calls in the middle of a CPU that first wait for its next publication (0)");

static void tp_test_dump_stall(const struct tp_cpu *c)
{
	unsigned int n = READ_ONCE(tp_test_dump_stalls), waited;
	unsigned long gen = READ_ONCE(c->gen);

	while (n && cmpxchg(&tp_test_dump_stalls, n, n - 1) != n)
		n = READ_ONCE(tp_test_dump_stalls);
	for (waited = 0; n && waited < 2000 && READ_ONCE(c->gen) == gen;
	     waited += 20)
		msleep(20);
}

/*
 * Test hook, 0 by default: each GET_RESULT dump message holds at most this
 * many bytes, as a reader of small reads gets them, so that a test can
 * make every CPU's results continue across messages (a CPU that fits one
 * is never split, tp_dump_cpu_locked()).
 */
static unsigned int tp_test_dump_room;
module_param_named(test_dump_room, tp_test_dump_room, uint, 0600);
MODULE_PARM_DESC(test_dump_room,
		 "test hook: the bytes a GET_RESULT dump message may hold, at most (0: the reader's)");

static void tp_test_dump_shrink(struct sk_buff *skb)
{
	unsigned int room = READ_ONCE(tp_test_dump_room);

	/*
	 * netlink_dump() sizes its skb so too, by what it leaves at the tail,
	 * and then points the headers at the data: so here, or a socket
	 * filter's SKF_NET_OFF loads would read the unwritten headroom.
	 */
	if (room && !skb->len && skb_tailroom(skb) > room) {
		skb_reserve(skb, skb_tailroom(skb) - room);
		skb_reset_network_header(skb);
		skb_reset_mac_header(skb);
	}
}

/*
 * Test hook, 0 by default: the next dump call to take a CPU's lock holds
 * it this long first (at most 10 s), as a reader preempted there; then
 * the hook is 0 again, which tells the test that the hold began.
 */
static unsigned int tp_test_dump_hold_ms;
module_param_named(test_dump_hold_ms, tp_test_dump_hold_ms, uint, 0600);
MODULE_PARM_DESC(test_dump_hold_ms,
		 "test hook: ms the next GET_RESULT dump call holds a CPU's lock, once (0, at most 10000)");

static void tp_test_dump_hold(void)
{
	unsigned int ms = READ_ONCE(tp_test_dump_hold_ms);

	if (ms && cmpxchg(&tp_test_dump_hold_ms, ms, 0) == ms)
		msleep(min(ms, 10000U));
}

static int tp_dump_cpu(struct sk_buff *skb, struct netlink_callback *cb,
		       const struct tp_run *run, struct tp_cpu *c)
{
	int err;

	if (tp_dump_ctx(cb)->pos)
		tp_test_dump_stall(c);
	mutex_lock(&c->lock);
	tp_test_dump_hold();
	err = tp_dump_cpu_locked(skb, cb, run, c);
	mutex_unlock(&c->lock);
	return err;
}

/* One message per pair: RUN_ID and a PAIR nest. */
static int tp_dump_pair(struct sk_buff *skb, struct netlink_callback *cb,
			const struct tp_run *run, unsigned int idx)
{
	void *hdr = tp_dump_put(skb, cb);

	if (!hdr)
		return -EMSGSIZE;
	if (tp_nla_put_u64(skb, TSCPROBE_A_RUN_ID, run->id) ||
	    run->kind->report->put_pair(skb, run, idx)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* What of @run's results fits in @skb, from where the dump stands. */
static int tp_dump_result(struct sk_buff *skb, struct netlink_callback *cb,
			  struct tp_run *run)
{
	struct tp_dump_ctx *ctx = tp_dump_ctx(cb);
	int err;

	if (!ctx->header_done && tp_dump_header(skb, cb, run))
		return skb->len ?: -EMSGSIZE;
	while (ctx->idx < run->nr_cpus) {
		err = tp_dump_cpu(skb, cb, run, &run->slots[ctx->idx]);
		if (err == -EMSGSIZE) {
			/* An skb that cannot hold one step never will. */
			return skb->len ?: -EMSGSIZE;
		}
		if (err)
			return err;
		ctx->pos = 0;
		ctx->idx++;
	}
	while (run->kind->report->nr_pairs &&
	       ctx->pair < run->kind->report->nr_pairs(run)) {
		if (tp_dump_pair(skb, cb, run, ctx->pair))
			return skb->len ?: -EMSGSIZE;
		ctx->pair++;
	}
	ctx->done = true;
	return skb->len;
}

/*
 * A dump whose every message was built ends at its next call, whatever
 * happened to its run since: the reader has it whole.
 */
int tp_nl_get_result_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tp_run *run;
	int err;

	if (tp_dump_ctx(cb)->done)
		return 0;
	run = tp_dump_run(tp_dump_ctx(cb), cb, false, &err);
	if (!run)
		return err;
	tp_test_dump_shrink(skb);
	err = tp_dump_result(skb, cb, run);
	tp_run_put(run);
	return err;
}

/*
 * A CPU's progress, read after its flags (tp_put_cpu_id()): one sent as
 * done carries the figures of its last publication.
 */
static int tp_put_progress(struct sk_buff *skb,
			   const struct tp_report_ops *report,
			   const struct tp_cpu *c)
{
	u64 v[TP_PROGRESS];

	if (!report->put_progress)
		return 0;
	smp_rmb();	/* pairs with smp_mb__before_atomic() in run.c */
	tp_cpu_read_progress(c, v);
	return report->put_progress(skb, v);
}

/* One message of GET_STATUS's dump: RUN_ID and a CPU's progress. */
static int tp_dump_progress(struct sk_buff *skb, struct netlink_callback *cb,
			    const struct tp_run *run, struct tp_cpu *c)
{
	struct nlattr *nest;
	void *hdr;

	hdr = tp_dump_put(skb, cb);
	if (!hdr)
		return -EMSGSIZE;
	if (tp_nla_put_u64(skb, TSCPROBE_A_RUN_ID, run->id))
		goto cancel;
	nest = nla_nest_start(skb, TSCPROBE_A_CPU);
	if (!nest || tp_put_cpu_id(skb, c) ||
	    tp_put_progress(skb, run->kind->report, c))
		goto cancel;
	nla_nest_end(skb, nest);
	genlmsg_end(skb, hdr);
	return 0;

cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/*
 * The run message (only IDLE when there is no run), then one per CPU:
 * dumps are sized to what is read.
 */
int tp_nl_get_status_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tp_dump_ctx *ctx = tp_dump_ctx(cb);
	struct tp_run *run;
	int err;

	if (ctx->done)
		return 0;
	run = tp_dump_run(ctx, cb, true, &err);
	if (err)
		return err;
	if (!ctx->header_done && tp_dump_header(skb, cb, run))
		err = -EMSGSIZE;
	while (!err && run && ctx->idx < run->nr_cpus) {
		err = tp_dump_progress(skb, cb, run, &run->slots[ctx->idx]);
		if (!err)
			ctx->idx++;
	}
	ctx->done = !err;
	tp_run_put(run);
	/* Full: go on in the next skb; one that cannot hold one never will. */
	return err ? skb->len ?: err : skb->len;
}

/*
 * By hand, with the generated policies: ynl-gen-c's own table
 * (tscprobe_nl_ops, compiled but not registered) is of split ops, which
 * came in 6.2, and it has no start and done for the dumps.
 */
static const struct genl_ops tp_genl_ops[] = {
	{
		.cmd = TSCPROBE_CMD_GET_INFO,
		.doit = tp_nl_get_info_doit,
		.policy = tp_no_attrs_policy,
		.maxattr = TSCPROBE_A_MAX,
	},
	{
		.cmd = TSCPROBE_CMD_START,
		.doit = tp_nl_start_doit,
		.policy = tscprobe_start_nl_policy,
		.maxattr = TP_START_MAXATTR,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = TSCPROBE_CMD_STOP,
		.doit = tp_nl_stop_doit,
		.policy = tp_no_attrs_policy,
		.maxattr = TSCPROBE_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = TSCPROBE_CMD_GET_STATUS,
		.doit = tp_nl_get_status_doit,
		.start = tp_nl_dump_start,
		.dumpit = tp_nl_get_status_dumpit,
		.policy = tp_no_attrs_policy,
		.maxattr = TSCPROBE_A_MAX,
	},
	{
		.cmd = TSCPROBE_CMD_GET_RESULT,
		.start = tp_nl_dump_start,
		.dumpit = tp_nl_get_result_dumpit,
		.policy = tscprobe_get_result_nl_policy,
		.maxattr = ARRAY_SIZE(tscprobe_get_result_nl_policy) - 1,
	},
	{
		.cmd = TSCPROBE_CMD_RESET,
		.doit = tp_nl_reset_doit,
		.policy = tp_no_attrs_policy,
		.maxattr = TSCPROBE_A_MAX,
		.flags = GENL_ADMIN_PERM,
	},
};

/*
 * By hand too: ynl-gen-c writes no group's flags.  "events-named" goes
 * last, and is registered only where genetlink can keep out a joiner
 * without CAP_NET_ADMIN (compat.h).
 */
static const struct genl_multicast_group tp_genl_mcgrps[] = {
	[TSCPROBE_NLGRP_EVENTS] = { .name = TSCPROBE_MCGRP_EVENTS },
	[TSCPROBE_NLGRP_EVENTS_NAMED] =
		TP_MCGRP_ADMIN(TSCPROBE_MCGRP_EVENTS_NAMED),
};

static_assert(ARRAY_SIZE(tp_genl_mcgrps) == ARRAY_SIZE(tscprobe_nl_mcgrps));

/*
 * parallel_ops: the run machinery has its own lock, and a START creates a
 * thread per CPU; holding the global genetlink mutex meanwhile would stall
 * every other family.  resv_start_op stays 0: from 6.1 on, unknown reserved
 * and nlmsg flag bits are refused for every command (ignored before).
 */
struct genl_family tp_genl_family __ro_after_init = {
	.name = TSCPROBE_GENL_NAME,
	.version = TSCPROBE_GENL_VERSION,
	.maxattr = TSCPROBE_A_MAX,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = tp_genl_ops,
	.n_ops = ARRAY_SIZE(tp_genl_ops),
	.mcgrps = tp_genl_mcgrps,
	.n_mcgrps = TP_MCGRP_ADMIN_OK ? 2 : 1,
};

int tp_netlink_init(void)
{
	return genl_register_family(&tp_genl_family);
}

/* In-flight requests finish first. */
void tp_netlink_exit(void)
{
	genl_unregister_family(&tp_genl_family);
}
