// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of core/sources.c on synthetic sequences: the net time of
 * nested sources (an IRQ inside a softirq inside a thread, NMIs anywhere),
 * exits and entries the probes missed, a gap's sources largest first with
 * the rest summed, the rings' bounds; and on random sequences the net
 * times equal a naive attribution of every cycle to the innermost source
 * running then, and a gap's named times never exceed it.
 */
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "kselftest_harness.h"

#include "core/sources.h"
#include "prng.h"

static struct tp_src_cpu cpu;
/* The interrupt threads of the tables a test builds. */
static struct tp_src_threads threads;
/* The scratch list of a gap's threads (tp_src_gap()'s @seen). */
static struct tp_src_threads seen;

static void reset(void)
{
	tp_src_init(&cpu);
	memset(&threads, 0, sizeof(threads));
}

/* What a probe reads at @t, no NMI coming while it reads. */
static struct tp_src_at at(uint64_t t)
{
	return (struct tp_src_at){ t, cpu.nmi_time, cpu.nmi_time };
}

static void enter(uint32_t kind, uint32_t id, const char *name, uint64_t t)
{
	struct tp_src_key key = { .kind = kind, .id = id };

	tp_src_enter(&cpu, &key, name, at(t));
}

static void leave(uint32_t kind, uint64_t t)
{
	tp_src_exit(&cpu, kind, at(t));
}

/* The CPU's count of NMIs, raised by each new NMI a test makes. */
static uint64_t nmis;

/* A new NMI, claimed by its first handler @id, @cycles from @start. */
static void new_nmi(uint32_t id, const char *name, uint64_t start,
		    uint64_t cycles)
{
	tp_src_nmi(&cpu, id, name, start, cycles, ++nmis, true);
}

/* Handler @id, called for the NMI before, claiming none. */
static void same_nmi(uint32_t id, const char *name, uint64_t start,
		     uint64_t cycles)
{
	tp_src_nmi(&cpu, id, name, start, cycles, nmis, false);
}

/* The spans of the CPU's ring from *@cursor to its head into @t. */
static uint64_t drain_ring(uint64_t *cursor, struct tp_src_table *t)
{
	return tp_src_drain(&cpu.ring, cursor, tp_src_head(&cpu.ring), &threads,
			    t);
}

/* The table of every span the rings of @c hold, by source. */
static void drain_all(const struct tp_src_cpu *c, struct tp_src_table *t)
{
	uint64_t a = 0, b = 0;

	tp_src_table_init(t);
	tp_src_drain(&c->ring, &a, tp_src_head(&c->ring), &threads, t);
	tp_src_drain(&c->nmi_ring, &b, tp_src_head(&c->nmi_ring), &threads,
		     t);
}

static const struct tp_src_total *entry(const struct tp_src_table *t,
					uint32_t kind, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].key.kind == kind && t->e[i].key.id == id)
			return &t->e[i];
	return NULL;
}

/* The entry of @kind, @id and @flags exactly. */
static const struct tp_src_total *entry_flagged(const struct tp_src_table *t,
						uint32_t kind, uint32_t id,
						uint32_t flags)
{
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].key.kind == kind && t->e[i].key.id == id &&
		    t->e[i].key.flags == flags)
			return &t->e[i];
	return NULL;
}

static uint64_t net_of(const struct tp_src_table *t, uint32_t kind,
		       uint32_t id)
{
	const struct tp_src_total *e = entry(t, kind, id);

	return e ? e->net : ~0ULL;
}

/*
 * A noise CPU keeps TSCPROBE_MAX_EVENTS events' sources in each of its
 * working, snapshot and undo copies, two of them copied per window with
 * interrupts on: a source's total is its key (8 bytes), its two figures
 * and its name, as before interrupt threads were named.  The threads'
 * pids and comms are in a list of the CPU's (struct tp_src_threads).
 */
TEST(a_source_total_is_a_key_two_figures_and_a_name)
{
	TH_LOG("struct tp_src_total: %zu bytes, struct tp_event_sources: %zu",
	       sizeof(struct tp_src_total), sizeof(struct tp_event_sources));
	EXPECT_LE(sizeof(struct tp_src_total), 8 + 2 * 8 + TP_SRC_NAME);
	EXPECT_LE(sizeof(struct tp_event_sources),
		  16 + (TP_EVENT_SOURCES + 1) * (8 + 2 * 8 + TP_SRC_NAME));
}

TEST(thread_softirq_irq_nest)
{
	struct tp_src_table t;

	reset();
	enter(TP_SRC_THREAD, 42, "kworker/1:1", 100);
	enter(TP_SRC_SOFTIRQ, 1, "TIMER", 200);
	enter(TP_SRC_IRQ, 24, "virtio0-input", 250);
	leave(TP_SRC_IRQ, 300);
	leave(TP_SRC_SOFTIRQ, 400);
	leave(TP_SRC_THREAD, 1000);
	drain_all(&cpu, &t);
	ASSERT_EQ(3, t.n);
	EXPECT_EQ(50, net_of(&t, TP_SRC_IRQ, 24));
	EXPECT_EQ(150, net_of(&t, TP_SRC_SOFTIRQ, 1));
	EXPECT_EQ(700, net_of(&t, TP_SRC_THREAD, 42));
	EXPECT_STREQ("virtio0-input", entry(&t, TP_SRC_IRQ, 24)->name);
	EXPECT_STREQ("kworker/1:1", entry(&t, TP_SRC_THREAD, 42)->name);
	EXPECT_EQ(0, cpu.depth);
	EXPECT_EQ(0, cpu.unmatched);
	EXPECT_EQ(700, cpu.kind_net[TP_SRC_THREAD]);
	EXPECT_EQ(1, cpu.kind_count[TP_SRC_IRQ]);
}

/*
 * Names longer than their field are cut, NUL-terminated, through the
 * frame into the span and the table; a name of NULL is "".
 */
TEST(names_are_cut_to_their_field)
{
	static const char long_name[] = "a-name-of-thirty-two-characters!";
	const struct tp_src_total *irq, *nmi;
	struct tp_src_table t;

	reset();
	enter(TP_SRC_IRQ, 1, long_name, 100);
	leave(TP_SRC_IRQ, 110);
	new_nmi(0, NULL, 120, 5);
	drain_all(&cpu, &t);
	irq = entry(&t, TP_SRC_IRQ, 1);
	nmi = entry(&t, TP_SRC_NMI, 0);
	ASSERT_NE(NULL, irq);
	ASSERT_NE(NULL, nmi);
	EXPECT_EQ(TP_SRC_NAME - 1, strnlen(irq->name, TP_SRC_NAME));
	EXPECT_EQ(0, strncmp(long_name, irq->name, TP_SRC_NAME - 1));
	EXPECT_STREQ("", nmi->name);
}

TEST(nmi_time_leaves_the_frame_it_hit)
{
	struct tp_src_table t;

	reset();
	/* A softirq 0..200, an IRQ 50..150 inside it, an NMI of 20 in that. */
	enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 0);
	enter(TP_SRC_IRQ, 11, "eth0", 50);
	new_nmi(0, "perf_event_nmi_handler", 60, 20);
	leave(TP_SRC_IRQ, 150);
	/* Two handlers of one NMI, directly in the softirq. */
	new_nmi(0, "perf_event_nmi_handler", 160, 5);
	same_nmi(1, "nmi_cpu_backtrace_handler", 165, 7);
	leave(TP_SRC_SOFTIRQ, 200);
	drain_all(&cpu, &t);
	EXPECT_EQ(80, net_of(&t, TP_SRC_IRQ, 11));
	EXPECT_EQ(88, net_of(&t, TP_SRC_SOFTIRQ, 3));
	EXPECT_EQ(25, net_of(&t, TP_SRC_NMI, 0));
	EXPECT_EQ(2, entry(&t, TP_SRC_NMI, 0)->count);
	EXPECT_EQ(7, net_of(&t, TP_SRC_NMI, 1));
	EXPECT_EQ(0, entry(&t, TP_SRC_NMI, 1)->count);
	EXPECT_EQ(2, cpu.kind_count[TP_SRC_NMI]);
	EXPECT_EQ(32, cpu.nmi_time);
	/* Everything in 0..200 is named once. */
	EXPECT_EQ(200, 80 + 88 + 25 + 7);
}

/*
 * The kernel calls every NMI handler for each NMI, perf's first on a
 * machine with a PMU: the NMI counts once, in the first handler that
 * claimed it, and the others add time with no count; an NMI no handler
 * claims counts in the first called; the first NMI counts whatever the
 * CPU's count was.  The kind's count is then the NMIs taken.
 */
TEST(an_nmi_counts_once_in_the_handler_that_claimed_it)
{
	const struct tp_src_total *perf, *backtrace;
	struct tp_src_table t;

	reset();
	/* The watchdog's: perf's handler claims it. */
	tp_src_nmi(&cpu, 0, "perf_event_nmi_handler", 100, 20, 0, true);
	tp_src_nmi(&cpu, 1, "nmi_cpu_backtrace_handler", 120, 3, 0, false);
	/* A backtrace's: perf's handler is called first, and claims none. */
	tp_src_nmi(&cpu, 0, "perf_event_nmi_handler", 200, 5, 1, false);
	tp_src_nmi(&cpu, 1, "nmi_cpu_backtrace_handler", 205, 30, 1, true);
	/* Unknown (QEMU's, a hardware error): called, claimed by none. */
	tp_src_nmi(&cpu, 0, "perf_event_nmi_handler", 300, 4, 2, false);
	tp_src_nmi(&cpu, 1, "nmi_cpu_backtrace_handler", 304, 2, 2, false);
	drain_all(&cpu, &t);
	perf = entry(&t, TP_SRC_NMI, 0);
	backtrace = entry(&t, TP_SRC_NMI, 1);
	ASSERT_NE(NULL, perf);
	ASSERT_NE(NULL, backtrace);
	EXPECT_EQ(2, perf->count);
	EXPECT_EQ(29, perf->net);
	EXPECT_EQ(1, backtrace->count);
	EXPECT_EQ(35, backtrace->net);
	EXPECT_EQ(3, cpu.kind_count[TP_SRC_NMI]);
	EXPECT_EQ(64, cpu.kind_net[TP_SRC_NMI]);
}

