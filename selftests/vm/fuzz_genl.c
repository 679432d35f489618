// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_genl - a generic netlink fuzzer for the tscprobe family, in the
 * guest, as root and as an unprivileged user.
 *
 * Every message is generated from a seeded generator: valid and invalid
 * command numbers, flags (dumps, ACK, ECHO, reserved bits), random
 * genlmsghdr version and reserved field, attributes of every type with
 * right and wrong lengths, values inside, at and beyond the policy's
 * ranges, nests where flat attributes are expected and the other way
 * round, deep nesting, and then mutations: truncated datagrams, lying
 * nlmsg_len and nla_len, flipped bytes, trailing junk, several messages in
 * one datagram, dumps abandoned half-read.
 *
 * The oracle: what the layers in front of the module's handlers decide
 * (framing, genlmsghdr checks, command lookup, GENL_ADMIN_PERM, do/dump
 * dispatch, in the running kernel's order) is predicted exactly; what the
 * handlers decide must be one of the errors they document.  Every reply
 * must be well formed (lengths, sequence numbers, extended-ack TLVs, an
 * error offset inside the request),
 * root never gets EPERM, and an unprivileged user never starts, stops or
 * resets anything: every state-changing command with a sound header gets
 * EPERM, and the module's state is the same before and after.
 *
 * Safety: the values a fuzzed START may carry for a kind's parameters stay
 * below tp_kinds.h's safe_max whenever they are valid (short runs, short
 * windows), every run the fuzzer gets started is stopped at once or
 * within 20 messages, and a status check every 1000 messages stops a run
 * it may have missed.  Most STARTs carry the kind's "poison" attribute
 * (tp_kinds.h), so that they reach its parser without starting a run.
 *
 * TP_FUZZ_SEED=N repeats a run (the seed is printed first), TP_FUZZ_COUNT=N
 * sets the number of messages of each of the two fuzz tests (default
 * 100000).  The kernel log is scanned by the harness after the run.
 */
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kselftest_harness.h"
#include "tp_hardening.h"

#define FZ_DGRAM_MAX	8192
#define FZ_MSG_MAX	4096
#define FZ_DEPTH_MAX	12
#define FZ_VIOLATIONS_SHOWN	8

/* What a message must get, from the layers in front of the handlers. */
enum fz_expect {
	FZ_NOTHING,		/* dropped silently: no reply at all */
	FZ_ACK_IF_ASKED,	/* not a request, or a control type */
	FZ_ERRNO,		/* exactly this error */
	FZ_DO,			/* reached a doit handler */
	FZ_DUMP,		/* reached the dump */
	FZ_ANY,			/* several messages: only well-formedness */
};

/**
 * struct fz_outcome - what came back for one datagram
 * @msgs: reply messages
 * @err: the first error reported (positive), 0 for none
 * @acked: an NLMSG_ERROR carrying 0
 * @done: an NLMSG_DONE
 * @data: messages of the family
 * @started: one of them is a START reply: a run was started
 */
struct fz_outcome {
	unsigned int msgs;
	int err;
	bool acked;
	bool done;
	unsigned int data;
	bool started;
};

/**
 * struct fz - one fuzzing session
 * @rng: the generator's state
 * @root: fuzzing as root (runs may start) or unprivileged
 * @family: the family's id
 * @fd: the raw socket the fuzzed messages go through
 * @cap_ack: NETLINK_CAP_ACK is set on @fd
 * @ctl: a well-behaved client for status and STOP
 * @online: the online CPUs
 * @nr_cpu_ids: CPUs the kernel can have
 * @untabled: kinds the module runs that tp_kinds.h has no entry for: a
 *	fuzzed START never names them
 * @clean: the message being built keeps to well-formed attributes, so
 *	that it gets past the policies to the handlers
 * @running: a run the fuzzer started is going on
 * @run_left: messages until it is stopped
 * @n: messages sent
 * @runs: runs started
 * @missed: runs found by the periodic check, not by a START reply
 * @errs: replies by errno
 * @acks: plain acks
 * @silent: datagrams without any reply
 * @violations: oracle violations
 * @msg: the datagram being built
 * @len: its length
 * @buf: the receive buffer
 * @split_ops: the kernel looks a command up as do or dump before it checks
 *	GENL_ADMIN_PERM (Linux 6.2 and later: genetlink's split ops); before,
 *	the permission came first
 * @strict_hdr: the kernel refuses a non-zero genlmsghdr reserved field and
 *	unknown nlmsg flags (Linux 6.1 and later, from the family's
 *	resv_start_op); before, both are ignored and the message goes on
 */
struct fz {
	uint64_t rng;
	bool root;
	bool split_ops;
	bool strict_hdr;
	uint16_t family;
	int fd;
	bool cap_ack;
	struct tp_nl ctl;
	struct tp_cpuset online;
	unsigned int nr_cpu_ids;
	uint32_t untabled;
	bool clean;
	bool running;
	unsigned int run_left;
	unsigned long n;
	unsigned long runs;
	unsigned long missed;
	unsigned long errs[160];
	unsigned long acks;
	unsigned long silent;
	unsigned long violations;
	unsigned char msg[FZ_DGRAM_MAX];
	size_t len;
	unsigned char buf[1 << 16];
};

