// SPDX-License-Identifier: GPL-2.0
/*
 * Netlink -> results (decode.h).  A CPU's results may span several
 * messages (a long histogram continues in the next one, under the same
 * CPU id and series id), so every message is merged into the entry of its
 * CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>

#include "user/lib/clock.h"
#include "user/lib/decode.h"
#include "user/lib/nl.h"

static void tp_get_counter(const struct nlattr *a, struct tp_counter_res *k)
{
	if (a) {
		k->ok = true;
		k->v = tp_nl_u64(a, 0);
	}
}

static void tp_get_counter32(const struct nlattr *a, struct tp_counter_res *k)
{
	if (a) {
		k->ok = true;
		k->v = tp_nl_u32(a, 0);
	}
}

/* Set *v from a u64 attribute when it is there. */
static void tp_get_u64(const struct nlattr *a, uint64_t *v)
{
	if (a)
		*v = tp_nl_u64(a, *v);
}

static void tp_decode_bucket(const struct nlattr *nest,
			     struct tp_series_res *s)
{
	const struct nlattr *tb[TSCPROBE_BUCKET_A_MAX + 1];
	uint32_t idx;
	struct tp_hist *h;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_BUCKET_A_MAX))
		return;
	idx = tp_nl_u32(tb[TSCPROBE_BUCKET_A_INDEX], TSCPROBE_HIST_BUCKETS);
	if (idx >= TSCPROBE_HIST_BUCKETS)
		return;
	h = tp_series_hist(s);
	h->b[idx].calls = tp_nl_u64(tb[TSCPROBE_BUCKET_A_CALLS], 0);
	h->b[idx].cycles = tp_nl_u64(tb[TSCPROBE_BUCKET_A_CYCLES], 0);
}

/* A WINDOW nest: filed under the block length it names. */
static void tp_decode_window(const struct nlattr *nest,
			     struct tp_series_res *s)
{
	const struct nlattr *tb[TSCPROBE_WINDOW_A_MAX + 1];
	uint64_t rounds;
	unsigned int k;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_WINDOW_A_MAX))
		return;
	rounds = tp_nl_u64(tb[TSCPROBE_WINDOW_A_ROUNDS], 0);
	for (k = 0; k < TP_CACHE_WINDOWS; k++) {
		if (rounds != tp_cache_window_rounds(k))
			continue;
		s->win[k].rounds = rounds;
		s->win[k].sum = tp_nl_u64(tb[TSCPROBE_WINDOW_A_SUM], 0);
		s->win[k].blocks = tp_nl_u64(tb[TSCPROBE_WINDOW_A_BLOCKS], 0);
	}
}

static void tp_decode_series(const struct nlattr *nest, struct tp_cpu_res *c)
{
	const struct nlattr *tb[TSCPROBE_SERIES_A_MAX + 1];
	struct tp_series_res *s;
	const struct nlattr *a;
	uint32_t id;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_SERIES_A_MAX))
		return;
	id = tp_nl_u32(tb[TSCPROBE_SERIES_A_ID], 0);
	if (!id || id > TSCPROBE_SERIES_MAX)
		return;
	s = &c->series[id];
	s->present = true;
	tp_get_u64(tb[TSCPROBE_SERIES_A_COUNT], &s->stats.count);
	tp_get_u64(tb[TSCPROBE_SERIES_A_MINIMUM], &s->stats.min);
	tp_get_u64(tb[TSCPROBE_SERIES_A_MAXIMUM], &s->stats.max);
	tp_get_u64(tb[TSCPROBE_SERIES_A_SUM], &s->stats.sum);
	tp_get_u64(tb[TSCPROBE_SERIES_A_SUMSQ_HI], &s->stats.sumsq_hi);
	tp_get_u64(tb[TSCPROBE_SERIES_A_SUMSQ_LO], &s->stats.sumsq_lo);
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == TSCPROBE_SERIES_A_BUCKET)
			tp_decode_bucket(a, s);
		else if (mnl_attr_get_type(a) == TSCPROBE_SERIES_A_WINDOW)
			tp_decode_window(a, s);
	}
}

