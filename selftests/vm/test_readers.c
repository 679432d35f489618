// SPDX-License-Identifier: GPL-2.0
/*
 * What a reader without privileges costs the module and what it is shown,
 * in the guest ("What every user can read" in Documentation/tscprobe.rst):
 *  - open dumps cost the module nothing: 2,000 sockets of nobody, each
 *    with a GET_RESULT dump started and one message read, take no more of
 *    MemAvailable than as many dumps of nlctrl's family list (netlink's
 *    own cost of a socket with a dump open), and no vmalloc area of the
 *    module; a RESET and a new START free the old run whatever dumps are
 *    open (debugfs' runs_alive), and those dumps then end with ESTALE;
 *  - a dump whose run is reset or replaced midway ends with ESTALE, never
 *    with messages of two runs; one read whole before ends cleanly;
 *  - a CPU's results read across a publication of its figures carry
 *    NLM_F_DUMP_INTR, and the CLI reads them again: "show" while a run
 *    publishes gives results that add up, or one line after eight tries;
 *  - a reader that holds a CPU's results (test_dump_hold_ms: as one
 *    preempted in the dump) never holds its measuring thread: the CPU
 *    goes on measuring windows meanwhile, the reader gets one whole
 *    publication, and the run's results have every window;
 *  - threads' pids and names go only to readers with CAP_NET_ADMIN, in
 *    GET_RESULT (raw, and the CLI's JSON) and in the EVENT notifications
 *    ("events-named" refuses nobody); the others get the threads summed,
 *    and every figure adds up the same for both.
 */
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "kselftest_harness.h"
#include "tp_hardening.h"

/* Dumps nobody keeps open at once (RLIMIT_NOFILE is raised for them). */
#define TP_DUMPS		2000
/*
 * What each may cost beyond nlctrl's, in KiB: the one message netlink
 * builds ahead for a dump, at most 32 KiB (its cap on a reader's buffer),
 * which nlctrl's fill less on some kernels.  In the 4-vCPU guests
 * nlctrl's dumps took 23 KiB each (6.1, six runs), 19 to 21 (6.12) and 6
 * (the debug kernel), tscprobe's 17 to 24, 24 and 27; before, each also
 * held a run and a copy of a CPU's figures: 154 KiB.
 */
#define TP_DUMP_KIB_MAX		32

/* A noise run whose CPUs each take several messages: many events. */
static const struct tp_attr_val tp_many_events[] = {
	{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 500000000ULL },
	{ TSCPROBE_A_IRQS, TP_NLA_U32, TSCPROBE_IRQS_ON },
	{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 60 },
	{ 0 },
};

FIXTURE(readers) {
	struct tp_nl nl;
};

FIXTURE_SETUP(readers)
{
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
}

FIXTURE_TEARDOWN(readers)
{
	struct tp_nl_error e;

	tp_param_set("test_dump_stalls", 0);
	tp_param_set("test_dump_hold_ms", 0);
	tp_param_set("test_late_ms", 0);
	tp_param_set("test_late_cpu", -1);
	tp_stop(&self->nl, &e);
	tp_nl_close(&self->nl);
}

/* ---- raw dumps --------------------------------------------------------------- */

/* A socket with extended acks, bound; NULL if it cannot be had. */
static struct mnl_socket *tp_raw_socket(void)
{
	struct mnl_socket *sock = mnl_socket_open(NETLINK_GENERIC);
	int one = 1;

	if (!sock)
		return NULL;
	if (mnl_socket_setsockopt(sock, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    mnl_socket_bind(sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		mnl_socket_close(sock);
		return NULL;
	}
	return sock;
}

/* Send a dump request of @cmd of @family (version @version), seq @seq. */
static int tp_raw_dump(struct mnl_socket *sock, uint16_t family, uint8_t cmd,
		       uint8_t version, uint32_t seq)
{
	char buf[256];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ? -1 : 0;
}

/* What one part of a dump (one read) held. */
struct tp_part {
	unsigned int msgs;
	unsigned int intr;		/* messages with NLM_F_DUMP_INTR */
	unsigned int other_run;		/* messages of a run but @run_id */
	unsigned int largest;		/* bytes of the largest message */
	unsigned long bytes;		/* of all messages */
	bool done;
	int err;			/* NLMSG_DONE's (negative errno) */
	char msg[256];			/* and its extended-ack message */
};

/* NLMSG_DONE's error and message into @p. */
static void tp_part_done(const struct nlmsghdr *nlh, struct tp_part *p)
{
	const struct nlattr *a;

	p->done = true;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(int))
		return;
	memcpy(&p->err, mnl_nlmsg_get_payload(nlh), sizeof(int));
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	mnl_attr_for_each(a, nlh, sizeof(int))
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG)
			snprintf(p->msg, sizeof(p->msg), "%.*s",
				 (int)mnl_attr_get_payload_len(a),
				 (const char *)mnl_attr_get_payload(a));
}

/*
 * Read one part of a dump (@len bytes at most) into @p; false once it has
 * ended, or on an error.
 */
static bool tp_read_part(struct mnl_socket *sock, size_t len, uint64_t run_id,
			 struct tp_part *p)
{
	char buf[32768];
	const struct nlmsghdr *nlh;
	int n;

	n = (int)mnl_socket_recvfrom(sock, buf, len < sizeof(buf) ? len : sizeof(buf));
	if (n <= 0) {
		p->err = -errno;
		return false;
	}
	for (nlh = (const struct nlmsghdr *)buf; mnl_nlmsg_ok(nlh, n);
	     nlh = mnl_nlmsg_next(nlh, &n)) {
		const struct nlattr *tb[TSCPROBE_A_MAX + 1];

		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
			p->intr++;
		if (nlh->nlmsg_type == NLMSG_DONE) {
			tp_part_done(nlh, p);
			return false;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			p->err = -EPROTO;
			return false;
		}
		p->msgs++;
		p->bytes += nlh->nlmsg_len;
		if (nlh->nlmsg_len > p->largest)
			p->largest = nlh->nlmsg_len;
		if (run_id && !tp_nl_parse(nlh, tb, TSCPROBE_A_MAX) &&
		    tb[TSCPROBE_A_RUN_ID] &&
		    tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0) != run_id)
			p->other_run++;
	}
	return true;
}

/* ---- memory ------------------------------------------------------------------ */

