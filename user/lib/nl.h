/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small libmnl client for the tscprobe family: resolve it, send one
 * request, run a callback on every reply, and turn a refusal into one line
 * that carries the kernel's extended-ack message, the attribute it points
 * at (by name) and the errno text.
 */
#ifndef TSCPROBE_USER_NL_H
#define TSCPROBE_USER_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>

#include <linux/tscprobe.h>

/*
 * Dump messages are at most 32 KiB; GET_STATUS of TSCPROBE_MAX_RUN_CPUS
 * CPUs takes about 160 KiB.
 */
#define TP_NL_BUFSIZE	(256 * 1024)

/**
 * struct tp_nl - a netlink socket talking to the tscprobe family
 * @sock: the libmnl socket (NETLINK_EXT_ACK and NETLINK_CAP_ACK set)
 * @family: the family's id
 * @version: the family's version
 * @mcgrp_events: the id of the "events" multicast group (0: none)
 * @mcgrp_events_named: the id of "events-named", the same with thread
 *	names, for CAP_NET_ADMIN (0: the module has none)
 * @portid: our port id
 * @seq: sequence number of the last request
 * @req: the last request, kept to name the attribute an ack points at
 * @req_len: its length
 * @buf: receive buffer
 */
struct tp_nl {
	struct mnl_socket *sock;
	uint16_t family;
	uint32_t version;
	uint32_t mcgrp_events;
	uint32_t mcgrp_events_named;
	uint32_t portid;
	uint32_t seq;
	char req[8192];
	size_t req_len;
	char buf[TP_NL_BUFSIZE];
};

/**
 * struct tp_nl_error - why the kernel refused a request
 * @err: positive errno
 * @msg: the extended-ack message, or ""
 * @attr: the attribute type the ack points at (0: none), in the request
 * @missing: the type of a missing required attribute (0: none)
 * @has_range: the policy range below is known
 * @min: smallest allowed value (or length)
 * @max: largest allowed value (or length)
 * @is_length: the range is a length
 * @dump_intr: a dump whose figures changed while it was read
 *	(NLM_F_DUMP_INTR): read to its end, its messages not passed on; @err
 *	is EINTR.  Starting it over reads them whole.
 */
struct tp_nl_error {
	int err;
	char msg[256];
	unsigned int attr;
	unsigned int missing;
	bool has_range;
	uint64_t min;
	uint64_t max;
	bool is_length;
	bool dump_intr;
};

/* Called for every reply message; return MNL_CB_OK to go on. */
typedef int (*tp_nl_cb)(const struct nlmsghdr *nlh, void *data);

int tp_nl_open(struct tp_nl *nl);
uint32_t tp_module_tsc_khz(void);
bool tp_nl_family_registered(void);
void tp_nl_close(struct tp_nl *nl);
struct nlmsghdr *tp_nl_request(struct tp_nl *nl, uint8_t cmd, bool dump);
int tp_nl_talk(struct tp_nl *nl, struct nlmsghdr *req, tp_nl_cb cb,
	       void *data, struct tp_nl_error *error);
int tp_nl_report(const char *what, const struct tp_nl_error *error);
int tp_nl_join_events(struct tp_nl *nl);
bool tp_nl_family_gone(struct tp_nl *nl);
int tp_nl_open_listening(struct tp_nl **req, struct tp_nl **ev);
void tp_nl_close_listening(struct tp_nl *req, struct tp_nl *ev);
int tp_nl_wait_event(struct tp_nl *nl, int timeout_ms, tp_nl_cb cb,
		     void *data);

/* Attribute tables: tb[type] = the last attribute of that type, or NULL. */
int tp_nl_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		unsigned int max);
int tp_nl_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
		       unsigned int max);
uint64_t tp_nl_u64(const struct nlattr *a, uint64_t dflt);
uint32_t tp_nl_u32(const struct nlattr *a, uint32_t dflt);

#endif /* TSCPROBE_USER_NL_H */