/* A LEVEL or NODE_LAT nest, appended to its curve (dumps send each once). */
static void tp_decode_latency(const struct nlattr *nest, struct tp_latency *lat,
			      unsigned int *n, unsigned int max)
{
	const struct nlattr *tb[TSCPROBE_LEVEL_A_MAX + 1];
	struct tp_latency *l;

	if (*n >= max || tp_nl_parse_nested(nest, tb, TSCPROBE_LEVEL_A_MAX))
		return;
	l = &lat[(*n)++];
	l->size = tp_nl_u64(tb[TSCPROBE_LEVEL_A_SIZE], 0);
	l->node = tp_nl_u32(tb[TSCPROBE_LEVEL_A_NODE], 0);
	l->loads = tp_nl_u64(tb[TSCPROBE_LEVEL_A_LOADS], 0);
	l->cycles = tp_nl_u64(tb[TSCPROBE_LEVEL_A_CYCLES], 0);
}

/* A string attribute into @buf, cut and terminated whatever it holds. */
static void tp_copy_name(char *buf, size_t len, const struct nlattr *a)
{
	size_t n = mnl_attr_get_payload_len(a);

	if (n >= len)
		n = len - 1;
	memcpy(buf, mnl_attr_get_payload(a), n);
	buf[n] = '\0';
}

/* A SOURCE nest's fields into @s; its kind, TSCPROBE_SOURCE_MAX + 1 if bad. */
static uint32_t tp_decode_source_fields(const struct nlattr *nest,
					struct tp_source_res *s)
{
	const struct nlattr *tb[TSCPROBE_SOURCE_A_MAX + 1];

	memset(s, 0, sizeof(*s));
	if (tp_nl_parse_nested(nest, tb, TSCPROBE_SOURCE_A_MAX))
		return TSCPROBE_SOURCE_MAX + 1;
	s->kind = tp_nl_u32(tb[TSCPROBE_SOURCE_A_KIND], TSCPROBE_SOURCE_MAX + 1);
	s->id = tp_nl_u32(tb[TSCPROBE_SOURCE_A_ID], 0);
	if (tb[TSCPROBE_SOURCE_A_NAME])
		tp_copy_name(s->name, sizeof(s->name), tb[TSCPROBE_SOURCE_A_NAME]);
	s->count = tp_nl_u64(tb[TSCPROBE_SOURCE_A_COUNT], 0);
	s->cycles = tp_nl_u64(tb[TSCPROBE_SOURCE_A_CYCLES], 0);
	s->vector = tb[TSCPROBE_SOURCE_A_VECTOR] != NULL;
	s->withheld = tb[TSCPROBE_SOURCE_A_WITHHELD] != NULL;
	/* An interrupt's thread not named to this reader is one still. */
	s->threaded = tb[TSCPROBE_SOURCE_A_THREAD_PID] ||
		      (s->withheld && s->kind == TSCPROBE_SOURCE_IRQ);
	s->pid = tp_nl_u32(tb[TSCPROBE_SOURCE_A_THREAD_PID], 0);
	if (tb[TSCPROBE_SOURCE_A_THREAD_NAME])
		tp_copy_name(s->thread, sizeof(s->thread),
			     tb[TSCPROBE_SOURCE_A_THREAD_NAME]);
	return s->kind;
}

/* An event's sources, where the module sent them (GET_RESULT). */
static void tp_decode_event_sources(const struct nlattr *nest,
				    struct tp_event_res *ev)
{
	const struct nlattr *a;
	struct tp_source_res s;

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) != TSCPROBE_EVENT_A_SOURCE ||
		    tp_decode_source_fields(a, &s) > TSCPROBE_SOURCE_MAX ||
		    ev->nsources >= TP_ARRAY_SIZE(ev->sources))
			continue;
		ev->sources[ev->nsources++] = s;
	}
}

