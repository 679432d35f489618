// SPDX-License-Identifier: GPL-2.0
/*
 * The libmnl client.  Three things libmnl 1.0.4 does not do are done
 * here: the extended ack of an error is read (message, offending
 * attribute, policy range, missing attribute), an error carried by a
 * dump's NLMSG_DONE is reported instead of being taken for a clean end,
 * and a dump marked NLM_F_DUMP_INTR is read to its end (libmnl stops in
 * its middle) and reported so that it can be started over.
 */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "user/lib/cli.h"
#include "core/names.h"
#include "user/lib/nl.h"

struct tp_nl_ctx {
	struct tp_nl *nl;
	tp_nl_cb cb;
	void *data;
	struct tp_nl_error *error;
	bool dump_intr;
};

static int tp_nl_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = ((const struct nlattr ***)data)[0];
	unsigned int max = (unsigned int)(uintptr_t)((void **)data)[1];
	unsigned int type = mnl_attr_get_type(attr);

	if (type <= max)
		tb[type] = attr;
	return MNL_CB_OK;
}

/**
 * tp_nl_parse() - index a generic netlink message's attributes by type
 * @nlh: the message
 * @tb: max + 1 entries, set to the attributes (NULL where absent)
 * @max: the largest type to keep; larger ones (from a newer module) are
 *	ignored
 *
 * Return: 0, or -1 if the message is malformed.
 */
int tp_nl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		unsigned int max)
{
	void *data[2] = { tb, (void *)(uintptr_t)max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), tp_nl_attr_cb,
			      data) < 0 ? -1 : 0;
}

/**
 * tp_nl_parse_nested() - index a nest's attributes by type
 * @nest: the nest
 * @tb: max + 1 entries
 * @max: the largest type to keep
 *
 * Return: 0, or -1 if the nest is malformed.
 */
int tp_nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
		       unsigned int max)
{
	void *data[2] = { tb, (void *)(uintptr_t)max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse_nested(nest, tp_nl_attr_cb, data) < 0 ? -1 : 0;
}

/**
 * tp_nl_u64() - a u64 attribute's value
 * @a: the attribute, or NULL
 * @dflt: the value when absent or of the wrong size
 *
 * Return: the value.
 */
uint64_t tp_nl_u64(const struct nlattr *a, uint64_t dflt)
{
	return a && mnl_attr_get_payload_len(a) == 8 ? mnl_attr_get_u64(a) :
		dflt;
}

/**
 * tp_nl_u32() - a u32 attribute's value
 * @a: the attribute, or NULL
 * @dflt: the value when absent or of the wrong size
 *
 * Return: the value.
 */
uint32_t tp_nl_u32(const struct nlattr *a, uint32_t dflt)
{
	return a && mnl_attr_get_payload_len(a) == 4 ? mnl_attr_get_u32(a) :
		dflt;
}

/* The range of the policy that refused an attribute. */
static void tp_nl_read_policy(const struct nlattr *nest,
			      struct tp_nl_error *e)
{
	const struct nlattr *tb[NL_POLICY_TYPE_ATTR_MAX + 1];

	if (tp_nl_parse_nested(nest, tb, NL_POLICY_TYPE_ATTR_MAX))
		return;
	if (tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U] &&
	    tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U]) {
		e->has_range = true;
		e->min = tp_nl_u64(tb[NL_POLICY_TYPE_ATTR_MIN_VALUE_U], 0);
		e->max = tp_nl_u64(tb[NL_POLICY_TYPE_ATTR_MAX_VALUE_U], 0);
	} else if (tb[NL_POLICY_TYPE_ATTR_MAX_LENGTH]) {
		e->has_range = true;
		e->is_length = true;
		e->min = tp_nl_u32(tb[NL_POLICY_TYPE_ATTR_MIN_LENGTH], 0);
		e->max = tp_nl_u32(tb[NL_POLICY_TYPE_ATTR_MAX_LENGTH], 0);
	}
}

