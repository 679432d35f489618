// SPDX-License-Identifier: GPL-2.0
/*
 * Watching a noise run live, module side, in the guest:
 *
 *  - every event carries a cause and the counter deltas it was read from,
 *    and an unreadable counter is absent (never 0); the cause follows the
 *    documented rule; per CPU the causes' events add up to the total, and
 *    the kept events of a cause never exceed what the cause explains;
 *  - a listener on the events group, alone and joined before START,
 *    receives per CPU exactly EVENTS_TOTAL - EVENTS_NOT_NOTIFIED events,
 *    and the counts in RUN_FINISHED are the results';
 *  - STOP_AT ends the run with reason threshold, on a CPU of the run, with
 *    an event at least that long, in RUN_FINISHED, GET_STATUS and the
 *    dump alike; TRACE_STOP leaves tracing off, the stopping event the
 *    last noise event in the buffer;
 *  - the tracepoints fire with consistent fields;
 *  - bad stop-at input is refused naming the attribute, starting nothing.
 *
 * Under TCG gaps are plentiful (the emulator is noisy), so low thresholds
 * give events; nothing here asserts a timing.
 */
#include <sys/socket.h>

#include "kselftest_harness.h"
#include "tp_hardening.h"
#include "core/names.h"

#define TP_LIVE_CPUS	256	/* guest CPUs these tests track */

/* ---- what the module says about the machine --------------------------- */

static int tp_features_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	*(uint32_t *)data = tp_nl_u32(tb[TSCPROBE_A_FEATURES], 0);
	return MNL_CB_OK;
}

static uint32_t tp_features(struct tp_nl *nl)
{
	uint32_t f = 0;

	tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_GET_INFO, false),
		   tp_features_cb, &f, NULL);
	return f;
}

/* ---- one event, wherever it comes from --------------------------------- */

/**
 * struct tp_event_rules - what every event of a run must satisfy
 * @threshold: the run's threshold, cycles
 * @smi: the SMI delta must be there (FEAT_SMI_COUNT), else absent
 * @steal: the steal delta must be there (a guest with IRQS on), else absent
 * @irqs_on: the run measured with interrupts on
 */
struct tp_event_rules {
	uint64_t threshold;
	bool smi;
	bool steal;
	bool irqs_on;
};

/**
 * struct tp_event_seen - an event as checked
 * @cycles: its length
 * @cause: its cause
 * @sourced: it names what ran inside its gap (the probes traced it)
 * @tsc: its end
 * @counted: it carries counter deltas (none where another event followed
 *	it at once)
 * @why: "" when it satisfied the rules, else what it broke
 */
struct tp_event_seen {
	uint64_t cycles;
	uint32_t cause;
	bool sourced;
	uint64_t tsc;
	bool counted;
	char why[160];
};

/* The cause the counter rule of enum tscprobe_cause gives these deltas. */
static uint32_t tp_counter_cause(const struct nlattr *const *tb)
{
	if (tb[TSCPROBE_EVENT_A_SMI] && tp_nl_u32(tb[TSCPROBE_EVENT_A_SMI], 0))
		return TSCPROBE_CAUSE_SMI;
	if (tp_nl_u32(tb[TSCPROBE_EVENT_A_NMI], 0))
		return TSCPROBE_CAUSE_NMI;
	if (tp_nl_u32(tb[TSCPROBE_EVENT_A_IRQ], 0))
		return TSCPROBE_CAUSE_IRQ;
	if (tb[TSCPROBE_EVENT_A_STEAL_NS] &&
	    tp_nl_u64(tb[TSCPROBE_EVENT_A_STEAL_NS], 0))
		return TSCPROBE_CAUSE_STEAL;
	return TSCPROBE_CAUSE_UNEXPLAINED;
}

/* The first source an event names: the largest ("other" comes last). */
static const struct nlattr *tp_first_source(const struct nlattr *event)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, event)
		if (mnl_attr_get_type(a) == TSCPROBE_EVENT_A_SOURCE)
			return a;
	return NULL;
}

/*
 * The cause enum tscprobe_cause gives event @nest: its largest source's
 * kind when that accounts for as much of the gap as is left unexplained,
 * else the counters'.
 */
static uint32_t tp_rule_cause(const struct nlattr *nest,
			      const struct nlattr *const *tb)
{
	static const uint32_t kind_cause[TSCPROBE_SOURCE_OTHER] = {
		[TSCPROBE_SOURCE_THREAD] = TSCPROBE_CAUSE_THREAD,
		[TSCPROBE_SOURCE_SOFTIRQ] = TSCPROBE_CAUSE_SOFTIRQ,
		[TSCPROBE_SOURCE_IRQ] = TSCPROBE_CAUSE_IRQ,
		[TSCPROBE_SOURCE_NMI] = TSCPROBE_CAUSE_NMI,
	};
	const struct nlattr *sb[TSCPROBE_SOURCE_A_MAX + 1];
	const struct nlattr *top = tp_first_source(nest);
	uint32_t kind;
	uint64_t net;

	if (top && tb[TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES] &&
	    !tp_nl_parse_nested(top, sb, TSCPROBE_SOURCE_A_MAX)) {
		kind = tp_nl_u32(sb[TSCPROBE_SOURCE_A_KIND], TSCPROBE_SOURCE_OTHER);
		net = tp_nl_u64(sb[TSCPROBE_SOURCE_A_CYCLES], 0);
		if (kind < TSCPROBE_SOURCE_OTHER && net &&
		    net >= tp_nl_u64(tb[TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES], 0))
			return kind_cause[kind];
	}
	return tp_counter_cause(tb);
}

/* The named sources' cycles and the unexplained rest: the gap, exactly. */
static uint64_t tp_sources_sum(const struct nlattr *nest,
			       const struct nlattr *const *tb)
{
	const struct nlattr *sb[TSCPROBE_SOURCE_A_MAX + 1];
	uint64_t sum = tp_nl_u64(tb[TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES], 0);
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == TSCPROBE_EVENT_A_SOURCE &&
		    !tp_nl_parse_nested(a, sb, TSCPROBE_SOURCE_A_MAX))
			sum += tp_nl_u64(sb[TSCPROBE_SOURCE_A_CYCLES], 0);
	return sum;
}

static void tp_check_event(const struct nlattr *nest,
			   const struct tp_event_rules *r,
			   struct tp_event_seen *ev)
{
	const struct nlattr *tb[TSCPROBE_EVENT_A_MAX + 1];