/**
 * tp_result_decode_event() - an EVENT nest (a result's or a notification's)
 * @nest: the nest
 * @ev: filled in; counters the module left out stay unreadable
 *
 * Return: 0, or -1 when the nest is malformed.
 */
int tp_result_decode_event(const struct nlattr *nest, struct tp_event_res *ev)
{
	const struct nlattr *tb[TSCPROBE_EVENT_A_MAX + 1];

	memset(ev, 0, sizeof(*ev));
	if (tp_nl_parse_nested(nest, tb, TSCPROBE_EVENT_A_MAX))
		return -1;
	ev->tsc = tp_nl_u64(tb[TSCPROBE_EVENT_A_TSC], 0);
	ev->cycles = tp_nl_u64(tb[TSCPROBE_EVENT_A_CYCLES], 0);
	ev->has_cause = tb[TSCPROBE_EVENT_A_CAUSE] != NULL;
	ev->cause = tp_nl_u32(tb[TSCPROBE_EVENT_A_CAUSE], TSCPROBE_CAUSE_NONE);
	tp_get_counter32(tb[TSCPROBE_EVENT_A_SMI], &ev->smi);
	tp_get_counter32(tb[TSCPROBE_EVENT_A_NMI], &ev->nmi);
	tp_get_counter32(tb[TSCPROBE_EVENT_A_IRQ], &ev->irq);
	tp_get_counter(tb[TSCPROBE_EVENT_A_STEAL_NS], &ev->steal_ns);
	ev->has_sources = tb[TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES] != NULL;
	ev->unexplained_cycles =
		tp_nl_u64(tb[TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES], 0);
	if (ev->has_sources)
		tp_decode_event_sources(nest, ev);
	return 0;
}

static void tp_decode_event(const struct nlattr *nest, struct tp_cpu_res *c)
{
	if (c->nevents < TSCPROBE_MAX_EVENTS &&
	    !tp_result_decode_event(nest, &c->events[c->nevents]))
		c->nevents++;
}

/* A CAUSE nest: the events and time one cause explains. */
static void tp_decode_cause(const struct nlattr *nest, struct tp_cpu_res *c)
{
	const struct nlattr *tb[TSCPROBE_CAUSE_A_MAX + 1];
	uint32_t id;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_CAUSE_A_MAX))
		return;
	id = tp_nl_u32(tb[TSCPROBE_CAUSE_A_ID], TSCPROBE_CAUSE_MAX + 1);
	if (id > TSCPROBE_CAUSE_MAX)
		return;
	c->has_causes = true;
	c->causes_known |= 1U << id;
	c->causes[id].events = tp_nl_u64(tb[TSCPROBE_CAUSE_A_EVENTS], 0);
	c->causes[id].cycles = tp_nl_u64(tb[TSCPROBE_CAUSE_A_CYCLES], 0);
}

/* A SOURCE_KIND nest (@is_kind) or a SOURCE nest of a noise CPU. */
static void tp_decode_source(const struct nlattr *nest, struct tp_cpu_res *c,
			     bool is_kind)
{
	struct tp_source_res s;
	uint32_t kind = tp_decode_source_fields(nest, &s);

	if (is_kind) {
		if (kind >= TSCPROBE_SOURCE_OTHER)
			return;
		c->kinds_known |= 1U << kind;
		c->kinds[kind] = s;
	} else if (kind <= TSCPROBE_SOURCE_MAX &&
		   c->nsources < TP_ARRAY_SIZE(c->sources)) {
		c->sources[c->nsources++] = s;
	}
}

