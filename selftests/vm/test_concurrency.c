// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency, in the guest, for every kind of tp_kinds.h: eight clients
 * START at the same instant and exactly one wins, the others hear what is
 * running; eight STOPs race; eight clients do everything at once; and
 * readers (GET_RESULT dumps, GET_STATUS, debugfs) in a loop during a noise
 * run and during a cache run only ever see whole snapshots.  And the
 * netlink surface under load: an error message is not recycled by a flood
 * of others before its ack is sent, GET_STATUS's reply does not grow with
 * the CPUs (they come in a dump), and STOP returns without waiting for
 * the run.  (A dump cut by a new START: test_readers.c.)
 *
 * The property a torn read breaks: the module publishes a CPU's state
 * between two windows, as a whole, and at every publication the calls of a
 * series' buckets add up to its count and their cycles to its sum, every
 * bucket's mean lies inside the bucket, and (noise) the sum is the measured
 * time.  The live state breaks the sums within a window (the count is
 * added at the window's end), and two publications mixed break them too.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "tp_hardening.h"

#define TP_CLIENTS	8
#define TP_READERS	7

struct tp_client_result {
	int err;
	uint64_t run_id;
	char msg[256];
};

/**
 * struct tp_shared - what the children report, in shared memory
 * @barrier: releases the clients together
 * @c: one result per client
 * @reads: reads done by each reader
 * @running_reads: of those, while the run was going on
 * @bad: reads that failed the check
 * @why: the first failure
 */
struct tp_shared {
	pthread_barrier_t barrier;
	struct tp_client_result c[TP_CLIENTS];
	unsigned long reads[TP_READERS];
	unsigned long running_reads[TP_READERS];
	unsigned long bad[TP_READERS];
	char why[TP_READERS][256];
};

static struct tp_shared *tp_shared_new(unsigned int parties)
{
	pthread_barrierattr_t a;
	struct tp_shared *s;

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	memset(s, 0, sizeof(*s));
	pthread_barrierattr_init(&a);
	pthread_barrierattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&s->barrier, &a, parties);
	pthread_barrierattr_destroy(&a);
	return s;
}

static void tp_shared_free(struct tp_shared *s)
{
	pthread_barrier_destroy(&s->barrier);
	munmap(s, sizeof(*s));
}

/* The kinds the module runs, from the table. */
static unsigned int tp_supported(struct tp_nl *nl,
				 const struct tp_kind_desc **out)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < TP_NR_KINDS; i++)
		if (tp_kind_supported(nl, &tp_kinds[i]))
			out[n++] = &tp_kinds[i];
	return n;
}

static void tp_wait_children(pid_t *pids, unsigned int n)
{
	unsigned int i;
	int status;

	for (i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], &status, 0);
}

FIXTURE(conc) {
	struct tp_nl nl;
	const struct tp_kind_desc *kinds[TSCPROBE_KIND_MAX + 1];
	unsigned int nkinds;
};

FIXTURE_SETUP(conc)
{
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	self->nkinds = tp_supported(&self->nl, self->kinds);
	ASSERT_GT(self->nkinds, 0);
}

FIXTURE_TEARDOWN(conc)
{
	struct tp_nl_error e;

	tp_stop(&self->nl, &e);
	tp_nl_close(&self->nl);
}

/*
 * Client @i: wait for the others, then START a lasting run of its kind,
 * sent again while the last round's noise run detaches its probes
 * (EAGAIN, tp_start()): all eight then race the detach's end.
 */
static void tp_start_client(struct tp_shared *s, unsigned int i,
			    const struct tp_kind_desc *k)
{
	struct tp_client_result *r = &s->c[i];
	struct tp_nl_error e = { 0 };
	struct tp_nl *nl = calloc(1, sizeof(*nl));

	if (!nl || tp_nl_open(nl) != TP_EXIT_OK) {
		r->err = -1000;
		pthread_barrier_wait(&s->barrier);
		_exit(1);
	}
	pthread_barrier_wait(&s->barrier);
	r->err = tp_start(nl, k, k->lasting, NULL, &r->run_id, &e);
	snprintf(r->msg, sizeof(r->msg), "%s", e.msg);
	_exit(0);
}