/* NMIs stood in for by a signal, which comes between any two reads. */
static volatile sig_atomic_t signalled_nmis;

static void signal_nmi(int sig)
{
	(void)sig;
	new_nmi(0, "perf", 0, 3);
	signalled_nmis++;
}

/*
 * An NMI at a window's edge, between the reads of the NMI ring and of the
 * kinds' counters, would be in the one and not the other: signals every
 * 50 us over windows begun and ended back to back, for 20,000 signals or
 * 2 s, whichever comes first.  The NMIs' count and time in the table are
 * the kind's, short by at most the NMIs lost: those a storm kept from
 * being read at one instant with the counters, which a busy machine makes
 * of signals, each handled as soon as the one before returns.
 */
TEST(an_nmi_at_a_window_s_edge_is_in_its_span_and_its_kind_alike)
{
	struct itimerval every = { { 0, 50 }, { 0, 50 } }, off = { 0 };
	struct sigaction sa = { .sa_handler = signal_nmi };
	static struct tp_src_windows w;
	const struct tp_src_total *e;
	struct timespec t0, t;

	reset();
	tp_src_windows_init(&w);
	signalled_nmis = 0;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &every, NULL));
	do {
		tp_src_window_begin(&w, &cpu);
		tp_src_window_end(&w, &cpu);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (signalled_nmis < 20000 && t.tv_sec - t0.tv_sec < 2);
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);
	e = entry(&w.table, TP_SRC_NMI, 0);
	ASSERT_NE(NULL, e);
	EXPECT_LT(0, e->count);
	EXPECT_LE(e->count, w.kind_count[TP_SRC_NMI]);
	EXPECT_LE(w.kind_count[TP_SRC_NMI], e->count + w.lost);
	EXPECT_LE(e->net, w.kind_net[TP_SRC_NMI]);
	EXPECT_LE(w.kind_net[TP_SRC_NMI], e->net + 3 * w.lost);
	TH_LOG("%d signals, %llu in the windows, %llu lost",
	       (int)signalled_nmis, (unsigned long long)e->count,
	       (unsigned long long)w.lost);
}

/* The named times of the event [@from, @to], which must add up to it. */
static uint64_t named_in(uint64_t from, uint64_t to,
			 struct tp_event_sources *ev)
{
	static struct tp_src_gap_scratch scratch;
	uint64_t named;
	uint32_t i;

	tp_src_event(&cpu, from, to, &threads, &scratch, ev);
	named = ev->other.net;
	for (i = 0; i < ev->n; i++)
		named += ev->e[i].net;
	return named;
}

/*
 * An NMI that comes after a probe read its instant and before it records
 * it.  On an IRQ's entry it is inside the IRQ and subtracted from it: the
 * gap the IRQ made names the IRQ and the NMI, once each, and adds up.  On
 * its exit it is after the IRQ: the IRQ keeps its whole time.
 */
TEST(an_nmi_between_a_probe_s_stamp_and_its_record_is_counted_once)
{
	struct tp_src_key irq = { .kind = TP_SRC_IRQ, .id = 24 };
	struct tp_event_sources ev;
	struct tp_src_at stamp;
	uint64_t named;

	reset();
	stamp = at(1200);
	new_nmi(0, "perf", 1210, 50);
	tp_src_enter(&cpu, &irq, "eth0", stamp);
	leave(TP_SRC_IRQ, 1400);
	named = named_in(1200, 1400, &ev);
	EXPECT_LE(named, 200);
	EXPECT_EQ(200, named + ev.unexplained);
	ASSERT_EQ(2, ev.n);
	EXPECT_EQ(TP_SRC_IRQ, ev.e[0].key.kind);
	EXPECT_EQ(150, ev.e[0].net);
	EXPECT_EQ(TP_SRC_NMI, ev.e[1].key.kind);
	EXPECT_EQ(50, ev.e[1].net);

	enter(TP_SRC_IRQ, 24, "eth0", 1500);
	stamp = at(1600);
	new_nmi(0, "perf", 1605, 20);
	tp_src_exit(&cpu, TP_SRC_IRQ, stamp);
	named = named_in(1500, 1630, &ev);
	EXPECT_EQ(120, named);
	EXPECT_EQ(130, named + ev.unexplained);
	ASSERT_EQ(2, ev.n);
	EXPECT_EQ(100, ev.e[0].net);
	EXPECT_EQ(20, ev.e[1].net);
}

/*
 * The TSC a test's probe reads; an NMI of 20 cycles comes just before
 * each of the next @clock_nmis reads, which it delays.
 */
static uint64_t clock_tsc;
static unsigned int clock_nmis;

static uint64_t clock_read(void)
{
	if (clock_nmis) {
		clock_nmis--;
		new_nmi(0, "perf", clock_tsc, 20);
		clock_tsc += 25;
	}
	return clock_tsc;
}

/*
 * tp_src_now(): an NMI while it reads is before the TSC or after it, and
 * the instant says which by reading again; in a storm that never lets it
 * read twice alike, each frame takes the NMI time that charges it less,
 * and the gap still adds up.
 */
TEST(an_instant_has_no_nmi_inside_it)
{
	struct tp_src_key irq = { .kind = TP_SRC_IRQ, .id = 24 };
	struct tp_event_sources ev;
	struct tp_src_at a, b;
	uint64_t named;

	reset();
	clock_tsc = 500;
	clock_nmis = 1;
	a = tp_src_now(&cpu, clock_read);
	EXPECT_EQ(525, a.tsc);
	EXPECT_EQ(20, a.nmi_before);
	EXPECT_EQ(20, a.nmi_after);

	clock_tsc = 1200;
	clock_nmis = 100;
	a = tp_src_now(&cpu, clock_read);
	EXPECT_EQ(100 - 3, clock_nmis);
	EXPECT_EQ(20, a.nmi_after - a.nmi_before);
	tp_src_enter(&cpu, &irq, "eth0", a);
	clock_tsc = 1400;
	b = tp_src_now(&cpu, clock_read);
	tp_src_exit(&cpu, TP_SRC_IRQ, b);
	named = named_in(a.tsc, b.tsc, &ev);
	EXPECT_LE(named, b.tsc - a.tsc);
	EXPECT_EQ(b.tsc - a.tsc, named + ev.unexplained);
}

TEST(missed_exits_and_entries)
{
	struct tp_src_table t;
	uint32_t i;

	reset();
	/* Probes attached inside an IRQ: its exit alone is seen. */
	leave(TP_SRC_IRQ, 10);
	EXPECT_EQ(1, cpu.unmatched);
	EXPECT_EQ(0, cpu.ring.head);
	/* A softirq whose exit is lost ends with the thread around it. */
	enter(TP_SRC_THREAD, 7, "t", 100);
	enter(TP_SRC_SOFTIRQ, 9, "RCU", 150);
	leave(TP_SRC_THREAD, 300);
	EXPECT_EQ(2, cpu.unmatched);
	EXPECT_EQ(0, cpu.depth);
	drain_all(&cpu, &t);
	EXPECT_EQ(150, net_of(&t, TP_SRC_SOFTIRQ, 9));
	EXPECT_EQ(50, net_of(&t, TP_SRC_THREAD, 7));
	/* Entries past the depth are counted, and their exits skipped. */
	reset();
	for (i = 0; i < TP_SRC_DEPTH + 2; i++)
		enter(TP_SRC_IRQ, i, "irq", 10 * i);
	EXPECT_EQ(TP_SRC_DEPTH, cpu.depth);
	EXPECT_EQ(2, cpu.unmatched);
	for (i = 0; i < TP_SRC_DEPTH + 2; i++)
		leave(TP_SRC_IRQ, 1000 + i);
	EXPECT_EQ(0, cpu.depth);
	EXPECT_EQ(2, cpu.unmatched);
	EXPECT_EQ(TP_SRC_DEPTH, cpu.ring.head);
}

/* A span that ended, of a source with no thread. */
#define SPAN(from, to, cycles, kind_, id_, name_) \
	{ from, to, cycles, 1, { { .kind = kind_, .id = id_ }, 0, name_, "" } }

TEST(gap_names_the_largest_and_sums_the_rest)
{
	static const struct tp_src_span spans[] = {
		SPAN(1000, 1100, 100, TP_SRC_IRQ, 0, "timer"),
		SPAN(1200, 1700, 400, TP_SRC_THREAD, 88, "ksoftirqd/1"),
		SPAN(1300, 1400, 100, TP_SRC_SOFTIRQ, 1, "TIMER"),
		SPAN(1800, 1830, 30, TP_SRC_IRQ, 0, "timer"),
		SPAN(1850, 1860, 10, TP_SRC_NMI, 0, "nmi"),
		/* Outside the gap, or across its edge: not counted. */
		SPAN(500, 600, 100, TP_SRC_IRQ, 5, "early"),
		SPAN(1950, 2100, 150, TP_SRC_IRQ, 6, "late"),
	};
	struct tp_src_table t;
	uint64_t unexplained;

	unexplained = tp_src_gap(spans, TP_ARRAY_SIZE(spans), 1000, 2000, 2,
				 &threads, &seen, &t);
	ASSERT_EQ(2, t.n);
	EXPECT_EQ(TP_SRC_THREAD, t.e[0].key.kind);
	EXPECT_EQ(400, t.e[0].net);
	EXPECT_EQ(TP_SRC_IRQ, t.e[1].key.kind);
	EXPECT_EQ(130, t.e[1].net);
	EXPECT_EQ(2, t.e[1].count);
	EXPECT_EQ(110, t.other.net);
	EXPECT_EQ(2, t.other.count);
	EXPECT_EQ(1000 - 400 - 130 - 110, unexplained);
	/* Nothing named: the whole gap is unexplained. */
	EXPECT_EQ(1000, tp_src_gap(spans, TP_ARRAY_SIZE(spans), 3000, 4000, 4,
				       &threads, &seen, &t));
	EXPECT_EQ(0, t.n);
}