static void tp_decode_cpu(const struct nlattr *nest, struct tp_result *r)
{
	const struct nlattr *tb[TSCPROBE_CPU_A_MAX + 1];
	struct tp_cpu_res *c;
	const struct nlattr *a;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_CPU_A_MAX) ||
	    !tb[TSCPROBE_CPU_A_ID])
		return;
	c = tp_result_cpu(r, tp_nl_u32(tb[TSCPROBE_CPU_A_ID], 0));
	c->flags = tp_nl_u32(tb[TSCPROBE_CPU_A_FLAGS], c->flags);
	c->node = tp_nl_u32(tb[TSCPROBE_CPU_A_NODE], c->node);
	tp_get_u64(tb[TSCPROBE_CPU_A_WINDOWS], &c->windows);
	tp_get_u64(tb[TSCPROBE_CPU_A_MEASURED_CYCLES], &c->measured_cycles);
	tp_get_u64(tb[TSCPROBE_CPU_A_WALL_CYCLES], &c->wall_cycles);
	tp_get_u64(tb[TSCPROBE_CPU_A_EVENTS_TOTAL], &c->events_total);
	tp_get_u64(tb[TSCPROBE_CPU_A_EVENTS_DROPPED], &c->events_dropped);
	tp_get_u64(tb[TSCPROBE_CPU_A_ROUNDS], &c->rounds);
	tp_get_counter(tb[TSCPROBE_CPU_A_SMI_COUNT], &c->smi);
	c->smi_source = tp_nl_u32(tb[TSCPROBE_CPU_A_SMI_SOURCE], c->smi_source);
	tp_get_counter(tb[TSCPROBE_CPU_A_NMI_COUNT], &c->nmi);
	tp_get_counter(tb[TSCPROBE_CPU_A_IRQ_COUNT], &c->irq);
	tp_get_counter(tb[TSCPROBE_CPU_A_APERF], &c->aperf);
	tp_get_counter(tb[TSCPROBE_CPU_A_MPERF], &c->mperf);
	tp_get_counter(tb[TSCPROBE_CPU_A_CTX_VOLUNTARY], &c->ctx_vol);
	tp_get_counter(tb[TSCPROBE_CPU_A_CTX_INVOLUNTARY], &c->ctx_invol);
	tp_get_counter(tb[TSCPROBE_CPU_A_MIGRATIONS], &c->migrations);
	tp_get_u64(tb[TSCPROBE_CPU_A_SOURCES_LOST], &c->sources_lost);
	c->clock_before_khz = tp_nl_u32(tb[TSCPROBE_CPU_A_CLOCK_BEFORE_KHZ], 0);
	c->clock_after_khz = tp_nl_u32(tb[TSCPROBE_CPU_A_CLOCK_AFTER_KHZ], 0);
	tp_get_counter(tb[TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED], &c->not_notified);
	tp_get_counter(tb[TSCPROBE_CPU_A_TSC_STEPS_BACK], &c->steps_back);
	tp_get_u64(tb[TSCPROBE_CPU_A_TSC_STEP_BACK_MAX_CYCLES],
		   &c->step_back_max);
	if (tb[TSCPROBE_CPU_A_TSC_OFFSET]) {
		c->has_tsc_offset = true;
		c->tsc_offset = (int64_t)tp_nl_u64(tb[TSCPROBE_CPU_A_TSC_OFFSET], 0);
	}
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_SERIES)
			tp_decode_series(a, c);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_EVENT)
			tp_decode_event(a, c);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_LEVEL)
			tp_decode_latency(a, c->levels, &c->nlevels,
					  TP_CACHE_MAX_LEVELS);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_NODE_LAT)
			tp_decode_latency(a, c->nodes, &c->nnodes,
					  TP_CACHE_MAX_NODES);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_CAUSE)
			tp_decode_cause(a, c);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_SOURCE_KIND)
			tp_decode_source(a, c, true);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_SOURCE)
			tp_decode_source(a, c, false);
	}
}