/*
 * Three rounds: eight clients (kinds taken in turn from the table) START
 * at once.  One wins; seven get EBUSY naming the winner's kind and run id.
 */
TEST_F_TIMEOUT(conc, eight_starts_one_wins, 120)
{
	struct tp_shared *s = tp_shared_new(TP_CLIENTS);
	pid_t pids[TP_CLIENTS];
	struct tp_nl_error e;
	unsigned int round, i;

	ASSERT_NE(NULL, s);
	for (round = 0; round < 3; round++) {
		const struct tp_kind_desc *winner = NULL;
		unsigned int wins = 0, busy = 0;
		uint64_t id = 0;
		char want[128];

		memset(s->c, 0, sizeof(s->c));
		for (i = 0; i < TP_CLIENTS; i++) {
			pids[i] = fork();
			if (pids[i] == 0)
				tp_start_client(s, i, self->kinds[(i + round) %
								  self->nkinds]);
		}
		tp_wait_children(pids, TP_CLIENTS);
		for (i = 0; i < TP_CLIENTS; i++) {
			if (s->c[i].err)
				continue;
			wins++;
			id = s->c[i].run_id;
			winner = self->kinds[(i + round) % self->nkinds];
		}
		ASSERT_EQ(1, wins) {
			for (i = 0; i < TP_CLIENTS; i++)
				TH_LOG("client %u: %d '%s'", i, s->c[i].err,
				       s->c[i].msg);
		}
		if (tp_kernel_formats_extack())
			snprintf(want, sizeof(want),
				 "a %s run (id %" PRIu64 ") is in progress",
				 winner->name, id);
		else
			snprintf(want, sizeof(want), "a run is in progress");
		for (i = 0; i < TP_CLIENTS; i++) {
			if (!s->c[i].err)
				continue;
			EXPECT_EQ(-EBUSY, s->c[i].err) TH_LOG("client %u: %s", i,
							      s->c[i].msg);
			EXPECT_NE(NULL, strstr(s->c[i].msg, want))
				TH_LOG("client %u: '%s', want '%s'", i,
				       s->c[i].msg, want);
			busy++;
		}
		EXPECT_EQ(TP_CLIENTS - 1, busy);
		EXPECT_EQ(id, tp_status(&self->nl).run_id);
		EXPECT_EQ(0, tp_stop(&self->nl, &e));
	}
	tp_shared_free(s);
}

static void tp_stop_client(struct tp_shared *s, unsigned int i)
{
	struct tp_nl_error e = { 0 };
	struct tp_nl *nl = calloc(1, sizeof(*nl));
	struct nlmsghdr *nlh;

	if (!nl || tp_nl_open(nl) != TP_EXIT_OK) {
		s->c[i].err = -1000;
		pthread_barrier_wait(&s->barrier);
		_exit(1);
	}
	nlh = tp_nl_request(nl, TSCPROBE_CMD_STOP, false);
	pthread_barrier_wait(&s->barrier);
	s->c[i].err = tp_nl_talk(nl, nlh, NULL, NULL, &e);
	snprintf(s->c[i].msg, sizeof(s->c[i].msg), "%s", e.msg);
	_exit(0);
}