/*
 * An event's sources from both rings: a thread preempted by an IRQ that an
 * NMI hit, all inside the gap, plus sources before and across its edges.
 * The named times are disjoint parts of the gap; the NMI's comes from its
 * own ring.
 */
TEST(an_event_names_what_ran_inside_its_gap_from_both_rings)
{
	static struct tp_src_gap_scratch scratch;
	struct tp_event_sources ev;
	uint32_t i;

	reset();
	enter(TP_SRC_IRQ, 9, "before", 100);
	leave(TP_SRC_IRQ, 200);
	enter(TP_SRC_IRQ, 9, "edge", 900);
	leave(TP_SRC_IRQ, 1100);
	enter(TP_SRC_THREAD, 77, "hog", 1200);
	enter(TP_SRC_IRQ, 4, "ttyS0", 1300);
	new_nmi(0, "perf", 1350, 50);
	leave(TP_SRC_IRQ, 1500);
	for (i = 0; i < 6; i++) {
		enter(TP_SRC_SOFTIRQ, i, "sirq", 1600 + 20 * i);
		leave(TP_SRC_SOFTIRQ, 1610 + 20 * i);
	}
	leave(TP_SRC_THREAD, 1900);

	tp_src_event(&cpu, 1000, 2000, &threads, &scratch, &ev);
	EXPECT_EQ(1, ev.probed);
	ASSERT_EQ(TP_EVENT_SOURCES, ev.n);
	/* The thread: 700 less the IRQ's 200 and the softirqs' 60. */
	EXPECT_EQ(TP_SRC_THREAD, ev.e[0].key.kind);
	EXPECT_EQ(440, ev.e[0].net);
	/* The IRQ: 200 less the NMI's 50, which is named on its own. */
	EXPECT_EQ(TP_SRC_IRQ, ev.e[1].key.kind);
	EXPECT_EQ(4, ev.e[1].key.id);
	EXPECT_EQ(150, ev.e[1].net);
	EXPECT_EQ(TP_SRC_NMI, ev.e[2].key.kind);
	EXPECT_EQ(50, ev.e[2].net);
	/* Six softirqs of 10, the first named, five in other. */
	EXPECT_EQ(TP_SRC_SOFTIRQ, ev.e[3].key.kind);
	EXPECT_EQ(10, ev.e[3].net);
	EXPECT_EQ(5, ev.other.count);
	EXPECT_EQ(50, ev.other.net);
	EXPECT_EQ(1000 - 440 - 150 - 50 - 10 - 50, ev.unexplained);
	/* A gap with nothing inside it is unexplained, whole. */
	tp_src_event(&cpu, 2000, 2500, &threads, &scratch, &ev);
	EXPECT_EQ(0, ev.n);
	EXPECT_EQ(0, ev.other.count);
	EXPECT_EQ(500, ev.unexplained);
}

/*
 * On a server with many MSI-X queues nvme0q3 is IRQ 236 and the tick is
 * vector 236: two sources, each with its own name and time, in a
 * window's table, an event's sources and the kinds' totals (both irq),
 * and a cause irq whichever is larger.
 */
TEST(irq_236_and_vector_236_are_two_sources)
{
	static struct tp_src_gap_scratch scratch;
	struct tp_src_key tick = {
		.kind = TP_SRC_IRQ, .flags = TP_SRC_VECTOR, .id = 236,
	};
	struct tp_src_key nvme = { .kind = TP_SRC_IRQ, .id = 236 };
	const struct tp_src_total *a, *b;
	struct tp_event_sources ev;
	struct tp_src_windows w;

	reset();
	tp_src_windows_init(&w);
	tp_src_window_begin(&w, &cpu);
	tp_src_enter(&cpu, &nvme, "nvme0q3", at(100));
	leave(TP_SRC_IRQ, 150);
	tp_src_enter(&cpu, &tick, "local_timer", at(200));
	leave(TP_SRC_IRQ, 230);
	tp_src_enter(&cpu, &nvme, "nvme0q3", at(300));
	leave(TP_SRC_IRQ, 310);
	tp_src_window_end(&w, &cpu);

	ASSERT_EQ(2, w.table.n);
	tp_src_table_sort(&w.table);
	a = &w.table.e[0];
	b = &w.table.e[1];
	EXPECT_EQ(236, a->key.id);
	EXPECT_EQ(0, a->key.flags);
	EXPECT_STREQ("nvme0q3", a->name);
	EXPECT_EQ(60, a->net);
	EXPECT_EQ(2, a->count);
	EXPECT_EQ(236, b->key.id);
	EXPECT_EQ(TP_SRC_VECTOR, b->key.flags);
	EXPECT_STREQ("local_timer", b->name);
	EXPECT_EQ(30, b->net);
	EXPECT_EQ(1, b->count);
	EXPECT_EQ(90, w.kind_net[TP_SRC_IRQ]);
	EXPECT_EQ(3, w.kind_count[TP_SRC_IRQ]);

	tp_src_event(&cpu, 100, 230, &threads, &scratch, &ev);
	ASSERT_EQ(2, ev.n);
	EXPECT_STREQ("nvme0q3", ev.e[0].name);
	EXPECT_EQ(50, ev.e[0].net);
	EXPECT_STREQ("local_timer", ev.e[1].name);
	EXPECT_EQ(TP_SRC_VECTOR, ev.e[1].key.flags);
	EXPECT_EQ(30, ev.e[1].net);
	EXPECT_EQ(130 - 80, ev.unexplained);
	EXPECT_EQ(TSCPROBE_CAUSE_IRQ, tp_src_cause(&ev, TSCPROBE_CAUSE_SMI));
}

/* From @prev (0: the measurer), preempted or not, to @next at @t. */
static void switch_from(uint32_t prev, bool preempted, uint32_t next,
			const char *comm, uint64_t t)
{
	if (prev)
		tp_src_switch_out(&cpu, prev, preempted, at(t));
	if (next)
		tp_src_switch_in(&cpu, next, comm, at(t));
}

/* @prev preempted by @next. */
static void switch_to(uint32_t prev, uint32_t next, const char *comm,
		      uint64_t t)
{
	switch_from(prev, true, next, comm, t);
}

/* @prev goes to sleep (an interrupt's thread: waits for the next). */
static void sleep_to(uint32_t prev, uint32_t next, const char *comm,
		     uint64_t t)
{
	switch_from(prev, false, next, comm, t);
}

/*
 * PREEMPT_RT runs softirqs in threads that can be preempted: ksoftirqd
 * (pid 10) is preempted mid-TIMER by a real-time thread (pid 20), then
 * gets the CPU back and finishes it.  The softirq's frame waits aside:
 * it is one softirq, its net time only its own, nothing unmatched, and
 * the thread is charged none of it; the whole stretch is named once.
 */
TEST(a_softirq_preempted_in_its_thread_goes_on_when_the_thread_does)
{
	struct tp_src_table t;
	uint64_t named = 0;
	uint32_t i;

	reset();
	switch_to(0, 10, "ksoftirqd/1", 100);
	enter(TP_SRC_SOFTIRQ, 1, "TIMER", 200);
	switch_to(10, 20, "rtpoller", 300);
	enter(TP_SRC_IRQ, 4, "ttyS0", 400);
	leave(TP_SRC_IRQ, 450);
	switch_to(20, 10, "ksoftirqd/1", 600);
	new_nmi(0, "perf", 650, 10);
	leave(TP_SRC_SOFTIRQ, 700);
	switch_to(10, 0, NULL, 800);

	EXPECT_EQ(0, cpu.unmatched);
	EXPECT_EQ(0, cpu.depth);
	drain_all(&cpu, &t);
	EXPECT_EQ(100 + 100 - 10, net_of(&t, TP_SRC_SOFTIRQ, 1));
	EXPECT_EQ(1, entry(&t, TP_SRC_SOFTIRQ, 1)->count);
	EXPECT_EQ(100 + 100, net_of(&t, TP_SRC_THREAD, 10));
	EXPECT_EQ(2, entry(&t, TP_SRC_THREAD, 10)->count);
	EXPECT_EQ(300 - 50, net_of(&t, TP_SRC_THREAD, 20));
	EXPECT_EQ(50, net_of(&t, TP_SRC_IRQ, 4));
	for (i = 0; i < t.n; i++)
		named += t.e[i].net;
	EXPECT_EQ(800 - 100, named);
	EXPECT_EQ(190, cpu.kind_net[TP_SRC_SOFTIRQ]);
	EXPECT_EQ(1, cpu.kind_count[TP_SRC_SOFTIRQ]);
}

/*
 * The slots are bounded: a fifth thread preempted mid-softirq while four
 * wait ends its softirq there, counted unmatched with its exit; the
 * others go on.
 */
