/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ran on a CPU while its measurement loop could not: hard IRQs,
 * softirqs, NMI handlers and other threads, each with its net time (what
 * nested inside it subtracted), so that a noise gap can name its culprits.
 *
 * Written by probes on the CPU they describe (tp_src_enter(),
 * tp_src_exit(), tp_src_nmi(), with the instant tp_src_now() read), read
 * back on that CPU by its measurement thread (tp_src_collect(),
 * tp_src_drain()).  NMIs interrupt the probes but never each other, so
 * each of the two contexts writes only its own ring and counters; what
 * the other context reads is written once (tp_write_once()).
 */
#ifndef TSCPROBE_CORE_SOURCES_H
#define TSCPROBE_CORE_SOURCES_H

#include <linux/tscprobe.h>
#include "host.h"

/*
 * Ordered as they nest: a thread is preempted by softirqs, and so on.  The
 * netlink contract's numbers, as are the name's size and the table's.
 */
enum tp_src_kind {
	TP_SRC_THREAD = TSCPROBE_SOURCE_THREAD,
	TP_SRC_SOFTIRQ = TSCPROBE_SOURCE_SOFTIRQ,
	TP_SRC_IRQ = TSCPROBE_SOURCE_IRQ,
	TP_SRC_NMI = TSCPROBE_SOURCE_NMI,
	TP_SRC_KINDS = TSCPROBE_SOURCE_OTHER,
};

#define TP_SRC_NAME	TSCPROBE_SOURCE_NAME_LEN
#define TP_SRC_COMM	16	/* a thread's name, as the kernel keeps it */
#define TP_SRC_DEPTH	8
#define TP_SRC_RING	64	/* a power of two */
#define TP_SRC_TABLE	TSCPROBE_MAX_SOURCES
/* Interrupt threads a CPU's tables name (struct tp_src_threads). */
#define TP_SRC_THREADS	TSCPROBE_MAX_SOURCES
/* Interrupt threads a CPU knows (tp_src_irq_thread()). */
#define TP_SRC_IRQ_THREADS	8
/* Threads whose preempted softirqs a CPU keeps, and how many of each. */
#define TP_SRC_ASIDE		4
#define TP_SRC_ASIDE_DEPTH	2

tp_static_assert((TP_SRC_RING & (TP_SRC_RING - 1)) == 0,
		 "TP_SRC_RING must be a power of two");
tp_static_assert(TP_SRC_KINDS <= 0xff && TP_SRC_THREADS < 0xffff,
		 "a key's kind and thread must fit their fields");

/*
 * What a source is.  @kind: enum tp_src_kind; @flags: TP_SRC_* below, an
 * id of another space than its kind's, so that IRQ 236 and vector 236
 * are two; @thread: in a table, a TP_SRC_THREADED source's thread, its
 * place in the CPU's list of them from 1 (struct tp_src_threads), so that
 * the threads of a shared line are two sources; 0 elsewhere (a span
 * carries its thread's pid and comm); @id: the IRQ number, the softirq
 * vector, the thread's pid, or the NMI handler's index in the prober's
 * table.
 */
struct tp_src_key {
	uint8_t kind;
	uint8_t flags;
	uint16_t thread;
	uint32_t id;
};

/* TP_SRC_IRQ: @id is an x86 system vector (the tick: 236), no IRQ number. */
#define TP_SRC_VECTOR	0x1u
/*
 * TP_SRC_IRQ: the interrupt's handler ran in its thread (PREEMPT_RT, or
 * a threaded handler): the source has the thread's @pid and @thread name.
 */
#define TP_SRC_THREADED	0x2u

/*
 * Which source a frame or a span is: its @key and @name, and where it is
 * an interrupt thread's (TP_SRC_THREADED) the thread's @pid and comm
 * @thread, else 0 and "".  Copied whole from a frame to its spans.
 */
struct tp_src_who {
	struct tp_src_key key;
	uint32_t pid;
	char name[TP_SRC_NAME];
	char thread[TP_SRC_COMM];
};

/*
 * A stretch of a source on the CPU, [@start, @end] on the TSC, with its
 * net time @net in cycles; @count: 1 where the source ended, 0 where it
 * goes on later (a softirq whose thread was preempted: each stretch is
 * named where it ran, and the source counted once).
 */
struct tp_src_span {
	uint64_t start;
	uint64_t end;
	uint64_t net;
	uint32_t count;
	struct tp_src_who who;
};

/*
 * A source that is running.  @start: when its stretch on the CPU began
 * (its entry, or its thread's return to a softirq put aside); @nmi_mark:
 * the CPU's NMI time then (struct tp_src_at); @nested: the whole time of
 * the frames that ended inside the stretch; @nested_nmi: the NMI time
 * inside those frames.
 */
struct tp_src_frame {
	uint64_t start;
	uint64_t nmi_mark;
	uint64_t nested;
	uint64_t nested_nmi;
	struct tp_src_who who;
};

/*
 * An interrupt's thread: @pid with the name @comm runs the handler of
 * IRQ @irq, whose action is @name.
 */