	ev->why[0] = '\0';
	if (tp_nl_parse_nested(nest, tb, TSCPROBE_EVENT_A_MAX)) {
		snprintf(ev->why, sizeof(ev->why), "unparsable event nest");
		return;
	}
	ev->cycles = tp_nl_u64(tb[TSCPROBE_EVENT_A_CYCLES], 0);
	ev->cause = tp_nl_u32(tb[TSCPROBE_EVENT_A_CAUSE], 0);
	ev->sourced = tb[TSCPROBE_EVENT_A_UNEXPLAINED_CYCLES] != NULL;
	ev->tsc = tp_nl_u64(tb[TSCPROBE_EVENT_A_TSC], 0);
	ev->counted = tb[TSCPROBE_EVENT_A_NMI] && tb[TSCPROBE_EVENT_A_IRQ];
	if (!tb[TSCPROBE_EVENT_A_TSC] || !tb[TSCPROBE_EVENT_A_CYCLES] ||
	    !tb[TSCPROBE_EVENT_A_CAUSE])
		tp_why(ev->why, sizeof(ev->why), "tsc, cycles or cause missing");
	else if (ev->cycles < r->threshold)
		tp_why(ev->why, sizeof(ev->why), "%" PRIu64 " cycles < threshold",
		       ev->cycles);
	else if (ev->cause < TSCPROBE_CAUSE_SMI ||
		 ev->cause > TSCPROBE_CAUSE_MAX)
		tp_why(ev->why, sizeof(ev->why), "cause %u", ev->cause);
	else if (!ev->counted && (tb[TSCPROBE_EVENT_A_NMI] ||
				  tb[TSCPROBE_EVENT_A_IRQ] ||
				  tb[TSCPROBE_EVENT_A_SMI] ||
				  tb[TSCPROBE_EVENT_A_STEAL_NS]))
		tp_why(ev->why, sizeof(ev->why),
		       "nmi or irq delta missing, another there");
	/* An event followed at once by another has none (see below). */
	else if (ev->counted && !!tb[TSCPROBE_EVENT_A_SMI] != r->smi)
		tp_why(ev->why, sizeof(ev->why), "smi delta %s, FEAT_SMI_COUNT %s",
		       tb[TSCPROBE_EVENT_A_SMI] ? "present" : "absent",
		       r->smi ? "set" : "clear");
	else if (ev->counted && !!tb[TSCPROBE_EVENT_A_STEAL_NS] != r->steal)
		tp_why(ev->why, sizeof(ev->why), "steal delta %s, expected %s",
		       tb[TSCPROBE_EVENT_A_STEAL_NS] ? "present" : "absent",
		       r->steal ? "present" : "absent");
	else if (tp_rule_cause(nest, tb) != ev->cause)
		tp_why(ev->why, sizeof(ev->why), "cause %s, the rule gives %s",
		       tp_cause_name(ev->cause),
		       tp_cause_name(tp_rule_cause(nest, tb)));
	else if (ev->sourced && tp_sources_sum(nest, tb) != ev->cycles)
		tp_why(ev->why, sizeof(ev->why),
		       "sources and unexplained add up to %" PRIu64 " cycles of %" PRIu64,
		       tp_sources_sum(nest, tb), ev->cycles);
	/* With interrupts off, only an NMI (a PMI) can count as an interrupt. */
	else if (!r->irqs_on && tp_nl_u32(tb[TSCPROBE_EVENT_A_IRQ], 0) &&
		 !tp_nl_u32(tb[TSCPROBE_EVENT_A_NMI], 0))
		tp_why(ev->why, sizeof(ev->why),
		       "an interrupt without an NMI, interrupts off");
}

/* ---- a noise run's results, by CPU ------------------------------------- */

/**
 * struct tp_live_cpu - one CPU's events as the dump and the listener saw
 * @seen: the CPU appeared in the dump
 * @total: EVENTS_TOTAL
 * @dropped: EVENTS_DROPPED
 * @not_notified: EVENTS_NOT_NOTIFIED (absent: UINT64_MAX)
 * @causes: CAUSE nests seen
 * @traced: BIT(TSCPROBE_SOURCE_*) of the SOURCE_KIND nests seen: kinds traced
 * @smi_cause: the SMI one among them
 * @cause_events: their EVENTS, by cause
 * @cause_cycles: their CYCLES, by cause
 * @kept: events in the dump, by cause
 * @kept_cycles: their cycles, by cause
 * @received: events in EVENT notifications
 * @sourced: events of the dump and of the notifications naming sources
 * @fin_total: EVENTS_TOTAL in RUN_FINISHED (UINT64_MAX: absent)
 * @fin_not_notified: EVENTS_NOT_NOTIFIED in RUN_FINISHED
 */
struct tp_live_cpu {
	bool seen;
	uint64_t total;
	uint64_t dropped;
	uint64_t not_notified;
	unsigned int causes;
	uint32_t traced;
	bool smi_cause;
	uint64_t cause_events[TSCPROBE_CAUSE_MAX + 1];
	uint64_t cause_cycles[TSCPROBE_CAUSE_MAX + 1];
	uint64_t kept[TSCPROBE_CAUSE_MAX + 1];
	uint64_t kept_cycles[TSCPROBE_CAUSE_MAX + 1];
	uint64_t received;
	uint64_t sourced;
	uint64_t fin_total;
	uint64_t fin_not_notified;
};

/**
 * struct tp_live - what a test gathered about one run
 * @run_id: the run
 * @rules: what its events must satisfy
 * @cpu: by CPU number
 * @events: events checked
 * @bad: the first event that broke a rule, "" if none
 * @finished: RUN_FINISHED of the run arrived
 * @finished_twice: more than one did
 * @state: its STATE
 * @reason: its STOP_REASON
 * @stop_cpu: its STOP_CPU (UINT32_MAX: absent)
 * @stop_cycles: its STOP_EVENT's cycles (0: absent)
 * @stop_tsc: its STOP_EVENT's TSC
 * @stop_why: what the stop event broke, "" if nothing
 */
struct tp_live {
	uint64_t run_id;
	struct tp_event_rules rules;
	struct tp_live_cpu cpu[TP_LIVE_CPUS];
	unsigned long events;
	char bad[200];
	bool finished;
	bool finished_twice;
	uint32_t state;
	uint32_t reason;
	uint32_t stop_cpu;
	uint64_t stop_cycles;
	uint64_t stop_tsc;
	char stop_why[160];
};

/*
 * The dumped events, in arrival order, to be compared in time order: an
 * event whose gap the next one's begins at its end has no counters.
 */
struct tp_kept_event {
	unsigned int cpu;
	uint64_t tsc;
	uint64_t cycles;
	bool counted;
};

#define TP_KEPT_MAX	(64 * TSCPROBE_MAX_EVENTS)
static struct tp_kept_event tp_kept[TP_KEPT_MAX];
static unsigned int tp_nkept;

static void tp_live_init(struct tp_live *l)
{
	unsigned int i;

	memset(l, 0, sizeof(*l));
	tp_nkept = 0;
	l->stop_cpu = UINT32_MAX;
	for (i = 0; i < TP_LIVE_CPUS; i++) {
		l->cpu[i].not_notified = UINT64_MAX;
		l->cpu[i].fin_total = UINT64_MAX;
		l->cpu[i].fin_not_notified = UINT64_MAX;
	}
}

static void tp_live_event(struct tp_live *l, unsigned int cpu,
			  const struct nlattr *nest, bool notified)
{
	struct tp_live_cpu *c = &l->cpu[cpu];
	struct tp_event_seen ev;

	tp_check_event(nest, &l->rules, &ev);
	l->events++;
	c->sourced += ev.sourced;
	if (ev.why[0] && !l->bad[0])
		snprintf(l->bad, sizeof(l->bad), "cpu %u: %s", cpu, ev.why);
	if (notified) {
		c->received++;
		return;
	}
	if (ev.cause <= TSCPROBE_CAUSE_MAX) {
		c->kept[ev.cause]++;
		c->kept_cycles[ev.cause] += ev.cycles;
	}
	if (tp_nkept < TP_KEPT_MAX)
		tp_kept[tp_nkept++] = (struct tp_kept_event) {
			.cpu = cpu, .tsc = ev.tsc, .cycles = ev.cycles,
			.counted = ev.counted,
		};
}