/*
 * MemAvailable, in KiB, once freed sockets have gone (RCU): the largest of
 * five readings after the per-CPU counters were folded in, since pages in
 * flight between the per-CPU lists only ever take from it.
 */
static long tp_mem_available_kib(void)
{
	long kib = -1, v;
	char *out;
	int i;

	tp_sleep_ms(1000);
	tp_sh("echo 3 > /proc/sys/vm/drop_caches", NULL);
	for (i = 0; i < 5; i++) {
		out = NULL;
		tp_sh("echo 1 > /proc/sys/vm/stat_refresh", NULL);
		if (!tp_sh("sed -n 's/^MemAvailable: *\\([0-9]*\\) kB/\\1/p' /proc/meminfo",
			   &out) && out && *out) {
			v = strtol(out, NULL, 10);
			kib = v > kib ? v : kib;
		}
		free(out);
		tp_sleep_ms(200);
	}
	return kib;
}

/* Bytes of the module's own vmalloc areas (/proc/vmallocinfo). */
static long tp_module_vmalloc(void)
{
	char *out = NULL;
	long bytes = -1;

	if (!tp_sh("awk '/\\[tscprobe\\]/ { n += $2 } END { print n + 0 }' /proc/vmallocinfo",
		   &out) && out && *out)
		bytes = strtol(out, NULL, 10);
	free(out);
	return bytes;
}

/* ---- nobody's open dumps --------------------------------------------------------- */

/* How nobody's dumps ended, in shared memory. */
struct tp_held {
	int opened;		/* started, and one part read */
	int stale;		/* ended with ESTALE */
	int other;		/* ended otherwise */
	int setup_failed;
	char stale_msg[256];
	char other_why[256];
};

/* A child of nobody's holding dumps open, and the pipes to steer it. */
struct tp_holder {
	pid_t pid;
	int ready;		/* the child writes a byte once they are open */
	int go;			/* the parent writes one to have them read out */
	struct tp_held *out;
};

/* Read every dump to its end, counting how each ended. */
static void tp_dumps_read_out(struct mnl_socket **socks, int n,
			      struct tp_held *out)
{
	int i;

	for (i = 0; i < n; i++) {
		struct tp_part p = { 0 };

		while (tp_read_part(socks[i], 4096, 0, &p))
			;
		if (p.done && p.err == -ESTALE) {
			out->stale++;
			snprintf(out->stale_msg, sizeof(out->stale_msg), "%s",
				 p.msg);
		} else {
			out->other++;
			snprintf(out->other_why, sizeof(out->other_why),
				 "%.160s (%s)", p.msg, strerror(-p.err));
		}
		mnl_socket_close(socks[i]);
	}
}

/*
 * As nobody: TP_DUMPS sockets, each with a dump of @cmd of @family started
 * and one part read (4 KiB); then wait for the parent, and read them out.
 */
static void tp_hold_dumps_child(struct tp_holder *h, int ready, int go,
				uint16_t family, uint8_t cmd, uint8_t version)
{
	static struct mnl_socket *socks[TP_DUMPS];
	struct rlimit lim = { TP_DUMPS + 64, TP_DUMPS + 64 };
	char byte = 'r';
	int n;

	if (setrlimit(RLIMIT_NOFILE, &lim) || tp_drop_to(TP_NOBODY)) {
		h->out->setup_failed = 1;
		_exit(1);
	}
	for (n = 0; n < TP_DUMPS; n++) {
		struct tp_part p = { 0 };

		socks[n] = tp_raw_socket();
		if (!socks[n] ||
		    tp_raw_dump(socks[n], family, cmd, version, n + 1)) {
			h->out->setup_failed = 1;
			break;
		}
		tp_read_part(socks[n], 4096, 0, &p);
		if (!p.msgs) {
			h->out->setup_failed = 1;
			break;
		}
		h->out->opened++;
	}
	if (write(ready, &byte, 1) != 1 || read(go, &byte, 1) != 1)
		_exit(1);
	if (byte == 'r')
		tp_dumps_read_out(socks, n, h->out);
	_exit(0);
}

/* Fork nobody's child, and wait until its dumps are open. */
static bool tp_hold_dumps(struct tp_holder *h, uint16_t family, uint8_t cmd,
			  uint8_t version)
{
	int ready[2], go[2];
	char byte;

	memset(h->out, 0, sizeof(*h->out));
	if (pipe(ready) || pipe(go))
		return false;
	h->pid = fork();
	if (h->pid == 0) {
		close(ready[0]);
		close(go[1]);
		tp_hold_dumps_child(h, ready[1], go[0], family, cmd, version);
	}
	close(ready[1]);
	close(go[0]);
	h->ready = ready[0];
	h->go = go[1];
	return h->pid > 0 && read(h->ready, &byte, 1) == 1 &&
	       !h->out->setup_failed;
}