struct tp_src_irq_thread {
	uint32_t pid;
	uint32_t irq;
	char comm[TP_SRC_COMM];
	char name[TP_SRC_NAME];
};

/*
 * The frames thread @pid had above its own when it was switched out
 * mid-softirq (PREEMPT_RT), @n of them, innermost last; @n 0: free.
 */
struct tp_src_aside {
	uint32_t pid;
	uint32_t n;
	struct tp_src_frame f[TP_SRC_ASIDE_DEPTH];
};

/* The last TP_SRC_RING spans of @head ever written. */
struct tp_src_ring {
	uint64_t head;
	struct tp_src_span span[TP_SRC_RING];
};

/* No NMI count is this: an NMI count is the kernel's, at most 32 bits. */
#define TP_SRC_NMI_NONE		TP_U64_MAX

/*
 * An instant of a probe on its CPU: the TSC, and the CPU's NMI time
 * (struct tp_src_cpu's @nmi_time) read before and after it: equal unless
 * an NMI came between the reads (tp_src_now()), when it is not known on
 * which side of @tsc the NMI fell.  A frame that begins takes @nmi_before
 * and one that ends @nmi_after: such an NMI is then subtracted from a
 * frame it may not be in, never left inside one while named on its own.
 */
struct tp_src_at {
	uint64_t tsc;
	uint64_t nmi_before;
	uint64_t nmi_after;
};

/*
 * A source's time over spans of the same key, and their count; the name
 * of the first.  An interrupt thread's pid and comm are in the list its
 * key points into, not here: a noise CPU keeps TSCPROBE_MAX_EVENTS events'
 * totals in each copy of its state.
 */
struct tp_src_total {
	struct tp_src_key key;
	uint64_t net;
	uint64_t count;
	char name[TP_SRC_NAME];
};

/*
 * Whether total @e has anything to tell: a source whose every stretch was
 * one it went on after (a softirq put aside) has time and count 0, and
 * its time is part of what the totals add up to.
 */
static inline bool tp_src_total_any(const struct tp_src_total *e)
{
	return e->count || e->net;
}

/* Per-source totals, at most TP_SRC_TABLE; the rest in @other. */
struct tp_src_table {
	uint32_t n;
	struct tp_src_total e[TP_SRC_TABLE];
	struct tp_src_total other;
};

/* An interrupt's thread, as the tables name it. */
struct tp_src_thread {
	uint32_t pid;
	char comm[TP_SRC_COMM];
};

/*
 * The threads of the TP_SRC_THREADED sources in a CPU's tables, its
 * windows' and its events', @n of them; a source whose thread finds the
 * list full is summed in its table's other.
 */
struct tp_src_threads {
	uint32_t n;
	struct tp_src_thread t[TP_SRC_THREADS];
};

/*
 * One CPU's state.  @unmatched counts exits without their entry (probes
 * attached while a source ran) and entries past TP_SRC_DEPTH; @skipped:
 * those entries whose exits are still to come; @kind_net and @kind_count
 * are exact even when a ring overwrites spans; @irq_thread: the interrupt
 * threads seen, @irq_thread_next the one to replace; @aside: the frames
 * of threads preempted mid-softirq; @nmi_seen: the CPU's NMI count at the
 * last NMI handler (TP_SRC_NMI_NONE before the first); @nmi_counted: the
 * NMI ring's span that holds that NMI's count, @nmi_claimed: its handler
 * claimed the NMI.  While a window is open (@spill_open), a span of
 * @ring about to leave it unread goes into @spill (its interrupt threads
 * into @spill_threads) as well: with interrupts on, a busy CPU writes
 * thousands of spans in a window and the ring keeps the last ones.
 * @spill_next: the oldest span of the window not yet in @spill or the
 * window's table, where the window's end drains @ring from.  Only the
 * writers of @ring (with interrupts off) and the window's edges (on the
 * CPU, with interrupts off too) touch the spill: never at once.
 */
struct tp_src_cpu {
	struct tp_src_frame stack[TP_SRC_DEPTH];
	uint32_t depth;
	uint32_t skipped;
	uint64_t unmatched;
	uint64_t nmi_time;
	uint64_t nmi_seen;
	uint64_t nmi_counted;
	bool nmi_claimed;
	uint64_t kind_net[TP_SRC_KINDS];
	uint64_t kind_count[TP_SRC_KINDS];
	struct tp_src_irq_thread irq_thread[TP_SRC_IRQ_THREADS];
	uint32_t irq_thread_next;
	struct tp_src_aside aside[TP_SRC_ASIDE];
	struct tp_src_ring ring;
	struct tp_src_ring nmi_ring;
	bool spill_open;
	uint64_t spill_next;
	struct tp_src_table spill;
	struct tp_src_threads spill_threads;
};

/*
 * What ran inside a CPU's measurement windows: the spans drained at each
 * window's end into @table (@lost: those the rings dropped first, and
 * NMIs a storm kept from being read with the counters), and the exact
 * time and count per kind from the CPU's counters.  @nmi_cursor (the
 * NMI ring's; the other ring's is the CPU's @spill_next) and the marks
 * are the state at the window's start.  @threads: the interrupt threads
 * of @table's sources and of the CPU's events'.
 */