static void tp_decode_stat(const struct nlattr *nest, struct tp_sstats *s,
			   uint64_t nr)
{
	const struct nlattr *tb[TSCPROBE_STAT_A_MAX + 1];

	if (!nest || tp_nl_parse_nested(nest, tb, TSCPROBE_STAT_A_MAX))
		return;
	s->count = nr;
	s->min = (int64_t)tp_nl_u64(tb[TSCPROBE_STAT_A_MINIMUM], 0);
	s->max = (int64_t)tp_nl_u64(tb[TSCPROBE_STAT_A_MAXIMUM], 0);
	s->sum = (int64_t)tp_nl_u64(tb[TSCPROBE_STAT_A_SUM], 0);
	s->sumsq_hi = tp_nl_u64(tb[TSCPROBE_STAT_A_SUMSQ_HI], 0);
	s->sumsq_lo = tp_nl_u64(tb[TSCPROBE_STAT_A_SUMSQ_LO], 0);
}

static void tp_decode_pair(const struct nlattr *nest, struct tp_result *r)
{
	const struct nlattr *tb[TSCPROBE_PAIR_A_MAX + 1];
	struct tp_pair_res *p;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_PAIR_A_MAX) ||
	    !tb[TSCPROBE_PAIR_A_FROM] || !tb[TSCPROBE_PAIR_A_TO])
		return;
	p = tp_result_add_pair(r, tp_nl_u32(tb[TSCPROBE_PAIR_A_FROM], 0),
			       tp_nl_u32(tb[TSCPROBE_PAIR_A_TO], 0));
	p->status = tp_nl_u32(tb[TSCPROBE_PAIR_A_STATUS], TSCPROBE_PAIR_SKIPPED);
	p->relation = tp_nl_u32(tb[TSCPROBE_PAIR_A_RELATION],
				TSCPROBE_REL_UNKNOWN);
	p->elapsed_cycles = tp_nl_u64(tb[TSCPROBE_PAIR_A_ELAPSED_CYCLES], 0);
	if (p->status != TSCPROBE_PAIR_OK)
		return;
	p->st.nr = tp_nl_u32(tb[TSCPROBE_PAIR_A_NR], 0);
	p->st.discarded = tp_nl_u32(tb[TSCPROBE_PAIR_A_DISCARDED], 0);
	tp_decode_stat(tb[TSCPROBE_PAIR_A_LATIJ], &p->st.latij, p->st.nr);
	tp_decode_stat(tb[TSCPROBE_PAIR_A_LATJI], &p->st.latji, p->st.nr);
	tp_decode_stat(tb[TSCPROBE_PAIR_A_SKEW], &p->st.skew2, p->st.nr);
	tp_decode_stat(tb[TSCPROBE_PAIR_A_ONE_WAY], &p->st.one_way2, p->st.nr);
}

/**
 * tp_result_decode_run() - the run attributes of a message (START's reply,
 *	GET_STATUS, or GET_RESULT's first message)
 * @tb: the message's attributes
 * @r: updated with what is there
 */