/* Eight STOPs at once: each ends the run or finds none; none hangs. */
TEST_F_TIMEOUT(conc, eight_stops_race, 120)
{
	struct tp_shared *s = tp_shared_new(TP_CLIENTS);
	pid_t pids[TP_CLIENTS];
	unsigned int i, j, stopped;
	struct tp_nl_error e;
	struct tp_status st;

	ASSERT_NE(NULL, s);
	for (j = 0; j < self->nkinds; j++) {
		const struct tp_kind_desc *k = self->kinds[j];

		ASSERT_EQ(0, tp_start(&self->nl, k, k->lasting, NULL, NULL, &e));
		tp_sleep_ms(200);
		memset(s->c, 0, sizeof(s->c));
		for (i = 0; i < TP_CLIENTS; i++) {
			pids[i] = fork();
			if (pids[i] == 0)
				tp_stop_client(s, i);
		}
		tp_wait_children(pids, TP_CLIENTS);
		stopped = 0;
		for (i = 0; i < TP_CLIENTS; i++) {
			EXPECT_TRUE(s->c[i].err == 0 || s->c[i].err == -ENOENT)
				TH_LOG("%s: client %u: %s %s", k->name, i,
				       strerror(-s->c[i].err), s->c[i].msg);
			stopped += !s->c[i].err;
		}
		EXPECT_GE(stopped, 1);
		/* STOP returns at once; the run ends within a window or so. */
		EXPECT_TRUE(tp_wait_not_running(&self->nl, 15000));
		st = tp_status(&self->nl);
		EXPECT_EQ(TSCPROBE_STATE_STOPPED, st.state);
		EXPECT_EQ(TSCPROBE_STOP_REQUESTED, st.reason);
	}
	tp_shared_free(s);
}

/*
 * Eight clients, each doing 25 random requests as fast as it can: START
 * (quick or lasting, any kind), STOP, RESET, GET_STATUS, GET_RESULT.  Only
 * the errors each request documents; every dump a whole snapshot.
 */
static void tp_chaos_client(struct tp_shared *s, unsigned int i,
			    const struct tp_kind_desc *const *kinds,
			    unsigned int nkinds, uint64_t seed)
{
	struct tp_client_result *r = &s->c[i];
	struct tp_nl *nl = calloc(1, sizeof(*nl));
	struct tp_nl_error e;
	struct tp_result res;
	char why[200];
	unsigned int n;
	int err;

	if (!nl || tp_nl_open(nl) != TP_EXIT_OK) {
		r->err = -1000;
		pthread_barrier_wait(&s->barrier);
		_exit(1);
	}
	pthread_barrier_wait(&s->barrier);
	for (n = 0; n < 25 && !r->err; n++) {
		const struct tp_kind_desc *k = kinds[tp_rng_below(&seed, nkinds)];

		switch (tp_rng_below(&seed, 6)) {
		case 0:
			err = tp_start(nl, k, tp_rng_pct(&seed, 50) ? k->quick :
				       k->lasting, NULL, NULL, &e);
			if (err && err != -EBUSY)
				r->err = err;
			break;
		case 1:
			err = tp_stop(nl, &e);
			if (err && err != -ENOENT)
				r->err = err;
			break;
		case 2:
			err = tp_reset(nl, &e);
			if (err && err != -EBUSY)
				r->err = err;
			break;
		case 3:
			if (tp_status(nl).state > TSCPROBE_STATE_MAX)
				r->err = -EPROTO;
			break;
		default:
			tp_result_init(&res, 0);
			err = tp_result_fetch(nl, 0, &res, &e);
			/* ESTALE: another client's RESET or START came midway. */
			if (err && err != -ENOENT && err != -ESTALE)
				r->err = err;
			else if (!err && tp_check_snapshot(&res, why, sizeof(why))) {
				r->err = -EBADMSG;
				snprintf(e.msg, sizeof(e.msg), "%s", why);
			}
			tp_result_free(&res);
		}
		if (r->err)
			snprintf(r->msg, sizeof(r->msg), "request %u: %.200s", n,
				 e.msg);
	}
	_exit(0);
}