struct tp_src_windows {
	uint64_t nmi_cursor;
	uint64_t mark_net[TP_SRC_KINDS];
	uint64_t mark_count[TP_SRC_KINDS];
	uint64_t kind_net[TP_SRC_KINDS];
	uint64_t kind_count[TP_SRC_KINDS];
	uint64_t lost;
	struct tp_src_table table;
	struct tp_src_threads threads;
};

#define TP_EVENT_SOURCES	TSCPROBE_EVENT_SOURCES

/*
 * What ran inside one noise event's gap: @n named sources, largest first,
 * then @other (none where tp_src_total_any() is false); @unexplained,
 * the gap's cycles none of them accounts for.  @probed is false where
 * nothing was recorded (no probes, or the userspace engine): then the
 * rest means nothing.
 */
struct tp_event_sources {
	uint64_t unexplained;
	uint32_t n;
	uint32_t probed;
	struct tp_src_total e[TP_EVENT_SOURCES];
	struct tp_src_total other;
};

/*
 * Scratch for tp_src_event(): the spans of both rings, the gap's table and
 * the threads of its sources (tp_src_gap()'s @seen), too large for a stack
 * with interrupts off.
 */
struct tp_src_gap_scratch {
	struct tp_src_span spans[2 * TP_SRC_RING];
	struct tp_src_table table;
	struct tp_src_threads threads;
};

/* The head may move under a reader: an interrupt or an NMI writes. */
static inline uint64_t tp_src_head(const struct tp_src_ring *r)
{
	return tp_read_once(r->head);
}

/* The CPU's NMI time, which an NMI may move under a probe or the reader. */
static tp_always_inline uint64_t tp_src_nmi_time(const struct tp_src_cpu *c)
{
	return tp_read_once(c->nmi_time);
}

/**
 * tp_src_now() - the instant a probe records: the TSC and the NMI time then
 * @c: the CPU's state, on that CPU
 * @tsc: reads the TSC (a constant: the call is inlined)
 *
 * The NMI time is read on both sides of the TSC, and all three again while
 * it moved, a few times at most: an NMI per read is a storm, and then the
 * instant's two NMI times tell the frames what they cannot know.
 *
 * Return: the instant.
 */
static tp_always_inline struct tp_src_at tp_src_now(const struct tp_src_cpu *c,
						    uint64_t (*tsc)(void))
{
	struct tp_src_at at;
	unsigned int tries = 3;

	do {
		at.nmi_before = tp_src_nmi_time(c);
		tp_barrier();
		at.tsc = tsc();
		tp_barrier();
		at.nmi_after = tp_src_nmi_time(c);
	} while (at.nmi_before != at.nmi_after && --tries);
	return at;
}

void tp_src_init(struct tp_src_cpu *c);
void tp_src_enter(struct tp_src_cpu *c, const struct tp_src_key *key,
		  const char *name, struct tp_src_at at);
void tp_src_exit(struct tp_src_cpu *c, uint32_t kind, struct tp_src_at at);
void tp_src_irq_thread(struct tp_src_cpu *c, uint32_t pid, const char *comm,
		       uint32_t irq, const char *name);
void tp_src_switch_out(struct tp_src_cpu *c, uint32_t pid, bool goes_on,
		       struct tp_src_at at);
void tp_src_switch_in(struct tp_src_cpu *c, uint32_t pid, const char *comm,
		      struct tp_src_at at);
void tp_src_nmi(struct tp_src_cpu *c, uint32_t id, const char *name,
		uint64_t start, uint64_t cycles, uint64_t nmis, bool handled);

uint32_t tp_src_collect(const struct tp_src_ring *r, uint64_t from,
			uint64_t to, struct tp_src_span *out, uint32_t max);
uint64_t tp_src_drain(const struct tp_src_ring *r, uint64_t *cursor,
		      uint64_t head, struct tp_src_threads *th,
		      struct tp_src_table *t);

void tp_src_windows_init(struct tp_src_windows *w);
void tp_src_window_begin(struct tp_src_windows *w, struct tp_src_cpu *c);
void tp_src_window_end(struct tp_src_windows *w, struct tp_src_cpu *c);

void tp_src_table_init(struct tp_src_table *t);
void tp_src_table_add(struct tp_src_table *t, struct tp_src_threads *th,
		      const struct tp_src_span *s);
void tp_src_table_sort(struct tp_src_table *t);
const struct tp_src_thread *tp_src_thread_of(const struct tp_src_threads *th,
					     const struct tp_src_key *key);
uint64_t tp_src_gap(const struct tp_src_span *spans, uint32_t n,
		    uint64_t from, uint64_t to, uint32_t max,
		    struct tp_src_threads *th, struct tp_src_threads *seen,
		    struct tp_src_table *t);
void tp_src_event(const struct tp_src_cpu *c, uint64_t from, uint64_t to,
		  struct tp_src_threads *th, struct tp_src_gap_scratch *scratch,
		  struct tp_event_sources *out);
unsigned int tp_src_cause(const struct tp_event_sources *s,
			  unsigned int counter_cause);

#endif /* TSCPROBE_CORE_SOURCES_H */