static void tp_live_cause(struct tp_live_cpu *c, const struct nlattr *nest)
{
	const struct nlattr *tb[TSCPROBE_CAUSE_A_MAX + 1];
	uint32_t id;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_CAUSE_A_MAX))
		return;
	id = tp_nl_u32(tb[TSCPROBE_CAUSE_A_ID], 0);
	if (id > TSCPROBE_CAUSE_MAX)
		return;
	c->causes++;
	c->smi_cause |= id == TSCPROBE_CAUSE_SMI;
	c->cause_events[id] = tp_nl_u64(tb[TSCPROBE_CAUSE_A_EVENTS], 0);
	c->cause_cycles[id] = tp_nl_u64(tb[TSCPROBE_CAUSE_A_CYCLES], 0);
}

/* A kind of source the probes traced on the CPU. */
static void tp_live_traced(struct tp_live_cpu *c, const struct nlattr *nest)
{
	const struct nlattr *tb[TSCPROBE_SOURCE_A_MAX + 1];
	uint32_t kind;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_SOURCE_A_MAX))
		return;
	kind = tp_nl_u32(tb[TSCPROBE_SOURCE_A_KIND], TSCPROBE_SOURCE_OTHER);
	if (kind < TSCPROBE_SOURCE_OTHER)
		c->traced |= 1U << kind;
}

/* A CPU nest of a dump, an EVENT or a RUN_FINISHED message. */
static int tp_live_cpu_nest(struct tp_live *l, const struct nlattr *nest,
			    uint8_t cmd)
{
	const struct nlattr *tb[TSCPROBE_CPU_A_MAX + 1], *a;
	struct tp_live_cpu *c;
	uint32_t cpu;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_CPU_A_MAX) ||
	    !tb[TSCPROBE_CPU_A_ID])
		return MNL_CB_ERROR;
	cpu = tp_nl_u32(tb[TSCPROBE_CPU_A_ID], 0);
	if (cpu >= TP_LIVE_CPUS)
		return MNL_CB_ERROR;
	c = &l->cpu[cpu];
	if (cmd == TSCPROBE_CMD_RUN_FINISHED) {
		c->fin_total = tp_nl_u64(tb[TSCPROBE_CPU_A_EVENTS_TOTAL],
					 UINT64_MAX);
		c->fin_not_notified =
			tp_nl_u64(tb[TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED],
				  UINT64_MAX);
		return MNL_CB_OK;
	}
	if (cmd == TSCPROBE_CMD_GET_RESULT) {
		c->seen = true;
		if (tb[TSCPROBE_CPU_A_EVENTS_TOTAL])
			c->total = tp_nl_u64(tb[TSCPROBE_CPU_A_EVENTS_TOTAL], 0);
		if (tb[TSCPROBE_CPU_A_EVENTS_DROPPED])
			c->dropped = tp_nl_u64(tb[TSCPROBE_CPU_A_EVENTS_DROPPED],
					       0);
		if (tb[TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED])
			c->not_notified =
				tp_nl_u64(tb[TSCPROBE_CPU_A_EVENTS_NOT_NOTIFIED],
					  0);
	}
	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_EVENT)
			tp_live_event(l, cpu, a, cmd == TSCPROBE_CMD_EVENT);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_CAUSE &&
			 cmd == TSCPROBE_CMD_GET_RESULT)
			tp_live_cause(c, a);
		else if (mnl_attr_get_type(a) == TSCPROBE_CPU_A_SOURCE_KIND &&
			 cmd == TSCPROBE_CMD_GET_RESULT)
			tp_live_traced(c, a);
	}
	return MNL_CB_OK;
}

/* The run-level stop attributes (RUN_FINISHED, GET_STATUS, the dump). */
static void tp_live_stop(struct tp_live *l, const struct nlattr *const *tb)
{
	struct tp_event_seen ev;

	l->state = tp_nl_u32(tb[TSCPROBE_A_STATE], 0);
	l->reason = tp_nl_u32(tb[TSCPROBE_A_STOP_REASON], 0);
	l->stop_cpu = tp_nl_u32(tb[TSCPROBE_A_STOP_CPU], UINT32_MAX);
	if (!tb[TSCPROBE_A_STOP_EVENT])
		return;
	tp_check_event(tb[TSCPROBE_A_STOP_EVENT], &l->rules, &ev);
	snprintf(l->stop_why, sizeof(l->stop_why), "%s", ev.why);
	l->stop_cycles = ev.cycles;
	{
		const struct nlattr *e[TSCPROBE_EVENT_A_MAX + 1];

		if (!tp_nl_parse_nested(tb[TSCPROBE_A_STOP_EVENT], e,
					TSCPROBE_EVENT_A_MAX))
			l->stop_tsc = tp_nl_u64(e[TSCPROBE_EVENT_A_TSC], 0);
	}
}

/* Every message about the run: dump parts and notifications. */
static int tp_live_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[TSCPROBE_A_MAX + 1], *a;
	struct tp_live *l = data;
	int ret = MNL_CB_OK;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	if (tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0) != l->run_id)
		return MNL_CB_OK;	/* another run's */
	if (g->cmd == TSCPROBE_CMD_RUN_FINISHED) {
		l->finished_twice = l->finished;
		l->finished = true;
		tp_live_stop(l, tb);
	} else if (g->cmd == TSCPROBE_CMD_GET_RESULT && tb[TSCPROBE_A_STATE]) {
		tp_live_stop(l, tb);	/* the dump's run message */
	}
	mnl_attr_for_each(a, nlh, sizeof(*g))
		if (mnl_attr_get_type(a) == TSCPROBE_A_CPU &&
		    ret == MNL_CB_OK)
			ret = tp_live_cpu_nest(l, a, g->cmd);
	if (ret == MNL_CB_OK && g->cmd == TSCPROBE_CMD_RUN_FINISHED)
		return MNL_CB_STOP;
	return ret;
}

static int tp_live_dump(struct tp_nl *nl, struct tp_live *l)
{
	struct nlmsghdr *nlh = tp_nl_request(nl, TSCPROBE_CMD_GET_RESULT, true);

	mnl_attr_put_u64(nlh, TSCPROBE_A_RUN_ID, l->run_id);
	return tp_nl_talk(nl, nlh, tp_live_cb, l, NULL);
}

/*
 * A listener: joined to the events group, told of its own full receive
 * queue (NETLINK_BROADCAST_ERROR: the module then counts what it lost),
 * with a large queue so that it rarely is.
 */
static int tp_listen(struct tp_nl *nl)
{
	int fd, one = 1, size = 8 << 20;

	if (tp_nl_open(nl) != TP_EXIT_OK || tp_nl_join_events(nl))
		return -1;
	fd = mnl_socket_get_fd(nl->sock);
	if (setsockopt(fd, SOL_NETLINK, NETLINK_BROADCAST_ERROR, &one,
		       sizeof(one)))
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	return 0;
}

/* Read notifications until the run's RUN_FINISHED or @ms pass. */
static void tp_listen_until_finished(struct tp_nl *lis, struct tp_live *l,
				     unsigned int ms)
{
	uint64_t end = tp_now_ms() + ms;
	int ret;

	while (!l->finished && tp_now_ms() < end) {
		ret = tp_nl_wait_event(lis, (int)(end - tp_now_ms()),
				       tp_live_cb, l);
		/* ENOBUFS: lost messages, which the module counts. */
		if (ret < 0 && ret != -ENOBUFS && ret != -EINTR)
			break;
	}
}