/* Let the child go: read its dumps out (@read) or just close them. */
static bool tp_release_dumps(struct tp_holder *h, bool read_out)
{
	char byte = read_out ? 'r' : 'c';
	int status;

	if (write(h->go, &byte, 1) != 1)
		return false;
	close(h->go);
	close(h->ready);
	return waitpid(h->pid, &status, 0) == h->pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

/*
 * 2,000 open dumps of nobody: what they take of MemAvailable beside as
 * many of nlctrl's, and of the module's vmalloc; then RESET and a new
 * START free the run they read, and they end with ESTALE.
 */
TEST_F_TIMEOUT(readers, open_dumps_cost_the_module_nothing, 900)
{
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	struct tp_holder h = { 0 };
	long before, ctrl_kib, tp_kib, vm_before, vm_held;
	struct tp_nl_error e;

	h.out = mmap(NULL, sizeof(*h.out), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, h.out);
	ASSERT_EQ(0, tp_start(&self->nl, noise, tp_many_events, NULL, NULL, &e))
		TH_LOG("%s", e.msg);
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));

	/* Netlink's own cost: as many dumps of the families' list. */
	before = tp_mem_available_kib();
	ASSERT_TRUE(tp_hold_dumps(&h, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1))
		TH_LOG("%d nlctrl dumps opened", h.out->opened);
	ctrl_kib = before - tp_mem_available_kib();
	ASSERT_TRUE(tp_release_dumps(&h, false));

	before = tp_mem_available_kib();
	vm_before = tp_module_vmalloc();
	ASSERT_TRUE(tp_hold_dumps(&h, self->nl.family, TSCPROBE_CMD_GET_RESULT,
				  TSCPROBE_GENL_VERSION))
		TH_LOG("%d GET_RESULT dumps opened", h.out->opened);
	tp_kib = before - tp_mem_available_kib();
	vm_held = tp_module_vmalloc();
	TH_LOG("%d open dumps: nlctrl's took %ld KiB (%ld B each), tscprobe's %ld KiB (%ld B each); the module's vmalloc %ld B before, %ld B with them",
	       TP_DUMPS, ctrl_kib, ctrl_kib * 1024 / TP_DUMPS, tp_kib,
	       tp_kib * 1024 / TP_DUMPS, vm_before, vm_held);
	EXPECT_LE(tp_kib - ctrl_kib, TP_DUMPS * TP_DUMP_KIB_MAX);
	EXPECT_EQ(vm_before, vm_held);
	EXPECT_EQ(1, tp_debugfs_info_count("runs_alive"));

	/* RESET frees the run they read; a new START's run is the one left. */
	EXPECT_EQ(0, tp_reset(&self->nl, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(0, tp_debugfs_info_count("runs_alive"));
	ASSERT_EQ(0, tp_start(&self->nl, noise, noise->quick, NULL, NULL, &e))
		TH_LOG("%s", e.msg);
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));
	tp_sleep_ms(500);	/* the finisher lets go after RUN_FINISHED */
	EXPECT_EQ(1, tp_debugfs_info_count("runs_alive"));
	ASSERT_TRUE(tp_release_dumps(&h, true));
	EXPECT_EQ(TP_DUMPS, h.out->stale) TH_LOG("%d ended otherwise: %s",
						 h.out->other, h.out->other_why);
	EXPECT_NE(NULL, strstr(h.out->stale_msg, "reset or replaced"))
		TH_LOG("%s", h.out->stale_msg);
	munmap(h.out, sizeof(*h.out));
}

/* ---- a dump across a RESET, a START, a publication ---------------------------- */

/*
 * A GET_RESULT dump of the last run with its first part read; NULL if it
 * could not be started.
 */
static struct mnl_socket *tp_dump_begun(struct tp_nl *nl, struct tp_part *p)
{
	struct mnl_socket *sock = tp_raw_socket();

	memset(p, 0, sizeof(*p));
	if (sock && !tp_raw_dump(sock, nl->family, TSCPROBE_CMD_GET_RESULT,
				 TSCPROBE_GENL_VERSION, 9) &&
	    tp_read_part(sock, 4096, 0, p))
		return sock;
	if (sock)
		mnl_socket_close(sock);
	return NULL;
}

/*
 * A GET_RESULT dump into @p, read @len bytes at a time from the first
 * message on: the kernel sizes a dump's parts by the socket's largest
 * read, so a GET_INFO reply is read with @len first.  -1 on an error.
 */
static int tp_dump_read_by(struct tp_nl *nl, size_t len, struct tp_part *p)
{
	struct mnl_socket *sock = tp_raw_socket();
	char buf[256];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	memset(p, 0, sizeof(*p));
	if (!sock)
		return -1;
	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = 8;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = TSCPROBE_CMD_GET_INFO;
	g->version = TSCPROBE_GENL_VERSION;
	if (mnl_socket_sendto(sock, nlh, nlh->nlmsg_len) < 0 ||
	    !tp_read_part(sock, len, 0, p) ||
	    tp_raw_dump(sock, nl->family, TSCPROBE_CMD_GET_RESULT,
			TSCPROBE_GENL_VERSION, 9)) {
		mnl_socket_close(sock);
		return -1;
	}
	memset(p, 0, sizeof(*p));
	while (tp_read_part(sock, len, 0, p))
		;
	mnl_socket_close(sock);
	return p->done && !p->err ? 0 : -1;
}

/* Messages of a GET_RESULT dump read as the CLI reads it, 32 KiB at a time. */
static int tp_dump_msgs_32k(struct tp_nl *nl)
{
	struct tp_part p;

	return tp_dump_read_by(nl, 32768, &p) ? -1 : (int)p.msgs;
}

/*
 * A dump holds nothing of its run between two reads: a new START or a
 * RESET meanwhile ends it with ESTALE and a message saying so, and it
 * never carries messages of two runs.
 */
TEST_F_TIMEOUT(readers, dump_of_a_replaced_run_ends_stale, 120)
{
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	struct mnl_socket *sock;
	struct tp_nl_error e;
	uint64_t first, next;
	struct tp_part p;
	int round;

	for (round = 0; round < 2; round++) {
		ASSERT_EQ(0, tp_start(&self->nl, noise, tp_many_events, NULL,
				      &first, &e)) TH_LOG("%s", e.msg);
		ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));
		sock = tp_dump_begun(&self->nl, &p);
		ASSERT_NE(NULL, sock);
		if (round == 0) {
			ASSERT_EQ(0, tp_start(&self->nl, noise, noise->quick,
					      NULL, &next, &e));
			ASSERT_NE(first, next);
			ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));
		} else {
			ASSERT_EQ(0, tp_reset(&self->nl, &e));
		}
		while (tp_read_part(sock, 4096, first, &p))
			;
		mnl_socket_close(sock);
		TH_LOG("%s: %u messages, then \"%s\"",
		       round ? "RESET" : "START", p.msgs, p.msg);
		EXPECT_TRUE(p.done);
		EXPECT_EQ(-ESTALE, p.err);
		EXPECT_NE(NULL, strstr(p.msg, "reset or replaced")) TH_LOG("%s", p.msg);
		EXPECT_EQ(0, p.other_run);
		EXPECT_EQ(0, p.intr);
	}
}

/*
 * A dump whose every message was built before a RESET ends cleanly: the
 * reader has it whole.  A GET_STATUS dump of a 4-CPU run fits its first
 * part; with the smallest receive buffer, peeking at that part builds
 * nothing more (netlink builds the next part when a read empties the
 * queue below half the buffer), so the RESET comes between the part and
 * the call that ends the dump.
 */