/* Which attribute of our request does an ack's offset point at? */
static unsigned int tp_nl_attr_at(const struct tp_nl *nl, uint32_t offs)
{
	const struct nlattr *a;

	if (offs < NLMSG_HDRLEN + GENL_HDRLEN ||
	    offs + sizeof(*a) > nl->req_len)
		return 0;
	a = (const struct nlattr *)(nl->req + offs);
	return a->nla_type & NLA_TYPE_MASK;
}

/* Read the extended-ack TLVs that start @offset bytes into the payload. */
static void tp_nl_read_extack(const struct tp_nl *nl,
			      const struct nlmsghdr *nlh, size_t offset,
			      struct tp_nl_error *e)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1] = { NULL };
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, offset) {
		if (mnl_attr_get_type(a) <= NLMSGERR_ATTR_MAX)
			tb[mnl_attr_get_type(a)] = a;
	}
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(e->msg, sizeof(e->msg), "%.*s",
			 (int)strnlen(mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]),
				      mnl_attr_get_payload_len(tb[NLMSGERR_ATTR_MSG])),
			 (const char *)mnl_attr_get_payload(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS])
		e->attr = tp_nl_attr_at(nl, tp_nl_u32(tb[NLMSGERR_ATTR_OFFS], 0));
	if (tb[NLMSGERR_ATTR_MISS_TYPE])
		e->missing = tp_nl_u32(tb[NLMSGERR_ATTR_MISS_TYPE], 0);
	if (tb[NLMSGERR_ATTR_POLICY])
		tp_nl_read_policy(tb[NLMSGERR_ATTR_POLICY], e);
}

static int tp_nl_error_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tp_nl_ctx *ctx = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t offset = sizeof(*err);

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		ctx->error->err = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (err->error == 0)
		return MNL_CB_STOP;	/* the ack of a request */
	ctx->error->err = -err->error;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	tp_nl_read_extack(ctx->nl, nlh, offset, ctx->error);
	return MNL_CB_ERROR;
}

/* A dump ends with DONE, which carries the dump's error, if any. */
static int tp_nl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tp_nl_ctx *ctx = data;
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(int))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err == 0)
		return MNL_CB_STOP;
	ctx->error->err = err < 0 ? -err : err;
	tp_nl_read_extack(ctx->nl, nlh, sizeof(int), ctx->error);
	return MNL_CB_ERROR;
}

/* Once the dump was interrupted, its messages are no longer passed on. */
static int tp_nl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tp_nl_ctx *ctx = data;

	if (ctx->dump_intr)
		return MNL_CB_OK;
	return ctx->cb ? ctx->cb(nlh, ctx->data) : MNL_CB_OK;
}

/*
 * A dump's messages from the first with NLM_F_DUMP_INTR on are of figures
 * that changed under it: they are read to the dump's end, so that the
 * socket holds nothing of it for the next request, but not passed on.
 * libmnl stops at the flag, in the middle of what was read, so it is
 * taken off the @n bytes at @buf before libmnl sees them.
 */
static void tp_nl_take_dump_intr(struct tp_nl_ctx *ctx, void *buf, ssize_t n)
{
	struct nlmsghdr *nlh = buf;
	int left = (int)n;

	for (; mnl_nlmsg_ok(nlh, left); nlh = mnl_nlmsg_next(nlh, &left)) {
		if (!(nlh->nlmsg_flags & NLM_F_DUMP_INTR))
			continue;
		ctx->dump_intr = true;
		nlh->nlmsg_flags &= ~NLM_F_DUMP_INTR;
	}
}

static int tp_nl_noop_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/* libmnl takes a non-const table; nothing writes to it. */
static mnl_cb_t tp_nl_ctl_cbs[NLMSG_MIN_TYPE] = {
	[NLMSG_NOOP] = tp_nl_noop_cb,
	[NLMSG_ERROR] = tp_nl_error_cb,
	[NLMSG_DONE] = tp_nl_done_cb,
};