void tp_result_decode_run(const struct nlattr *const *tb, struct tp_result *r)
{
	struct tp_run_params *p = &r->p;
	const struct nlattr *a;

	r->kind = tp_nl_u32(tb[TSCPROBE_A_KIND], r->kind);
	r->run_id = tp_nl_u64(tb[TSCPROBE_A_RUN_ID], r->run_id);
	r->state = tp_nl_u32(tb[TSCPROBE_A_STATE], r->state);
	r->reason = tp_nl_u32(tb[TSCPROBE_A_STOP_REASON], r->reason);
	r->tsc_khz = tp_nl_u32(tb[TSCPROBE_A_TSC_KHZ], r->tsc_khz);
	tp_get_u64(tb[TSCPROBE_A_ELAPSED_NS], &r->elapsed_ns);
	tp_get_u64(tb[TSCPROBE_A_START_TSC], &r->start_tsc);
	a = tb[TSCPROBE_A_CPUS];
	if (a)
		tp_cpuset_from_bytes(&r->cpus, mnl_attr_get_payload(a),
				     mnl_attr_get_payload_len(a));
	tp_get_u64(tb[TSCPROBE_A_DURATION_NS], &p->duration_ns);
	tp_get_u64(tb[TSCPROBE_A_WIDTH_NS], &p->width_ns);
	tp_get_u64(tb[TSCPROBE_A_GAP_NS], &p->gap_ns);
	tp_get_u64(tb[TSCPROBE_A_THRESHOLD_NS], &p->threshold_ns);
	tp_get_u64(tb[TSCPROBE_A_THRESHOLD_CYCLES], &p->threshold_cycles);
	p->irqs = tp_nl_u32(tb[TSCPROBE_A_IRQS], p->irqs);
	p->clock = tp_nl_u32(tb[TSCPROBE_A_CLOCK], p->clock);
	tp_get_u64(tb[TSCPROBE_A_ROUNDS], &p->rounds);
	p->batch = tp_nl_u32(tb[TSCPROBE_A_BATCH], p->batch);
	p->levels = p->levels || tb[TSCPROBE_A_LEVELS];
	p->nodes = p->nodes || tb[TSCPROBE_A_NODES];
	p->samples = tp_nl_u32(tb[TSCPROBE_A_SAMPLES], p->samples);
	p->repeats = tp_nl_u32(tb[TSCPROBE_A_REPEATS], p->repeats);
	r->pairs_done = tp_nl_u32(tb[TSCPROBE_A_PAIRS_DONE], r->pairs_done);
	r->pairs_total = tp_nl_u32(tb[TSCPROBE_A_PAIRS_TOTAL], r->pairs_total);
	tp_get_u64(tb[TSCPROBE_A_STOP_AT_NS], &p->stop_at_ns);
	tp_get_u64(tb[TSCPROBE_A_STOP_AT_CYCLES], &p->stop_at_cycles);
	p->trace_stop = p->trace_stop || tb[TSCPROBE_A_TRACE_STOP];
	tp_get_u64(tb[TSCPROBE_A_WARM_UP_NS], &p->warm_up_ns);
	r->tsc_sync = tp_nl_u32(tb[TSCPROBE_A_TSC_SYNC], r->tsc_sync);
	tp_get_u64(tb[TSCPROBE_A_TSC_OFFSETS_RUN_ID], &r->tsc_offsets_run_id);
	if (tb[TSCPROBE_A_STOP_EVENT] &&
	    !tp_result_decode_event(tb[TSCPROBE_A_STOP_EVENT], &r->stop_event)) {
		r->has_stop_event = true;
		r->stop_cpu = tp_nl_u32(tb[TSCPROBE_A_STOP_CPU], 0);
	}
}

static int tp_result_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];
	struct tp_result *r = data;
	const struct nlattr *a;
	bool has_item = false;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == TSCPROBE_A_CPU) {
			tp_decode_cpu(a, r);
			has_item = true;
		} else if (mnl_attr_get_type(a) == TSCPROBE_A_PAIR) {
			tp_decode_pair(a, r);
			has_item = true;
		}
	}
	if (!has_item && tb[TSCPROBE_A_KIND])
		tp_result_decode_run(tb, r);
	return MNL_CB_OK;
}

/**
 * tp_result_decode_notification() - a RUN_FINISHED notification into a
 *	result: the run's identity, end and stop event, and per CPU its event
 *	totals
 * @nlh: the notification
 * @r: initialised; filled with what the message carries
 *
 * Return: 0, or -1 when the message is malformed or names no run.
 */
int tp_result_decode_notification(const struct nlmsghdr *nlh,
				  struct tp_result *r)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];
	const struct nlattr *a;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX) || !tb[TSCPROBE_A_RUN_ID])
		return -1;
	tp_result_decode_run(tb, r);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == TSCPROBE_A_CPU)
			tp_decode_cpu(a, r);
	return 0;
}

/*
 * Reads of the results a running measurement may interrupt before the
 * fetch gives up, and for how long it tries at least: a CPU publishes at
 * most 50 times a second, and one read takes a few milliseconds per CPU
 * when it gets a CPU, but a reader on a busy machine, kept off its CPU
 * between two messages, is interrupted read after read (8 in a row once
 * at load 3 on 2 CPUs); later tries, spread out, get through.
 */