/* Netlink types of the top-level attributes, as the uapi header says. */
enum { T_NONE, T_U32, T_U64, T_BIN, T_STR, T_FLAG, T_NEST };
static const unsigned char fz_attr_type[TSCPROBE_A_MAX + 1] = {
	[TSCPROBE_A_VERSION] = T_STR, [TSCPROBE_A_TSC_KHZ] = T_U32,
	[TSCPROBE_A_NR_CPU_IDS] = T_U32, [TSCPROBE_A_CPUS_ONLINE] = T_BIN,
	[TSCPROBE_A_FEATURES] = T_U32, [TSCPROBE_A_KINDS] = T_U32,
	[TSCPROBE_A_STATE] = T_U32, [TSCPROBE_A_KIND] = T_U32,
	[TSCPROBE_A_RUN_ID] = T_U64, [TSCPROBE_A_CPUS] = T_BIN,
	[TSCPROBE_A_DURATION_NS] = T_U64, [TSCPROBE_A_IRQS] = T_U32,
	[TSCPROBE_A_WIDTH_NS] = T_U64, [TSCPROBE_A_GAP_NS] = T_U64,
	[TSCPROBE_A_THRESHOLD_NS] = T_U64,
	[TSCPROBE_A_THRESHOLD_CYCLES] = T_U64, [TSCPROBE_A_CLOCK] = T_U32,
	[TSCPROBE_A_ROUNDS] = T_U64, [TSCPROBE_A_BATCH] = T_U32,
	[TSCPROBE_A_LEVELS] = T_FLAG, [TSCPROBE_A_NODES] = T_FLAG,
	[TSCPROBE_A_SAMPLES] = T_U32, [TSCPROBE_A_REPEATS] = T_U32,
	[TSCPROBE_A_ELAPSED_NS] = T_U64, [TSCPROBE_A_STOP_REASON] = T_U32,
	[TSCPROBE_A_CPU] = T_NEST, [TSCPROBE_A_PAIR] = T_NEST,
	[TSCPROBE_A_START_TSC] = T_U64, [TSCPROBE_A_PAIRS_DONE] = T_U32,
	[TSCPROBE_A_PAIRS_TOTAL] = T_U32,
	[TSCPROBE_A_STOP_AT_NS] = T_U64, [TSCPROBE_A_STOP_AT_CYCLES] = T_U64,
	[TSCPROBE_A_TRACE_STOP] = T_FLAG, [TSCPROBE_A_STOP_CPU] = T_U32,
	[TSCPROBE_A_STOP_EVENT] = T_NEST, [TSCPROBE_A_TSC_SYNC] = T_U32,
	[TSCPROBE_A_TSC_OFFSETS_RUN_ID] = T_U64,
	[TSCPROBE_A_WARM_UP_NS] = T_U64,
};

static bool fz_admin_cmd(unsigned int cmd)
{
	return cmd == TSCPROBE_CMD_START || cmd == TSCPROBE_CMD_STOP ||
	       cmd == TSCPROBE_CMD_RESET;
}

static uint64_t fz_r(struct fz *f, uint64_t n)
{
	return tp_rng_below(&f->rng, n);
}

static bool fz_pct(struct fz *f, unsigned int pct)
{
	return tp_rng_pct(&f->rng, pct);
}

/* ---- building messages ------------------------------------------------------ */

/* Append an attribute header and payload; false when there is no room. */
static bool fz_put(unsigned char *buf, size_t *off, size_t cap,
		   uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (struct nlattr *)(buf + *off);
	size_t total = NLA_HDRLEN + NLA_ALIGN(len);

	if (*off + total > cap || len > 0xffff - NLA_HDRLEN)
		return false;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy(buf + *off + NLA_HDRLEN, data, len);
	memset(buf + *off + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	*off += total;
	return true;
}

static void fz_random_bytes(struct fz *f, unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)tp_rng(&f->rng);
}

/*
 * A value for a kind's parameter: valid ones never above safe_max, so that
 * a START that gets through stays short; the rest on and beyond the edges.
 */
static uint64_t fz_param_value(struct fz *f, const struct tp_param *p)
{
	uint64_t wmax = p->nla == TP_NLA_U32 ? UINT32_MAX : UINT64_MAX;

	switch (fz_r(f, 10)) {
	case 0:
	case 1:
	case 2:
	case 3:
	case 4:
		return tp_rng_range(&f->rng, p->min, p->safe_max);
	case 5:
		return fz_pct(f, 50) ? p->min : p->safe_max;
	case 6:
		if (p->min > 0)
			return p->min - 1;
		/* fall through */
	case 7:
		if (p->max < wmax) {
			uint64_t v = p->max + 1 + fz_r(f, 3);

			return v > wmax || v <= p->max ? wmax : v;
		}
		return p->min;
	case 8:
		if (p->max < wmax)
			return tp_rng_range(&f->rng, p->max + 1, wmax);
		return p->safe_max;
	default:
		return fz_pct(f, 50) && p->min == 0 ? 0 :
			(p->max < wmax ? wmax : p->min);
	}
}

/*
 * The parameter table entry of @type, or NULL.  Kinds that share an
 * attribute share its policy; the smallest safe_max of them applies.
 */
static const struct tp_param *fz_param_of(uint16_t type)
{
	const struct tp_param *best = NULL, *p;
	size_t k, i;

	for (k = 0; k < TP_NR_KINDS; k++) {
		for (i = 0; i < tp_kinds[k].nparams; i++) {
			p = &tp_kinds[k].params[i];
			if (p->type == type && (!best || p->safe_max < best->safe_max))
				best = p;
		}
	}
	return best;
}

/* A CPU bitmap: mostly a valid set, else empty, too long, beyond the CPUs. */
static size_t fz_cpus(struct fz *f, unsigned char *p, size_t cap)
{
	size_t len = 0, i;
	int cpu;

	switch (fz_r(f, 10)) {
	case 0:
		len = 1 + fz_r(f, 8);
		memset(p, 0, len);
		return len;
	case 1:
		len = (f->nr_cpu_ids + 7) / 8 + fz_r(f, TSCPROBE_CPUMASK_BYTES);
		len = len > TSCPROBE_CPUMASK_BYTES ? TSCPROBE_CPUMASK_BYTES : len;
		memset(p, 0, len);
		i = f->nr_cpu_ids + fz_r(f, len * 8 - f->nr_cpu_ids + 1);
		if (i >= len * 8)
			i = len * 8 - 1;
		p[i / 8] |= 1u << (i % 8);
		return len;
	case 2:
		len = TSCPROBE_CPUMASK_BYTES + 1 + fz_r(f, 64);
		len = len > cap ? cap : len;
		fz_random_bytes(f, p, len);
		return len;
	case 3:
		len = 1 + fz_r(f, 64);
		fz_random_bytes(f, p, len);
		return len;
	default:
		cpu = -1;
		len = f->online.nbytes + fz_r(f, 3);
		memset(p, 0, len);
		while ((cpu = tp_cpuset_next(&f->online, cpu)) >= 0)
			if (fz_pct(f, 60))
				p[cpu / 8] |= 1u << (cpu % 8);
		return len;
	}
}

static size_t fz_attrs(struct fz *f, unsigned char *buf, size_t cap,
		       unsigned int cmd, unsigned int depth);