/**
 * tp_nl_talk() - send a request and process every reply until its end
 * @nl: the socket
 * @req: the request built with tp_nl_request() and attributes
 * @cb: called for every reply message (may be NULL)
 * @data: passed to @cb
 * @error: filled in when the kernel refuses (may be NULL)
 *
 * Return: 0, or a negative errno (the kernel's refusal, or a socket
 * error); -EINTR with @error->dump_intr for a dump whose figures changed
 * while it was read (@cb saw a part of it).
 */
int tp_nl_talk(struct tp_nl *nl, struct nlmsghdr *req, tp_nl_cb cb,
	       void *data, struct tp_nl_error *error)
{
	struct tp_nl_error local;
	struct tp_nl_ctx ctx = { nl, cb, data, error ? error : &local, false };
	ssize_t n;
	int ret;

	memset(ctx.error, 0, sizeof(*ctx.error));
	nl->req_len = req->nlmsg_len;
	if (mnl_socket_sendto(nl->sock, req, req->nlmsg_len) < 0) {
		ctx.error->err = errno;
		return -errno;
	}
	do {
		n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
		if (n < 0) {
			ctx.error->err = errno;
			return -errno;
		}
		tp_nl_take_dump_intr(&ctx, nl->buf, n);
		ret = mnl_cb_run2(nl->buf, n, nl->seq, nl->portid,
				  tp_nl_data_cb, &ctx, tp_nl_ctl_cbs,
				  NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	if (ret < 0 && !ctx.error->err)
		ctx.error->err = errno ? errno : EPROTO;
	if (ret == MNL_CB_STOP && ctx.dump_intr) {
		ctx.error->err = EINTR;
		ctx.error->dump_intr = true;
		snprintf(ctx.error->msg, sizeof(ctx.error->msg),
			 "the results changed while they were read");
	}
	return ctx.error->err ? -ctx.error->err : 0;
}

/**
 * tp_nl_request() - start a request to the tscprobe family in @nl->req
 * @nl: the socket
 * @cmd: the command
 * @dump: a dump request (else a do request with an ack)
 *
 * Return: the message, to be completed with mnl_attr_put_*().
 */
struct nlmsghdr *tp_nl_request(struct tp_nl *nl, uint8_t cmd, bool dump)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->req);
	struct genlmsghdr *g;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | (dump ? NLM_F_DUMP : NLM_F_ACK);
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = TSCPROBE_GENL_VERSION;
	return nlh;
}

/* The family's id, version and the events group from CTRL_CMD_GETFAMILY. */
static int tp_nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct tp_nl *nl = data;
	const struct nlattr *grp;

	if (tp_nl_parse(nlh, tb, CTRL_ATTR_MAX))
		return MNL_CB_ERROR;
	nl->family = tb[CTRL_ATTR_FAMILY_ID] ?
		mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]) : 0;
	nl->version = tp_nl_u32(tb[CTRL_ATTR_VERSION], 0);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS]) {
		const struct nlattr *g[CTRL_ATTR_MCAST_GRP_MAX + 1];

		if (tp_nl_parse_nested(grp, g, CTRL_ATTR_MCAST_GRP_MAX) ||
		    !g[CTRL_ATTR_MCAST_GRP_NAME] || !g[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		if (!strcmp(mnl_attr_get_str(g[CTRL_ATTR_MCAST_GRP_NAME]),
			    TSCPROBE_MCGRP_EVENTS))
			nl->mcgrp_events = tp_nl_u32(g[CTRL_ATTR_MCAST_GRP_ID], 0);
		else if (!strcmp(mnl_attr_get_str(g[CTRL_ATTR_MCAST_GRP_NAME]),
				 TSCPROBE_MCGRP_EVENTS_NAMED))
			nl->mcgrp_events_named =
				tp_nl_u32(g[CTRL_ATTR_MCAST_GRP_ID], 0);
	}
	return MNL_CB_OK;
}

static int tp_nl_resolve(struct tp_nl *nl, bool quiet)
{
	struct tp_nl_error error;
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	int err;

	nlh = mnl_nlmsg_put_header(nl->req);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, TSCPROBE_GENL_NAME);
	err = tp_nl_talk(nl, nlh, tp_nl_family_cb, nl, &error);
	if (err && quiet)
		return err == -ENOENT ? TP_EXIT_NOMODULE : TP_EXIT_FAIL;
	if (err == -ENOENT) {
		fprintf(stderr, "tscprobe module is not loaded: load it with 'modprobe tscprobe' (from a build tree: 'insmod kmod/tscprobe.ko'), or measure without it: noise, cache and skew take --user (no generic netlink family \"%s\")\n",
			TSCPROBE_GENL_NAME);
		return TP_EXIT_NOMODULE;
	}
	if (err)
		return tp_nl_report("cannot resolve the tscprobe family", &error);
	if (nl->version != TSCPROBE_GENL_VERSION) {
		if (quiet)
			return TP_EXIT_FAIL;
		tp_err("the loaded module speaks version %u of the tscprobe family, this CLI version %u",
		       nl->version, TSCPROBE_GENL_VERSION);
		return TP_EXIT_FAIL;
	}
	return TP_EXIT_OK;
}

