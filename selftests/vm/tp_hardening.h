/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the hardening tests (fuzz_genl, test_privilege,
 * test_concurrency, test_faults, soak): a seeded generator, dropping
 * privileges, starting and stopping a kind's runs from tp_kinds.h over
 * netlink, and the snapshot check that a torn read would fail.
 */
#ifndef TSCPROBE_SELFTEST_HARDENING_H
#define TSCPROBE_SELFTEST_HARDENING_H

#include <grp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <time.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "tp_test.h"
#include "tp_kinds.h"
#include "user/lib/cli.h"
#include "core/hist.h"
#include "user/lib/decode.h"
#include "user/lib/result.h"
#include "user/lib/module_run.h"

#define TP_NOBODY	65534

/* ---- a seeded generator ---------------------------------------------------- */

/* splitmix64: any seed, 0 included, gives a full-period sequence. */
static inline uint64_t tp_rng(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0. */
static inline uint64_t tp_rng_below(uint64_t *s, uint64_t n)
{
	return tp_rng(s) % n;
}

/* True with probability @pct percent. */
static inline bool tp_rng_pct(uint64_t *s, unsigned int pct)
{
	return tp_rng_below(s, 100) < pct;
}

/* Uniform in [lo, hi]. */
static inline uint64_t tp_rng_range(uint64_t *s, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	if (hi - lo == UINT64_MAX)
		return tp_rng(s);
	return lo + tp_rng_below(s, hi - lo + 1);
}

static inline uint64_t tp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static inline void tp_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A number from the environment, or @dflt. */
static inline uint64_t tp_env_u64(const char *name, uint64_t dflt)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : dflt;
}

/* The seed: $@name when set, else one that differs from run to run. */
static inline uint64_t tp_seed(const char *name)
{
	struct timespec ts;

	if (getenv(name) && *getenv(name))
		return tp_env_u64(name, 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec ^
	       ((uint64_t)getpid() << 40);
}

/* ---- kmemleak --------------------------------------------------------------- */

#define TP_KMEMLEAK	"/sys/kernel/debug/kmemleak"

/* Whether the kernel has kmemleak, and it is on (the debug kernel). */
static inline bool tp_kmemleak_on(void)
{
	return access(TP_KMEMLEAK, W_OK) == 0;
}

/* Forget what kmemleak found so far: the next scan reports only news. */
static inline int tp_kmemleak_clear(void)
{
	return tp_sh("echo clear > " TP_KMEMLEAK, NULL);
}

/*
 * Scan the kernel's memory for objects nothing points to, and return how
 * many were found since the last tp_kmemleak_clear() (-1: the scan failed),
 * printing their records (with the allocation's backtrace) as comments.
 * kmemleak does not report an object younger than 5 s, and an object must
 * be found unreferenced by two scans in a row, hence the wait and the two
 * scans.  Every report counts, the module's or not: there is no leak the
 * test may call somebody else's.
 */
static inline long tp_kmemleak_scan(void)
{
	char *out = NULL;
	long n;

	tp_sleep_ms(5500);
	if (tp_sh("echo scan > " TP_KMEMLEAK " && echo scan > " TP_KMEMLEAK,
		  NULL))
		return -1;
	if (tp_sh("sed 's/^/#     /' " TP_KMEMLEAK " >&2; "
		  "grep -c '^unreferenced object' " TP_KMEMLEAK, &out) < 0) {
		free(out);
		return -1;
	}
	n = out ? strtol(out, NULL, 10) : -1;
	free(out);
	return n;
}

/* ---- privileges -------------------------------------------------------------- */

/* True when the effective capability set is empty. */
static inline bool tp_caps_empty(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return !data[0].effective && !data[1].effective &&
	       !data[0].permitted && !data[1].permitted;
}

/*
 * Become @uid (and group @uid) for good, as vm-runas does: no groups, no
 * capabilities left.  Returns 0 when the drop stuck.
 */
static inline int tp_drop_to(uid_t uid)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -1;
	if (getuid() != uid || geteuid() != uid || !tp_caps_empty())
		return -1;
	return setuid(0) == 0 ? -1 : 0;
}

/* ---- runs over netlink --------------------------------------------------------- */

/* A kind from tp_kinds[] by name, or NULL. */
static inline const struct tp_kind_desc *tp_kind_by_name(const char *name)
{
	size_t i;

	for (i = 0; i < TP_NR_KINDS; i++)
		if (!strcmp(tp_kinds[i].name, name))
			return &tp_kinds[i];
	return NULL;
}