/* One attribute's payload of the right shape for @type. */
static size_t fz_payload(struct fz *f, uint16_t type, unsigned int cmd,
			 unsigned char *p, size_t cap)
{
	const struct tp_param *param = fz_param_of(type);
	unsigned int t = type <= TSCPROBE_A_MAX ? fz_attr_type[type] : T_NONE;
	uint64_t v;
	uint32_t v32;

	if (type == TSCPROBE_A_KIND) {
		switch (fz_r(f, 10)) {
		case 0:
			v32 = (uint32_t)tp_rng(&f->rng);
			break;
		case 1:
			v32 = TSCPROBE_KIND_MAX + 1;
			break;
		case 2:
			v32 = (uint32_t)fz_r(f, TSCPROBE_KIND_MAX + 1);
			break;
		default:
			v32 = tp_kinds[fz_r(f, TP_NR_KINDS)].kind;
		}
		/* A kind without safe values in tp_kinds.h must not start. */
		if (v32 <= TSCPROBE_KIND_MAX && (f->untabled & (1u << v32)))
			v32 = TSCPROBE_KIND_MAX + 1;
		memcpy(p, &v32, 4);
		return 4;
	}
	if (type == TSCPROBE_A_CPUS)
		return fz_cpus(f, p, cap);
	if (param) {
		v = fz_param_value(f, param);
		if (param->nla == TP_NLA_U32) {
			v32 = (uint32_t)v;
			memcpy(p, &v32, 4);
			return 4;
		}
		memcpy(p, &v, 8);
		return 8;
	}
	switch (t) {
	case T_U32:
		v32 = fz_pct(f, 50) ? (uint32_t)fz_r(f, 8) : (uint32_t)tp_rng(&f->rng);
		memcpy(p, &v32, 4);
		return 4;
	case T_U64:
		v = fz_pct(f, 50) ? fz_r(f, 1000) : tp_rng(&f->rng);
		memcpy(p, &v, 8);
		return 8;
	case T_FLAG:
		return 0;
	case T_NEST:
		return fz_attrs(f, p, cap, cmd, 1);
	default:
		v = fz_r(f, 64);
		v = v > cap ? cap : v;
		fz_random_bytes(f, p, v);
		return v;
	}
}

/* A type for an attribute of @cmd: mostly those the command takes. */
static uint16_t fz_type(struct fz *f, unsigned int cmd, unsigned int depth)
{
	const struct tp_kind_desc *k = &tp_kinds[fz_r(f, TP_NR_KINDS)];
	unsigned int r = (unsigned int)fz_r(f, 100);

	if (depth == 0 && cmd == TSCPROBE_CMD_START && r < 60)
		return r < 10 ? TSCPROBE_A_CPUS :
			r < 15 ? TSCPROBE_A_KIND :
			k->params[fz_r(f, k->nparams)].type;
	if (depth == 0 && cmd == TSCPROBE_CMD_GET_RESULT && r < 50)
		return TSCPROBE_A_RUN_ID;
	if (r < 85)
		return (uint16_t)fz_r(f, TSCPROBE_A_MAX + 1);
	if (r < 95)
		return (uint16_t)(TSCPROBE_A_MAX + 1 + fz_r(f, 8));
	return (uint16_t)tp_rng(&f->rng);
}

/* Random attributes into @buf: right shapes, wrong lengths, nests. */
static size_t fz_attrs(struct fz *f, unsigned char *buf, size_t cap,
		       unsigned int cmd, unsigned int depth)
{
	unsigned char payload[FZ_MSG_MAX];
	unsigned int i, n;
	size_t off = 0, len;
	uint16_t type;

	switch (fz_r(f, 20)) {
	case 0:
	case 1:
	case 2:
	case 3:
		n = 0;
		break;
	case 4:
		n = f->clean ? 0 : 11 + (unsigned int)fz_r(f, 30);
		break;
	default:
		n = 1 + (unsigned int)fz_r(f, depth || f->clean ? 3 : 8);
	}
	for (i = 0; i < n; i++) {
		size_t room = cap - off > NLA_HDRLEN ? cap - off - NLA_HDRLEN : 0;

		room = room > sizeof(payload) ? sizeof(payload) : room;
		type = fz_type(f, cmd, depth);
		if (f->clean && type > TSCPROBE_A_MAX)
			type = TSCPROBE_A_KIND;
		switch (f->clean ? 5 : fz_r(f, 25)) {
		case 0:
		case 1:
			/* A wrong length. */
			len = fz_pct(f, 50) ? fz_r(f, 17) : fz_r(f, 300);
			len = len > room ? room : len;
			fz_random_bytes(f, payload, len);
			break;
		case 2:
		case 3:
			/* A nest where a flat value is expected, maybe deep. */
			if (depth < FZ_DEPTH_MAX) {
				len = fz_attrs(f, payload, room, cmd, depth + 1);
				if (fz_pct(f, 70))
					type |= NLA_F_NESTED;
				break;
			}
			/* fall through */
		case 4:
			/* Huge. */
			len = 1000 + fz_r(f, 2000);
			len = len > room ? room : len;
			fz_random_bytes(f, payload, len);
			break;
		default:
			len = fz_payload(f, type, cmd, payload, room);
			if (fz_pct(f, 3))
				type |= NLA_F_NET_BYTEORDER;
			else if (fz_pct(f, 3))
				type |= NLA_F_NESTED;
		}
		if (!fz_put(buf, &off, cap, type, payload, len))
			break;
	}
	return off;
}

/*
 * A START mostly names a kind and carries a duration and a window width:
 * then the module gets to parse it, and a run it starts ends within a few
 * milliseconds of the STOP that follows (a window must end first).
 */