/**
 * tp_nl_family_gone() - has the module @nl talked to been unloaded?
 * @nl: a socket whose family was resolved
 *
 * True when the family is no longer registered, or is registered under
 * another id (the module was loaded anew): either way what @nl started is
 * gone with the old module.  @nl itself is left as it was.
 */
bool tp_nl_family_gone(struct tp_nl *nl)
{
	uint16_t family = nl->family;
	uint32_t version = nl->version, mcgrp = nl->mcgrp_events;
	uint32_t named = nl->mcgrp_events_named;
	int err = tp_nl_resolve(nl, true);
	bool gone = err == TP_EXIT_NOMODULE || (!err && nl->family != family);

	nl->family = family;
	nl->version = version;
	nl->mcgrp_events = mcgrp;
	nl->mcgrp_events_named = named;
	return gone;
}

static int tp_nl_open_mode(struct tp_nl *nl, bool quiet)
{
	int one = 1;
	int ret;

	/* Close-on-exec: a command of --on-threshold must not keep it open. */
	nl->sock = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!nl->sock) {
		if (!quiet)
			tp_err("cannot open a netlink socket: %s", strerror(errno));
		return TP_EXIT_FAIL;
	}
	/* Without these the kernel's reasons would be lost. */
	if (mnl_socket_setsockopt(nl->sock, NETLINK_EXT_ACK, &one,
				  sizeof(one)) ||
	    mnl_socket_setsockopt(nl->sock, NETLINK_CAP_ACK, &one,
				  sizeof(one)) ||
	    mnl_socket_bind(nl->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		if (!quiet)
			tp_err("cannot set up the netlink socket: %s",
			       strerror(errno));
		tp_nl_close(nl);
		return TP_EXIT_FAIL;
	}
	nl->portid = mnl_socket_get_portid(nl->sock);
	nl->seq = (uint32_t)time(NULL);
	ret = tp_nl_resolve(nl, quiet);
	if (ret != TP_EXIT_OK)
		tp_nl_close(nl);
	return ret;
}

/**
 * tp_nl_open() - open a socket to the tscprobe family
 * @nl: filled in
 *
 * Errors are printed here, in one line each.
 *
 * Return: TP_EXIT_OK, TP_EXIT_NOMODULE when the module is not loaded, or
 * TP_EXIT_FAIL.
 */
int tp_nl_open(struct tp_nl *nl)
{
	return tp_nl_open_mode(nl, false);
}

static int tp_khz_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	*(uint32_t *)data = tp_nl_u32(tb[TSCPROBE_A_TSC_KHZ], 0);
	return MNL_CB_OK;
}

/**
 * tp_module_tsc_khz() - the kernel's TSC rate, if the module is loaded
 *
 * Quiet: userspace measurements use it when they can (it is the rate the
 * kernel keeps time with) and calibrate their own otherwise.
 *
 * Return: kHz, or 0 when the module cannot be asked.
 */