TEST(softirqs_put_aside_are_bounded)
{
	uint32_t pid;

	reset();
	for (pid = 1; pid <= TP_SRC_ASIDE + 1; pid++) {
		switch_to(0, pid, "t", 100 * pid);
		enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 100 * pid + 10);
		switch_to(pid, 0, NULL, 100 * pid + 20);
	}
	EXPECT_EQ(1, cpu.unmatched);
	for (pid = 1; pid <= TP_SRC_ASIDE + 1; pid++) {
		switch_to(0, pid, "t", 1000 + 100 * pid);
		leave(TP_SRC_SOFTIRQ, 1000 + 100 * pid + 10);
		switch_to(pid, 0, NULL, 1000 + 100 * pid + 20);
	}
	EXPECT_EQ(2, cpu.unmatched);
	EXPECT_EQ(0, cpu.depth);
	EXPECT_EQ(TP_SRC_ASIDE + 1, cpu.kind_count[TP_SRC_SOFTIRQ]);
}

/* Whether no slot holds frames put aside. */
static bool no_aside(void)
{
	uint32_t i;

	for (i = 0; i < TP_SRC_ASIDE; i++)
		if (cpu.aside[i].n)
			return false;
	return true;
}

/*
 * A thread comes back to softirqs it put aside, but the stack has no room
 * for its own frame (entries whose exits were lost fill it): the softirqs
 * are dropped, counted as unmatched, and their slot is free.  They never
 * come back at a later switch-in, to sit above the thread for good; their
 * exits, when they come, are unmatched too.
 */
TEST(softirqs_a_thread_cannot_take_back_are_dropped_and_counted)
{
	uint32_t i;

	reset();
	switch_to(0, 10, "ksoftirqd/1", 100);
	enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 110);
	enter(TP_SRC_SOFTIRQ, 1, "TIMER", 120);
	switch_to(10, 0, NULL, 200);
	EXPECT_FALSE(no_aside());
	for (i = 0; i < TP_SRC_DEPTH; i++)
		enter(TP_SRC_IRQ, i, "lost", 300 + i);
	switch_to(0, 10, "ksoftirqd/1", 400);
	EXPECT_EQ(1 + 2, cpu.unmatched);
	EXPECT_TRUE(no_aside());
	switch_to(10, 0, NULL, 450);
	for (i = 0; i < TP_SRC_DEPTH; i++)
		leave(TP_SRC_IRQ, 500);
	EXPECT_EQ(0, cpu.depth);

	switch_to(0, 10, "ksoftirqd/1", 600);
	EXPECT_EQ(1, cpu.depth);
	leave(TP_SRC_SOFTIRQ, 610);
	leave(TP_SRC_SOFTIRQ, 620);
	EXPECT_EQ(1 + 2 + 2, cpu.unmatched);
	switch_to(10, 0, NULL, 700);
	EXPECT_EQ(0, cpu.depth);
	EXPECT_TRUE(no_aside());
}

/*
 * Room for the thread's frame and one softirq of its two: the outer one
 * goes on, the inner one is dropped and counted, never lost unseen.
 */
TEST(a_partial_resume_counts_what_it_drops)
{
	uint32_t i;

	reset();
	switch_to(0, 10, "ksoftirqd/1", 100);
	enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 110);
	enter(TP_SRC_SOFTIRQ, 1, "TIMER", 120);
	switch_to(10, 0, NULL, 200);
	for (i = 0; i < TP_SRC_DEPTH - 2; i++)
		enter(TP_SRC_IRQ, i, "lost", 300 + i);
	switch_to(0, 10, "ksoftirqd/1", 400);
	EXPECT_EQ(TP_SRC_DEPTH, cpu.depth);
	EXPECT_EQ(TP_SRC_SOFTIRQ, cpu.stack[TP_SRC_DEPTH - 1].who.key.kind);
	EXPECT_EQ(3, cpu.stack[TP_SRC_DEPTH - 1].who.key.id);
	EXPECT_EQ(1, cpu.unmatched);
	EXPECT_TRUE(no_aside());
}

/*
 * PREEMPT_RT: ksoftirqd (pid 10) runs NET_RX in the gap [100, 1100] and
 * the measuring thread, of the same class, takes the CPU back mid-softirq.
 * That gap names the softirq's 990 cycles, and its cause is softirq; the
 * gap in which ksoftirqd finishes it names the last 50.  Each stretch is
 * a span of its own, counted once, where the softirq ended.
 */
TEST(the_measurer_taking_the_cpu_mid_softirq_names_it_in_each_gap)
{
	struct tp_event_sources ev;

	reset();
	switch_to(0, 10, "ksoftirqd/1", 100);
	enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 110);
	switch_to(10, 0, NULL, 1100);
	EXPECT_EQ(1000, named_in(100, 1100, &ev));
	EXPECT_EQ(0, ev.unexplained);
	ASSERT_EQ(2, ev.n);
	EXPECT_EQ(TP_SRC_SOFTIRQ, ev.e[0].key.kind);
	EXPECT_EQ(990, ev.e[0].net);
	EXPECT_EQ(0, ev.e[0].count);
	EXPECT_EQ(TP_SRC_THREAD, ev.e[1].key.kind);
	EXPECT_EQ(10, ev.e[1].net);
	EXPECT_EQ(TSCPROBE_CAUSE_SOFTIRQ,
		  tp_src_cause(&ev, TSCPROBE_CAUSE_UNEXPLAINED));

	switch_to(0, 10, "ksoftirqd/1", 2000);
	leave(TP_SRC_SOFTIRQ, 2050);
	switch_to(10, 0, NULL, 2060);
	EXPECT_EQ(60, named_in(2000, 2100, &ev));
	EXPECT_EQ(40, ev.unexplained);
	ASSERT_EQ(2, ev.n);
	EXPECT_EQ(TP_SRC_SOFTIRQ, ev.e[0].key.kind);
	EXPECT_EQ(50, ev.e[0].net);
	EXPECT_EQ(1, ev.e[0].count);
	EXPECT_EQ(10, ev.e[1].net);
	EXPECT_EQ(0, cpu.unmatched);
	EXPECT_EQ(1040, cpu.kind_net[TP_SRC_SOFTIRQ]);
	EXPECT_EQ(1, cpu.kind_count[TP_SRC_SOFTIRQ]);
}

/*
 * A softirq put aside before a window began and finished inside it: the
 * window has its 50 cycles inside it, never its 100 from before, in the
 * kinds' totals and in the table alike.
 */
TEST(a_window_counts_only_the_stretch_of_a_softirq_inside_it)
{
	struct tp_src_windows w;

	reset();
	tp_src_windows_init(&w);
	switch_to(0, 10, "ksoftirqd/1", 100);
	enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 110);
	switch_to(10, 0, NULL, 210);
	tp_src_window_begin(&w, &cpu);
	switch_to(0, 10, "ksoftirqd/1", 1000);
	leave(TP_SRC_SOFTIRQ, 1050);
	switch_to(10, 0, NULL, 1060);
	tp_src_window_end(&w, &cpu);
	EXPECT_EQ(50, w.kind_net[TP_SRC_SOFTIRQ]);
	EXPECT_EQ(1, w.kind_count[TP_SRC_SOFTIRQ]);
	EXPECT_EQ(10, w.kind_net[TP_SRC_THREAD]);
	EXPECT_EQ(0, w.lost);
	EXPECT_EQ(50, net_of(&w.table, TP_SRC_SOFTIRQ, 3));
	EXPECT_EQ(10, net_of(&w.table, TP_SRC_THREAD, 10));
}

/*
 * PREEMPT_RT: IRQ 45's hard handler (irq_default_primary_handler) wakes
 * its thread, irq/45-virtio0 (pid 77), which runs the driver's handler
 * and the softirq it raises.  The thread is IRQ 45, threaded, with its
 * pid and name: the hard part and the thread are two sources, both irq,
 * and a gap the thread fills has cause irq.  Another task that got pid
 * 77 later, under another name, is a thread.
 */
TEST(an_interrupt_thread_is_named_as_its_interrupt)
{
	static struct tp_src_gap_scratch scratch;
	const struct tp_src_total *hard = NULL, *thread = NULL;
	struct tp_event_sources ev;
	struct tp_src_table t;
	uint32_t i;

	reset();
	enter(TP_SRC_IRQ, 45, "virtio0-requests", 100);
	tp_src_irq_thread(&cpu, 77, "irq/45-virtio0", 45, "virtio0-requests");
	leave(TP_SRC_IRQ, 110);
	switch_to(0, 77, "irq/45-virtio0", 120);
	enter(TP_SRC_SOFTIRQ, 4, "BLOCK", 150);
	leave(TP_SRC_SOFTIRQ, 180);
	sleep_to(77, 0, NULL, 200);
	switch_to(0, 77, "kworker/1:2", 300);
	switch_to(77, 0, NULL, 310);

	EXPECT_EQ(0, cpu.unmatched);
	drain_all(&cpu, &t);
	for (i = 0; i < t.n; i++) {
		if (t.e[i].key.kind != TP_SRC_IRQ)
			continue;
		if (t.e[i].key.flags & TP_SRC_THREADED)
			thread = &t.e[i];
		else
			hard = &t.e[i];
	}
	ASSERT_NE(NULL, hard);
	ASSERT_NE(NULL, thread);
	EXPECT_EQ(45, hard->key.id);
	EXPECT_EQ(10, hard->net);
	EXPECT_EQ(45, thread->key.id);
	EXPECT_EQ(80 - 30, thread->net);
	EXPECT_STREQ("virtio0-requests", thread->name);
	ASSERT_NE(NULL, tp_src_thread_of(&threads, &thread->key));
	EXPECT_EQ(77, tp_src_thread_of(&threads, &thread->key)->pid);
	EXPECT_STREQ("irq/45-virtio0",
		     tp_src_thread_of(&threads, &thread->key)->comm);
	EXPECT_EQ(30, net_of(&t, TP_SRC_SOFTIRQ, 4));
	EXPECT_EQ(10, net_of(&t, TP_SRC_THREAD, 77));
	EXPECT_STREQ("kworker/1:2", entry(&t, TP_SRC_THREAD, 77)->name);
	EXPECT_EQ(60, cpu.kind_net[TP_SRC_IRQ]);

	tp_src_event(&cpu, 100, 200, &threads, &scratch, &ev);
	ASSERT_EQ(3, ev.n);
	EXPECT_EQ(TP_SRC_THREADED, ev.e[0].key.flags);
	EXPECT_EQ(TSCPROBE_CAUSE_IRQ, tp_src_cause(&ev, TSCPROBE_CAUSE_SMI));
}