/* START a noise run with @vals; 0 and the run id in l->run_id. */
static int tp_live_start(struct tp_nl *nl, struct tp_live *l,
			 const struct tp_attr_val *vals, struct tp_nl_error *e)
{
	return tp_start(nl, tp_kind_by_name("noise"), vals, NULL, &l->run_id,
			e);
}

static void tp_live_rules(struct tp_nl *nl, struct tp_live *l,
			  uint64_t threshold, bool irqs_on)
{
	uint32_t f = tp_features(nl);

	l->rules.threshold = threshold;
	l->rules.irqs_on = irqs_on;
	l->rules.smi = f & TSCPROBE_FEAT_SMI_COUNT;
	l->rules.steal = irqs_on && (f & TSCPROBE_FEAT_HYPERVISOR);
}

/* ---- tracefs ------------------------------------------------------------ */

static int tp_trace_write(const char *root, const char *file,
			  const char *text)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "echo '%s' > %s/%s", text, root, file);
	return tp_sh(cmd, NULL);
}

/* The value of "name=" in a trace line, as a signed number. */
static bool tp_field(const char *line, const char *name, long long *v)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(line, key);
	return p && sscanf(p + strlen(key), "%lld", v) == 1;
}

static bool tp_field_str(const char *line, const char *name, char *v,
			 size_t len)
{
	char key[64], fmt[32];
	const char *p;

	snprintf(key, sizeof(key), " %s=", name);
	p = strstr(line, key);
	snprintf(fmt, sizeof(fmt), "%%%zus", len - 1);
	return p && sscanf(p + strlen(key), fmt, v) == 1;
}

/* Fresh tscprobe events in an empty, recording buffer. */
static int tp_trace_arm(const char *root)
{
	if (tp_trace_write(root, "tracing_on", "0") ||
	    tp_trace_write(root, "buffer_size_kb", "8192") ||
	    tp_trace_write(root, "trace", "") ||
	    tp_trace_write(root, "events/tscprobe/enable", "1") ||
	    tp_trace_write(root, "tracing_on", "1"))
		return -1;
	return 0;
}

static void tp_trace_disarm(const char *root)
{
	tp_trace_write(root, "events/tscprobe/enable", "0");
	tp_trace_write(root, "tracing_on", "1");
}

/*
 * The tscprobe lines of the trace matching the extended regex @re, at most
 * @max of them: a whole buffer can be larger than tp_sh() takes.
 */
static char *tp_trace_read(const char *root, const char *re, unsigned int max)
{
	char cmd[256];
	char *out = NULL;
	int ret;

	snprintf(cmd, sizeof(cmd), "grep -m %u -E '%s' %s/trace", max, re,
		 root);
	ret = tp_sh(cmd, &out);
	if (ret != 0 && ret != 1) {	/* 1: no line matched */
		free(out);
		return NULL;
	}
	return out;
}

/* ---- the tests ---------------------------------------------------------- */

FIXTURE(live) {
	struct tp_nl nl;
	struct tp_nl st;
	struct tp_nl lis;
	struct tp_live l;
};

FIXTURE_SETUP(live)
{
	ASSERT_EQ(0, tp_module_load());
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->nl));
	ASSERT_EQ(TP_EXIT_OK, tp_nl_open(&self->st));
	ASSERT_EQ(0, tp_listen(&self->lis));
	tp_live_init(&self->l);
}

FIXTURE_TEARDOWN(live)
{
	tp_sh("tscprobe stop >/dev/null 2>&1", NULL);
	tp_nl_close(&self->nl);
	tp_nl_close(&self->st);
	tp_nl_close(&self->lis);
}

static int tp_kept_cmp(const void *a, const void *b)
{
	const struct tp_kept_event *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (x->tsc > y->tsc) - (x->tsc < y->tsc);
}

/*
 * The loop sees a gap one read late, so an event's counters, read then,
 * would count the next gap too where that was an event: an event whose
 * next one begins at its end has none.  (The converse is looser: the
 * second of three back to back ends where the slow path of the first
 * begins, and the third begins after it; core's host tests check it.)
 * Returns how many had none.
 */
static unsigned int tp_check_followed(struct __test_metadata *_metadata)
{
	unsigned int i, uncounted = 0;

	qsort(tp_kept, tp_nkept, sizeof(tp_kept[0]), tp_kept_cmp);
	for (i = 0; i < tp_nkept; i++) {
		const struct tp_kept_event *e = &tp_kept[i], *f = e + 1;

		uncounted += !e->counted;
		if (i + 1 < tp_nkept && f->cpu == e->cpu &&
		    f->tsc - f->cycles == e->tsc)
			EXPECT_FALSE(e->counted)
				TH_LOG("cpu %u: event at %" PRIu64
				       " counted, the next begins at its end",
				       e->cpu, e->tsc);
	}
	return uncounted;
}

/* The checks of a finished run's dump, per CPU. */
static void tp_check_causes(struct __test_metadata *_metadata,
			    const struct tp_live *l, bool want_events)
{
	unsigned long with_events = 0;
	unsigned int cpu, k;

	EXPECT_STREQ("", l->bad);
	for (cpu = 0; cpu < TP_LIVE_CPUS; cpu++) {
		const struct tp_live_cpu *c = &l->cpu[cpu];
		uint64_t sum = 0, kept = 0;

		if (!c->seen)
			continue;
		with_events += c->total > 0;
		/*
		 * All seven, but SMI where its count cannot be read (a VM),
		 * and thread and softirq where the probes trace no such kind.
		 */
		EXPECT_EQ(TSCPROBE_CAUSE_MAX - !l->rules.smi -
			  !(c->traced & (1U << TSCPROBE_SOURCE_THREAD)) -
			  !(c->traced & (1U << TSCPROBE_SOURCE_SOFTIRQ)),
			  c->causes)
			TH_LOG("cpu %u", cpu);
		EXPECT_EQ(l->rules.smi, c->smi_cause) TH_LOG("cpu %u", cpu);
		EXPECT_NE(UINT64_MAX, c->not_notified) TH_LOG("cpu %u", cpu);
		EXPECT_LE(c->not_notified, c->total) TH_LOG("cpu %u", cpu);
		for (k = TSCPROBE_CAUSE_SMI; k <= TSCPROBE_CAUSE_MAX; k++) {
			sum += c->cause_events[k];
			kept += c->kept[k];
			EXPECT_LE(c->kept[k], c->cause_events[k])
				TH_LOG("cpu %u cause %s", cpu, tp_cause_name(k));
			EXPECT_LE(c->kept_cycles[k], c->cause_cycles[k])
				TH_LOG("cpu %u cause %s", cpu, tp_cause_name(k));
			EXPECT_GE(c->cause_cycles[k],
				  c->cause_events[k] * l->rules.threshold)
				TH_LOG("cpu %u cause %s", cpu, tp_cause_name(k));
		}
		EXPECT_EQ(c->total, sum) TH_LOG("cpu %u: causes add up", cpu);
		EXPECT_EQ(c->total, kept + c->dropped) TH_LOG("cpu %u", cpu);
		/* Where the probes traced, every event names its sources. */
		EXPECT_EQ(c->traced ? kept + c->received : 0, c->sourced)
			TH_LOG("cpu %u: %" PRIu64 " kept, %" PRIu64
			       " notified, %" PRIu64 " with sources", cpu,
			       kept, c->received, c->sourced);
	}
	if (want_events)
		EXPECT_GT(with_events, 0) TH_LOG("no CPU saw an event");
	EXPECT_GT(l->events, 0);
	TH_LOG("%u of %u kept events followed by another at once",
	       tp_check_followed(_metadata), tp_nkept);
}