uint32_t tp_module_tsc_khz(void)
{
	struct tp_nl *nl = calloc(1, sizeof(*nl));
	uint32_t khz = 0;

	if (nl && tp_nl_open_mode(nl, true) == TP_EXIT_OK) {
		if (tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_GET_INFO, false),
			       tp_khz_cb, &khz, NULL))
			khz = 0;
		tp_nl_close(nl);
	}
	free(nl);
	return khz;
}

/**
 * tp_nl_family_registered() - whether the module is loaded: its family; quiet
 *
 * Return: false only when the family is certainly absent: a socket that
 * cannot be opened leaves the question to the request that needs it.
 */
bool tp_nl_family_registered(void)
{
	struct tp_nl *nl = calloc(1, sizeof(*nl));
	bool loaded = true;

	if (nl) {
		loaded = tp_nl_open_mode(nl, true) != TP_EXIT_NOMODULE;
		tp_nl_close(nl);
	}
	free(nl);
	return loaded;
}

/**
 * tp_nl_close() - close the socket
 * @nl: the socket (may be closed already)
 */
void tp_nl_close(struct tp_nl *nl)
{
	if (nl->sock)
		mnl_socket_close(nl->sock);
	nl->sock = NULL;
}

/* A listener's room: a few seconds of EVENTs from every CPU of a big machine. */
#define TP_NL_EVENTS_RCVBUF	(8 << 20)

/*
 * A listener busy elsewhere for a second (a script's sleep, an rmmod that
 * waits for a window to end) must not lose RUN_FINISHED behind a full
 * queue of EVENTs, as `ip monitor` does not: ask for a large receive
 * buffer, past rmem_max where allowed (root), else up to it.  Best effort:
 * what still overflows is counted by the module as not notified.
 */
static void tp_nl_grow_rcvbuf(struct tp_nl *nl)
{
	int fd = mnl_socket_get_fd(nl->sock), size = TP_NL_EVENTS_RCVBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

/* Join @group; 0 or a negative errno (-EPERM: it needs CAP_NET_ADMIN). */
static int tp_nl_join(struct tp_nl *nl, uint32_t group)
{
	int id = (int)group;

	if (mnl_socket_setsockopt(nl->sock, NETLINK_ADD_MEMBERSHIP, &id,
				  sizeof(id)) < 0)
		return -errno;
	return 0;
}

/**
 * tp_nl_join_events() - subscribe to the family's events
 * @nl: the socket
 *
 * One group: "events-named", where the module has it and the kernel lets
 * this task join it (CAP_NET_ADMIN), so that events name their threads;
 * else "events", whose events sum them.  With NETLINK_BROADCAST_ERROR
 * set, so that the module learns when this socket's queue is full.
 *
 * Return: 0, or a negative errno.
 */
int tp_nl_join_events(struct tp_nl *nl)
{
	int one = 1;

	if (!nl->mcgrp_events)
		return -ENOENT;
	/*
	 * A notification this socket has no room for is then an error for
	 * the module, which counts its events as not notified: nothing is
	 * lost without a count.
	 */
	tp_nl_grow_rcvbuf(nl);
	if (mnl_socket_setsockopt(nl->sock, NETLINK_BROADCAST_ERROR, &one,
				  sizeof(one)) < 0)
		return -errno;
	if (nl->mcgrp_events_named && !tp_nl_join(nl, nl->mcgrp_events_named))
		return 0;
	return tp_nl_join(nl, nl->mcgrp_events);
}

/**
 * tp_nl_open_listening() - a request socket and a socket on the events group
 * @req: set to the request socket
 * @ev: set to the events socket, joined before this returns
 *
 * Joined before any request is sent, so that no notification of what the
 * requests start falls in between.  Both are allocated even on failure:
 * tp_nl_close_listening() frees them either way.
 *
 * Return: an enum tp_exit.
 */
int tp_nl_open_listening(struct tp_nl **req, struct tp_nl **ev)
{
	int ret;

	*req = calloc(1, sizeof(**req));
	*ev = calloc(1, sizeof(**ev));
	if (!*req || !*ev) {
		tp_err("out of memory");
		return TP_EXIT_FAIL;
	}
	ret = tp_nl_open(*req);
	if (!ret)
		ret = tp_nl_open(*ev);
	if (ret)
		return ret;
	ret = tp_nl_join_events(*ev);
	if (ret) {
		tp_err("cannot join the module's events group: %s",
		       strerror(-ret));
		return TP_EXIT_FAIL;
	}
	return TP_EXIT_OK;
}

/* Close and free what tp_nl_open_listening() set up, or any part of it. */
void tp_nl_close_listening(struct tp_nl *req, struct tp_nl *ev)
{
	if (req)
		tp_nl_close(req);
	if (ev)
		tp_nl_close(ev);
	free(req);
	free(ev);
}

/**
 * tp_nl_wait_event() - wait for notifications, without polling
 * @nl: a socket that joined the events group
 * @timeout_ms: how long to wait (-1: forever)
 * @cb: called for every notification; MNL_CB_STOP ends the wait
 * @data: passed to @cb
 *
 * Return: 1 when @cb stopped the wait, 0 on timeout, or a negative errno
 * (-EINTR when a signal arrived).
 */
int tp_nl_wait_event(struct tp_nl *nl, int timeout_ms, tp_nl_cb cb,
		     void *data)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(nl->sock),
			      .events = POLLIN };
	struct tp_nl_error error = { 0 };
	struct tp_nl_ctx ctx = { nl, cb, data, &error, false };
	ssize_t n;
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return 0;
	n = mnl_socket_recvfrom(nl->sock, nl->buf, sizeof(nl->buf));
	if (n < 0)
		return -errno;
	/* Notifications have sequence 0 and port 0: no checks. */
	ret = mnl_cb_run2(nl->buf, n, 0, 0, tp_nl_data_cb, &ctx,
			  tp_nl_ctl_cbs, NLMSG_MIN_TYPE);
	if (ret < 0)
		return error.err ? -error.err : -EPROTO;
	return ret == MNL_CB_STOP ? 1 : 0;
}