TEST_F_TIMEOUT(conc, eight_clients_do_everything, 180)
{
	struct tp_shared *s = tp_shared_new(TP_CLIENTS);
	uint64_t seed = tp_seed("TP_CONC_SEED");
	pid_t pids[TP_CLIENTS];
	struct tp_nl_error e;
	unsigned int i;
	char *out = NULL;
	char cmd[256];

	ASSERT_NE(NULL, s);
	TH_LOG("seed 0x%" PRIx64 " (TP_CONC_SEED)", seed);
	for (i = 0; i < TP_CLIENTS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			tp_chaos_client(s, i, self->kinds, self->nkinds,
					seed + i * 0x1234567ULL);
	}
	tp_wait_children(pids, TP_CLIENTS);
	for (i = 0; i < TP_CLIENTS; i++) {
		const struct tp_client_result *r = &s->c[i];

		EXPECT_EQ(0, r->err) TH_LOG("client %u: %s: %s", i,
					    strerror(-r->err), r->msg);
	}
	tp_stop(&self->nl, &e);
	EXPECT_NE(TSCPROBE_STATE_RUNNING, tp_status(&self->nl).state);
	/* And then the module still runs a measurement normally. */
	snprintf(cmd, sizeof(cmd), "tscprobe %s -j", self->kinds[0]->cli_quick);
	ASSERT_EQ(0, tp_sh(cmd, &out));
	EXPECT_EQ(NULL, tp_kind_check_json(self->kinds[0], out));
	free(out);
	tp_shared_free(s);
}

/* ---- readers during a run ------------------------------------------------- */

/* Per-CPU figures that only grow during a run. */
struct tp_progress {
	unsigned int cpu;
	uint64_t samples;
	uint64_t windows;
	uint64_t measured;
};

/* Later reads never go back; 0 when they do not. */
static int tp_monotonic(struct tp_progress *last, unsigned int *nlast,
			const struct tp_result *r, char *why, size_t len)
{
	unsigned int i, j;

	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];
		uint64_t samples = 0;

		for (j = 1; j <= TSCPROBE_SERIES_MAX; j++)
			samples += c->series[j].stats.count;
		for (j = 0; j < *nlast && last[j].cpu != c->cpu; j++)
			;
		if (j == *nlast) {
			if (*nlast == 64)
				continue;
			/* A CPU seen for the first time starts from zero. */
			last[(*nlast)++] = (struct tp_progress){ .cpu = c->cpu };
		}
		if (samples < last[j].samples || c->windows < last[j].windows ||
		    c->measured_cycles < last[j].measured)
			return tp_why(why, len, "cpu %u went back: samples %" PRIu64 " < %" PRIu64 " or windows %" PRIu64 " < %" PRIu64,
				      c->cpu, samples, last[j].samples,
				      c->windows, last[j].windows);
		last[j].samples = samples;
		last[j].windows = c->windows;
		last[j].measured = c->measured_cycles;
	}
	return 0;
}

static void tp_reader_fail(struct tp_shared *s, unsigned int i, const char *why)
{
	if (!s->bad[i]++)
		snprintf(s->why[i], sizeof(s->why[i]), "%s", why);
}

/*
 * A netlink reader's socket, opened before the start barrier; a reader
 * that cannot open one fails, still meeting the barrier so the others go.
 */
static struct tp_nl *tp_reader_socket(struct tp_shared *s, unsigned int i)
{
	struct tp_nl *nl = calloc(1, sizeof(*nl));

	if (!nl || tp_nl_open(nl) != TP_EXIT_OK) {
		tp_reader_fail(s, i, "cannot open a netlink socket");
		pthread_barrier_wait(&s->barrier);
		_exit(1);
	}
	pthread_barrier_wait(&s->barrier);
	return nl;
}

/* Count a netlink read and free it; false once the run has ended. */
static bool tp_reader_counted(struct tp_shared *s, unsigned int i,
			      struct tp_result *r)
{
	bool running = r->state == TSCPROBE_STATE_RUNNING;

	s->reads[i]++;
	if (running)
		s->running_reads[i]++;
	tp_result_free(r);
	return running;
}

/* A GET_RESULT dump reader: every dump is a whole snapshot. */
static void tp_dump_reader(struct tp_shared *s, unsigned int i, uint64_t id)
{
	struct tp_nl *nl = tp_reader_socket(s, i);
	struct tp_progress last[64];
	unsigned int nlast = 0;
	struct tp_nl_error e;
	struct tp_result r;
	char why[256];

	for (;;) {
		tp_result_init(&r, 0);
		if (tp_result_fetch(nl, id, &r, &e)) {
			snprintf(why, sizeof(why), "dump: %.200s", e.msg);
			tp_reader_fail(s, i, why);
		} else if (tp_check_snapshot(&r, why, sizeof(why)) ||
			   tp_monotonic(last, &nlast, &r, why, sizeof(why))) {
			tp_reader_fail(s, i, why);
		}
		if (!tp_reader_counted(s, i, &r))
			break;
	}
	_exit(0);
}