static size_t fz_start_attrs(struct fz *f, unsigned char *buf, size_t cap)
{
	static const uint16_t types[] = { TSCPROBE_A_KIND,
					  TSCPROBE_A_DURATION_NS,
					  TSCPROBE_A_WIDTH_NS };
	unsigned char payload[TSCPROBE_CPUMASK_BYTES + 128];
	size_t off = 0, len, i, k;

	const struct tp_attr_val *poison = NULL;
	uint32_t kind;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (!fz_pct(f, 85))
			continue;
		len = fz_payload(f, types[i], TSCPROBE_CMD_START, payload,
				 sizeof(payload));
		if (!fz_put(buf, &off, cap, types[i], payload, len))
			return off;
		if (types[i] != TSCPROBE_A_KIND)
			continue;
		memcpy(&kind, payload, sizeof(kind));
		for (k = 0; k < TP_NR_KINDS; k++)
			if (tp_kinds[k].kind == kind)
				poison = &tp_kinds[k].poison;
	}
	/* Most STARTs get as far as the kind's parser, and no further. */
	if (poison && fz_pct(f, 85)) {
		uint64_t v = poison->v;
		uint32_t v32 = (uint32_t)v;

		fz_put(buf, &off, cap, poison->type,
		       poison->nla == TP_NLA_U64 ? (void *)&v : (void *)&v32,
		       poison->nla == TP_NLA_U64 ? 8 : poison->nla == TP_NLA_U32 ? 4 : 0);
	}
	return off;
}

static unsigned int fz_cmd(struct fz *f)
{
	static const unsigned char weights[][2] = {
		{ TSCPROBE_CMD_GET_INFO, 12 }, { TSCPROBE_CMD_START, 34 },
		{ TSCPROBE_CMD_STOP, 8 }, { TSCPROBE_CMD_GET_STATUS, 10 },
		{ TSCPROBE_CMD_GET_RESULT, 18 }, { TSCPROBE_CMD_RESET, 8 },
		{ TSCPROBE_CMD_RUN_FINISHED, 2 }, { TSCPROBE_CMD_EVENT, 2 },
		{ TSCPROBE_CMD_UNSPEC, 2 },
	};
	unsigned int r = (unsigned int)fz_r(f, 100), i;

	for (i = 0; i < sizeof(weights) / sizeof(weights[0]); i++) {
		if (r < weights[i][1])
			return weights[i][0];
		r -= weights[i][1];
	}
	return (unsigned int)fz_r(f, 256);
}

static uint16_t fz_flags(struct fz *f, unsigned int cmd)
{
	uint16_t flags = fz_pct(f, 97) ? NLM_F_REQUEST : 0;

	if (f->clean)
		return NLM_F_REQUEST | (fz_pct(f, 50) ? NLM_F_ACK : 0) |
		       (cmd == TSCPROBE_CMD_GET_RESULT ? NLM_F_DUMP : 0);

	if (fz_pct(f, cmd == TSCPROBE_CMD_GET_RESULT ? 85 : 6))
		flags |= NLM_F_DUMP;
	if (fz_pct(f, 60))
		flags |= NLM_F_ACK;
	if (fz_pct(f, 8))
		flags |= NLM_F_ECHO;
	if (fz_pct(f, 3))
		flags |= fz_pct(f, 50) ? NLM_F_ROOT : NLM_F_MATCH;
	if (fz_pct(f, 4))
		flags |= (uint16_t)tp_rng(&f->rng);
	return flags;
}

/* One message at @buf; returns its length (NLMSG_ALIGNed). */
static size_t fz_message(struct fz *f, unsigned char *buf, size_t cap)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);
	unsigned int cmd;
	size_t len;

	f->clean = fz_pct(f, 30);
	cmd = f->clean ? TSCPROBE_CMD_GET_INFO + (unsigned int)fz_r(f, 6) :
		fz_cmd(f);
	memset(buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	nlh->nlmsg_type = f->clean || fz_pct(f, 98) ? f->family :
		(uint16_t)fz_r(f, NLMSG_MIN_TYPE);
	nlh->nlmsg_flags = fz_flags(f, cmd);
	nlh->nlmsg_seq = (uint32_t)tp_rng(&f->rng);
	nlh->nlmsg_pid = fz_pct(f, 95) ? 0 : (uint32_t)tp_rng(&f->rng);
	g->cmd = (uint8_t)cmd;
	g->version = f->clean || fz_pct(f, 85) ? TSCPROBE_GENL_VERSION :
		(uint8_t)tp_rng(&f->rng);
	g->reserved = f->clean || fz_pct(f, 96) ? 0 :
		(uint16_t)(1 + fz_r(f, 0xfffe));
	len = NLMSG_HDRLEN + GENL_HDRLEN;
	if (cmd == TSCPROBE_CMD_START)
		len += fz_start_attrs(f, buf + len, cap - len);
	len += fz_attrs(f, buf + len, cap - len, cmd, 0);
	nlh->nlmsg_len = (uint32_t)len;
	return NLMSG_ALIGN(len);
}

/*
 * Break the framing of the datagram: a lying nlmsg_len, a truncated
 * datagram, flipped bytes, a lying nla_len, junk at the end.
 */
static void fz_mutate(struct fz *f)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)f->msg;
	size_t i, k;

	switch (fz_r(f, 6)) {
	case 0:
		nlh->nlmsg_len = fz_pct(f, 50) ? (uint32_t)fz_r(f, f->len + 32) :
			(uint32_t)tp_rng(&f->rng);
		break;
	case 1:
		f->len = fz_r(f, f->len + 1);
		break;
	case 2:
		k = 1 + fz_r(f, 4);
		for (i = 0; i < k && f->len; i++)
			f->msg[fz_r(f, f->len)] ^= (unsigned char)(1 + fz_r(f, 255));
		break;
	case 3:
		/* The first attribute's length. */
		if (f->len >= NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN) {
			struct nlattr *a = (struct nlattr *)(f->msg + NLMSG_HDRLEN +
							     GENL_HDRLEN);

			a->nla_len = (uint16_t)tp_rng(&f->rng);
		}
		break;
	case 4:
		k = fz_r(f, 40);
		if (f->len + k <= sizeof(f->msg)) {
			fz_random_bytes(f, f->msg + f->len, k);
			f->len += k;
		}
		break;
	default:
		/* Only part of the genlmsghdr. */
		f->len = NLMSG_HDRLEN + fz_r(f, GENL_HDRLEN);
		nlh->nlmsg_len = (uint32_t)f->len;
		break;
	}
}

/*
 * Walk the datagram as netlink_rcv_skb() will, and point every message it
 * will hand to a family at ours: a mutation (a lying nlmsg_len makes the
 * kernel read a header out of attribute bytes) must not send random
 * requests to other families as root.  Control types stay: the kernel
 * skips them.
 */