/*
 * A shared line on PREEMPT_RT (or with threadirqs): IRQ 16's actions
 * ehci_hcd and i801_smbus each have a thread, irq/16-ehci_hcd (pid 200)
 * and irq/16-i801_smbus (pid 201).  Two sources, each with its own name,
 * thread and time, in a window's table and in an event's sources alike;
 * never one named after the first action with the time of both.
 */
/* The counts of @kind's sources in @t, other included. */
static uint64_t counts_of(const struct tp_src_table *t, uint32_t kind)
{
	uint64_t sum = t->other.count;
	uint32_t i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].key.kind == kind)
			sum += t->e[i].count;
	return sum;
}

/*
 * PREEMPT_RT: IRQ 45 comes twice; its thread runs once for both and is
 * preempted once (by a real-time thread, pid 20) before it sleeps: one
 * wake-up, counted once over its two stretches.  Then one more interrupt
 * and a run not preempted.  The hard part counts its 3 calls, the thread
 * its 2 runs, and the IRQ kind's count is the sum of its sources', 5:
 * never the thread's stretches against the handlers' calls.
 */
TEST(an_interrupt_thread_counts_once_per_wake_up)
{
	struct tp_src_table t;
	const struct tp_src_total *e;
	uint32_t k;

	reset();
	enter(TP_SRC_IRQ, 45, "virtio0-requests", 100);
	tp_src_irq_thread(&cpu, 77, "irq/45-virtio0", 45, "virtio0-requests");
	leave(TP_SRC_IRQ, 110);
	enter(TP_SRC_IRQ, 45, "virtio0-requests", 120);
	tp_src_irq_thread(&cpu, 77, "irq/45-virtio0", 45, "virtio0-requests");
	leave(TP_SRC_IRQ, 130);
	sleep_to(0, 77, "irq/45-virtio0", 200);
	switch_to(77, 20, "rtpoller", 250);
	sleep_to(20, 77, "irq/45-virtio0", 300);
	sleep_to(77, 0, NULL, 330);
	enter(TP_SRC_IRQ, 45, "virtio0-requests", 400);
	tp_src_irq_thread(&cpu, 77, "irq/45-virtio0", 45, "virtio0-requests");
	leave(TP_SRC_IRQ, 410);
	sleep_to(0, 77, "irq/45-virtio0", 420);
	sleep_to(77, 0, NULL, 440);

	EXPECT_EQ(3 + 2, cpu.kind_count[TP_SRC_IRQ]);
	EXPECT_EQ(10 + 10 + 50 + 30 + 10 + 20, cpu.kind_net[TP_SRC_IRQ]);
	drain_all(&cpu, &t);
	e = entry_flagged(&t, TP_SRC_IRQ, 45, 0);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(3, e->count);
	EXPECT_EQ(30, e->net);
	e = entry_flagged(&t, TP_SRC_IRQ, 45, TP_SRC_THREADED);
	ASSERT_NE(NULL, e);
	EXPECT_EQ(2, e->count);
	EXPECT_EQ(100, e->net);
	for (k = 0; k < TP_SRC_KINDS; k++)
		EXPECT_EQ(cpu.kind_count[k], counts_of(&t, k))
			TH_LOG("kind %u", k);
}

/* The pid of @e's interrupt thread, 0 where it has none. */
static uint32_t pid_of(const struct tp_src_total *e)
{
	const struct tp_src_thread *t = tp_src_thread_of(&threads, &e->key);

	return t ? t->pid : 0;
}

TEST(two_threads_of_one_shared_irq_are_two_sources)
{
	static struct tp_src_gap_scratch scratch;
	const struct tp_src_total *ehci = NULL, *smbus = NULL;
	struct tp_event_sources ev;
	struct tp_src_table t;
	uint32_t i, threaded = 0;

	reset();
	enter(TP_SRC_IRQ, 16, "ehci_hcd", 100);
	tp_src_irq_thread(&cpu, 200, "irq/16-ehci_hcd", 16, "ehci_hcd");
	leave(TP_SRC_IRQ, 105);
	enter(TP_SRC_IRQ, 16, "i801_smbus", 105);
	tp_src_irq_thread(&cpu, 201, "irq/16-i801_smb", 16, "i801_smbus");
	leave(TP_SRC_IRQ, 110);
	switch_to(0, 200, "irq/16-ehci_hcd", 200);
	sleep_to(200, 201, "irq/16-i801_smb", 300);
	sleep_to(201, 0, NULL, 350);

	drain_all(&cpu, &t);
	for (i = 0; i < t.n; i++) {
		if (!(t.e[i].key.flags & TP_SRC_THREADED))
			continue;
		threaded++;
		if (pid_of(&t.e[i]) == 200)
			ehci = &t.e[i];
		else if (pid_of(&t.e[i]) == 201)
			smbus = &t.e[i];
	}
	EXPECT_EQ(2, threaded);
	ASSERT_NE(NULL, ehci);
	ASSERT_NE(NULL, smbus);
	EXPECT_STREQ("ehci_hcd", ehci->name);
	EXPECT_STREQ("irq/16-ehci_hcd",
		     tp_src_thread_of(&threads, &ehci->key)->comm);
	EXPECT_EQ(100, ehci->net);
	EXPECT_STREQ("i801_smbus", smbus->name);
	EXPECT_STREQ("irq/16-i801_smb",
		     tp_src_thread_of(&threads, &smbus->key)->comm);
	EXPECT_EQ(50, smbus->net);

	tp_src_event(&cpu, 200, 400, &threads, &scratch, &ev);
	ASSERT_EQ(2, ev.n);
	EXPECT_EQ(200, pid_of(&ev.e[0]));
	EXPECT_EQ(100, ev.e[0].net);
	EXPECT_EQ(201, pid_of(&ev.e[1]));
	EXPECT_EQ(50, ev.e[1].net);
	EXPECT_EQ(50, ev.unexplained);
	EXPECT_EQ(2, threads.n);
}

/*
 * The list of a CPU's interrupt threads is bounded: once it is full, a
 * source of a thread not in it is summed in its table's other, never
 * merged with another thread's source nor named with a thread it does
 * not have; the threads in the list keep their sources.
 */
TEST(interrupt_threads_past_the_list_are_other)
{
	struct tp_src_table t;
	uint64_t cursor = 0;
	uint32_t pid;

	reset();
	for (pid = 1; pid <= TP_SRC_THREADS + 1; pid++) {
		tp_src_irq_thread(&cpu, pid, "irq/16-shared", 16, "shared");
		switch_to(0, pid, "irq/16-shared", 10 * pid);
		sleep_to(pid, 0, NULL, 10 * pid + 4);
		if (pid == TP_SRC_THREADS) {
			tp_src_table_init(&t);
			drain_ring(&cursor, &t);
			EXPECT_EQ(TP_SRC_THREADS, t.n);
		}
	}
	switch_to(0, TP_SRC_THREADS, "irq/16-shared", 1000);
	sleep_to(TP_SRC_THREADS, 0, NULL, 1002);
	tp_src_table_init(&t);
	drain_ring(&cursor, &t);
	EXPECT_EQ(TP_SRC_THREADS, threads.n);
	ASSERT_EQ(1, t.n);
	EXPECT_EQ(TP_SRC_THREADS, pid_of(&t.e[0]));
	EXPECT_EQ(2, t.e[0].net);
	EXPECT_EQ(4, t.other.net);
	EXPECT_EQ(1, t.other.count);
}

/* A span of IRQ @irq's thread @pid, @comm: @cycles ending at @to. */
static struct tp_src_span thread_span(uint32_t irq, uint32_t pid,
				      const char *comm, uint64_t to,
				      uint64_t cycles)
{
	struct tp_src_span s = {
		.start = to - cycles, .end = to, .net = cycles, .count = 1,
		.who = { .key = { .kind = TP_SRC_IRQ, .flags = TP_SRC_THREADED,
				  .id = irq },
			 .pid = pid },
	};

	snprintf(s.who.name, sizeof(s.who.name), "irq%u", irq);
	snprintf(s.who.thread, sizeof(s.who.thread), "%s", comm);
	return s;
}

/*
 * A window's table full of 32 other sources: an interrupt thread's span
 * then goes into other, and its thread into no list, where it would take
 * a place that no entry refers to and that a later source needs.
 */
TEST(a_full_table_puts_no_thread_in_the_list)
{
	struct tp_src_span s;
	struct tp_src_table t;
	uint32_t id;

	reset();
	tp_src_table_init(&t);
	for (id = 0; id < TP_SRC_TABLE; id++) {
		s = (struct tp_src_span)SPAN(id * 10, id * 10 + 5, 5, TP_SRC_IRQ,
					     id, "irq");
		tp_src_table_add(&t, &threads, &s);
	}
	s = thread_span(45, 77, "irq/45-virtio0", 1000, 30);
	tp_src_table_add(&t, &threads, &s);
	EXPECT_EQ(TP_SRC_TABLE, t.n);
	EXPECT_EQ(30, t.other.net);
	EXPECT_EQ(1, t.other.count);
	EXPECT_EQ(0, threads.n);
}