#define TP_FETCH_TRIES		8
#define TP_FETCH_NS		(5ULL * 1000000000)
#define TP_FETCH_PAUSE_MAX_MS	100

/**
 * tp_result_fetch() - dump the module's results
 * @nl: the socket
 * @run_id: the run expected (0: whatever is there); another run's results
 *	are refused by the module with ESTALE, and so is a run reset or
 *	replaced during the dump
 * @r: filled in (initialise it first)
 * @error: the refusal, if any
 *
 * A CPU's results that take several messages come from one publication
 * of its figures: where the run published new ones between two of them,
 * the module marks the dump interrupted, and it is read again, for
 * TP_FETCH_TRIES reads and TP_FETCH_NS at least.
 *
 * Return: 0 or a negative errno (-EINTR: interrupted every time).
 */
int tp_result_fetch(struct tp_nl *nl, uint64_t run_id, struct tp_result *r,
		    struct tp_nl_error *error)
{
	uint64_t from = tp_mono_raw_ns();
	struct tp_nl_error local;
	struct nlmsghdr *nlh;
	unsigned int pause_ms;
	int tries, err;

	if (!error)
		error = &local;
	for (tries = 1;; tries++) {
		nlh = tp_nl_request(nl, TSCPROBE_CMD_GET_RESULT, true);
		if (run_id)
			mnl_attr_put_u64(nlh, TSCPROBE_A_RUN_ID, run_id);
		err = tp_nl_talk(nl, nlh, tp_result_cb, r, error);
		if (!err || !error->dump_intr)
			return err;
		tp_result_drop_items(r);
		if (tries >= TP_FETCH_TRIES && tp_mono_raw_ns() - from >= TP_FETCH_NS)
			break;
		pause_ms = 5 * (unsigned int)tries;
		tp_pause_ms(pause_ms < TP_FETCH_PAUSE_MAX_MS ? pause_ms :
			    TP_FETCH_PAUSE_MAX_MS);
	}
	snprintf(error->msg, sizeof(error->msg),
		 "the results changed under each of %d reads in %.1f s: the run publishes new figures faster than they can be read",
		 tries, (double)(tp_mono_raw_ns() - from) / 1e9);
	return err;
}

static int tp_status_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];
	struct tp_result *r = data;
	const struct nlattr *a;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	tp_result_decode_run(tb, r);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		const struct nlattr *c[TSCPROBE_CPU_A_MAX + 1];
		const struct nlattr *s;
		struct tp_cpu_res *cr;

		if (mnl_attr_get_type(a) != TSCPROBE_A_CPU ||
		    tp_nl_parse_nested(a, c, TSCPROBE_CPU_A_MAX) ||
		    !c[TSCPROBE_CPU_A_ID])
			continue;
		cr = tp_result_cpu(r, tp_nl_u32(c[TSCPROBE_CPU_A_ID], 0));
		cr->flags = tp_nl_u32(c[TSCPROBE_CPU_A_FLAGS], 0);
		cr->measured_cycles = tp_nl_u64(c[TSCPROBE_CPU_A_MEASURED_CYCLES], 0);
		cr->wall_cycles = tp_nl_u64(c[TSCPROBE_CPU_A_WALL_CYCLES], 0);
		cr->windows = tp_nl_u64(c[TSCPROBE_CPU_A_WINDOWS], 0);
		cr->events_total = tp_nl_u64(c[TSCPROBE_CPU_A_EVENTS_TOTAL], 0);
		cr->rounds = tp_nl_u64(c[TSCPROBE_CPU_A_ROUNDS], 0);
		mnl_attr_for_each_nested(s, a) {
			const struct nlattr *st[TSCPROBE_SERIES_A_MAX + 1];
			uint32_t id;

			if (mnl_attr_get_type(s) != TSCPROBE_CPU_A_SERIES ||
			    tp_nl_parse_nested(s, st, TSCPROBE_SERIES_A_MAX))
				continue;
			id = tp_nl_u32(st[TSCPROBE_SERIES_A_ID], 0);
			if (!id || id > TSCPROBE_SERIES_MAX)
				continue;
			cr->series[id].present = true;
			cr->series[id].stats.count =
				tp_nl_u64(st[TSCPROBE_SERIES_A_COUNT], 0);
			cr->series[id].stats.max =
				tp_nl_u64(st[TSCPROBE_SERIES_A_MAXIMUM], 0);
		}
	}
	return MNL_CB_OK;
}