/* A GET_STATUS reader: progress only grows, measured time within bounds. */
static void tp_status_reader(struct tp_shared *s, unsigned int i)
{
	struct tp_nl *nl = tp_reader_socket(s, i);
	struct tp_progress last[64];
	unsigned int nlast = 0, c;
	struct tp_nl_error e;
	struct tp_result r;
	char why[256];

	for (;;) {
		tp_result_init(&r, 0);
		if (tp_fetch_status(nl, &r, &e))
			tp_reader_fail(s, i, e.msg);
		if (tp_monotonic(last, &nlast, &r, why, sizeof(why)))
			tp_reader_fail(s, i, why);
		for (c = 0; c < r.ncpus; c++) {
			const struct tp_cpu_res *cr = &r.cpu[c];
			const struct tp_stats *gap =
				&cr->series[TSCPROBE_SERIES_GAP].stats;

			if (r.kind == TSCPROBE_KIND_NOISE &&
			    (cr->measured_cycles > cr->wall_cycles ||
			     (unsigned __int128)gap->count * gap->max <
			     cr->measured_cycles)) {
				snprintf(why, sizeof(why),
					 "cpu %u: measured %" PRIu64 " wall %" PRIu64 " count %" PRIu64 " max %" PRIu64,
					 cr->cpu, cr->measured_cycles,
					 cr->wall_cycles, gap->count, gap->max);
				tp_reader_fail(s, i, why);
			}
		}
		if (!tp_reader_counted(s, i, &r))
			break;
	}
	_exit(0);
}

/*
 * The noise debugfs file: per CPU, the calls of its log2 table add up to
 * its samples (noise only: the other kinds' files have their own formats).
 */
static int tp_debugfs_noise_check(const char *text, char *why, size_t len)
{
	const char *p = strstr(text, "\ncpu ");

	while (p) {
		unsigned long long samples, calls, sum = 0;
		const char *next = strstr(p + 1, "\ncpu ");
		const char *q;
		unsigned int cpu;

		if (sscanf(p, "\ncpu %u: samples=%llu", &cpu, &samples) != 2)
			return tp_why(why, len, "debugfs: unreadable cpu line");
		for (q = strstr(p, " calls="); q && (!next || q < next);
		     q = strstr(q + 1, " calls=")) {
			if (sscanf(q, " calls=%llu", &calls) != 1)
				return tp_why(why, len, "debugfs: unreadable row");
			sum += calls;
		}
		if (sum != samples)
			return tp_why(why, len,
				      "debugfs cpu %u: table has %llu calls, samples=%llu",
				      cpu, sum, samples);
		p = next;
	}
	return 0;
}

static void tp_debugfs_reader(struct tp_shared *s, unsigned int i)
{
	struct tp_nl *nl = calloc(1, sizeof(*nl));
	char *text = malloc(1 << 20);
	char why[256];
	uint32_t state;
	ssize_t n;
	int fd;

	if (!nl || !text || tp_nl_open(nl) != TP_EXIT_OK) {
		tp_reader_fail(s, i, "cannot open a netlink socket");
		pthread_barrier_wait(&s->barrier);
		_exit(1);
	}
	pthread_barrier_wait(&s->barrier);
	do {
		state = tp_status(nl).state;
		fd = open("/sys/kernel/debug/tscprobe/noise", O_RDONLY);
		n = fd < 0 ? -1 : read(fd, text, (1 << 20) - 1);
		if (fd >= 0)
			close(fd);
		if (n < 0) {
			tp_reader_fail(s, i, "cannot read debugfs");
			break;
		}
		text[n] = '\0';
		if (tp_debugfs_noise_check(text, why, sizeof(why)))
			tp_reader_fail(s, i, why);
		s->reads[i]++;
		if (state == TSCPROBE_STATE_RUNNING)
			s->running_reads[i]++;
	} while (state == TSCPROBE_STATE_RUNNING);
	_exit(0);
}