TEST_F_TIMEOUT(live, causes_irqs_off, 90)
{
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 500000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 2000 },
		{ 0 },
	};
	struct tp_live *l = &self->l;
	struct tp_nl_error e;

	tp_live_rules(&self->nl, l, 2000, false);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	ASSERT_TRUE(l->finished);
	ASSERT_EQ(0, tp_live_dump(&self->nl, l));
	tp_check_causes(_metadata, l, true);
}

TEST_F_TIMEOUT(live, causes_irqs_on, 90)
{
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 500000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_IRQS, TP_NLA_U32, TSCPROBE_IRQS_ON },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 2000 },
		{ 0 },
	};
	struct tp_live *l = &self->l;
	struct tp_nl_error e;
	uint64_t irq = 0;
	unsigned int cpu;

	tp_live_rules(&self->nl, l, 2000, true);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	ASSERT_TRUE(l->finished);
	ASSERT_EQ(0, tp_live_dump(&self->nl, l));
	tp_check_causes(_metadata, l, true);
	/* The tick lands inside 20 ms windows: some gap is an interrupt. */
	for (cpu = 0; cpu < TP_LIVE_CPUS; cpu++)
		irq += l->cpu[cpu].cause_events[TSCPROBE_CAUSE_IRQ];
	EXPECT_GT(irq, 0);
}

/*
 * The only listener, joined before START, with NETLINK_BROADCAST_ERROR:
 * per CPU what it received plus what the module did not notify is the
 * total, in RUN_FINISHED and in the results.  A low threshold makes the
 * 32-per-window cap bite.
 */
TEST_F_TIMEOUT(live, notified_and_not_notified_add_up, 90)
{
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 1000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_IRQS, TP_NLA_U32, TSCPROBE_IRQS_ON },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 500 },
		{ 0 },
	};
	struct tp_live *l = &self->l;
	uint64_t received = 0, not_notified = 0;
	struct tp_nl_error e;
	unsigned int cpu, cpus = 0;

	tp_live_rules(&self->nl, l, 500, true);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	ASSERT_TRUE(l->finished);
	EXPECT_FALSE(l->finished_twice);
	ASSERT_EQ(0, tp_live_dump(&self->nl, l));
	EXPECT_STREQ("", l->bad);
	for (cpu = 0; cpu < TP_LIVE_CPUS; cpu++) {
		const struct tp_live_cpu *c = &l->cpu[cpu];

		if (!c->seen)
			continue;
		cpus++;
		EXPECT_EQ(c->total, c->fin_total) TH_LOG("cpu %u", cpu);
		EXPECT_EQ(c->not_notified, c->fin_not_notified)
			TH_LOG("cpu %u", cpu);
		EXPECT_EQ(c->total, c->received + c->not_notified)
			TH_LOG("cpu %u: %" PRIu64 " received, %" PRIu64
			       " not notified, %" PRIu64 " in all", cpu,
			       c->received, c->not_notified, c->total);
		received += c->received;
		not_notified += c->not_notified;
	}
	EXPECT_EQ(tp_online_count(), cpus);
	EXPECT_GT(received, 0);
	TH_LOG("%" PRIu64 " events received, %" PRIu64 " not notified",
	       received, not_notified);
}

/* A run stopped at a threshold: everything says so, consistently. */
static void tp_check_stopped_at(struct __test_metadata *_metadata,
				struct tp_nl *nl, struct tp_live *l,
				uint64_t stop_at)
{
	uint32_t cpu;
	uint64_t tsc;

	ASSERT_TRUE(l->finished);
	EXPECT_EQ(TSCPROBE_STATE_STOPPED, l->state);
	EXPECT_EQ(TSCPROBE_STOP_THRESHOLD, l->reason);
	EXPECT_GT(tp_online_count(), l->stop_cpu);
	EXPECT_GE(l->stop_cycles, stop_at);
	EXPECT_STREQ("", l->stop_why);
	/* The dump's run message says the same. */
	cpu = l->stop_cpu;
	tsc = l->stop_tsc;
	l->stop_cpu = UINT32_MAX;
	l->stop_tsc = 0;
	ASSERT_EQ(0, tp_live_dump(nl, l));
	EXPECT_EQ(TSCPROBE_STOP_THRESHOLD, l->reason);
	EXPECT_EQ(cpu, l->stop_cpu);
	EXPECT_EQ(tsc, l->stop_tsc);
	EXPECT_EQ(TSCPROBE_STATE_STOPPED, tp_get_status(nl).state);
}

TEST_F_TIMEOUT(live, stop_at_ends_the_run, 120)
{
	/* 30 s unless stopped; with interrupts on, TCG's gaps come fast. */
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 30000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_IRQS, TP_NLA_U32, TSCPROBE_IRQS_ON },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 2000 },
		{ TSCPROBE_A_STOP_AT_CYCLES, TP_NLA_U64, 20000 },
		{ 0 },
	};
	struct tp_live *l = &self->l;
	struct tp_nl_error e;
	uint64_t t0 = tp_now_ms();

	tp_live_rules(&self->nl, l, 2000, true);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	tp_check_stopped_at(_metadata, &self->nl, l, 20000);
	TH_LOG("stopped after %" PRIu64 " ms by cpu %u, %" PRIu64 " cycles",
	       tp_now_ms() - t0, l->stop_cpu, l->stop_cycles);
}

/*
 * TRACE_STOP: tracing is off when the run ends, and the buffer ends with
 * the event that stopped it (tracing_off() right after its tracepoint):
 * no tscprobe_run_end, no later noise event.
 */
TEST_F_TIMEOUT(live, trace_stop_freezes_the_buffer, 120)
{
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 30000000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_IRQS, TP_NLA_U32, TSCPROBE_IRQS_ON },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 2000 },
		{ TSCPROBE_A_STOP_AT_CYCLES, TP_NLA_U64, 20000 },
		{ TSCPROBE_A_TRACE_STOP, TP_NLA_FLAG, 0 },
		{ 0 },
	};
	const char *root = tp_tracefs();
	struct tp_live *l = &self->l;
	char *trace, *line, *last = NULL, *save = NULL, path[128];
	const char *on;
	struct tp_nl_error e;
	long long tsc = -1, cpu;

	ASSERT_NE(NULL, root);
	ASSERT_EQ(0, tp_trace_arm(root));
	tp_live_rules(&self->nl, l, 2000, true);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	snprintf(path, sizeof(path), "%s/tracing_on", root);
	on = tp_read_file(path);
	EXPECT_EQ('0', on ? on[0] : '?');
	trace = tp_trace_read(root, "tscprobe_(run_start|run_end|noise_event):",
			      1000000);
	tp_trace_disarm(root);
	tp_check_stopped_at(_metadata, &self->nl, l, 20000);
	ASSERT_NE(NULL, trace);
	EXPECT_NE(NULL, strstr(trace, "tscprobe_run_start:"));
	EXPECT_EQ(NULL, strstr(trace, "tscprobe_run_end:"));
	/*
	 * The stopping CPU's last traced event is the one that stopped the
	 * run (another CPU may trace in the instant before tracing_off()).
	 */
	for (line = strtok_r(trace, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, "tscprobe_noise_event:") &&
		    tp_field(line, "cpu", &cpu) && cpu == l->stop_cpu)
			last = line;
	ASSERT_NE(NULL, last);
	EXPECT_TRUE(tp_field(last, "tsc", &tsc));
	TH_LOG("last traced event of cpu %u: %s", l->stop_cpu, last);
	EXPECT_EQ((long long)l->stop_tsc, tsc);
	free(trace);
}