static void fz_only_our_family(struct fz *f)
{
	size_t off = 0, step;

	while (f->len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)(f->msg + off);

		if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > f->len - off)
			return;
		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE)
			nlh->nlmsg_type = f->family;
		step = NLMSG_ALIGN(nlh->nlmsg_len);
		off += step < f->len - off ? step : f->len - off;
	}
}

/* ---- the oracle --------------------------------------------------------------- */

/* Whether @cmd is served as a dump (@dump) or as a do (!@dump). */
static bool fz_cmd_takes(unsigned int cmd, bool dump)
{
	if (dump)
		return cmd == TSCPROBE_CMD_GET_RESULT ||
		       cmd == TSCPROBE_CMD_GET_STATUS;
	return cmd != TSCPROBE_CMD_GET_RESULT;
}

/* What the kernel must answer to a datagram holding exactly one message. */
static enum fz_expect fz_expect(const struct fz *f, int *err)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)f->msg;
	const struct genlmsghdr *g;
	uint16_t flags;
	bool dump;

	*err = 0;
	if (f->len < NLMSG_HDRLEN)
		return FZ_NOTHING;
	if (nlh->nlmsg_len < NLMSG_HDRLEN || nlh->nlmsg_len > f->len)
		return FZ_NOTHING;
	/* netlink_rcv_skb() goes on with what follows the message. */
	if (f->len - (NLMSG_ALIGN(nlh->nlmsg_len) < f->len ?
		      NLMSG_ALIGN(nlh->nlmsg_len) : f->len) >= NLMSG_HDRLEN)
		return FZ_ANY;
	flags = nlh->nlmsg_flags;
	if (!(flags & NLM_F_REQUEST) || nlh->nlmsg_type < NLMSG_MIN_TYPE)
		return FZ_ACK_IF_ASKED;
	*err = EINVAL;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return FZ_ERRNO;
	g = (const struct genlmsghdr *)(f->msg + NLMSG_HDRLEN);
	if (f->strict_hdr && g->reserved)
		return FZ_ERRNO;
	dump = (flags & NLM_F_DUMP) == NLM_F_DUMP;
	if (dump)
		flags &= ~NLM_F_DUMP;
	if (f->strict_hdr && (flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO)))
		return FZ_ERRNO;
	*err = EOPNOTSUPP;
	if (g->cmd < TSCPROBE_CMD_GET_INFO || g->cmd > TSCPROBE_CMD_RESET)
		return FZ_ERRNO;
	/* GET_RESULT and GET_STATUS dump; every command but GET_RESULT does. */
	if (f->split_ops && !fz_cmd_takes(g->cmd, dump))
		return FZ_ERRNO;
	*err = EPERM;
	if (fz_admin_cmd(g->cmd) && !f->root)
		return FZ_ERRNO;
	*err = EOPNOTSUPP;
	if (!fz_cmd_takes(g->cmd, dump))
		return FZ_ERRNO;
	*err = 0;
	return dump ? FZ_DUMP : FZ_DO;
}

/* Errors a handler may give, for a command (0: any command). */
static bool fz_handler_errno(const struct fz *f, unsigned int cmd, int err)
{
	switch (err) {
	case EINVAL:	/* policy: type, length, unknown attribute */
	case ERANGE:	/* policy: value out of range */
	case EMSGSIZE:	/* policy: nest or binary too long */
		return true;
	case EOPNOTSUPP:	/* a kind this module does not run */
		return !cmd || cmd == TSCPROBE_CMD_START;
	case EBUSY:
		return !cmd || cmd == TSCPROBE_CMD_START ||
		       cmd == TSCPROBE_CMD_RESET;
	case EAGAIN:	/* START: the last run's probes are being detached */
		return !cmd || cmd == TSCPROBE_CMD_START;
	case ENOENT:	/* STOP when idle; a dump without results */
		return !cmd || cmd == TSCPROBE_CMD_STOP ||
		       cmd == TSCPROBE_CMD_GET_RESULT;
	case ESTALE:	/* a dump of a replaced run */
		return !cmd || cmd == TSCPROBE_CMD_GET_RESULT;
	case E2BIG:
		return !cmd || cmd == TSCPROBE_CMD_START;
	case EPERM:	/* the only one that depends on who asks */
		return !f->root && (!cmd || fz_admin_cmd(cmd));
	default:
		return false;
	}
}

static void fz_hexdump(const unsigned char *p, size_t n)
{
	char line[3 * 32 + 1];
	size_t i, k = 0;

	for (i = 0; i < n && i < 512; i++) {
		snprintf(line + k, sizeof(line) - k, "%02x ", p[i]);
		k += 3;
		if (k == sizeof(line) - 1 || i + 1 == n || i + 1 == 512) {
			fprintf(stderr, "#     %s\n", line);
			k = 0;
		}
	}
}

static void fz_violation(struct fz *f, const char *fmt, ...)
{
	va_list ap;

	f->violations++;
	if (f->violations > FZ_VIOLATIONS_SHOWN)
		return;
	fprintf(stderr, "# fuzz: message %lu (%s): ", f->n,
		f->root ? "root" : "unprivileged");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n#   the datagram (%zu bytes):\n", f->len);
	fz_hexdump(f->msg, f->len);
}

/* ---- replies -------------------------------------------------------------- */

/* Extended-ack TLVs: well formed, a NUL-terminated message, a sane offset. */
static void fz_check_tlvs(struct fz *f, const unsigned char *p, size_t n,
			  uint32_t req_len)
{
	const struct nlattr *a;

	while (n >= NLA_HDRLEN) {
		a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || a->nla_len > n) {
			fz_violation(f, "extended ack: bad TLV length %u", a->nla_len);
			return;
		}
		switch (a->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			if (a->nla_len == NLA_HDRLEN ||
			    p[a->nla_len - 1] != '\0')
				fz_violation(f, "extended ack: message not a string");
			break;
		case NLMSGERR_ATTR_OFFS:
			if (a->nla_len != NLA_HDRLEN + 4)
				fz_violation(f, "extended ack: offset of %u bytes",
					     a->nla_len - NLA_HDRLEN);
			else if (*(const uint32_t *)(p + NLA_HDRLEN) >= req_len)
				fz_violation(f, "extended ack: offset %u beyond the request (%u bytes)",
					     *(const uint32_t *)(p + NLA_HDRLEN),
					     req_len);
			break;
		default:
			break;
		}
		if (NLA_ALIGN(a->nla_len) >= n)
			return;
		n -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
}