/* Reads of the status a RESET or a START may cut before it gives up. */
#define TP_STATUS_TRIES	4

/**
 * tp_fetch_status() - GET_STATUS into a result (run fields and progress)
 * @nl: the request socket
 * @status: initialised result to fill
 * @error: the refusal, if any
 *
 * A dump: the run message, then a message per CPU with its progress.  The
 * status is of whatever is current: a dump that a RESET or a START cut
 * (ESTALE) is read again.
 *
 * Return: 0 or a negative errno.
 */
int tp_fetch_status(struct tp_nl *nl, struct tp_result *status,
		    struct tp_nl_error *error)
{
	uint32_t kind = status->kind;
	int tries, err;

	for (tries = 1;; tries++) {
		err = tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_GET_STATUS,
						   true),
				 tp_status_cb, status, error);
		if (err != -ESTALE || tries == TP_STATUS_TRIES)
			return err;
		tp_result_free(status);
		tp_result_init(status, kind);
	}
}

/*
 * GET_STATUS's do: the run message alone.  Unlike the dump, it holds no
 * reference on the module between messages, so an rmmod while the CLI
 * waits for its run is never refused on its account.
 */
int tp_fetch_run_status(struct tp_nl *nl, struct tp_result *status,
			struct tp_nl_error *error)
{
	return tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_GET_STATUS, false),
			  tp_status_cb, status, error);
}

/* The generic netlink command of a notification (0: not one). */
uint8_t tp_notification_cmd(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*g))
		return 0;
	return g->cmd;
}

/* The run a notification is about (0: it does not say). */
uint64_t tp_notification_run_id(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return 0;
	return tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0);
}

/* The events of one CPU nest, each handed to @fn. */
static int tp_decode_cpu_events(uint64_t run_id, const struct nlattr *nest,
				tp_cpu_event_fn fn, void *arg)
{
	const struct nlattr *tb[TSCPROBE_CPU_A_MAX + 1];
	struct tp_cpu_event ev;
	const struct nlattr *a;
	int n = 0;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_CPU_A_MAX) ||
	    !tb[TSCPROBE_CPU_A_ID])
		return -1;
	memset(&ev, 0, sizeof(ev));
	ev.cpu = tp_nl_u32(tb[TSCPROBE_CPU_A_ID], 0);
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) != TSCPROBE_CPU_A_EVENT)
			continue;
		if (tp_result_decode_event(a, &ev.e))
			return -1;
		fn(run_id, &ev, arg);
		n++;
	}
	return n;
}

/**
 * tp_notification_each_event() - decode the events of an EVENT notification
 * @nlh: the notification
 * @fn: called with the run's id and each event, in order
 * @arg: for @fn
 *
 * Return: the events decoded, or -1 when the message is malformed (the
 * events before the fault were handed to @fn).
 */
int tp_notification_each_event(const struct nlmsghdr *nlh,
			       tp_cpu_event_fn fn, void *arg)
{
	uint64_t run_id = tp_notification_run_id(nlh);
	const struct nlattr *a;
	int n = 0, k;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != TSCPROBE_A_CPU)
			continue;
		k = tp_decode_cpu_events(run_id, a, fn, arg);
		if (k < 0)
			return -1;
		n += k;
	}
	return n;
}