/*
 * A traced event's largest source, with interrupts off and the probes on:
 * none, or an NMI; it and the unexplained rest fit in the gap, and with
 * no source the whole gap is unexplained.
 */
static void tp_check_traced_source(struct __test_metadata *_metadata,
				   const char *line)
{
	long long cycles, top, rest;
	char source[32];

	ASSERT_TRUE(tp_field(line, "cycles", &cycles));
	EXPECT_TRUE(tp_field_str(line, "source", source, sizeof(source)));
	EXPECT_TRUE(!strcmp(source, "none") || !strcmp(source, "nmi"))
		TH_LOG("%s", line);
	EXPECT_TRUE(tp_field(line, "source_cycles", &top) &&
		    tp_field(line, "unexplained_cycles", &rest));
	EXPECT_GE(rest, 0) TH_LOG("%s", line);
	EXPECT_LE(top + rest, cycles) TH_LOG("%s", line);
	if (!strcmp(source, "none"))
		EXPECT_EQ(cycles, rest) TH_LOG("%s", line);
}

TEST_F_TIMEOUT(live, tracepoints_fire, 120)
{
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 300000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 2000 },
		{ 0 },
	};
	const char *root = tp_tracefs();
	struct tp_live *l = &self->l;
	unsigned long starts = 0, ends = 0, windows = 0, events = 0;
	char *trace, *more, *line, *save = NULL, cause[32];
	struct tp_nl_error e;
	long long v, n, a, b, id;
	bool smi = tp_features(&self->nl) & TSCPROBE_FEAT_SMI_COUNT;

	ASSERT_NE(NULL, root);
	ASSERT_EQ(0, tp_trace_arm(root));
	tp_live_rules(&self->nl, l, 2000, false);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	ASSERT_TRUE(l->finished);
	trace = tp_trace_read(root, "tscprobe_(run_start|run_end|window):",
			      100000);
	more = tp_trace_read(root, "tscprobe_noise_event:", 10000);
	tp_trace_disarm(root);
	ASSERT_NE(NULL, trace);
	ASSERT_NE(NULL, more);
	trace = realloc(trace, strlen(trace) + strlen(more) + 1);
	ASSERT_NE(NULL, trace);
	strcat(trace, more);
	free(more);
	for (line = strtok_r(trace, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "tscprobe_run_start:")) {
			starts++;
			EXPECT_TRUE(tp_field(line, "id", &id));
			EXPECT_EQ((long long)l->run_id, id);
			EXPECT_TRUE(tp_field(line, "threshold_cycles", &v));
			EXPECT_EQ(2000, v);
			EXPECT_TRUE(tp_field(line, "stop_at_cycles", &v));
			EXPECT_EQ(0, v);
		} else if (strstr(line, "tscprobe_run_end:")) {
			ends++;
			EXPECT_TRUE(tp_field(line, "id", &id));
			EXPECT_EQ((long long)l->run_id, id);
			EXPECT_TRUE(tp_field(line, "reason", &v));
			EXPECT_EQ(TSCPROBE_STOP_COMPLETED, v);
		} else if (strstr(line, "tscprobe_window:")) {
			windows++;
			EXPECT_TRUE(tp_field(line, "start_tsc", &a) &&
				    tp_field(line, "end_tsc", &b));
			EXPECT_LT(a, b) TH_LOG("%s", line);
			EXPECT_TRUE(tp_field(line, "samples", &v));
			EXPECT_GT(v, 0) TH_LOG("%s", line);
			EXPECT_TRUE(tp_field(line, "max_cycles", &v));
			EXPECT_LE(v, b - a) TH_LOG("%s", line);
		} else if (strstr(line, "tscprobe_noise_event:")) {
			events++;
			EXPECT_TRUE(tp_field(line, "cycles", &v));
			EXPECT_GE(v, 2000) TH_LOG("%s", line);
			EXPECT_TRUE(tp_field_str(line, "cause", cause,
						 sizeof(cause)));
			EXPECT_TRUE(!strcmp(cause, "smi") ||
				    !strcmp(cause, "nmi") ||
				    !strcmp(cause, "irq") ||
				    !strcmp(cause, "unexplained"))
				TH_LOG("%s", line);
			/*
			 * Unreadable: -1; interrupts off: no steal; all -1
			 * on an event another followed at once.
			 */
			EXPECT_TRUE(tp_field(line, "nmi", &n) &&
				    tp_field(line, "irq", &v));
			EXPECT_EQ(n < 0, v < 0) TH_LOG("%s", line);
			EXPECT_TRUE(tp_field(line, "smi", &v));
			EXPECT_EQ(smi && n >= 0, v >= 0) TH_LOG("%s", line);
			EXPECT_TRUE(tp_field(line, "steal_ns", &v));
			EXPECT_EQ(-1, v) TH_LOG("%s", line);
			tp_check_traced_source(_metadata, line);
		}
	}
	EXPECT_EQ(1, starts);
	EXPECT_EQ(1, ends);
	EXPECT_GE(windows, tp_online_count());
	EXPECT_GT(events, 0);
	TH_LOG("%lu windows, %lu noise events traced", windows, events);
	free(trace);
}

/* One debugfs line of a CPU: its summary, its causes, or a kept event. */
static void tp_debugfs_line(struct __test_metadata *_metadata,
			    const struct tp_live *l, const char *line,
			    int *cpu, unsigned long *lines)
{
	const struct tp_live_cpu *c = *cpu >= 0 ? &l->cpu[*cpu] : NULL;
	unsigned long long total, nn, ev[5], cyc[5], sum = 0;
	char cause[32], smi[32], nmi[32], steal[32];
	unsigned int k;

	if (sscanf(line, "cpu %d:", cpu) == 1) {
		const char *p = strstr(line, " events=");

		ASSERT_TRUE(*cpu >= 0 && *cpu < TP_LIVE_CPUS);
		c = &l->cpu[*cpu];
		ASSERT_NE(NULL, p);
		ASSERT_EQ(2, sscanf(p, " events=%llu not_notified=%llu", &total,
				    &nn)) TH_LOG("%s", line);
		EXPECT_EQ(c->total, total) TH_LOG("%s", line);
		EXPECT_EQ(c->not_notified, nn) TH_LOG("%s", line);
		lines[*cpu] = 0;
	} else if (c && !strncmp(line, "  causes:", 9)) {
		/* An SMI count that cannot be read: "smi=-", never 0. */
		if (!l->rules.smi) {
			ASSERT_EQ(0, strncmp(line, "  causes: smi=- ", 16))
				TH_LOG("%s", line);
			ev[0] = cyc[0] = 0;
			ASSERT_EQ(8, sscanf(line + 16, "nmi=%llu/%llu irq=%llu/%llu steal=%llu/%llu unexplained=%llu/%llu",
					    &ev[1], &cyc[1], &ev[2], &cyc[2],
					    &ev[3], &cyc[3], &ev[4], &cyc[4]))
				TH_LOG("%s", line);
		} else {
			ASSERT_EQ(10, sscanf(line, "  causes: smi=%llu/%llu nmi=%llu/%llu irq=%llu/%llu steal=%llu/%llu unexplained=%llu/%llu",
					     &ev[0], &cyc[0], &ev[1], &cyc[1],
					     &ev[2], &cyc[2], &ev[3], &cyc[3],
					     &ev[4], &cyc[4]))
				TH_LOG("%s", line);
		}
		for (k = 0; k < 5; k++) {
			EXPECT_EQ(c->cause_events[k + 1], ev[k]) TH_LOG("%s", line);
			EXPECT_EQ(c->cause_cycles[k + 1], cyc[k]) TH_LOG("%s", line);
			sum += ev[k];
		}
		EXPECT_EQ(c->total, sum) TH_LOG("%s", line);
	} else if (c && !strncmp(line, "  event ", 8)) {
		lines[*cpu]++;
		ASSERT_EQ(4, sscanf(line, "  event tsc=%*u cycles=%*u cause=%31s smi=%31s nmi=%31s irq=%*s steal_ns=%31s",
				    cause, smi, nmi, steal)) TH_LOG("%s", line);
		EXPECT_TRUE(strcmp(cause, "none") && strcmp(cause, "?"))
			TH_LOG("%s", line);
		/* An event followed by another has no counters ("-"). */
		if (strcmp(nmi, "-"))
			EXPECT_EQ(!l->rules.smi, !strcmp(smi, "-"))
				TH_LOG("%s", line);
		EXPECT_STREQ("-", steal) TH_LOG("%s", line);
	}
}