/*
 * 40 gaps each name IRQ 5 alone (max 1) and sum an interrupt thread, a
 * new one each time, in other: none of them goes into the CPU's list of
 * 32.  A later gap whose largest source is an interrupt thread names it,
 * with its thread, instead of finding the list full of threads nothing
 * refers to.
 */
TEST(threads_a_gap_sums_in_other_leave_the_list_to_those_it_names)
{
	struct tp_src_span spans[2];
	struct tp_src_table t;
	uint64_t from;
	uint32_t k;

	reset();
	for (k = 1; k <= 40; k++) {
		from = k * 1000;
		spans[0] = (struct tp_src_span)SPAN(from, from + 100, 100,
						    TP_SRC_IRQ, 5, "big");
		spans[1] = thread_span(9, k, "irq/9-acpi", from + 200, 10);
		EXPECT_EQ(890, tp_src_gap(spans, 2, from, from + 1000, 1,
					  &threads, &seen, &t));
		ASSERT_EQ(1, t.n);
		EXPECT_EQ(10, t.other.net);
	}
	EXPECT_EQ(0, threads.n);
	from = 100000;
	spans[0] = (struct tp_src_span)SPAN(from, from + 100, 100, TP_SRC_IRQ,
					    5, "big");
	spans[1] = thread_span(9, 99, "irq/9-acpi", from + 800, 500);
	EXPECT_EQ(400, tp_src_gap(spans, 2, from, from + 1000, 1, &threads,
				  &seen, &t));
	ASSERT_EQ(1, t.n);
	EXPECT_EQ(TP_SRC_THREADED, t.e[0].key.flags);
	EXPECT_EQ(99, pid_of(&t.e[0]));
	EXPECT_EQ(100, t.other.net);
	EXPECT_EQ(1, threads.n);
}

/*
 * What an emitter tells of @ev (the named, then other where
 * tp_src_total_any() says it has anything) and the unexplained: the gap.
 */
static uint64_t told(const struct tp_event_sources *ev)
{
	uint64_t sum = ev->unexplained;
	uint32_t i;

	for (i = 0; i < ev->n; i++)
		sum += ev->e[i].net;
	if (tp_src_total_any(&ev->other))
		sum += ev->other.net;
	return sum;
}

/*
 * PREEMPT_RT: ksoftirqd (pid 10) begins NET_RX inside a gap [1000, 2000]
 * and a real-time thread (pid 20) preempts it 60 cycles later; four IRQs
 * of 100 cycles come inside that thread, both threads' spans go past the
 * gap's edges.  The IRQs are named (four at most), and other holds the
 * softirq's stretch alone: 60 cycles in count 0, its source going on
 * after the gap.  It is told all the same: what is named, other and the
 * unexplained add up to the gap.
 */
TEST(an_other_of_count_0_with_time_is_told)
{
	static struct tp_src_gap_scratch scratch;
	struct tp_event_sources ev;
	uint32_t irq;

	reset();
	switch_to(0, 10, "ksoftirqd/1", 900);
	enter(TP_SRC_SOFTIRQ, 3, "NET_RX", 1010);
	switch_to(10, 20, "rtpoller", 1070);
	for (irq = 1; irq <= 4; irq++) {
		enter(TP_SRC_IRQ, irq, "dev", 1000 + irq * 200);
		leave(TP_SRC_IRQ, 1100 + irq * 200);
	}
	switch_to(20, 10, "ksoftirqd/1", 2100);
	tp_src_event(&cpu, 1000, 2000, &threads, &scratch, &ev);
	ASSERT_EQ(TP_EVENT_SOURCES, ev.n);
	EXPECT_EQ(100, ev.e[3].net);
	EXPECT_EQ(0, ev.other.count);
	EXPECT_EQ(60, ev.other.net);
	EXPECT_EQ(1000 - 400 - 60, ev.unexplained);
	EXPECT_TRUE(tp_src_total_any(&ev.other));
	EXPECT_EQ(1000, told(&ev));
}

/*
 * The cause word: the largest source's kind when it accounts for as much
 * of the gap as is left unexplained (a tie included), else the counters'.
 */
TEST(the_largest_source_names_the_cause_unless_the_rest_is_larger)
{
	static const struct {
		uint32_t kind;
		uint64_t net;
		uint64_t unexplained;
		unsigned int cause;
	} cases[] = {
		{ TP_SRC_THREAD, 440, 300, TSCPROBE_CAUSE_THREAD },
		{ TP_SRC_SOFTIRQ, 300, 300, TSCPROBE_CAUSE_SOFTIRQ },
		{ TP_SRC_IRQ, 20, 10, TSCPROBE_CAUSE_IRQ },
		{ TP_SRC_NMI, 50, 0, TSCPROBE_CAUSE_NMI },
		/* An SMI with a tick inside it: the counters' SMI. */
		{ TP_SRC_IRQ, 2, 9000, TSCPROBE_CAUSE_SMI },
		{ TP_SRC_THREAD, 0, 0, TSCPROBE_CAUSE_SMI },
	};
	struct tp_event_sources ev = { .probed = 1, .n = 1 };
	uint32_t i;

	for (i = 0; i < TP_ARRAY_SIZE(cases); i++) {
		ev.e[0].key.kind = cases[i].kind;
		ev.e[0].net = cases[i].net;
		ev.unexplained = cases[i].unexplained;
		EXPECT_EQ(cases[i].cause, tp_src_cause(&ev, TSCPROBE_CAUSE_SMI))
			TH_LOG("case %u", i);
	}
	/* Nothing named, nothing traced, or no sources at all. */
	ev.e[0].key.kind = TP_SRC_THREAD;
	ev.e[0].net = 1000;
	ev.unexplained = 0;
	ev.n = 0;
	EXPECT_EQ(TSCPROBE_CAUSE_STEAL, tp_src_cause(&ev, TSCPROBE_CAUSE_STEAL));
	ev.n = 1;
	ev.probed = 0;
	EXPECT_EQ(TSCPROBE_CAUSE_NMI, tp_src_cause(&ev, TSCPROBE_CAUSE_NMI));
	EXPECT_EQ(TSCPROBE_CAUSE_IRQ, tp_src_cause(NULL, TSCPROBE_CAUSE_IRQ));
}

TEST(rings_keep_the_newest_and_count_the_rest)
{
	struct tp_src_span out[TP_SRC_RING];
	struct tp_src_table t;
	uint64_t cursor = 0, lost;
	uint32_t i, n;

	reset();
	for (i = 0; i < 3 * TP_SRC_RING; i++) {
		enter(TP_SRC_IRQ, i % 4, "irq", 100 * i);
		leave(TP_SRC_IRQ, 100 * i + 10);
	}
	tp_src_table_init(&t);
	lost = drain_ring(&cursor, &t);
	EXPECT_EQ(3 * TP_SRC_RING, cursor);
	EXPECT_EQ(2 * TP_SRC_RING + 1, lost);
	EXPECT_EQ(TP_SRC_RING - 1, t.e[0].count + t.e[1].count + t.e[2].count +
		  t.e[3].count);
	/* Exact anyway, whatever the ring dropped. */
	EXPECT_EQ(30 * TP_SRC_RING, cpu.kind_net[TP_SRC_IRQ]);
	/* Nothing new: nothing added, nothing lost. */
	EXPECT_EQ(0, drain_ring(&cursor, &t));
	/* The last three spans, newest first; the scan stops at older ones. */
	i = 3 * TP_SRC_RING - 3;
	n = tp_src_collect(&cpu.ring, 100 * i, 100 * i + 300, out, TP_SRC_RING);
	ASSERT_EQ(3, n);
	EXPECT_EQ(100 * (i + 2), out[0].start);
	EXPECT_EQ(100 * i, out[2].start);
	EXPECT_EQ(2, tp_src_collect(&cpu.ring, 0, ~0ULL, out, 2));
}

/*
 * With the ring just full (head = TP_SRC_RING), the oldest slot is the one
 * the next writer takes, possibly mid-write in an interrupt: never read.
 */
TEST(a_full_ring_never_reads_the_slot_the_next_writer_takes)
{
	struct tp_src_span out[TP_SRC_RING];
	struct tp_src_table t;
	uint64_t cursor = 0;
	uint32_t i, n = 0;

	reset();
	for (i = 0; i < TP_SRC_RING; i++) {
		enter(TP_SRC_IRQ, 0, "irq", 100 * i);
		leave(TP_SRC_IRQ, 100 * i + 10);
	}
	tp_src_table_init(&t);
	EXPECT_EQ(1, drain_ring(&cursor, &t));
	for (i = 0; i < t.n; i++)
		n += t.e[i].count;
	EXPECT_EQ(TP_SRC_RING - 1, n);
	n = tp_src_collect(&cpu.ring, 0, ~0ULL, out, TP_SRC_RING);
	ASSERT_EQ(TP_SRC_RING - 1, n);
	EXPECT_EQ(100, out[n - 1].start);	/* span 0 is not among them */
}