static void fz_set_err(struct fz_outcome *o, int err)
{
	if (!o->err)
		o->err = err;
}

/* The attributes of a family message must tile its payload exactly. */
static void fz_check_attrs(struct fz *f, const struct nlmsghdr *nlh)
{
	const unsigned char *p = (const unsigned char *)nlh + NLMSG_HDRLEN +
				 GENL_HDRLEN;
	size_t n = nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;

	while (n >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > n) {
			fz_violation(f, "reply attribute %u: bad length %u",
				     a->nla_type, a->nla_len);
			return;
		}
		if (NLA_ALIGN(a->nla_len) >= n)
			return;
		n -= NLA_ALIGN(a->nla_len);
		p += NLA_ALIGN(a->nla_len);
	}
	if (n)
		fz_violation(f, "reply: %zu bytes after the attributes", n);
}

static void fz_reply(struct fz *f, const struct nlmsghdr *nlh,
		     struct fz_outcome *o, uint32_t seq, bool check_seq)
{
	const struct genlmsghdr *g;
	const struct nlmsgerr *e;
	size_t off;
	int derr;

	o->msgs++;
	if (check_seq && nlh->nlmsg_seq != seq)
		fz_violation(f, "reply with sequence %u, the request had %u",
			     nlh->nlmsg_seq, seq);
	switch (nlh->nlmsg_type) {
	case NLMSG_ERROR:
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e)) {
			fz_violation(f, "short NLMSG_ERROR");
			return;
		}
		e = (const struct nlmsgerr *)NLMSG_DATA(nlh);
		if (e->error > 0 || e->error < -4095) {
			fz_violation(f, "NLMSG_ERROR carries %d", e->error);
			return;
		}
		if (!e->error) {
			o->acked = true;
			f->acks++;
			return;
		}
		fz_set_err(o, -e->error);
		off = NLMSG_HDRLEN + sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - NLMSG_HDRLEN;
		/* The TLVs start at the next 4-byte boundary. */
		off = NLMSG_ALIGN(off);
		if (!!(nlh->nlmsg_flags & NLM_F_CAPPED) != f->cap_ack)
			fz_violation(f, "NLM_F_CAPPED does not match NETLINK_CAP_ACK");
		if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && off <= nlh->nlmsg_len)
			fz_check_tlvs(f, (const unsigned char *)nlh + off,
				      nlh->nlmsg_len - off, e->msg.nlmsg_len);
		return;
	case NLMSG_DONE:
		o->done = true;
		if (nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(int)) {
			fz_violation(f, "short NLMSG_DONE");
			return;
		}
		memcpy(&derr, NLMSG_DATA(nlh), sizeof(derr));
		if (derr)
			fz_set_err(o, derr < 0 ? -derr : derr);
		if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
			fz_check_tlvs(f, (const unsigned char *)NLMSG_DATA(nlh) +
				      sizeof(int), nlh->nlmsg_len - NLMSG_HDRLEN -
				      sizeof(int), UINT32_MAX);
		return;
	default:
		break;
	}
	if (nlh->nlmsg_type != f->family ||
	    nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		fz_violation(f, "unexpected reply type %u, %u bytes",
			     nlh->nlmsg_type, nlh->nlmsg_len);
		return;
	}
	g = (const struct genlmsghdr *)NLMSG_DATA(nlh);
	o->data++;
	switch (g->cmd) {
	case TSCPROBE_CMD_START:
		o->started = true;
		break;
	case TSCPROBE_CMD_GET_INFO:
	case TSCPROBE_CMD_GET_STATUS:
	case TSCPROBE_CMD_GET_RESULT:
		break;
	default:
		fz_violation(f, "reply of command %u", g->cmd);
	}
	fz_check_attrs(f, nlh);
}

/*
 * Everything the kernel queued for us: replies to a do request are queued
 * before sendto() returns, and every read of a dump builds its next part
 * before recv() returns, so reading until EAGAIN gets all of it.
 */