/* debugfs shows each CPU's counts, causes and kept events as netlink does. */
TEST_F_TIMEOUT(live, debugfs_shows_causes, 90)
{
	static const struct tp_attr_val vals[] = {
		{ TSCPROBE_A_DURATION_NS, TP_NLA_U64, 300000000ULL },
		{ TSCPROBE_A_WIDTH_NS, TP_NLA_U64, 20000000ULL },
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 2000 },
		{ 0 },
	};
	struct tp_live *l = &self->l;
	unsigned long lines[TP_LIVE_CPUS] = { 0 };
	char *text = NULL, *line, *save = NULL;
	struct tp_nl_error e;
	unsigned int k, checked = 0;
	int cpu = -1;

	tp_live_rules(&self->nl, l, 2000, false);
	ASSERT_EQ(0, tp_live_start(&self->nl, l, vals, &e)) TH_LOG("%s", e.msg);
	tp_listen_until_finished(&self->lis, l, 60000);
	ASSERT_TRUE(l->finished);
	ASSERT_EQ(0, tp_live_dump(&self->nl, l));
	ASSERT_EQ(0, tp_sh("cat /sys/kernel/debug/tscprobe/noise", &text));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		tp_debugfs_line(_metadata, l, line, &cpu, lines);
	for (cpu = 0; cpu < TP_LIVE_CPUS; cpu++) {
		uint64_t kept = 0;

		if (!l->cpu[cpu].seen)
			continue;
		for (k = TSCPROBE_CAUSE_SMI; k <= TSCPROBE_CAUSE_MAX; k++)
			kept += l->cpu[cpu].kept[k];
		EXPECT_EQ(kept, lines[cpu]) TH_LOG("cpu %d", cpu);
		checked++;
	}
	EXPECT_EQ(tp_online_count(), checked);
	free(text);
}

/* A bad stop-at START: EINVAL naming @attr, nothing started. */
static void tp_refuse(struct __test_metadata *_metadata, FIXTURE_DATA(live) *self,
		      uint32_t kind, const struct tp_attr_val *vals,
		      unsigned int attr, const char *what)
{
	struct nlmsghdr *nlh = tp_nl_request(&self->nl, TSCPROBE_CMD_START,
					     false);

	mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, kind);
	tp_put_attr_vals(nlh, vals);
	tp_expect_refused(_metadata, &self->nl, &self->st, nlh, -EINVAL, attr,
			  what);
}

TEST_F(live, bad_stop_at_is_refused)
{
	const struct tp_attr_val below_ns[] = {
		{ TSCPROBE_A_THRESHOLD_NS, TP_NLA_U64, 10000 },
		{ TSCPROBE_A_STOP_AT_NS, TP_NLA_U64, 9999 },
		{ 0 },
	};
	const struct tp_attr_val below_cycles[] = {
		{ TSCPROBE_A_THRESHOLD_CYCLES, TP_NLA_U64, 5000 },
		{ TSCPROBE_A_STOP_AT_CYCLES, TP_NLA_U64, 4999 },
		{ 0 },
	};
	/* The default threshold is 10 us. */
	const struct tp_attr_val below_default[] = {
		{ TSCPROBE_A_STOP_AT_NS, TP_NLA_U64, 1000 },
		{ 0 },
	};
	const struct tp_attr_val both[] = {
		{ TSCPROBE_A_STOP_AT_NS, TP_NLA_U64, 20000 },
		{ TSCPROBE_A_STOP_AT_CYCLES, TP_NLA_U64, 200000 },
		{ 0 },
	};
	const struct tp_attr_val trace_alone[] = {
		{ TSCPROBE_A_TRACE_STOP, TP_NLA_FLAG, 0 },
		{ 0 },
	};
	const struct tp_attr_val on_cache[] = {
		{ TSCPROBE_A_STOP_AT_NS, TP_NLA_U64, 20000 },
		{ 0 },
	};
	const struct tp_attr_val zero[] = {
		{ TSCPROBE_A_STOP_AT_NS, TP_NLA_U64, 0 },
		{ 0 },
	};

	tp_refuse(_metadata, self, TSCPROBE_KIND_NOISE, below_ns,
		  TSCPROBE_A_STOP_AT_NS, "stop_at_ns below threshold_ns");
	tp_refuse(_metadata, self, TSCPROBE_KIND_NOISE, below_cycles,
		  TSCPROBE_A_STOP_AT_CYCLES,
		  "stop_at_cycles below threshold_cycles");
	tp_refuse(_metadata, self, TSCPROBE_KIND_NOISE, below_default,
		  TSCPROBE_A_STOP_AT_NS, "stop_at_ns below the default");
	tp_refuse(_metadata, self, TSCPROBE_KIND_NOISE, both,
		  TSCPROBE_A_STOP_AT_CYCLES, "stop_at_ns and stop_at_cycles");
	tp_refuse(_metadata, self, TSCPROBE_KIND_NOISE, trace_alone,
		  TSCPROBE_A_TRACE_STOP, "trace_stop without stop_at");
	tp_refuse(_metadata, self, TSCPROBE_KIND_CACHE, on_cache,
		  TSCPROBE_A_STOP_AT_NS, "stop_at_ns on a cache run");
	/* The policy's range: ERANGE in 6.1's validation, naming it. */
	{
		struct nlmsghdr *nlh = tp_nl_request(&self->nl,
						     TSCPROBE_CMD_START, false);

		mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, TSCPROBE_KIND_NOISE);
		tp_put_attr_vals(nlh, zero);
		tp_expect_refused(_metadata, &self->nl, &self->st, nlh, -ERANGE,
				  TSCPROBE_A_STOP_AT_NS, "stop_at_ns of 0");
	}
}

/* GET_INFO and run messages say whether TSCs may be compared. */
static int tp_sync_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	*(uint32_t *)data = tp_nl_u32(tb[TSCPROBE_A_TSC_SYNC], UINT32_MAX);
	return MNL_CB_OK;
}