/*
 * Four dump readers, two status readers and (noise) a debugfs reader or
 * (cache) a third status reader, all in a loop while a run of @k
 * publishes (narrow windows: many publications), each until the run has
 * ended.
 */
static void tp_readers_during(struct __test_metadata *_metadata,
			      struct tp_nl *nl, const struct tp_kind_desc *k,
			      const struct tp_attr_val *params)
{
	struct tp_shared *s = tp_shared_new(TP_READERS + 1);
	unsigned long reads = 0, running = 0;
	pid_t pids[TP_READERS];
	struct tp_nl_error e;
	unsigned int i;
	uint64_t id;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, tp_start(nl, k, params, NULL, &id, &e))
		TH_LOG("%s", e.msg);
	for (i = 0; i < TP_READERS; i++) {
		pids[i] = fork();
		if (pids[i] != 0)
			continue;
		if (i < 4)
			tp_dump_reader(s, i, id);
		else if (i < 6 || k->kind != TSCPROBE_KIND_NOISE)
			tp_status_reader(s, i);
		else
			tp_debugfs_reader(s, i);
	}
	pthread_barrier_wait(&s->barrier);
	tp_wait_children(pids, TP_READERS);
	for (i = 0; i < TP_READERS; i++) {
		EXPECT_EQ(0, s->bad[i]) TH_LOG("%s reader %u: %lu of %lu reads bad; first: %s",
					       k->name, i, s->bad[i], s->reads[i], s->why[i]);
		reads += s->reads[i];
		running += s->running_reads[i];
	}
	TH_LOG("%s: %lu reads, %lu of them during the run", k->name, reads,
	       running);
	/*
	 * Enough reads while the run published for the check to mean
	 * something, and a whole dump by each dump reader: one interrupted
	 * by a publication reads again, spread out (tp_result_fetch()), and
	 * on the debug kernel under load got 0 to 4 through during the run.
	 */
	EXPECT_GE(running, 40);
	for (i = 0; i < 4; i++) {
		EXPECT_GE(s->running_reads[i], 1) TH_LOG("dump reader %u", i);
	}
	tp_shared_free(s);
}

/* Noise: a window (2 ms here) ends with a publication. */
TEST_F_TIMEOUT(conc, readers_see_whole_snapshots, 180)
{
	static const struct tp_attr_val narrow[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 6000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 2000000ULL },
		{ 0 },
	};

	tp_readers_during(_metadata, &self->nl, tp_kind_by_name("noise"),
			  narrow);
}

/*
 * Cache: three histograms a CPU, published after every window of rounds
 * (2 ms here); 2e6 rounds last about 5 s under TCG with the readers.
 */
TEST_F_TIMEOUT(conc, cache_readers_see_whole_snapshots, 180)
{
	static const struct tp_attr_val narrow[] = {
		{ TSCPROBE_A_ROUNDS, TP_NLA_U64, 2000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 2000000ULL },
		{ 0 },
	};

	tp_readers_during(_metadata, &self->nl, tp_kind_by_name("cache"),
			  narrow);
}

/* ---- the netlink surface ---------------------------------------------------- */

/* A GET_RESULT dump asking for run @want: its error and message. */
static int tp_result_for(struct tp_nl *nl, uint64_t want, struct tp_nl_error *e)
{
	struct nlmsghdr *nlh = tp_nl_request(nl, TSCPROBE_CMD_GET_RESULT, true);

	mnl_attr_put_u64(nlh, TSCPROBE_A_RUN_ID, want);
	return tp_nl_talk(nl, nlh, NULL, NULL, e);
}