static inline void tp_put_attr_vals(struct nlmsghdr *nlh,
				    const struct tp_attr_val *v)
{
	for (; v && v->type; v++) {
		switch (v->nla) {
		case TP_NLA_U32:
			mnl_attr_put_u32(nlh, v->type, (uint32_t)v->v);
			break;
		case TP_NLA_U64:
			mnl_attr_put_u64(nlh, v->type, v->v);
			break;
		default:
			mnl_attr_put(nlh, v->type, 0, NULL);
			break;
		}
	}
}

/* A START of @k with @vals on @cpus (NULL: every online CPU). */
static inline struct nlmsghdr *tp_start_req(struct tp_nl *nl,
					    const struct tp_kind_desc *k,
					    const struct tp_attr_val *vals,
					    const struct tp_cpuset *cpus)
{
	struct nlmsghdr *nlh = tp_nl_request(nl, TSCPROBE_CMD_START, false);

	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, k->kind);
	if (cpus)
		mnl_attr_put(nlh, TSCPROBE_A_CPUS, cpus->nbytes, cpus->bits);
	tp_put_attr_vals(nlh, vals);
	return nlh;
}

static inline int tp_run_id_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	*(uint64_t *)data = tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0);
	return MNL_CB_OK;
}

/*
 * START; the new run's id in *@run_id.  Refused with EAGAIN while the last
 * run's probes are being detached, it is sent again for up to 30 s, as the
 * CLI does.
 */
static inline int tp_start(struct tp_nl *nl, const struct tp_kind_desc *k,
			   const struct tp_attr_val *vals,
			   const struct tp_cpuset *cpus, uint64_t *run_id,
			   struct tp_nl_error *e)
{
	uint64_t id = 0, due = tp_now_ms() + 30000;
	int err;

	do {
		err = tp_nl_talk(nl, tp_start_req(nl, k, vals, cpus),
				 tp_run_id_cb, &id, e);
	} while (err == -EAGAIN && tp_now_ms() < due && !usleep(20000));
	if (run_id)
		*run_id = id;
	return err;
}

static inline int tp_reset(struct tp_nl *nl, struct tp_nl_error *e)
{
	return tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_RESET, false),
			  NULL, NULL, e);
}

struct tp_status {
	uint32_t state;
	uint32_t reason;
	uint32_t kind;
	uint64_t run_id;
};

/* GET_STATUS: state, reason, kind and run id; state 99 if it failed. */
static inline struct tp_status tp_status(struct tp_nl *nl)
{
	struct tp_status s = { 99, 0, 0, 0 };
	struct tp_nl_error e;
	struct tp_result r;

	tp_result_init(&r, 0);
	if (!tp_fetch_status(nl, &r, &e)) {
		s.state = r.state;
		s.reason = r.reason;
		s.kind = r.kind;
		s.run_id = r.run_id;
	}
	tp_result_free(&r);
	return s;
}

/*
 * Wait up to @ms until the module runs a run other than @prev (a run id
 * from tp_status()); true when it does.
 */
static inline bool tp_wait_new_run(struct tp_nl *nl, uint64_t prev,
				   unsigned int ms)
{
	uint64_t end = tp_now_ms() + ms;
	struct tp_status s;

	do {
		s = tp_status(nl);
		if (s.state == TSCPROBE_STATE_RUNNING && s.run_id != prev)
			return true;
		tp_sleep_ms(20);
	} while (tp_now_ms() < end);
	return false;
}

/* Wait up to @ms until nothing runs; true when nothing does. */
static inline bool tp_wait_not_running(struct tp_nl *nl, unsigned int ms)
{
	uint64_t end = tp_now_ms() + ms;

	do {
		if (tp_status(nl).state != TSCPROBE_STATE_RUNNING)
			return true;
		tp_sleep_ms(20);
	} while (tp_now_ms() < end);
	return false;
}

/*
 * STOP, and when it stopped a run, wait up to 15 s for that run to end
 * (STOP returns at once; another client may start the next meanwhile):
 * -ETIMEDOUT if it does not.
 */
static inline int tp_stop(struct tp_nl *nl, struct tp_nl_error *e)
{
	uint64_t id = tp_status(nl).run_id, end;
	int err = tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_STOP, false),
			     NULL, NULL, e);

	for (end = tp_now_ms() + 15000; !err; tp_sleep_ms(20)) {
		struct tp_status st = tp_status(nl);

		if (st.run_id != id || st.state != TSCPROBE_STATE_RUNNING)
			break;
		if (tp_now_ms() > end)
			return -ETIMEDOUT;
	}
	return err;
}