TEST_F(live, tsc_sync_is_reported)
{
	uint32_t info = UINT32_MAX, status = UINT32_MAX;
	const char *cs;

	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl, TSCPROBE_CMD_GET_INFO,
					      false), tp_sync_cb, &info, NULL));
	EXPECT_TRUE(info == TSCPROBE_TSC_STABLE ||
		    info == TSCPROBE_TSC_UNSTABLE) TH_LOG("%u", info);
	ASSERT_EQ(0, tp_sh("tscprobe noise -c 0 -d 50ms -q", NULL));
	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl,
					      TSCPROBE_CMD_GET_STATUS, false),
				tp_sync_cb, &status, NULL));
	EXPECT_EQ(info, status);
	/* A kernel that still clocks with the TSC has not marked it unstable. */
	cs = tp_read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource");
	ASSERT_NE(NULL, cs);
	if (!strncmp(cs, "tsc", 3))
		EXPECT_EQ(TSCPROBE_TSC_STABLE, info);
	TH_LOG("clocksource %.16s, tsc_sync %s", cs, tp_tsc_sync_name(info));
}

/**
 * struct tp_offsets_seen - TSC offsets, expected from a skew run's pairs
 *	and found in a later run's results
 * @ref: the skew run's lowest CPU
 * @ok: the pair (ref, cpu) ended OK with a sound estimate (DISCARDED <=
 *	NR): an offset is expected
 * @expect: its mean skew, SUM / (2 * NR) truncated as the module does
 * @has: the later results carry an offset for the CPU
 * @got: that offset
 * @run_id: TSCPROBE_A_TSC_OFFSETS_RUN_ID of the later results (0: absent)
 */
struct tp_offsets_seen {
	uint32_t ref;
	bool ok[TP_LIVE_CPUS];
	int64_t expect[TP_LIVE_CPUS];
	bool has[TP_LIVE_CPUS];
	int64_t got[TP_LIVE_CPUS];
	uint64_t run_id;
};

static void tp_offsets_pair(struct tp_offsets_seen *o, const struct nlattr *nest)
{
	const struct nlattr *tb[TSCPROBE_PAIR_A_MAX + 1];
	const struct nlattr *st[TSCPROBE_STAT_A_MAX + 1];
	uint32_t to, nr;

	if (tp_nl_parse_nested(nest, tb, TSCPROBE_PAIR_A_MAX) ||
	    tp_nl_u32(tb[TSCPROBE_PAIR_A_FROM], UINT32_MAX) != o->ref ||
	    tp_nl_u32(tb[TSCPROBE_PAIR_A_STATUS], UINT32_MAX) != TSCPROBE_PAIR_OK ||
	    !tb[TSCPROBE_PAIR_A_SKEW] ||
	    tp_nl_parse_nested(tb[TSCPROBE_PAIR_A_SKEW], st, TSCPROBE_STAT_A_MAX))
		return;
	to = tp_nl_u32(tb[TSCPROBE_PAIR_A_TO], UINT32_MAX);
	nr = tp_nl_u32(tb[TSCPROBE_PAIR_A_NR], 0);
	if (to >= TP_LIVE_CPUS || !nr || !st[TSCPROBE_STAT_A_SUM] ||
	    !tb[TSCPROBE_PAIR_A_DISCARDED] ||
	    mnl_attr_get_u32(tb[TSCPROBE_PAIR_A_DISCARDED]) > nr)
		return;
	o->ok[to] = true;
	o->expect[to] = (int64_t)mnl_attr_get_u64(st[TSCPROBE_STAT_A_SUM]) /
			(2 * (int64_t)nr);
}

static int tp_offsets_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1], *a;
	const struct nlattr *c[TSCPROBE_CPU_A_MAX + 1];
	struct tp_offsets_seen *o = data;
	uint32_t cpu;

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	if (tb[TSCPROBE_A_STATE])
		o->run_id = tp_nl_u64(tb[TSCPROBE_A_TSC_OFFSETS_RUN_ID], 0);
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == TSCPROBE_A_PAIR)
			tp_offsets_pair(o, a);
		if (mnl_attr_get_type(a) != TSCPROBE_A_CPU ||
		    tp_nl_parse_nested(a, c, TSCPROBE_CPU_A_MAX))
			continue;
		cpu = tp_nl_u32(c[TSCPROBE_CPU_A_ID], UINT32_MAX);
		if (cpu < TP_LIVE_CPUS && c[TSCPROBE_CPU_A_TSC_OFFSET]) {
			o->has[cpu] = true;
			o->got[cpu] = (int64_t)mnl_attr_get_u64(c[TSCPROBE_CPU_A_TSC_OFFSET]);
		}
	}
	return MNL_CB_OK;
}

/*
 * A completed skew run's pairs (lowest CPU, j) give every CPU's TSC offset;
 * a noise run after it carries them, naming the skew run.
 */
TEST_F_TIMEOUT(live, skew_offsets_reach_later_results, 300)
{
	const struct tp_kind_desc *sk = tp_kind_by_name("skew");
	struct tp_offsets_seen o = { 0 };
	uint64_t skew_id, stopped_id = 0;
	struct tp_nl_error e;
	unsigned int cpu, expected = 0;

	ASSERT_EQ(0, tp_sh("tscprobe skew -n 16 -q", NULL));
	skew_id = tp_get_status(&self->st).run_id;
	o.ref = 0;	/* every CPU online: the lowest is CPU 0 */
	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl,
					      TSCPROBE_CMD_GET_RESULT, true),
				tp_offsets_cb, &o, NULL));
	ASSERT_EQ(skew_id, o.run_id);
	ASSERT_EQ(0, tp_sh("tscprobe noise -d 100ms --width 20ms -q", NULL));
	memset(o.has, 0, sizeof(o.has));
	o.run_id = 0;
	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl,
					      TSCPROBE_CMD_GET_RESULT, true),
				tp_offsets_cb, &o, NULL));
	EXPECT_EQ(skew_id, o.run_id);
	EXPECT_TRUE(o.has[0]);
	EXPECT_EQ(0, o.got[0]);
	for (cpu = 1; cpu < TP_LIVE_CPUS; cpu++) {
		EXPECT_EQ(o.ok[cpu], o.has[cpu]) TH_LOG("cpu %u", cpu);
		if (o.ok[cpu] && o.has[cpu]) {
			expected++;
			EXPECT_EQ(o.expect[cpu], o.got[cpu]) TH_LOG("cpu %u", cpu);
		}
	}
	TH_LOG("%u CPUs with an offset to CPU 0", expected);
	/* A stopped skew run leaves the offsets as they were. */
	ASSERT_EQ(0, tp_start(&self->nl, sk, sk->lasting, NULL, &stopped_id,
			      &e)) TH_LOG("%s", e.msg);
	tp_sleep_ms(300);
	ASSERT_EQ(0, tp_stop(&self->nl, &e)) TH_LOG("%s", e.msg);
	EXPECT_EQ(stopped_id, tp_get_status(&self->st).run_id);
	EXPECT_EQ(TSCPROBE_STATE_STOPPED, tp_get_status(&self->st).state);
	ASSERT_EQ(0, tp_sh("tscprobe noise -d 100ms --width 20ms -q", NULL));
	o.run_id = 0;
	ASSERT_EQ(0, tp_nl_talk(&self->nl,
				tp_nl_request(&self->nl,
					      TSCPROBE_CMD_GET_RESULT, true),
				tp_offsets_cb, &o, NULL));
	EXPECT_EQ(skew_id, o.run_id);
}

TP_HARNESS_MAIN