TEST_F_TIMEOUT(readers, dump_read_whole_ends_cleanly_after_a_reset, 60)
{
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	struct mnl_socket *sock = tp_raw_socket();
	struct tp_part p = { 0 };
	struct tp_nl_error e;
	char buf[4096];
	int zero = 0;

	ASSERT_NE(NULL, sock);
	ASSERT_EQ(0, tp_start(&self->nl, noise, noise->quick, NULL, NULL, &e))
		TH_LOG("%s", e.msg);
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));
	ASSERT_EQ(0, setsockopt(mnl_socket_get_fd(sock), SOL_SOCKET, SO_RCVBUF,
				&zero, sizeof(zero)));
	ASSERT_EQ(0, tp_raw_dump(sock, self->nl.family, TSCPROBE_CMD_GET_STATUS,
				 TSCPROBE_GENL_VERSION, 9));
	ASSERT_LT(0, recv(mnl_socket_get_fd(sock), buf, sizeof(buf), MSG_PEEK));
	ASSERT_EQ(0, tp_reset(&self->nl, &e)) TH_LOG("%s", e.msg);
	while (tp_read_part(sock, sizeof(buf), 0, &p))
		;
	mnl_socket_close(sock);
	EXPECT_TRUE(p.done);
	EXPECT_EQ(0, p.err) TH_LOG("%s", p.msg);
	EXPECT_EQ(1 + tp_online_count(), p.msgs);
}

/*
 * A CPU is begun in a read only if it ends there: each CPU of a finished
 * run read with reads a little larger than the largest CPU's results
 * comes in one message, where reads that size could not hold two.  Only a
 * CPU larger than a read can then be interrupted by its publication.
 */
TEST_F_TIMEOUT(readers, a_cpu_that_fits_a_read_is_never_split, 120)
{
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	unsigned int cpus = tp_online_count() - 1;
	struct tp_cpuset all_but_0 = { 0 };
	struct tp_nl_error e;
	struct tp_part p;
	size_t len;
	unsigned int i;

	ASSERT_LE(2, cpus);
	for (i = 1; i <= cpus; i++)
		tp_cpuset_add(&all_but_0, i);
	ASSERT_EQ(0, tp_start(&self->nl, noise, noise->quick, &all_but_0,
			      NULL, &e))
		TH_LOG("%s", e.msg);
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));

	ASSERT_EQ(0, tp_dump_read_by(&self->nl, 32768, &p));
	ASSERT_EQ(1 + cpus, p.msgs) TH_LOG("each CPU fits 32 KiB here");
	/* Past NLMSG_GOODSIZE, the least the kernel sizes a part by. */
	len = p.largest + 512 > 4096 ? p.largest + 512 : 4096;
	TH_LOG("%u messages, %lu bytes, the largest %u; read %zu at a time",
	       p.msgs, p.bytes, p.largest, len);
	ASSERT_LT(len, p.bytes) TH_LOG("all fit in one read: nothing to split");

	ASSERT_EQ(0, tp_dump_read_by(&self->nl, len, &p));
	EXPECT_EQ(1 + cpus, p.msgs);
	EXPECT_EQ(0, p.intr);
}

/*
 * A CPU's results read across a publication of its figures: a reader
 * stalled between two of its messages (test_dump_stalls) while the run
 * publishes gets NLM_F_DUMP_INTR, and a dump read whole does not.  The CLI
 * reads such a dump again: "show" after one stall gives results that add
 * up; after a stall in every read it says so in one line, and fails.
 */
TEST_F_TIMEOUT(readers, dump_across_a_publication_is_read_again, 300)
{
	static const struct tp_attr_val publishing[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 60000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 10000000ULL },
		{ TSCPROBE_A_IRQS, TP_NLA_U32, TSCPROBE_IRQS_ON },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 60 },
		{ 0 },
	};
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	struct tp_cpuset one = { 0 };
	unsigned int waited;
	struct mnl_socket *sock;
	char *out = NULL, *bad;
	int msgs = -1;
	struct tp_nl_error e;
	struct tp_part p;

	tp_cpuset_add(&one, 1);
	ASSERT_EQ(0, tp_start(&self->nl, noise, publishing, &one, NULL, &e))
		TH_LOG("%s", e.msg);
	/* Until the CPU's results take more than one message of the CLI's. */
	for (waited = 0; waited < 30000; waited += 500) {
		msgs = tp_dump_msgs_32k(&self->nl);
		if (msgs > 2)
			break;
		tp_sleep_ms(500);
	}
	TH_LOG("the CLI reads a run message and %d of CPU 1 after %u ms",
	       msgs - 1, waited);
	ASSERT_LT(2, msgs);

	ASSERT_EQ(0, tp_param_set("test_dump_stalls", 1));
	sock = tp_dump_begun(&self->nl, &p);
	ASSERT_NE(NULL, sock);
	while (tp_read_part(sock, 4096, 0, &p))
		;
	mnl_socket_close(sock);
	TH_LOG("a stalled dump: %u messages, %u marked interrupted",
	       p.msgs, p.intr);
	EXPECT_TRUE(p.done);
	EXPECT_EQ(0, p.err);
	EXPECT_GE(p.intr, 1);
	EXPECT_STREQ("0", tp_read_file("/sys/module/tscprobe/parameters/test_dump_stalls"));

	/* Read again by the CLI: whole, and adding up. */
	ASSERT_EQ(0, tp_param_set("test_dump_stalls", 1));
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j", &out));
	EXPECT_STREQ("0", tp_read_file("/sys/module/tscprobe/parameters/test_dump_stalls"));
	EXPECT_JQS(out, ".state == \"running\"",
		   "all(.cpus[]; (.histogram | map(.calls) | add // 0) == .samples)",
		   "all(.cpus[]; (.histogram | map(.cycles) | add // 0) == .measured_cycles)",
		   "all(.cpus[]; .events_total == (.events | length) + .events_dropped)");
	free(out);

	/* Interrupted every time: one line, and a failure. */
	ASSERT_EQ(0, tp_param_set("test_dump_stalls", 1000));
	EXPECT_EQ(TP_EXIT_FAIL, tp_sh("tscprobe show noise -j 2>&1 >/dev/null", &out));
	bad = out && strchr(out, '\n') ? strchr(out, '\n') + 1 : NULL;
	EXPECT_TRUE(bad && !*bad) TH_LOG("more than one line: %s", out);
	EXPECT_NE(NULL, strstr(out, "the results changed under each of ")) TH_LOG("%s", out);
	free(out);
	ASSERT_EQ(0, tp_param_set("test_dump_stalls", 0));
	EXPECT_EQ(0, tp_stop(&self->nl, &e));
}