/*
 * A START refused with a message naming an offline CPU, whose ack the
 * module's test_delay_ms hook holds back half a second, while another
 * client floods the module with 400 refusals of its own, each with a
 * message of its own (a GET_RESULT of a run that is not there).  The ack
 * must carry the START's message: a message kept in storage that other
 * requests reuse (a ring of formatted messages) would come back as one
 * of the flood's.
 */
TEST_F_TIMEOUT(conc, error_messages_outlive_a_flood, 120)
{
	struct tp_shared *s = tp_shared_new(2);
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	unsigned int n = tp_online_count(), i, round;
	struct tp_cpuset gone = { 0 };
	struct tp_nl_error e;
	pid_t pid;

	ASSERT_NE(NULL, s);
	if (n < 2)
		SKIP(return, "needs 2 CPUs");
	/* Results to ask for, under another run id. */
	ASSERT_EQ(0, tp_start(&self->nl, noise, noise->quick, NULL, NULL, &e));
	ASSERT_TRUE(tp_wait_not_running(&self->nl, 20000));
	ASSERT_EQ(0, tp_cpu_set_online(n - 1, false));
	tp_cpuset_add(&gone, n - 1);
	ASSERT_EQ(0, tp_param_set("test_delay_ms", 500));
	for (round = 0; round < 3; round++) {
		memset(s->c, 0, sizeof(s->c));
		pid = fork();
		if (pid == 0) {
			struct tp_nl *nl = calloc(1, sizeof(*nl));
			struct tp_nl_error fe;

			if (!nl || tp_nl_open(nl) != TP_EXIT_OK)
				_exit(1);
			pthread_barrier_wait(&s->barrier);
			tp_sleep_ms(50);
			for (i = 0; i < 400; i++)
				tp_result_for(nl, 1000000 + i, &fe);
			snprintf(s->c[1].msg, sizeof(s->c[1].msg), "%s", fe.msg);
			_exit(0);
		}
		pthread_barrier_wait(&s->barrier);
		memset(&e, 0, sizeof(e));
		s->c[0].err = tp_start(&self->nl, noise, noise->quick, &gone,
				       NULL, &e);
		tp_wait_children(&pid, 1);
		TH_LOG("round %u: START: \"%s\"; the flood's last: \"%s\"", round,
		       e.msg, s->c[1].msg);
		EXPECT_EQ(-EINVAL, s->c[0].err);
		EXPECT_NE(NULL, strstr(e.msg, tp_kernel_formats_extack() ?
				       "is offline" : "a CPU of the set is offline"))
			TH_LOG("round %u: \"%s\"", round, e.msg);
		EXPECT_NE(NULL, strstr(s->c[1].msg, "another run"));
	}
	EXPECT_EQ(0, tp_param_set("test_delay_ms", 0));
	EXPECT_EQ(0, tp_cpu_set_online(n - 1, true));
	tp_shared_free(s);
}

/* Messages of a GET_STATUS, and the CPU nests in them. */
struct tp_status_msgs {
	unsigned int msgs;
	unsigned int cpus;
	unsigned int with_run;
	unsigned int with_progress;
	size_t largest;
};

static int tp_status_msgs_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tp_status_msgs *m = data;
	const struct nlattr *a;

	m->msgs++;
	if (nlh->nlmsg_len > m->largest)
		m->largest = nlh->nlmsg_len;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		const struct nlattr *c[TSCPROBE_CPU_A_MAX + 1];

		if (mnl_attr_get_type(a) == TSCPROBE_A_KIND)
			m->with_run++;
		if (mnl_attr_get_type(a) != TSCPROBE_A_CPU)
			continue;
		m->cpus++;
		if (!tp_nl_parse_nested(a, c, TSCPROBE_CPU_A_MAX) &&
		    c[TSCPROBE_CPU_A_FLAGS] && c[TSCPROBE_CPU_A_WINDOWS])
			m->with_progress++;
	}
	return MNL_CB_OK;
}

/*
 * GET_STATUS, open to every user, answers a do with the run message alone,
 * one page whatever the number of CPUs; every CPU's progress comes in a
 * dump, one message a CPU, which netlink sizes to the reader.  The CLI's
 * status shows every CPU.
 */