TEST(windows_count_only_what_ran_inside_them)
{
	struct tp_src_windows w;

	reset();
	tp_src_windows_init(&w);
	/* Between windows: the measuring thread sleeps, others run. */
	enter(TP_SRC_THREAD, 0, "swapper/1", 0);
	leave(TP_SRC_THREAD, 500);
	tp_src_window_begin(&w, &cpu);
	enter(TP_SRC_IRQ, 24, "eth0", 600);
	leave(TP_SRC_IRQ, 640);
	new_nmi(2, "", 700, 9);
	tp_src_window_end(&w, &cpu);
	enter(TP_SRC_IRQ, 24, "eth0", 900);
	leave(TP_SRC_IRQ, 990);
	tp_src_window_begin(&w, &cpu);
	enter(TP_SRC_IRQ, 24, "eth0", 1000);
	leave(TP_SRC_IRQ, 1010);
	tp_src_window_end(&w, &cpu);
	EXPECT_EQ(0, w.kind_net[TP_SRC_THREAD]);
	EXPECT_EQ(50, w.kind_net[TP_SRC_IRQ]);
	EXPECT_EQ(2, w.kind_count[TP_SRC_IRQ]);
	EXPECT_EQ(9, w.kind_net[TP_SRC_NMI]);
	ASSERT_EQ(2, w.table.n);
	EXPECT_EQ(50, net_of(&w.table, TP_SRC_IRQ, 24));
	EXPECT_EQ(9, net_of(&w.table, TP_SRC_NMI, 2));
	EXPECT_EQ(0, w.lost);
}

/*
 * With interrupts on, a busy CPU writes many times the ring's spans in one
 * window: each source is still in the window's table with all its time
 * and count, the kinds' exact totals, two interrupt threads of one IRQ
 * apart, and nothing is lost.  Between windows nothing goes to the spill.
 */
TEST(a_window_keeps_every_span_however_many_the_ring_overflows)
{
	static struct tp_src_windows w;
	const uint32_t rounds = 5 * TP_SRC_RING;
	uint64_t t = 1000, named = 0, counted = 0;
	const struct tp_src_total *e;
	uint32_t i;

	reset();
	tp_src_windows_init(&w);
	tp_src_irq_thread(&cpu, 200, "irq/16-ehci_hcd", 16, "ehci_hcd");
	tp_src_irq_thread(&cpu, 201, "irq/16-i801_smb", 16, "i801_smbus");
	for (i = 0; i < 3 * TP_SRC_RING; i++) {
		enter(TP_SRC_IRQ, 30, "between", 10 * i);
		leave(TP_SRC_IRQ, 10 * i + 5);
	}
	tp_src_window_begin(&w, &cpu);
	for (i = 0; i < rounds; i++, t += 1000) {
		enter(TP_SRC_IRQ, 24, "eth0", t);
		leave(TP_SRC_IRQ, t + 10);
		enter(TP_SRC_SOFTIRQ, 3, "NET_RX", t + 20);
		leave(TP_SRC_SOFTIRQ, t + 50);
		switch_to(0, i % 2 ? 200 : 201, i % 2 ? "irq/16-ehci_hcd" :
			  "irq/16-i801_smb", t + 100);
		sleep_to(i % 2 ? 200 : 201, 0, NULL, t + 107);
	}
	tp_src_window_end(&w, &cpu);
	tp_src_window_begin(&w, &cpu);
	tp_src_window_end(&w, &cpu);

	EXPECT_EQ(0, w.lost);
	EXPECT_EQ(0, cpu.unmatched);
	EXPECT_EQ(10 * rounds, net_of(&w.table, TP_SRC_IRQ, 24));
	EXPECT_EQ(30 * rounds, net_of(&w.table, TP_SRC_SOFTIRQ, 3));
	EXPECT_EQ(~0ULL, net_of(&w.table, TP_SRC_IRQ, 30));
	ASSERT_EQ(4, w.table.n);
	for (i = 0; i < w.table.n; i++) {
		const struct tp_src_thread *th;

		e = &w.table.e[i];
		named += e->net;
		counted += e->count;
		th = tp_src_thread_of(&w.threads, &e->key);
		if (!(e->key.flags & TP_SRC_THREADED))
			continue;
		ASSERT_NE(NULL, th);
		EXPECT_EQ(7 * rounds / 2, e->net);
		EXPECT_EQ(rounds / 2, e->count);
		EXPECT_STREQ(th->pid == 200 ? "ehci_hcd" : "i801_smbus",
			     e->name);
	}
	EXPECT_EQ(0, w.table.other.count);
	EXPECT_EQ(w.kind_net[TP_SRC_IRQ] + w.kind_net[TP_SRC_SOFTIRQ], named);
	EXPECT_EQ(w.kind_count[TP_SRC_IRQ] + w.kind_count[TP_SRC_SOFTIRQ],
		  counted);
	EXPECT_EQ(3 * rounds, counted);
}

/* ---- random sequences against the naive attribution ---------------- */

#define SIM_KEYS	4
#define SIM_SPANS	4096

struct sim {
	uint64_t naive[TP_SRC_KINDS][SIM_KEYS];
	struct tp_src_span span[SIM_SPANS];
	uint32_t nspans;
	uint64_t cur[2];
	uint32_t kind[TP_SRC_DEPTH];
	uint32_t depth;
	uint64_t t;
	uint64_t outer_start[SIM_SPANS], outer_end[SIM_SPANS];
	uint32_t nouter;
};

/* Copy what the rings got since the last call (drained every step). */
static void sim_collect(struct sim *s)
{
	const struct tp_src_ring *r[2] = { &cpu.ring, &cpu.nmi_ring };
	uint32_t k;

	for (k = 0; k < 2; k++)
		for (; s->cur[k] < r[k]->head && s->nspans < SIM_SPANS; s->cur[k]++)
			s->span[s->nspans++] =
				r[k]->span[s->cur[k] & (TP_SRC_RING - 1)];
}

static void sim_step(struct sim *s, uint64_t *rng)
{
	uint32_t top = s->depth ? s->kind[s->depth - 1] & 0xff : TP_SRC_KINDS;
	uint32_t r = (uint32_t)tr_below(rng, 100), id, kind, len;

	if (r < 30 && s->depth < 6 && top != TP_SRC_IRQ) {
		kind = top == TP_SRC_KINDS ? (uint32_t)tr_below(rng, 3) :
			top + 1 + (uint32_t)tr_below(rng, TP_SRC_IRQ - top);
		id = (uint32_t)tr_below(rng, SIM_KEYS);
		if (!s->depth)
			s->outer_start[s->nouter] = s->t;
		/* The innermost running source is charged: kind and id. */
		s->kind[s->depth++] = kind | id << 8;
		enter(kind, id, "sim", s->t);
	} else if (r < 55 && s->depth) {
		s->depth--;
		leave(s->kind[s->depth] & 0xff, s->t);
		if (!s->depth)
			s->outer_end[s->nouter++] = s->t;
	} else if (r < 65) {
		id = (uint32_t)tr_below(rng, SIM_KEYS);
		len = 1 + (uint32_t)tr_below(rng, 20);
		new_nmi(id, "nmi", s->t, len);
		s->naive[TP_SRC_NMI][id] += len;
		if (!s->depth) {
			s->outer_start[s->nouter] = s->t;
			s->outer_end[s->nouter++] = s->t + len;
		}
		s->t += len;
	} else {
		len = 1 + (uint32_t)tr_below(rng, 30);
		if (s->depth) {
			top = s->kind[s->depth - 1];
			s->naive[top & 0xff][top >> 8] += len;
		}
		s->t += len;
	}
	sim_collect(s);
}

TEST(random_sequences_match_the_innermost_source)
{
	static struct sim s;
	uint64_t rng = 0x5eed5eedULL;
	struct tp_src_table t;
	uint32_t round, i, k, id;

	for (round = 0; round < 200; round++) {
		memset(&s, 0, sizeof(s));
		reset();
		for (i = 0; i < 600; i++)
			sim_step(&s, &rng);
		while (s.depth) {
			s.depth--;
			leave(s.kind[s.depth] & 0xff, s.t);
			if (!s.depth)
				s.outer_end[s.nouter++] = s.t;
		}
		sim_collect(&s);
		ASSERT_EQ(0, cpu.unmatched);
		/* Per source: its net time is what the naive count gave it. */
		tp_src_table_init(&t);
		for (i = 0; i < s.nspans; i++)
			tp_src_table_add(&t, &threads, &s.span[i]);
		for (k = 0; k < TP_SRC_KINDS; k++)
			for (id = 0; id < SIM_KEYS; id++) {
				const struct tp_src_total *e = entry(&t, k, id);
				uint64_t got = e ? e->net : 0;

				ASSERT_EQ(s.naive[k][id], got)
					TH_LOG("round %u: kind %u id %u", round, k, id);
			}
		/* A top-level source's interval is named entirely, once. */
		for (i = 0; i < s.nouter; i++) {
			uint64_t left = tp_src_gap(s.span, s.nspans, s.outer_start[i],
						   s.outer_end[i], 3, &threads,
						   &seen, &t);
			uint64_t named = t.other.net;

			for (k = 0; k < t.n; k++)
				named += t.e[k].net;
			ASSERT_EQ(0, left) TH_LOG("round %u, source %u", round, i);
			ASSERT_EQ(s.outer_end[i] - s.outer_start[i], named);
		}
		/* Any window: the named times never exceed it. */
		for (i = 0; i < 50 && s.t; i++) {
			uint64_t a = tr_below(&rng, s.t), b = a + tr_below(&rng, s.t - a + 1);
			uint64_t left = tp_src_gap(s.span, s.nspans, a, b, 2,
						   &threads, &seen, &t);
			uint64_t named = t.other.net;

			for (k = 0; k < t.n; k++)
				named += t.e[k].net;
			ASSERT_EQ(b - a, named + left);
			ASSERT_LE(named, b - a);
		}
	}
}

/* ---- random preemptions of softirqs (PREEMPT_RT) ---------------------- */

#define RT_THREADS	TP_SRC_ASIDE	/* each may have softirqs put aside */
#define RT_IDS		(RT_THREADS + 1)