/* ---- a reader that holds a CPU ---------------------------------------------------- */

/* How long the test hook holds CPU 1's lock, in ms. */
#define TP_DUMP_HOLD_MS		5000
#define TP_DUMP_HOLD_PARAM	"/sys/module/tscprobe/parameters/test_dump_hold_ms"

/* The tscprobe_window events, and nothing else, into an empty buffer. */
static int tp_trace_windows(const char *root, bool on)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "cd %s && echo 0 > tracing_on && echo > trace &&"
		 " echo %d > events/tscprobe/tscprobe_window/enable &&"
		 " echo 1 > tracing_on", root, on);
	return tp_sh(cmd, NULL);
}

/* The windows CPU 1 has ended, as traced; -1 if the trace cannot be read. */
static long tp_cpu1_windows_traced(const char *root)
{
	char cmd[256], *out = NULL;
	long n = -1;
	int ret;

	snprintf(cmd, sizeof(cmd), "grep -c 'tscprobe_window: cpu=1 ' %s/trace",
		 root);
	ret = tp_sh(cmd, &out);
	if ((ret == 0 || ret == 1) && out && *out)	/* 1: none yet */
		n = strtol(out, NULL, 10);
	free(out);
	return n;
}

/*
 * Nobody's GET_RESULT, decoded as the CLI decodes it: exits 0 when it is
 * one whole publication (tp_check_snapshot()), 1 when it is not, 2 when
 * it could not be had.
 */
static void tp_nobody_reads_whole(void)
{
	struct tp_nl_error e;
	struct tp_result r;
	struct tp_nl nl;
	char why[256];
	int torn;

	if (tp_drop_to(TP_NOBODY) || tp_nl_open(&nl) != TP_EXIT_OK)
		_exit(2);
	tp_result_init(&r, 0);
	if (tp_result_fetch(&nl, 0, &r, &e))
		_exit(2);
	torn = tp_check_snapshot(&r, why, sizeof(why));
	if (torn)
		fprintf(stderr, "nobody's read: %s\n", why);
	tp_result_free(&r);
	tp_nl_close(&nl);
	_exit(torn ? 1 : 0);
}

/* Up to @ms for the trace to show CPU 1 measuring; the count seen. */
static long tp_wait_cpu1_windows(const char *root, unsigned int ms)
{
	long n = -1;
	unsigned int waited;

	for (waited = 0; waited < ms; waited += 100) {
		n = tp_cpu1_windows_traced(root);
		if (n > 0)
			break;
		tp_sleep_ms(100);
	}
	return n;
}

/* A noise run of @vals on CPU 1 alone, traced, once CPU 1 ended a window. */
static int tp_noise_on_cpu1(struct tp_nl *nl, const struct tp_attr_val *vals,
			    const char *root, struct tp_nl_error *e)
{
	struct tp_cpuset one = { 0 };

	tp_cpuset_add(&one, 1);
	if (tp_trace_windows(root, true) ||
	    tp_start(nl, tp_kind_by_name("noise"), vals, &one, NULL, e))
		return -1;
	return tp_wait_cpu1_windows(root, 20000) > 0 ? 0 : -1;
}

/*
 * Nobody's GET_RESULT (tp_nobody_reads_whole()) holding CPU 1's lock for
 * @ms (test_dump_hold_ms) from about now: its pid, or -1 where the hold
 * never began.
 */
static pid_t tp_nobody_holds_cpu1(unsigned int ms)
{
	unsigned int waited;
	pid_t reader;

	if (tp_param_set("test_dump_hold_ms", ms))
		return -1;
	reader = fork();
	if (reader == 0)
		tp_nobody_reads_whole();
	if (reader < 0)
		return -1;
	/* The hook sets itself to 0 as its hold begins. */
	for (waited = 0; waited < 10000 &&
	     strcmp(tp_read_file(TP_DUMP_HOLD_PARAM), "0"); waited += 20)
		tp_sleep_ms(20);
	if (!strcmp(tp_read_file(TP_DUMP_HOLD_PARAM), "0"))
		return reader;
	kill(reader, SIGKILL);
	waitpid(reader, NULL, 0);
	return -1;
}

/*
 * Any user may read results, and a reader preempted while it holds a
 * CPU's lock (SCHED_IDLE, a throttled cgroup) would hold that CPU's
 * thread in its gap, unmeasured, were the thread to wait for the lock
 * between windows.  Nobody's GET_RESULT holds CPU 1's lock for
 * TP_DUMP_HOLD_MS (test_dump_hold_ms): 2 s well inside the hold, CPU 1
 * still ends windows (ftrace's tscprobe_window), nobody gets one whole
 * publication, and the run's results, published at its end whatever
 * readers hold, count every window traced.
 */
TEST_F_TIMEOUT(readers, a_reader_holding_a_cpu_never_holds_its_thread, 180)
{
	static const struct tp_attr_val long_run[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 10000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 10000000ULL },
		{ 0 },
	};
	const char *root = tp_tracefs();
	long before, during, traced, counted;
	struct tp_nl_error e = { 0 };
	int status, still;
	pid_t reader;
	char *out = NULL;

	ASSERT_NE(NULL, root);
	ASSERT_EQ(0, tp_noise_on_cpu1(&self->nl, long_run, root, &e))
		TH_LOG("%s", e.msg);
	reader = tp_nobody_holds_cpu1(TP_DUMP_HOLD_MS);
	ASSERT_LT(0, reader);
	tp_sleep_ms(500);
	before = tp_cpu1_windows_traced(root);
	tp_sleep_ms(2000);
	during = tp_cpu1_windows_traced(root) - before;
	still = waitpid(reader, &status, WNOHANG);
	TH_LOG("CPU 1 ended %ld windows in the 2 s a reader held its lock (%ld before)",
	       during, before);
	ASSERT_EQ(0, still) TH_LOG("the hold ended before the 2 s did");
	EXPECT_LT(0, during) TH_LOG("the reader held the measurement");

	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("nobody's read: status %#x", status);
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 30000));
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j", &out));
	traced = tp_cpu1_windows_traced(root);
	tp_trace_windows(root, false);
	counted = tp_jq_num(out, ".cpus[0].windows");
	TH_LOG("the run: %ld windows counted, %ld traced", counted, traced);
	EXPECT_EQ(traced, counted);
	EXPECT_JQS(out, ".stop_reason == \"completed\"",
		   "all(.cpus[]; (.incomplete or .starved) | not)",
		   "all(.cpus[]; (.histogram | map(.calls) | add // 0) == .samples)",
		   "all(.cpus[]; (.histogram | map(.cycles) | add // 0) == .measured_cycles)");
	free(out);
}