static void fz_drain(struct fz *f, struct fz_outcome *o, uint32_t seq,
		     bool check_seq, bool abandon)
{
	const struct nlmsghdr *nlh;
	ssize_t n;
	int rest;

	memset(o, 0, sizeof(*o));
	for (;;) {
		n = recv(f->fd, f->buf, sizeof(f->buf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				fz_violation(f, "recv: %s", strerror(errno));
			return;
		}
		rest = (int)n;
		for (nlh = (const struct nlmsghdr *)f->buf; NLMSG_OK(nlh, rest);
		     nlh = NLMSG_NEXT(nlh, rest))
			fz_reply(f, nlh, o, seq, check_seq);
		if (rest)
			fz_violation(f, "%d bytes of junk after the replies", rest);
		if (abandon)
			return;
	}
}

/* ---- the session ----------------------------------------------------------- */

static int fz_open(struct fz *f)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int one = 1, ext = fz_pct(f, 90);

	if (f->fd >= 0)
		close(f->fd);
	f->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (f->fd < 0)
		return -1;
	f->cap_ack = fz_pct(f, 50);
	if (setsockopt(f->fd, SOL_NETLINK, NETLINK_EXT_ACK, &ext, sizeof(ext)) ||
	    (f->cap_ack && setsockopt(f->fd, SOL_NETLINK, NETLINK_CAP_ACK,
				      &one, sizeof(one))) ||
	    bind(f->fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -1;
	return 0;
}

/* Whether the running kernel is release @major.@minor or later. */
static bool fz_kernel_at_least(unsigned int major, unsigned int minor)
{
	struct utsname u;
	unsigned int maj = 0, min = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return true;
	return maj > major || (maj == major && min >= minor);
}

static int fz_init(struct fz *f, uint64_t seed, bool root)
{
	size_t i;

	memset(f, 0, sizeof(*f));
	f->rng = seed;
	f->root = root;
	f->split_ops = fz_kernel_at_least(6, 2);	/* genetlink split ops */
	f->strict_hdr = fz_kernel_at_least(6, 1);	/* resv_start_op */
	f->fd = -1;
	if (tp_nl_open(&f->ctl) != TP_EXIT_OK || tp_online_cpus(&f->online))
		return -1;
	f->family = f->ctl.family;
	f->nr_cpu_ids = (unsigned int)sysconf(_SC_NPROCESSORS_CONF);
	tp_nl_talk(&f->ctl, tp_nl_request(&f->ctl, TSCPROBE_CMD_GET_INFO, false),
		   tp_kinds_cb, &f->untabled, NULL);
	for (i = 0; i < TP_NR_KINDS; i++)
		f->untabled &= ~(1u << tp_kinds[i].kind);
	if (f->untabled)
		fprintf(stderr, "# fuzz: the module runs kinds 0x%x that tp_kinds.h lacks: not started\n",
			f->untabled);
	return fz_open(f);
}

static void fz_stop_run(struct fz *f)
{
	struct tp_nl_error e;
	int err = tp_stop(&f->ctl, &e);

	if (err && err != -ENOENT)
		fz_violation(f, "STOP of a fuzzed run: %s (%s)", strerror(-err),
			     e.msg);
	f->running = false;
}

/* Check one datagram's outcome against the oracle. */
static void fz_judge(struct fz *f, enum fz_expect ex, int ex_err,
		     const struct fz_outcome *o)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)f->msg;
	const struct genlmsghdr *g = (const struct genlmsghdr *)NLMSG_DATA(nlh);
	bool ack = nlh->nlmsg_flags & NLM_F_ACK;

	if (o->err < (int)(sizeof(f->errs) / sizeof(f->errs[0])))
		f->errs[o->err]++;
	if (!o->msgs)
		f->silent++;
	if (o->err == EPERM && f->root)
		fz_violation(f, "root got EPERM");
	if (o->started && !f->root)
		fz_violation(f, "an unprivileged START started a run");
	switch (ex) {
	case FZ_NOTHING:
		if (o->msgs)
			fz_violation(f, "a malformed datagram got %u replies",
				     o->msgs);
		break;
	case FZ_ACK_IF_ASKED:
		if (o->msgs != (ack ? 1u : 0u) || o->err)
			fz_violation(f, "a non-request got %u replies, error %d",
				     o->msgs, o->err);
		break;
	case FZ_ERRNO:
		if (o->err != ex_err || o->msgs != 1)
			fz_violation(f, "want %s in one reply, got %s in %u",
				     strerror(ex_err), strerror(o->err), o->msgs);
		break;
	case FZ_DO:
		if (o->err) {
			if (!fz_handler_errno(f, g->cmd, o->err) || o->msgs != 1)
				fz_violation(f, "command %u: %s in %u replies",
					     g->cmd, strerror(o->err), o->msgs);
			break;
		}
		if (o->acked != ack ||
		    o->data != (g->cmd == TSCPROBE_CMD_STOP ||
				g->cmd == TSCPROBE_CMD_RESET ? 0u : 1u))
			fz_violation(f, "command %u succeeded with %u replies, ack %d",
				     g->cmd, o->msgs, o->acked);
		break;
	case FZ_DUMP:
		if (o->err && !fz_handler_errno(f, g->cmd, o->err))
			fz_violation(f, "dump: %s", strerror(o->err));
		else if (!o->err && !o->done)
			fz_violation(f, "dump without NLMSG_DONE");
		break;
	case FZ_ANY:
		if (o->err && !fz_handler_errno(f, 0, o->err) &&
		    o->err != EOPNOTSUPP && o->err != ENOENT)
			fz_violation(f, "%s", strerror(o->err));
		break;
	}
}

/* Build, send, read back and judge one datagram. */
static void fz_one(struct fz *f)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)f->msg;
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	bool abandon = false;
	struct fz_outcome o;
	enum fz_expect ex;
	int ex_err;
	size_t k;

	f->len = fz_message(f, f->msg, FZ_MSG_MAX);
	if (fz_pct(f, 4)) {
		/* Several messages in one datagram. */
		for (k = 1 + fz_r(f, 3); k && sizeof(f->msg) - f->len >= 64; k--)
			f->len += fz_message(f, f->msg + f->len,
					     sizeof(f->msg) - f->len > FZ_MSG_MAX ?
					     FZ_MSG_MAX : sizeof(f->msg) - f->len);
	}
	if (!f->clean && fz_pct(f, 15))
		fz_mutate(f);
	fz_only_our_family(f);
	ex = fz_expect(f, &ex_err);
	if (ex == FZ_DUMP && fz_pct(f, 3))
		abandon = true;
	f->n++;
	if (sendto(f->fd, f->msg, f->len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0) {
		/* An empty datagram is refused by netlink_sendmsg(). */
		if (errno != ENODATA || f->len)
			fz_violation(f, "sendto: %s", strerror(errno));
		return;
	}
	fz_drain(f, &o, nlh->nlmsg_seq, ex != FZ_ANY && ex != FZ_NOTHING,
		 abandon);
	if (abandon) {
		/* Half a dump, then the socket goes away: ->done must clean up. */
		fz_open(f);
	} else {
		fz_judge(f, ex, ex_err, &o);
	}
	if (o.started) {
		f->runs++;
		f->running = true;
		/* Mostly stopped at once: a run on every CPU starves us. */
		f->run_left = fz_pct(f, 90) ? 0 : (unsigned int)fz_r(f, 20);
	}
}

/* Every 1000 messages: stop a run nobody saw start; reopen the socket. */
static void fz_checkpoint(struct fz *f)
{
	if (f->root && tp_status(&f->ctl).state == TSCPROBE_STATE_RUNNING) {
		if (!f->running)
			f->missed++;
		fz_stop_run(f);
	}
	if (fz_pct(f, 20))
		fz_open(f);
}

/**
 * fz_run() - fuzz with @count messages
 * @f: the session
 * @count: messages
 * @secs: set to the time it took
 *
 * Return: the number of oracle violations.
 */
static unsigned long fz_run(struct fz *f, unsigned long count, double *secs)
{
	uint64_t t0 = tp_now_ms();

	while (f->n < count) {
		fz_one(f);
		if (f->running && f->run_left-- == 0)
			fz_stop_run(f);
		if (f->n % 1000 == 0)
			fz_checkpoint(f);
	}
	if (f->root)
		fz_stop_run(f);
	*secs = (double)(tp_now_ms() - t0) / 1000.0;
	return f->violations;
}