/*
 * A CPU of PREEMPT_RT: the measuring thread (0) and threads 1..RT_THREADS,
 * each running up to TP_SRC_ASIDE_DEPTH softirqs that are preempted with
 * it, interrupts above whatever runs, NMIs anywhere, and windows that the
 * measuring thread opens and closes.  @naive charges each cycle to the
 * innermost source running then, @windowed the same inside the windows;
 * @outer_*: the stretches in which anything but the measurer ran.
 */
struct rt_sim {
	uint64_t t;
	uint32_t cur;
	uint32_t sirq[RT_THREADS + 1][TP_SRC_ASIDE_DEPTH];
	uint32_t nsirq[RT_THREADS + 1];
	uint32_t irq[2];
	uint32_t nirq;
	bool window;
	uint64_t window_start, window_named, window_kinds;
	uint64_t naive[TP_SRC_KINDS][RT_IDS];
	uint64_t windowed[TP_SRC_KINDS][RT_IDS];
	struct tp_src_windows w;
	struct sim spans;
	uint64_t busy_since;
	uint64_t bad_len, bad_kinds, bad_named;
};

static bool rt_idle(const struct rt_sim *s)
{
	return !s->cur && !s->nirq;
}

/* The stack leaves or reaches the measurer alone at s->t. */
static void rt_busy(struct rt_sim *s, bool was_idle)
{
	struct sim *p = &s->spans;

	if (was_idle && !rt_idle(s)) {
		s->busy_since = s->t;
	} else if (!was_idle && rt_idle(s) && p->nouter < SIM_SPANS) {
		p->outer_start[p->nouter] = s->busy_since;
		p->outer_end[p->nouter++] = s->t;
	}
}

static void rt_charge(struct rt_sim *s, uint32_t kind, uint32_t id,
		      uint64_t len)
{
	s->naive[kind][id] += len;
	if (s->window) {
		s->windowed[kind][id] += len;
		s->window_named += len;
	}
}

static uint64_t rt_kinds_net(const struct rt_sim *s)
{
	uint64_t sum = 0;
	uint32_t k;

	for (k = 0; k < TP_SRC_KINDS; k++)
		sum += s->w.kind_net[k];
	return sum;
}

/* From thread s->cur to @next (0: the measurer), both at s->t. */
static void rt_switch(struct rt_sim *s, uint32_t next)
{
	struct sim *p = &s->spans;

	if (s->cur)
		tp_src_switch_out(&cpu, s->cur, true, at(s->t));
	if (s->cur && next && p->nouter < SIM_SPANS) {
		/* One stretch ends, another begins. */
		p->outer_start[p->nouter] = s->busy_since;
		p->outer_end[p->nouter++] = s->t;
		s->busy_since = s->t;
	}
	s->cur = next;
	if (next)
		tp_src_switch_in(&cpu, next, "rt", at(s->t));
}

/*
 * The measurer opens or closes a window; a closed one's kinds must hold
 * exactly what ran inside it (the first that does not is kept).
 */
static void rt_window(struct rt_sim *s)
{
	uint64_t kinds;

	if (!s->window) {
		tp_src_window_begin(&s->w, &cpu);
		s->window = true;
		s->window_start = s->t;
		s->window_named = 0;
		s->window_kinds = rt_kinds_net(s);
		return;
	}
	tp_src_window_end(&s->w, &cpu);
	s->window = false;
	kinds = rt_kinds_net(s) - s->window_kinds;
	if (!s->bad_len && (kinds != s->window_named ||
			    kinds > s->t - s->window_start)) {
		s->bad_len = s->t - s->window_start;
		s->bad_kinds = kinds;
		s->bad_named = s->window_named;
	}
}

static void rt_step(struct rt_sim *s, uint64_t *rng)
{
	uint32_t r = (uint32_t)tr_below(rng, 100), id, len, *n;
	bool was_idle = rt_idle(s);

	n = &s->nsirq[s->cur];
	id = (uint32_t)tr_below(rng, 4);
	if (r < 12 && s->nirq < 2) {
		s->irq[s->nirq++] = id;
		enter(TP_SRC_IRQ, id, "rt", s->t);
	} else if (r < 24 && s->nirq) {
		s->nirq--;
		leave(TP_SRC_IRQ, s->t);
	} else if (r < 34 && s->cur && !s->nirq && *n < TP_SRC_ASIDE_DEPTH) {
		s->sirq[s->cur][(*n)++] = id;
		enter(TP_SRC_SOFTIRQ, id, "rt", s->t);
	} else if (r < 44 && s->cur && !s->nirq && *n) {
		(*n)--;
		leave(TP_SRC_SOFTIRQ, s->t);
	} else if (r < 54 && !s->nirq) {
		rt_switch(s, (s->cur + 1 + id % RT_THREADS) % (RT_THREADS + 1));
	} else if (r < 60) {
		len = 1 + (uint32_t)tr_below(rng, 20);
		new_nmi(id, "nmi", s->t, len);
		rt_charge(s, TP_SRC_NMI, id, len);
		if (was_idle && s->spans.nouter < SIM_SPANS) {
			s->spans.outer_start[s->spans.nouter] = s->t;
			s->spans.outer_end[s->spans.nouter++] = s->t + len;
		}
		s->t += len;
	} else if (r < 66 && rt_idle(s)) {
		rt_window(s);
	} else {
		len = 1 + (uint32_t)tr_below(rng, 30);
		if (s->nirq)
			rt_charge(s, TP_SRC_IRQ, s->irq[s->nirq - 1], len);
		else if (s->cur && *n)
			rt_charge(s, TP_SRC_SOFTIRQ, s->sirq[s->cur][*n - 1], len);
		else if (s->cur)
			rt_charge(s, TP_SRC_THREAD, s->cur, len);
		s->t += len;
	}
	rt_busy(s, was_idle);
	sim_collect(&s->spans);
}

/* Quiet at last: interrupts out, the measurer back, the window closed,
 * and every softirq put aside finished by its thread.
 */
static void rt_finish(struct rt_sim *s)
{
	bool was_idle = rt_idle(s);
	uint32_t k, *n;

	while (s->nirq) {
		s->nirq--;
		leave(TP_SRC_IRQ, s->t);
	}
	rt_switch(s, 0);
	rt_busy(s, was_idle);
	if (s->window)
		rt_window(s);
	for (k = 1; k <= RT_THREADS; k++) {
		n = &s->nsirq[k];
		if (!*n)
			continue;
		rt_switch(s, k);
		rt_busy(s, true);
		while (*n) {
			rt_charge(s, TP_SRC_SOFTIRQ, s->sirq[k][*n - 1], 5);
			s->t += 5;
			(*n)--;
			leave(TP_SRC_SOFTIRQ, s->t);
		}
		rt_switch(s, 0);
		rt_busy(s, false);
	}
	sim_collect(&s->spans);
}

/* The sum of @t's entries' net times. */
static uint64_t table_named(const struct tp_src_table *t)
{
	uint64_t named = t->other.net;
	uint32_t k;

	for (k = 0; k < t->n; k++)
		named += t->e[k].net;
	return named;
}

/*
 * Random sequences with threads preempted mid-softirq: every source's net
 * time is the naive count's; each stretch of others' time is named whole
 * by the spans inside it, and any gap never more than it; each window's
 * kinds hold exactly what ran inside it, and its table the same by source.
 */
TEST(random_preemptions_mid_softirq_name_each_cycle_once_where_it_ran)
{
	static struct rt_sim s;
	uint64_t rng = 0x7e57ab1eULL;
	struct tp_src_table t;
	uint32_t round, i, k, id;

	for (round = 0; round < 200; round++) {
		memset(&s, 0, sizeof(s));
		reset();
		tp_src_windows_init(&s.w);
		for (i = 0; i < 800; i++)
			rt_step(&s, &rng);
		rt_finish(&s);
		ASSERT_EQ(0, cpu.unmatched) TH_LOG("round %u", round);
		ASSERT_EQ(0, s.bad_len)
			TH_LOG("round %u: a window of %llu cycles has %llu in its kinds, %llu ran",
			       round, (unsigned long long)s.bad_len,
			       (unsigned long long)s.bad_kinds,
			       (unsigned long long)s.bad_named);
		tp_src_table_init(&t);
		for (i = 0; i < s.spans.nspans; i++)
			tp_src_table_add(&t, &threads, &s.spans.span[i]);
		for (k = 0; k < TP_SRC_KINDS; k++)
			for (id = 0; id < RT_IDS; id++) {
				const struct tp_src_total *e = entry(&t, k, id);
				const struct tp_src_total *we = entry(&s.w.table, k, id);

				ASSERT_EQ(s.naive[k][id], e ? e->net : 0)
					TH_LOG("round %u: kind %u id %u", round, k, id);
				if (!s.w.lost)
					ASSERT_EQ(s.windowed[k][id], we ? we->net : 0)
						TH_LOG("round %u: window, kind %u id %u",
						       round, k, id);
			}
		for (i = 0; i < s.spans.nouter; i++) {
			uint64_t len = s.spans.outer_end[i] - s.spans.outer_start[i];
			uint64_t left = tp_src_gap(s.spans.span, s.spans.nspans,
						   s.spans.outer_start[i],
						   s.spans.outer_end[i], 3,
						   &threads, &seen, &t);

			ASSERT_EQ(0, left) TH_LOG("round %u, stretch %u", round, i);
			ASSERT_EQ(len, table_named(&t));
		}
		for (i = 0; i < 50 && s.t; i++) {
			uint64_t a = tr_below(&rng, s.t);
			uint64_t b = a + tr_below(&rng, s.t - a + 1);
			uint64_t left = tp_src_gap(s.spans.span, s.spans.nspans,
						   a, b, 2, &threads, &seen, &t);

			ASSERT_EQ(b - a, table_named(&t) + left);
			ASSERT_LE(table_named(&t), b - a);
		}
	}
}

TEST_HARNESS_MAIN