/*
 * A CPU's end publishes its last figures whatever readers hold: nobody's
 * GET_RESULT holds CPU 1's lock for 8 s from before a 3 s run's end, the
 * thread's last publication waits for it well past the run's end slack,
 * and the module's watch, which evicts a thread still there then as
 * starved, leaves an ending one alone: the CPU is complete, not starved.
 */
TEST_F_TIMEOUT(readers, a_reader_holding_a_cpu_at_its_end_never_starves_it, 120)
{
	static const struct tp_attr_val short_run[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 3000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 10000000ULL },
		{ 0 },
	};
	const char *root = tp_tracefs();
	struct tp_nl_error e = { 0 };
	char *out = NULL, *cpu1;
	int status;
	pid_t reader;

	ASSERT_NE(NULL, root);
	ASSERT_EQ(0, tp_noise_on_cpu1(&self->nl, short_run, root, &e))
		TH_LOG("%s", e.msg);
	tp_trace_windows(root, false);
	reader = tp_nobody_holds_cpu1(8000);
	ASSERT_LT(0, reader);
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 30000));
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j", &out));
	cpu1 = tp_jq_str(out, ".cpus[0] | {windows, starved, incomplete} | tojson");
	TH_LOG("CPU 1 after a reader held its lock across its end: %s", cpu1);
	free(cpu1);
	EXPECT_JQS(out, ".stop_reason == \"completed\"",
		   "all(.cpus[]; (.incomplete or .starved) | not)");
	free(out);
}

/*
 * A CPU given up before its thread ran has no figures to publish, and STOP
 * gives it up under the module's lock, which no reader may hold up: with
 * CPU 1's thread asleep 6 s before it starts (test_late_ms) and nobody's
 * GET_RESULT holding CPU 1's lock for 8 s, STOP returns at once, not when
 * the hold ends (the module's lock held as long, as before, would hold
 * every command and CPU hotplug too).  The run ends at once too, and
 * GET_STATUS says so meanwhile: it sends figures of CPU 1 copied apart
 * from its snapshot (tp_cpu_read_progress()), as RUN_FINISHED does,
 * where before both waited for the hold.  The run ends stopped, CPU 1
 * unmeasured.
 */
TEST_F_TIMEOUT(readers, a_reader_never_holds_up_a_stop, 120)
{
	static const struct tp_attr_val long_run[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 10000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 10000000ULL },
		{ 0 },
	};
	struct tp_cpuset one = { 0 };
	struct tp_nl_error e = { 0 };
	uint64_t t0, stop_ms, end_ms;
	char *out = NULL;
	int status;
	pid_t reader;

	tp_cpuset_add(&one, 1);
	ASSERT_EQ(0, tp_param_set("test_late_cpu", 1));
	ASSERT_EQ(0, tp_param_set("test_late_ms", 6000));
	ASSERT_EQ(0, tp_start(&self->nl, tp_kind_by_name("noise"), long_run,
			      &one, NULL, &e)) TH_LOG("%s", e.msg);
	reader = tp_nobody_holds_cpu1(8000);
	ASSERT_LT(0, reader);
	t0 = tp_now_ms();
	EXPECT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl, TSCPROBE_CMD_STOP, false),
				NULL, NULL, &e)) TH_LOG("%s", e.msg);
	stop_ms = tp_now_ms() - t0;
	TH_LOG("STOP took %" PRIu64 " ms while a reader held CPU 1's lock",
	       stop_ms);
	EXPECT_GT(2000, stop_ms);
	EXPECT_TRUE(tp_wait_not_running(&self->nl, 30000));
	end_ms = tp_now_ms() - t0;
	TH_LOG("the run ended, its status read, %" PRIu64 " ms after STOP",
	       end_ms);
	EXPECT_GT(2000, end_ms);
	EXPECT_EQ(0, waitpid(reader, &status, WNOHANG))
		TH_LOG("the hold ended first: the test shows nothing");
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j", &out));
	EXPECT_JQS(out, ".state == \"stopped\" and .stop_reason == \"stop requested\"",
		   ".cpus[0].samples == 0 and .cpus[0].windows == 0");
	free(out);
}

/* ---- whose names ------------------------------------------------------------------ */

/* Thread sources as a reader received them. */
struct tp_seen {
	int setup_failed;
	int join_named;		/* errno joining "events-named" (0: joined) */
	unsigned int events;	/* EVENT nests received */
	unsigned int named;	/* threads with a pid or a name */
	unsigned int withheld;	/* threads summed, or not named (WITHHELD) */
	bool finished;		/* the run's RUN_FINISHED came */
};

/*
 * A SOURCE nest: a thread named, or summed; an interrupt's thread by pid
 * or by name counts as named, one marked WITHHELD as withheld.
 */
static void tp_see_source(const struct nlattr *nest, struct tp_seen *s)
{
	const struct nlattr *tb[TSCPROBE_SOURCE_A_MAX + 1];

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_SOURCE_A_MAX))
		return;
	if (tb[TSCPROBE_SOURCE_A_THREAD_PID] || tb[TSCPROBE_SOURCE_A_THREAD_NAME])
		s->named++;
	if (tb[TSCPROBE_SOURCE_A_WITHHELD])
		s->withheld++;
	if (tp_nl_u32(tb[TSCPROBE_SOURCE_A_KIND], 99) == TSCPROBE_SOURCE_THREAD &&
	    (tb[TSCPROBE_SOURCE_A_ID] || tb[TSCPROBE_SOURCE_A_NAME]))
		s->named++;
}

/* Every SOURCE of a CPU nest: the CPU's, and its events'. */
static void tp_see_cpu(const struct nlattr *cpu, struct tp_seen *s)
{
	const struct nlattr *a, *b;

	mnl_attr_for_each_nested(a, cpu) {
		if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_SOURCE)
			tp_see_source(a, s);
		if (mnl_attr_get_type(a) != TSCPROBE_CPU_A_EVENT)
			continue;
		s->events++;
		mnl_attr_for_each_nested(b, a)
			if (mnl_attr_get_type(b) == TSCPROBE_EVENT_A_SOURCE)
				tp_see_source(b, s);
	}
}