/*
 * What to say when the kernel gave no extended-ack message.  Linux 6.1's
 * GENL_ADMIN_PERM check refuses with a bare EPERM, before the module sees
 * the request: the CLI names the missing capability itself.
 */
static const char *tp_nl_default_msg(int err)
{
	if (err == EPERM)
		return "not permitted: starting, stopping and resetting runs need CAP_NET_ADMIN (root)";
	return "refused";
}

/**
 * tp_nl_report() - print a refusal in one line, return its exit code
 * @what: what was being done ("start", "stop", ...)
 * @e: the refusal
 *
 * The line is "tscprobe: WHAT: MESSAGE [attribute NAME, allowed MIN..MAX]
 * (ERRNO TEXT)", with the parts the kernel did not give left out.
 *
 * Return: the enum tp_exit for the errno.
 */
int tp_nl_report(const char *what, const struct tp_nl_error *e)
{
	char attr[160] = "";
	int n = 0;

	if (e->attr)
		n = snprintf(attr, sizeof(attr), " [attribute %s",
			     tp_attr_name(e->attr));
	else if (e->missing)
		n = snprintf(attr, sizeof(attr), " [missing attribute %s",
			     tp_attr_name(e->missing));
	if (n > 0 && e->has_range)
		n += snprintf(attr + n, sizeof(attr) - n, ", %s %llu..%llu",
			      e->is_length ? "length" : "allowed",
			      (unsigned long long)e->min,
			      (unsigned long long)e->max);
	if (n > 0)
		snprintf(attr + n, sizeof(attr) - n, "]");
	tp_err("%s: %s%s%s (%s)", what, e->msg,
	       e->msg[0] ? "" : tp_nl_default_msg(e->err), attr,
	       strerror(e->err));
	switch (e->err) {
	case EBUSY:
	case EAGAIN:
		return TP_EXIT_BUSY;
	case EPERM:
		return TP_EXIT_PERM;
	case ENOENT:
		return TP_EXIT_NORESULT;
	default:
		return TP_EXIT_FAIL;
	}
}