static void fz_report(struct fz *f, double secs)
{
	static const int shown[] = { 0, EINVAL, ERANGE, EMSGSIZE, EOPNOTSUPP,
				     EPERM, EBUSY, EAGAIN, ENOENT, ESTALE,
				     E2BIG };
	size_t i;

	/* On stderr: the harness's child ends with _exit(), stdout is lost. */
	fprintf(stderr, "# fuzz (%s): %lu messages in %.1f s, %.0f/s; %lu runs started (%lu found by the periodic check), %lu acks, %lu without reply, %lu violations\n",
		       f->root ? "root" : "unprivileged", f->n, secs,
		       secs > 0 ? f->n / secs : 0.0, f->runs, f->missed,
		       f->acks, f->silent, f->violations);
	for (i = 1; i < sizeof(shown) / sizeof(shown[0]); i++)
		fprintf(stderr, "#   %-28s %lu\n", strerror(shown[i]),
			f->errs[shown[i]]);
}

static uint64_t fz_seed(void)
{
	static uint64_t seed;
	static bool printed;

	if (!printed) {
		seed = tp_seed("TP_FUZZ_SEED");
		fprintf(stderr, "# fuzz seed 0x%" PRIx64 " (TP_FUZZ_SEED=0x%" PRIx64 " repeats this run)\n",
			seed, seed);
		printed = true;
	}
	return seed;
}

static unsigned long fz_count(void)
{
	return (unsigned long)tp_env_u64("TP_FUZZ_COUNT", 100000);
}

FIXTURE(fuzz) {
	struct tp_nl nl;
};

FIXTURE_SETUP(fuzz)
{
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	fz_seed();
}

FIXTURE_TEARDOWN(fuzz)
{
	struct tp_nl_error e;

	tp_stop(&self->nl, &e);
	tp_nl_close(&self->nl);
}

TEST_F_TIMEOUT(fuzz, as_root, 600)
{
	struct fz *f = calloc(1, sizeof(*f));
	double secs;

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, fz_init(f, fz_seed(), true));
	EXPECT_EQ(0, fz_run(f, fz_count(), &secs));
	fz_report(f, secs);
	/* Nothing the fuzzer started is left running. */
	EXPECT_NE(TSCPROBE_STATE_RUNNING, tp_status(&self->nl).state);
	tp_nl_close(&f->ctl);
	close(f->fd);
	free(f);
}

/* Fuzz as nobody in a child; its exit status is the number of violations. */
static int fz_unprivileged_child(uint64_t seed, unsigned long count)
{
	struct fz *f = calloc(1, sizeof(*f));
	unsigned long v;
	double secs;

	if (!f || tp_drop_to(TP_NOBODY)) {
		fprintf(stderr, "# cannot become uid %d\n", TP_NOBODY);
		return 100;
	}
	if (fz_init(f, seed, false))
		return 101;
	v = fz_run(f, count, &secs);
	fz_report(f, secs);
	return v > 99 ? 99 : (int)v;
}

static int fz_fork_unprivileged(uint64_t seed, unsigned long count)
{
	pid_t pid = fork();
	int status;

	if (pid == 0)
		_exit(fz_unprivileged_child(seed, count));
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * A fifth of the messages while a root run goes on (START must say EPERM,
 * not EBUSY; STOP must not stop it), the rest with its results held.  The
 * module's state must not move.  (The share is small because under TCG a
 * vCPU spinning with interrupts off takes a host CPU from the others.)
 */
TEST_F_TIMEOUT(fuzz, unprivileged, 600)
{
	const struct tp_kind_desc *k = &tp_kinds[0];
	struct tp_status before, after;
	struct tp_cpuset one = { 0 };
	struct tp_nl_error e;
	uint64_t id;

	/* One CPU measures; the others are left to the fuzzer. */
	tp_cpuset_add(&one, 1);
	ASSERT_EQ(0, tp_start(&self->nl, k, k->lasting, &one, &id, &e))
		TH_LOG("%s", e.msg);
	before = tp_status(&self->nl);
	EXPECT_EQ(0, fz_fork_unprivileged(fz_seed() ^ 0x5a5a5a5a, fz_count() / 5));
	after = tp_status(&self->nl);
	EXPECT_EQ(TSCPROBE_STATE_RUNNING, after.state);
	EXPECT_EQ(id, after.run_id);
	ASSERT_EQ(0, tp_stop(&self->nl, &e)) TH_LOG("%s", e.msg);

	before = tp_status(&self->nl);
	EXPECT_EQ(TSCPROBE_STATE_STOPPED, before.state);
	EXPECT_EQ(0, fz_fork_unprivileged(fz_seed() ^ 0xa5a5a5a5,
					  fz_count() - fz_count() / 5));
	after = tp_status(&self->nl);
	EXPECT_EQ(before.state, after.state);
	EXPECT_EQ(before.run_id, after.run_id);
}

/* Afterwards: GET_INFO tells the truth, and a normal run works. */
TEST_F_TIMEOUT(fuzz, module_still_answers, 120)
{
	const struct tp_kind_desc *k;
	char *out = NULL, info[128];
	struct tp_cpuset online;
	char a[256], b[320];
	const char *bad;
	size_t i;

	ASSERT_EQ(0, tp_sh("tscprobe info -j", &out));
	ASSERT_EQ(0, tp_online_cpus(&online));
	tp_cpuset_format(&online, a, sizeof(a));
	snprintf(b, sizeof(b), ".cpus_online_list == \"%s\" and .tsc_khz > 0", a);
	EXPECT_EQ(0, tp_jq(out, b));
	snprintf(info, sizeof(info), ".version == \"%.64s\"",
		 tp_read_file("/sys/module/tscprobe/version"));
	EXPECT_EQ(0, tp_jq(out, info));
	free(out);
	for (i = 0; i < TP_NR_KINDS; i++) {
		char cmd[256];

		k = &tp_kinds[i];
		if (!tp_kind_supported(&self->nl, k))
			continue;
		snprintf(cmd, sizeof(cmd), "tscprobe %s -j", k->cli_quick);
		ASSERT_EQ(0, tp_sh(cmd, &out)) TH_LOG("%s", cmd);
		bad = tp_kind_check_json(k, out);
		EXPECT_EQ(NULL, bad) TH_LOG("%s: %s", k->name, bad);
		EXPECT_EQ(0, tp_jq(out, ".state == \"done\""));
		free(out);
	}
}

TP_HARNESS_MAIN