static int tp_see_msg_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct tp_seen *s = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(*g))
		if (mnl_attr_get_type(a) == TSCPROBE_A_CPU)
			tp_see_cpu(a, s);
	if (g->cmd == TSCPROBE_CMD_RUN_FINISHED) {
		s->finished = true;
		return MNL_CB_STOP;
	}
	return MNL_CB_OK;
}

/* Notifications until the run's end (60 s at most). */
static void tp_listen(struct tp_nl *ev, struct tp_seen *s)
{
	uint64_t end = tp_now_ms() + 60000;
	int ret;

	while (!s->finished && tp_now_ms() < end) {
		ret = tp_nl_wait_event(ev, 1000, tp_see_msg_cb, s);
		if (ret < 0 && ret != -EINTR && ret != -ENOBUFS)
			break;
	}
}

/*
 * Nobody's listener: "events-named" must refuse it; it listens on
 * "events" until the run ends.  @ready gets a byte once it has joined.
 */
static void tp_nobody_listens(struct tp_seen *s, int ready)
{
	struct tp_nl ev;
	char byte = 'r';
	int id;

	if (tp_drop_to(TP_NOBODY) || tp_nl_open(&ev) != TP_EXIT_OK) {
		s->setup_failed = 1;
		_exit(1);
	}
	id = (int)ev.mcgrp_events_named;
	s->join_named = !id ? ENOENT :
		mnl_socket_setsockopt(ev.sock, NETLINK_ADD_MEMBERSHIP, &id,
				      sizeof(id)) ? errno : 0;
	if (tp_nl_join_events(&ev) || write(ready, &byte, 1) != 1)
		_exit(1);
	tp_listen(&ev, s);
	tp_nl_close(&ev);
	_exit(0);
}

/* Nobody's GET_RESULT, raw. */
static void tp_nobody_dumps(struct tp_seen *s)
{
	struct tp_nl_error e;
	struct tp_nl nl;

	if (tp_drop_to(TP_NOBODY) || tp_nl_open(&nl) != TP_EXIT_OK ||
	    tp_nl_talk(&nl, tp_nl_request(&nl, TSCPROBE_CMD_GET_RESULT, true),
		       tp_see_msg_cb, s, &e))
		s->setup_failed = 1;
	_exit(0);
}

#define TP_PREEMPT	"/sys/kernel/debug/sched/preempt"

/*
 * Full preemption where the kernel can switch to it (PREEMPT_DYNAMIC):
 * with voluntary preemption no thread runs inside a window, the measuring
 * thread yields before each.  @was gets the mode to restore ("" if none).
 */
static bool tp_preempt_full(char *was, size_t len)
{
	char *out = NULL;
	struct utsname u;
	bool ok;

	was[0] = '\0';
	if (tp_sh("cat " TP_PREEMPT " 2>/dev/null", &out)) {
		free(out);
		/* No dynamic preemption: built in, or not there at all. */
		return !uname(&u) && (strstr(u.version, "PREEMPT_RT") ||
				      strstr(u.version, "PREEMPT "));
	}
	ok = strstr(out, "(full)") || strstr(out, "(lazy)");
	if (!ok && sscanf(strchr(out, '(') ? strchr(out, '(') + 1 : "", "%31[a-z]",
			  was) == 1)
		ok = !tp_sh("echo full > " TP_PREEMPT, NULL);
	free(out);
	return ok;
}

/* A thread spinning on CPU 1, to be named there; its pid. */
static pid_t tp_hog_cpu1(void)
{
	pid_t pid = fork();
	cpu_set_t set;

	if (pid == 0) {
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(1);
		for (;;)
			;
	}
	return pid;
}

/* jq: figures of two reports of one run, @a root's and @b nobody's. */
static const char tp_same_figures[] =
	"def threads: [.[] | select(.kind == \"thread\") | .cycles] | add // 0;"
	"def total: [.[] | .cycles] | add // 0;"
	"def adds_up: ((.sources.named // []) | total) +"
	" (.sources.unexplained_cycles // 0) == .cycles;"
	"$a[0] as $r | $b[0] as $n | ($r.cpus | length) == ($n.cpus | length) and"
	" all(range($r.cpus | length); . as $i | $r.cpus[$i] as $rc |"
	"  $n.cpus[$i] as $nc |"
	"  $rc.sources.kinds == $nc.sources.kinds and"
	"  ($rc.sources.named | total) == ($nc.sources.named | total) and"
	"  ($rc.sources.named | threads) == ($nc.sources.named | threads) and"
	"  ($rc.events | length) == ($nc.events | length) and"
	"  all(range($rc.events | length); . as $j | $rc.events[$j] as $re |"
	"   $nc.events[$j] as $ne | ($re | adds_up) and ($ne | adds_up) and"
	"   (($re.sources.named // []) | threads) =="
	"   (($ne.sources.named // []) | threads)))";

/*
 * Threads' pids and names go to readers with CAP_NET_ADMIN only.  Root
 * runs noise on CPU 1 with interrupts on beside a spinning thread; nobody
 * reads the results (raw, and with the CLI) and listens to the events: no
 * thread's pid or name anywhere, the threads summed instead; root reads
 * the same and sees the thread named.  Every figure adds up the same.
 */