TEST_F_TIMEOUT(conc, status_reply_does_not_grow_with_cpus, 60)
{
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	unsigned int n = tp_online_count();
	struct tp_status_msgs m;
	struct tp_nl_error e;
	char *out = NULL;

	ASSERT_EQ(0, tp_start(&self->nl, noise, noise->lasting, NULL, NULL, &e));
	tp_sleep_ms(300);
	memset(&m, 0, sizeof(m));
	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl, TSCPROBE_CMD_GET_STATUS, false),
				tp_status_msgs_cb, &m, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(1, m.msgs);
	EXPECT_EQ(1, m.with_run);
	EXPECT_EQ(0, m.cpus) TH_LOG("the do reply carries CPU nests");
	EXPECT_LE(m.largest, 4096);
	memset(&m, 0, sizeof(m));
	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl, TSCPROBE_CMD_GET_STATUS, true),
				tp_status_msgs_cb, &m, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(1 + n, m.msgs);
	EXPECT_EQ(1, m.with_run);
	EXPECT_EQ(n, m.cpus);
	EXPECT_EQ(n, m.with_progress);
	ASSERT_EQ(0, tp_sh("tscprobe status -j", &out));
	EXPECT_JQ(out, ".state == \"running\"");
	EXPECT_EQ(n, (unsigned int)tp_jq_num(out, ".cpus | length")) TH_LOG("%s", out);
	free(out);
	EXPECT_EQ(0, tp_stop(&self->nl, &e));
}

/*
 * STOP asks and returns: with windows of 1 s, the run is still going when
 * STOP has returned, and ends within the window.  (A STOP that waited
 * held generic netlink's cb_lock meanwhile, and with it every family's
 * registration on the machine.)  The CLI's stop waits for the end itself.
 */
TEST_F_TIMEOUT(conc, stop_returns_at_once, 120)
{
	static const struct tp_attr_val wide[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 60000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 1000000000ULL },
		{ 0 },
	};
	const struct tp_kind_desc *noise = tp_kind_by_name("noise");
	struct tp_cpuset one = { 0 };
	struct tp_nl_error e;
	struct tp_status st;
	unsigned int round, still = 0;
	uint64_t t0, ms, worst = 0;
	char *out = NULL;

	tp_cpuset_add(&one, 1);
	for (round = 0; round < 3; round++) {
		ASSERT_EQ(0, tp_start(&self->nl, noise, wide, &one, NULL, &e));
		tp_sleep_ms(300);
		t0 = tp_now_ms();
		EXPECT_EQ(0, tp_nl_talk(&self->nl,
					tp_nl_request(&self->nl, TSCPROBE_CMD_STOP,
						      false), NULL, NULL, &e));
		ms = tp_now_ms() - t0;
		worst = ms > worst ? ms : worst;
		st = tp_status(&self->nl);
		still += st.state == TSCPROBE_STATE_RUNNING;
		EXPECT_TRUE(tp_wait_not_running(&self->nl, 10000));
		EXPECT_EQ(TSCPROBE_STOP_REQUESTED, tp_status(&self->nl).reason);
	}
	TH_LOG("STOP returned within %" PRIu64 " ms; the run still going after it %u times of 3",
	       worst, still);
	EXPECT_LT(worst, 300);
	EXPECT_GE(still, 2);
	/* The CLI: returns once the run has ended, and says nothing else. */
	ASSERT_EQ(0, tp_start(&self->nl, noise, wide, &one, NULL, &e));
	tp_sleep_ms(300);
	EXPECT_EQ(0, tp_sh("tscprobe stop 2>&1", &out));
	EXPECT_STREQ("", out);
	free(out);
	st = tp_status(&self->nl);
	EXPECT_EQ(TSCPROBE_STATE_STOPPED, st.state);
	EXPECT_EQ(TSCPROBE_STOP_REQUESTED, st.reason);
	EXPECT_EQ(TP_EXIT_NORESULT, tp_sh("tscprobe stop 2>/dev/null", NULL));
}

TP_HARNESS_MAIN