static inline int tp_kinds_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	*(uint32_t *)data = tp_nl_u32(tb[TSCPROBE_A_KINDS], 0);
	return MNL_CB_OK;
}

/* Whether the loaded module runs @k (TSCPROBE_A_KINDS of GET_INFO). */
static inline bool tp_kind_supported(struct tp_nl *nl,
				     const struct tp_kind_desc *k)
{
	uint32_t kinds = 0;

	tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_GET_INFO, false),
		   tp_kinds_cb, &kinds, NULL);
	return kinds & (1u << k->kind);
}

/*
 * Every jq invariant of @k on a -j result: all in one jq run, and one by
 * one only to name the first that fails.  Returns it, or NULL.
 */
static inline const char *tp_kind_check_json(const struct tp_kind_desc *k,
					     const char *json)
{
	const char *const *f;
	size_t n = 0;

	while (k->invariants[n])
		n++;
	if (!tp_jq_all(json, k->invariants, n))
		return NULL;
	for (f = k->invariants; *f; f++)
		if (tp_jq(json, *f))
			return *f;
	return "the invariants fail together, each holds alone";
}

/* ---- the snapshot check ---------------------------------------------------------- */

static inline int tp_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/**
 * tp_check_snapshot() - is a GET_RESULT reply one moment of every CPU?
 * @r: the fetched result
 * @why: what is wrong, when something is
 * @len: size of @why
 *
 * The module publishes a CPU's state between two windows, as a whole; a
 * reader that saw part of one publication and part of the next (or the
 * live state) would break these identities, which hold exactly at every
 * publication: for every series, the calls of its buckets add up to its
 * count and their cycles to its sum, and every bucket's mean lies inside
 * the bucket; for noise, the sum is the measured time, within the wall time.
 *
 * Return: 0, or -1 with @why set.
 */
static inline int tp_check_snapshot(const struct tp_result *r, char *why,
				    size_t len)
{
	unsigned int i, s, b;

	for (i = 0; i < r->ncpus; i++) {
		const struct tp_cpu_res *c = &r->cpu[i];

		for (s = 1; s <= TSCPROBE_SERIES_MAX; s++) {
			const struct tp_series_res *sr = &c->series[s];
			uint64_t calls = 0, cycles = 0;

			if (!sr->present)
				continue;
			for (b = 0; sr->hist && b < TSCPROBE_HIST_BUCKETS; b++) {
				const struct tp_bucket *k = &sr->hist->b[b];
				unsigned __int128 lo, hi;

				lo = (unsigned __int128)k->calls *
				     tp_hist_bucket_lo(b);
				hi = (unsigned __int128)k->calls *
				     tp_hist_bucket_hi(b);
				if (k->cycles < lo || k->cycles > hi)
					return tp_why(why, len,
						      "cpu %u series %u bucket %u: %" PRIu64 " cycles in %" PRIu64 " calls, outside [%" PRIu64 ", %" PRIu64 "] each",
						      c->cpu, s, b, k->cycles,
						      k->calls, tp_hist_bucket_lo(b),
						      tp_hist_bucket_hi(b));
				calls += k->calls;
				cycles += k->cycles;
			}
			if (calls != sr->stats.count)
				return tp_why(why, len,
					      "cpu %u series %u: buckets hold %" PRIu64 " calls, count is %" PRIu64,
					      c->cpu, s, calls, sr->stats.count);
			if (cycles != sr->stats.sum)
				return tp_why(why, len,
					      "cpu %u series %u: buckets hold %" PRIu64 " cycles, sum is %" PRIu64,
					      c->cpu, s, cycles, sr->stats.sum);
			if (sr->stats.count && sr->stats.min > sr->stats.max)
				return tp_why(why, len, "cpu %u series %u: min > max",
					      c->cpu, s);
		}
		if (r->kind != TSCPROBE_KIND_NOISE)
			continue;
		if (c->series[TSCPROBE_SERIES_GAP].stats.sum != c->measured_cycles)
			return tp_why(why, len,
				      "cpu %u: gap sum %" PRIu64 " != measured %" PRIu64,
				      c->cpu, c->series[TSCPROBE_SERIES_GAP].stats.sum,
				      c->measured_cycles);
		if (c->measured_cycles > c->wall_cycles)
			return tp_why(why, len,
				      "cpu %u: measured %" PRIu64 " > wall %" PRIu64,
				      c->cpu, c->measured_cycles, c->wall_cycles);
		if (c->events_total != c->nevents + c->events_dropped)
			return tp_why(why, len, "cpu %u: events do not add up",
				      c->cpu);
	}
	return 0;
}

#endif /* TSCPROBE_SELFTEST_HARDENING_H */