TEST_F_TIMEOUT(readers, threads_are_named_only_to_cap_net_admin, 300)
{
	struct tp_seen *seen = mmap(NULL, 3 * sizeof(*seen),
				    PROT_READ | PROT_WRITE,
				    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	struct tp_seen *nobody_ev = &seen[0], *nobody_raw = &seen[1];
	struct tp_seen root_ev = { 0 };
	char was[32], cmd[4096], *out = NULL;
	int ready[2], status;
	struct tp_nl ev;
	pid_t hog, listener, pid;
	char byte;

	ASSERT_NE(MAP_FAILED, seen);
	memset(seen, 0, 3 * sizeof(*seen));
	if (!tp_preempt_full(was, sizeof(was)))
		SKIP(return, "no full preemption: no thread runs inside a window");
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&ev));
	ASSERT_EQ(0, tp_nl_join_events(&ev));
	ASSERT_EQ(0, pipe(ready));
	listener = fork();
	if (listener == 0)
		tp_nobody_listens(nobody_ev, ready[1]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	hog = tp_hog_cpu1();
	ASSERT_LT(0, hog);
	EXPECT_EQ(0, tp_sh("tscprobe noise -c 1 --irqs on -d 1s -q > /dev/null", NULL));
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	if (was[0]) {
		snprintf(cmd, sizeof(cmd), "echo %s > " TP_PREEMPT, was);
		tp_sh(cmd, NULL);
	}
	tp_listen(&ev, &root_ev);
	tp_nl_close(&ev);
	ASSERT_EQ(listener, waitpid(listener, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* The events: named to root (where the group exists), summed to nobody. */
	TH_LOG("events: root heard %u, %u threads named, %u summed; nobody heard %u, %u named, %u summed; nobody joining events-named: %s",
	       root_ev.events, root_ev.named, root_ev.withheld,
	       nobody_ev->events, nobody_ev->named, nobody_ev->withheld,
	       strerror(nobody_ev->join_named));
	EXPECT_TRUE(nobody_ev->finished);
	EXPECT_LT(0, nobody_ev->events);
	EXPECT_EQ(0, nobody_ev->named);
	EXPECT_LT(0, nobody_ev->withheld);
	if (self->nl.mcgrp_events_named) {
		EXPECT_EQ(EPERM, nobody_ev->join_named);
		EXPECT_LT(0, root_ev.named);
		EXPECT_EQ(0, root_ev.withheld);
	} else {
		EXPECT_EQ(0, root_ev.named);
	}

	/* GET_RESULT, raw. */
	pid = fork();
	if (pid == 0)
		tp_nobody_dumps(nobody_raw);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, nobody_raw->setup_failed);
	EXPECT_EQ(0, nobody_raw->named);
	EXPECT_LT(0, nobody_raw->withheld);

	/* The CLI's JSON. */
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j > /tmp/root.json", NULL));
	ASSERT_EQ(0, tp_sh("vm-runas 65534 tscprobe show noise -j > /tmp/nobody.json",
			   NULL));
	ASSERT_EQ(0, tp_sh("cat /tmp/nobody.json", &out));
	EXPECT_JQS(out,
		   "[.cpus[] | .sources.named[], .events[].sources.named[]? |"
		   " select(.kind == \"thread\")] | length > 0 and"
		   " all(.withheld == true and .id == null and .name == null)",
		   "all(.cpus[] | .sources.named[], .events[].sources.named[]?;"
		   " .thread == null or"
		   " (.withheld and .thread.pid == null and .thread.name == null))");
	free(out);
	snprintf(cmd, sizeof(cmd), "jq -e --argjson hog %d '[.cpus[].sources.named[] |"
		 " select(.kind == \"thread\" and .id == $hog and .name == \"test_readers\")]"
		 " | length == 1' /tmp/root.json >/dev/null", hog);
	EXPECT_EQ(0, tp_sh(cmd, NULL)) TH_LOG("root does not see thread %d named", hog);
	snprintf(cmd, sizeof(cmd),
		 "jq -n -e --slurpfile a /tmp/root.json --slurpfile b /tmp/nobody.json '%s' >/dev/null",
		 tp_same_figures);
	EXPECT_EQ(0, tp_sh(cmd, NULL)) TH_LOG("root's and nobody's figures differ");
	munmap(seen, 3 * sizeof(*seen));
}

TP_HARNESS_MAIN

/* ---- whose count ---------------------------------------------------------------- */

/*
 * Nobody's listener on "events" that asks for broadcast errors and reads
 * nothing, with the smallest receive buffer: every notification past the
 * first fails for it.  @ready gets a byte once it has joined; it leaves
 * when @go gets one.
 */
static void tp_nobody_reads_nothing(int ready, int go)
{
	int one = 1, least = 0;
	struct tp_nl ev;
	char byte = 'r';
	int fd;

	if (tp_drop_to(TP_NOBODY) || tp_nl_open(&ev) != TP_EXIT_OK)
		_exit(1);
	fd = mnl_socket_get_fd(ev.sock);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &least, sizeof(least)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_BROADCAST_ERROR, &one,
		       sizeof(one)) ||
	    tp_nl_join_events(&ev) || write(ready, &byte, 1) != 1)
		_exit(1);
	if (read(go, &byte, 1) != 1)
		_exit(1);
	tp_nl_close(&ev);
	_exit(0);
}

/*
 * A reader of the open group that reads nothing must not make the count
 * of the one that started the run false: root, on "events-named" and
 * reading as the run goes, receives per CPU EVENTS_TOTAL -
 * EVENTS_NOT_NOTIFIED events, exactly, while nobody's listener on
 * "events" overflows at each notification.
 */
TEST_F_TIMEOUT(readers, a_listener_that_reads_nothing_leaves_the_count_true, 120)
{
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	int ready[2], go[2], status;
	struct tp_seen root = { 0 };
	struct tp_nl_error e;
	char *out = NULL, *sum;
	struct tp_nl ev;
	pid_t listener;
	char byte = 'g';

	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&ev));
	if (!ev.mcgrp_events_named) {
		tp_nl_close(&ev);
		SKIP(return, "no events-named group: one group counts for all");
	}
	ASSERT_EQ(0, tp_nl_join_events(&ev));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(go));
	listener = fork();
	if (listener == 0)
		tp_nobody_reads_nothing(ready[1], go[0]);
	ASSERT_EQ(1, read(ready[0], &byte, 1));
	ASSERT_EQ(0, tp_start(&self->nl, noise, tp_many_events, NULL, NULL, &e))
		TH_LOG("%s", e.msg);
	tp_listen(&ev, &root);
	tp_nl_close(&ev);
	EXPECT_EQ(1, write(go[1], &byte, 1));
	ASSERT_EQ(listener, waitpid(listener, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_TRUE(root.finished);
	ASSERT_EQ(0, tp_sh("tscprobe show noise -j", &out));
	sum = tp_jq_str(out, "[.cpus[] | .events_total - .events_not_notified] | add");
	TH_LOG("root heard %u events; the results count %s notified", root.events,
	       sum);
	ASSERT_NE(NULL, sum);
	EXPECT_LT(0, root.events);
	EXPECT_EQ(root.events, strtoul(sum, NULL, 10));
	free(sum);
	free(out);
}
