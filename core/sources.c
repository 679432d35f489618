// SPDX-License-Identifier: GPL-2.0
/*
 * Net time per source on one CPU: a stack of the sources running, each
 * charged with its whole time minus what ended inside it; NMI time, which
 * arrives as one figure per handler, is subtracted from the frame it hit.
 * A thread switched out mid-softirq (PREEMPT_RT runs softirqs in
 * preemptible threads) has its softirq's frame put aside and given back
 * when it runs again, each stretch of the softirq a span where it ran; an
 * interrupt's thread is named as its interrupt.
 */
#include "sources.h"

/* @src cut to @len - 1 characters, NUL-terminated ("" for NULL). */
static void tp_src_copy(char *dst, const char *src, uint32_t len)
{
	uint32_t i;

	for (i = 0; src && i < len - 1; i++) {
		dst[i] = src[i];
		if (!dst[i])
			return;
	}
	dst[i] = '\0';
}

static bool tp_src_streq(const char *a, const char *b, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len && (a[i] || b[i]); i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/*
 * Whether span @idx is still in its slot once @head spans were written:
 * the writer of span @idx + TP_SRC_RING may be filling that slot already.
 */
static bool tp_src_kept(uint64_t idx, uint64_t head)
{
	return idx + TP_SRC_RING > head;
}

/* The next slot of @r, to fill before tp_src_ring_publish(). */
static struct tp_src_span *tp_src_slot(struct tp_src_ring *r)
{
	return &r->span[r->head & (TP_SRC_RING - 1)];
}

/* The slot is filled before the new head is published. */
static void tp_src_ring_publish(struct tp_src_ring *r)
{
	tp_barrier();
	tp_write_once(r->head, r->head + 1);
}

void tp_src_init(struct tp_src_cpu *c)
{
	*c = (struct tp_src_cpu){ .nmi_seen = TP_SRC_NMI_NONE };
}

/* Counters the measuring thread and debugfs read while probes write. */
static void tp_src_add(uint64_t *v, uint64_t d)
{
	tp_write_once(*v, *v + d);
}

/* An interrupt's thread runs its handler: switched in and out as one. */
static bool tp_src_is_thread(const struct tp_src_key *k)
{
	return k->kind == TP_SRC_THREAD || (k->flags & TP_SRC_THREADED);
}

/*
 * A new frame on top: at @at, named @name, with the thread @pid, @thread
 * of an interrupt's; NULL where the stack is full (the entry is counted,
 * and so will its exit be).
 */
static struct tp_src_frame *tp_src_push_frame(struct tp_src_cpu *c,
					      const struct tp_src_key *key,
					      const char *name, uint32_t pid,
					      const char *thread,
					      struct tp_src_at at)
{
	struct tp_src_frame *f;

	if (c->depth == TP_SRC_DEPTH) {
		tp_src_add(&c->unmatched, 1);
		c->skipped++;
		return NULL;
	}
	f = &c->stack[c->depth++];
	f->start = at.tsc;
	f->nmi_mark = at.nmi_before;
	f->nested = 0;
	f->nested_nmi = 0;
	f->who.key = *key;
	f->who.pid = pid;
	tp_src_copy(f->who.name, name, TP_SRC_NAME);
	tp_src_copy(f->who.thread, thread, TP_SRC_COMM);
	return f;
}

void tp_src_enter(struct tp_src_cpu *c, const struct tp_src_key *key,
		  const char *name, struct tp_src_at at)
{
	tp_src_push_frame(c, key, name, 0, NULL, at);
}

static uint64_t tp_sub_sat(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

/*
 * The span of an open window that the last one written pushed out of the
 * ring's kept part (tp_src_kept()) into the window's spill, while still
 * whole in its slot: one span a write, so that the window's end finds in
 * the spill and the ring every span of the window.
 */
static void tp_src_spill(struct tp_src_cpu *c)
{
	uint64_t i = c->spill_next;

	if (!c->spill_open || tp_src_kept(i, c->ring.head))
		return;
	tp_src_table_add(&c->spill, &c->spill_threads,
			 &c->ring.span[i & (TP_SRC_RING - 1)]);
	c->spill_next = i + 1;
}

/*
 * The innermost frame's stretch on the CPU ends at @at: its net time into
 * a span, @count 1 where the source ends, 0 where it goes on later (an
 * empty such stretch is left out); the stretch's whole time and the NMI
 * time in it into its parent's nested time, which they are.  A kind's
 * count is the sum of its sources' counts.
 */
static tp_always_inline void tp_src_end_stretch(struct tp_src_cpu *c,
						struct tp_src_at at,
						uint32_t count)
{
	struct tp_src_frame *f = &c->stack[c->depth - 1];
	struct tp_src_span *s = tp_src_slot(&c->ring);
	uint64_t stretch = tp_sub_sat(at.tsc, f->start);
	uint64_t nmi = tp_sub_sat(at.nmi_after, f->nmi_mark);
	uint64_t net = tp_sub_sat(stretch, f->nested +
				  tp_sub_sat(nmi, f->nested_nmi));

	if (c->depth > 1) {
		c->stack[c->depth - 2].nested += stretch;
		c->stack[c->depth - 2].nested_nmi += nmi;
	}
	if (!count && !net)
		return;
	tp_src_add(&c->kind_net[f->who.key.kind], net);
	tp_src_add(&c->kind_count[f->who.key.kind], count);
	s->start = f->start;
	s->end = at.tsc;
	s->net = net;
	s->count = count;
	s->who = f->who;
	tp_src_ring_publish(&c->ring);
	tp_src_spill(c);
}

/*
 * End the innermost frame at @at: its last stretch, counted @count (0: a
 * source that goes on in a frame of its own later).
 */
static void tp_src_end_top(struct tp_src_cpu *c, struct tp_src_at at,
			   uint32_t count)
{
	tp_src_end_stretch(c, at, count);
	c->depth--;
}

static bool tp_src_matches(const struct tp_src_key *k, uint32_t kind)
{
	if (kind == TP_SRC_THREAD)
		return tp_src_is_thread(k);
	return k->kind == kind && !(k->flags & TP_SRC_THREADED);
}

/*
 * The end of the innermost frame of @kind (TP_SRC_THREAD: the innermost
 * thread, an interrupt's included), its last stretch counted @count.
 * Sources above it lost their exits and end here too; an exit with no
 * entry is only counted.
 */
static void tp_src_end_kind(struct tp_src_cpu *c, uint32_t kind,
			    struct tp_src_at at, uint32_t count)
{
	uint32_t d = c->depth;

	if (c->skipped) {
		c->skipped--;
		return;
	}
	while (d && !tp_src_matches(&c->stack[d - 1].who.key, kind))
		d--;
	if (!d) {
		tp_src_add(&c->unmatched, 1);
		return;
	}
	while (c->depth > d) {
		tp_src_end_top(c, at, 1);
		tp_src_add(&c->unmatched, 1);
	}
	tp_src_end_top(c, at, count);
}

/* The exit of the innermost source of @kind (see tp_src_end_kind()). */
void tp_src_exit(struct tp_src_cpu *c, uint32_t kind, struct tp_src_at at)
{
	tp_src_end_kind(c, kind, at, 1);
}

/**
 * tp_src_irq_thread() - an interrupt handler that wakes a thread ran
 * @c: the CPU's state
 * @pid: the thread's pid (irqaction's thread)
 * @comm: its name
 * @irq: the IRQ number
 * @name: the action's name
 *
 * From then on the thread of @pid and @comm is named as the interrupt.
 * The last TP_SRC_IRQ_THREADS threads are kept.
 */
void tp_src_irq_thread(struct tp_src_cpu *c, uint32_t pid, const char *comm,
		       uint32_t irq, const char *name)
{
	struct tp_src_irq_thread *t;
	uint32_t i;

	for (i = 0; i < TP_SRC_IRQ_THREADS; i++) {
		t = &c->irq_thread[i];
		if (t->pid != pid ||
		    !tp_src_streq(t->comm, comm, TP_SRC_COMM - 1))
			continue;
		/* Known, as at every interrupt: an action keeps its name. */
		if (t->irq == irq)
			return;
		break;
	}
	if (i == TP_SRC_IRQ_THREADS) {
		t = &c->irq_thread[c->irq_thread_next];
		c->irq_thread_next = (c->irq_thread_next + 1) % TP_SRC_IRQ_THREADS;
	}
	t->pid = pid;
	t->irq = irq;
	tp_src_copy(t->comm, comm, TP_SRC_COMM);
	tp_src_copy(t->name, name, TP_SRC_NAME);
}

/* A thread is an interrupt's by pid and name (a pid may be reused). */
static const struct tp_src_irq_thread *
tp_src_irq_thread_of(const struct tp_src_cpu *c, uint32_t pid, const char *comm)
{
	uint32_t i;

	for (i = 0; i < TP_SRC_IRQ_THREADS; i++)
		if (c->irq_thread[i].pid == pid && pid &&
		    tp_src_streq(c->irq_thread[i].comm, comm, TP_SRC_COMM - 1))
			return &c->irq_thread[i];
	return NULL;
}

/*
 * Put aside the frames above thread frame @d - 1, when all of them are
 * softirqs that fit a free slot: each one's stretch so far is a span of
 * its own (named in the gap it ran in, its time within the window it ran
 * in), and they go on when @pid runs again.
 */
static void tp_src_put_aside(struct tp_src_cpu *c, uint32_t pid, uint32_t d,
			     struct tp_src_at at)
{
	struct tp_src_aside *a = NULL;
	uint32_t i, n = c->depth - d;

	if (!n || n > TP_SRC_ASIDE_DEPTH)
		return;
	for (i = d; i < c->depth; i++)
		if (c->stack[i].who.key.kind != TP_SRC_SOFTIRQ)
			return;
	for (i = 0; i < TP_SRC_ASIDE && !a; i++)
		if (!c->aside[i].n)
			a = &c->aside[i];
	if (!a)
		return;
	a->pid = pid;
	a->n = n;
	while (c->depth > d) {
		tp_src_end_stretch(c, at, 0);
		a->f[--n] = c->stack[--c->depth];
	}
}

/**
 * tp_src_switch_out() - a thread other than the measuring one leaves the CPU
 * @c: the CPU's state
 * @pid: its pid
 * @goes_on: its run goes on when it has the CPU back: it was preempted,
 *	or blocked mid-run on a lock that spins where the kernel is not
 *	PREEMPT_RT (a spinlock_t); not gone to sleep for more work
 * @at: the instant of the switch
 *
 * Its frame ends.  A softirq it was running (preempted: PREEMPT_RT runs
 * them in threads) is put aside and goes on when the thread comes back
 * (tp_src_switch_in()): the time between is the others'.  Where no slot
 * is free the softirq ends here, and its exit later, both counted as
 * unmatched.  A thread counts once each time it has the CPU; an
 * interrupt's thread once per wake-up, when it goes to sleep to wait for
 * its interrupt: a preemption or such a lock splits its run into
 * stretches, each named where it ran, the run counted once, as it is
 * where nothing splits it.
 */
void tp_src_switch_out(struct tp_src_cpu *c, uint32_t pid, bool goes_on,
		       struct tp_src_at at)
{
	uint32_t d = c->depth, count = 1;

	while (d && !tp_src_is_thread(&c->stack[d - 1].who.key))
		d--;
	if (d && goes_on && (c->stack[d - 1].who.key.flags & TP_SRC_THREADED))
		count = 0;
	if (d && !c->skipped)
		tp_src_put_aside(c, pid, d, at);
	tp_src_end_kind(c, TP_SRC_THREAD, at, count);
}

/*
 * Give @pid back the frames it had put aside, resumed at @at above its
 * own frame, if that is on the stack (@pushed).  Those the stack has no
 * room for, or all of them without that frame, are dropped and counted as
 * unmatched, as their exits will be; the slot is free again either way.
 */
static void tp_src_resume(struct tp_src_cpu *c, uint32_t pid, bool pushed,
			  struct tp_src_at at)
{
	struct tp_src_aside *a = NULL;
	uint32_t i;

	for (i = 0; i < TP_SRC_ASIDE && !a; i++)
		if (c->aside[i].n && c->aside[i].pid == pid)
			a = &c->aside[i];
	if (!a)
		return;
	for (i = 0; i < a->n && pushed && c->depth < TP_SRC_DEPTH; i++) {
		struct tp_src_frame *f = &c->stack[c->depth++];

		*f = a->f[i];
		f->start = at.tsc;
		f->nmi_mark = at.nmi_before;
		f->nested = 0;
		f->nested_nmi = 0;
	}
	if (i < a->n)
		tp_src_add(&c->unmatched, a->n - i);
	a->n = 0;
}

/**
 * tp_src_switch_in() - a thread other than the measuring one gets the CPU
 * @c: the CPU's state
 * @pid: its pid
 * @comm: its name
 * @at: the instant of the switch
 *
 * A thread; an interrupt's thread (tp_src_irq_thread()) is an IRQ
 * source of that interrupt, TP_SRC_THREADED.  Frames it had put aside
 * come back above it (tp_src_resume()).
 */
void tp_src_switch_in(struct tp_src_cpu *c, uint32_t pid, const char *comm,
		      struct tp_src_at at)
{
	const struct tp_src_irq_thread *t = tp_src_irq_thread_of(c, pid, comm);
	struct tp_src_key key = { .kind = TP_SRC_THREAD, .id = pid };
	struct tp_src_frame *f;

	if (t) {
		key = (struct tp_src_key){
			.kind = TP_SRC_IRQ, .flags = TP_SRC_THREADED, .id = t->irq,
		};
		f = tp_src_push_frame(c, &key, t->name, pid, comm, at);
	} else {
		f = tp_src_push_frame(c, &key, comm, 0, NULL, at);
	}
	tp_src_resume(c, pid, f, at);
}

/*
 * Which span of this NMI holds its count: the first handler's (@first,
 * the NMI new), or the first that claimed it once one did.  The ring's
 * only reader is the measuring thread on this CPU, and it never runs
 * between two handlers of one NMI: a drain or a gap's scan the NMI
 * interrupted ends at a head read before this NMI's first span.
 */
static uint32_t tp_src_nmi_count(struct tp_src_cpu *c, bool first,
				 bool handled)
{
	struct tp_src_ring *r = &c->nmi_ring;

	if (first) {
		c->nmi_counted = r->head;
		c->nmi_claimed = handled;
		return 1;
	}
	if (!handled || c->nmi_claimed || !tp_src_kept(c->nmi_counted, r->head))
		return 0;
	tp_write_once(r->span[c->nmi_counted & (TP_SRC_RING - 1)].count, 0);
	c->nmi_counted = r->head;
	c->nmi_claimed = true;
	return 1;
}

/**
 * tp_src_nmi() - an NMI handler ran
 * @c: the CPU's state, on that CPU
 * @id: the handler
 * @name: its name, or NULL
 * @start: when it began
 * @cycles: how long it ran, inside whatever ran then
 * @nmis: the CPU's count of NMIs taken, which the kernel raises on entry,
 *	before the first handler
 * @handled: the handler claimed the NMI
 *
 * The kernel calls every handler on its list for each NMI, whichever
 * claims it.  So the NMI counts once (the first call, where the count
 * moved since the last), and in the first handler that claimed it, or
 * where none did, the first called: the others add their time with a
 * count of 0, and the kind counts NMIs, as the CPU's counter does.  The
 * probes it interrupted and the measuring thread read what it adds.
 */
void tp_src_nmi(struct tp_src_cpu *c, uint32_t id, const char *name,
		uint64_t start, uint64_t cycles, uint64_t nmis, bool handled)
{
	struct tp_src_span *s = tp_src_slot(&c->nmi_ring);
	bool first = nmis != c->nmi_seen;
	uint32_t count = tp_src_nmi_count(c, first, handled);

	c->nmi_seen = nmis;
	tp_src_add(&c->kind_net[TP_SRC_NMI], cycles);
	tp_src_add(&c->kind_count[TP_SRC_NMI], first);
	s->start = start;
	s->end = start + cycles;
	s->net = cycles;
	s->count = count;
	s->who.key = (struct tp_src_key){ .kind = TP_SRC_NMI, .id = id };
	s->who.pid = 0;
	tp_src_copy(s->who.name, name, TP_SRC_NAME);
	s->who.thread[0] = '\0';
	tp_src_ring_publish(&c->nmi_ring);
	tp_src_add(&c->nmi_time, cycles);
}

/*
 * The spans of @r that lie within [@from, @to], newest first, at most
 * @max.  Spans are written in the order they end, so the scan stops at
 * the first that ends before @from.  A writer may interrupt the reader:
 * a slot the writer may have reused since (head moved past it) is dropped.
 */
uint32_t tp_src_collect(const struct tp_src_ring *r, uint64_t from,
			uint64_t to, struct tp_src_span *out, uint32_t max)
{
	uint64_t head = tp_src_head(r), idx[TP_SRC_RING];
	uint64_t i = head, h2;
	uint32_t n = 0, k, kept = 0;

	tp_barrier();
	while (i && tp_src_kept(i - 1, head) && n < max) {
		const struct tp_src_span *s = &r->span[--i & (TP_SRC_RING - 1)];

		out[n] = *s;
		if (out[n].end < from)
			break;
		if (out[n].start >= from && out[n].end <= to)
			idx[n++] = i;
	}
	tp_barrier();
	h2 = tp_src_head(r);
	for (k = 0; k < n; k++)
		if (tp_src_kept(idx[k], h2))
			out[kept++] = out[k];
	return kept;
}

/*
 * Add the spans written from *@cursor to @head (a head @r had) to @t,
 * their threads to @th, and move the cursor there; the number of spans
 * lost to the ring's reuse.
 */
uint64_t tp_src_drain(const struct tp_src_ring *r, uint64_t *cursor,
		      uint64_t head, struct tp_src_threads *th,
		      struct tp_src_table *t)
{
	uint64_t i, lost = 0;

	if (!tp_src_kept(*cursor, head)) {
		lost = head - (TP_SRC_RING - 1) - *cursor;
		*cursor += lost;
	}
	tp_barrier();
	for (i = *cursor; i < head; i++) {
		struct tp_src_span s = r->span[i & (TP_SRC_RING - 1)];

		tp_barrier();
		if (!tp_src_kept(i, tp_src_head(r))) {
			lost++;
			continue;
		}
		tp_src_table_add(t, th, &s);
	}
	*cursor = head;
	return lost;
}

void tp_src_windows_init(struct tp_src_windows *w)
{
	*w = (struct tp_src_windows){ 0 };
	tp_src_table_init(&w->table);
}

/*
 * The NMI ring's head, and the kinds' counters in @net and @count, as at
 * one instant: an NMI between the reads would be in the one and not the
 * other, so they are read again while the head moved, a few times at
 * most, as tp_src_now() does.  Only NMIs come: a window's edges run with
 * interrupts off.  @head: the head read before the counters, @after: the
 * one read after them.  Return: the NMIs that came between the last reads
 * (0 but in a storm), which may be counted apart from their spans.
 */
static uint64_t tp_src_marks(const struct tp_src_cpu *c, uint64_t *head,
			     uint64_t *after, uint64_t *net, uint64_t *count)
{
	unsigned int tries = 3;
	uint32_t k;

	do {
		*head = tp_src_head(&c->nmi_ring);
		tp_barrier();
		for (k = 0; k < TP_SRC_KINDS; k++) {
			net[k] = tp_read_once(c->kind_net[k]);
			count[k] = tp_read_once(c->kind_count[k]);
		}
		tp_barrier();
		*after = tp_src_head(&c->nmi_ring);
	} while (*after != *head && --tries);
	return *after - *head;
}

/*
 * What ended before the window is not the window's.  In a storm the spans
 * start after the counters were read, and the end drains up to before
 * they were: the spans of NMIs in doubt are left out, counted in the
 * kinds or not, never the other way round.
 */
void tp_src_window_begin(struct tp_src_windows *w, struct tp_src_cpu *c)
{
	uint64_t head;

	tp_src_table_init(&c->spill);
	c->spill_threads.n = 0;
	c->spill_next = tp_src_head(&c->ring);
	c->spill_open = true;
	w->lost += tp_src_marks(c, &head, &w->nmi_cursor, w->mark_net,
				w->mark_count);
}

/*
 * The window's spill into its table: each entry as a span of its whole
 * time and count, which tp_src_table_add() keys into the table's own
 * list of interrupt threads.
 */
static void tp_src_unspill(struct tp_src_windows *w, struct tp_src_cpu *c)
{
	const struct tp_src_thread *t;
	struct tp_src_span s;
	uint32_t i;

	c->spill_open = false;
	for (i = 0; i < c->spill.n; i++) {
		const struct tp_src_total *e = &c->spill.e[i];

		s = (struct tp_src_span){ .net = e->net, .count = e->count };
		s.who.key = e->key;
		s.who.key.thread = 0;
		tp_src_copy(s.who.name, e->name, TP_SRC_NAME);
		t = tp_src_thread_of(&c->spill_threads, &e->key);
		if (t) {
			s.who.pid = t->pid;
			tp_src_copy(s.who.thread, t->comm, TP_SRC_COMM);
		}
		tp_src_table_add(&w->table, &w->threads, &s);
	}
	w->table.other.net += c->spill.other.net;
	w->table.other.count += c->spill.other.count;
}

/*
 * The spans and counts up to the same instant, which the next begins
 * after.  On the window's CPU with interrupts off: no probe writes the
 * spill or the ring of interrupts meanwhile.
 */
void tp_src_window_end(struct tp_src_windows *w, struct tp_src_cpu *c)
{
	uint64_t net[TP_SRC_KINDS], count[TP_SRC_KINDS], nmi_head, after;
	uint32_t k;

	w->lost += tp_src_marks(c, &nmi_head, &after, net, count);
	tp_src_unspill(w, c);
	w->lost += tp_src_drain(&c->ring, &c->spill_next, tp_src_head(&c->ring),
				&w->threads, &w->table);
	w->lost += tp_src_drain(&c->nmi_ring, &w->nmi_cursor, nmi_head,
				&w->threads, &w->table);
	for (k = 0; k < TP_SRC_KINDS; k++) {
		w->kind_net[k] += net[k] - w->mark_net[k];
		w->kind_count[k] += count[k] - w->mark_count[k];
	}
}

/* Entries past @t->n are never read: each is set whole when added. */
void tp_src_table_init(struct tp_src_table *t)
{
	t->n = 0;
	t->other = (struct tp_src_total){ .key.kind = TP_SRC_KINDS };
}

static bool tp_src_same(const struct tp_src_key *a, const struct tp_src_key *b)
{
	return a->kind == b->kind && a->flags == b->flags &&
	       a->thread == b->thread && a->id == b->id;
}

/*
 * Where interrupt thread @pid, @comm is in @th: its index, else @th->n
 * (a thread is its pid and comm: a pid may be reused).
 */
static uint32_t tp_src_thread_find(const struct tp_src_threads *th,
				   uint32_t pid, const char *comm)
{
	uint32_t i;

	for (i = 0; i < th->n; i++)
		if (th->t[i].pid == pid &&
		    tp_src_streq(th->t[i].comm, comm, TP_SRC_COMM))
			break;
	return i;
}

/* @pid, @comm at the end of @th, which has room. */
static void tp_src_thread_append(struct tp_src_threads *th, uint32_t pid,
				 const char *comm)
{
	th->t[th->n].pid = pid;
	tp_src_copy(th->t[th->n].comm, comm, TP_SRC_COMM);
	th->n++;
}

/*
 * The entry of span @s's source in @t, made if new; NULL where @t is full
 * or, for an interrupt thread's span, @th is.  An interrupt thread goes
 * into @th only with a new entry that names it: a span summed in other
 * never takes a place a later source would be named by.
 */
static struct tp_src_total *tp_src_table_entry(struct tp_src_table *t,
					       struct tp_src_threads *th,
					       const struct tp_src_span *s)
{
	bool threaded = s->who.key.flags & TP_SRC_THREADED;
	struct tp_src_key key = s->who.key;
	struct tp_src_total *e;
	uint32_t i, place = 0;

	if (threaded) {
		place = tp_src_thread_find(th, s->who.pid, s->who.thread);
		key.thread = place + 1;
	}
	for (i = 0; i < t->n; i++)
		if (tp_src_same(&t->e[i].key, &key))
			return &t->e[i];
	if (t->n == TP_SRC_TABLE || (threaded && place == TP_SRC_THREADS))
		return NULL;
	if (threaded && place == th->n)
		tp_src_thread_append(th, s->who.pid, s->who.thread);
	e = &t->e[t->n++];
	*e = (struct tp_src_total){ .key = key };
	tp_src_copy(e->name, s->who.name, TP_SRC_NAME);
	return e;
}

/*
 * Span @s into the entry of its key, or a new one, or @t->other once
 * full (or once @th, where its thread goes, is): its net time, and its
 * count (0 for a stretch the source goes on after).
 */
void tp_src_table_add(struct tp_src_table *t, struct tp_src_threads *th,
		      const struct tp_src_span *s)
{
	struct tp_src_total *e = tp_src_table_entry(t, th, s);

	if (!e)
		e = &t->other;
	e->net += s->net;
	e->count += s->count;
}

/**
 * tp_src_thread_of() - the thread of a source in a table
 * @th: the list its key points into
 * @key: the source's key
 *
 * Return: its thread where it is an interrupt thread's, else NULL.
 */
const struct tp_src_thread *tp_src_thread_of(const struct tp_src_threads *th,
					     const struct tp_src_key *key)
{
	if (!(key->flags & TP_SRC_THREADED) || !key->thread ||
	    key->thread > th->n)
		return NULL;
	return &th->t[key->thread - 1];
}

static bool tp_src_before(const struct tp_src_total *a,
			  const struct tp_src_total *b)
{
	if (a->net != b->net)
		return a->net > b->net;
	if (a->key.kind != b->key.kind)
		return a->key.kind < b->key.kind;
	if (a->key.id != b->key.id)
		return a->key.id < b->key.id;
	if (a->key.flags != b->key.flags)
		return a->key.flags < b->key.flags;
	return a->key.thread < b->key.thread;
}

/* Largest net time first (insertion sort: at most TP_SRC_TABLE entries). */
void tp_src_table_sort(struct tp_src_table *t)
{
	uint32_t i, j;

	for (i = 1; i < t->n; i++) {
		struct tp_src_total x = t->e[i];

		for (j = i; j && tp_src_before(&x, &t->e[j - 1]); j--)
			t->e[j] = t->e[j - 1];
		t->e[j] = x;
	}
}

/*
 * Entry @e, its thread's place from @seen, given its place in @th instead,
 * added there if new; false where @th is full.
 */
static bool tp_src_rekey(struct tp_src_total *e,
			 const struct tp_src_threads *seen,
			 struct tp_src_threads *th)
{
	const struct tp_src_thread *s = tp_src_thread_of(seen, &e->key);
	uint32_t place;

	if (!s)
		return true;
	place = tp_src_thread_find(th, s->pid, s->comm);
	if (place == TP_SRC_THREADS)
		return false;
	if (place == th->n)
		tp_src_thread_append(th, s->pid, s->comm);
	e->key.thread = place + 1;
	return true;
}

/*
 * The sources of the gap [@from, @to] in @t, largest first, at most @max
 * named and the rest in @t->other; the threads of those named in @th,
 * where they are kept across gaps, and in @seen (scratch) the threads of
 * every source until the largest are known, so that one summed in other
 * takes no place in @th.  Return: the gap's time no source accounts for.
 * Only spans wholly inside the gap count: their net times are disjoint
 * parts of it, so they never add up to more than the gap.
 */
uint64_t tp_src_gap(const struct tp_src_span *spans, uint32_t n,
		    uint64_t from, uint64_t to, uint32_t max,
		    struct tp_src_threads *th, struct tp_src_threads *seen,
		    struct tp_src_table *t)
{
	uint64_t named = 0;
	uint32_t i, kept = 0;

	tp_src_table_init(t);
	seen->n = 0;
	for (i = 0; i < n; i++)
		if (spans[i].start >= from && spans[i].end <= to)
			tp_src_table_add(t, seen, &spans[i]);
	tp_src_table_sort(t);
	for (i = 0; i < t->n; i++) {
		if (kept < max && tp_src_rekey(&t->e[i], seen, th)) {
			named += t->e[i].net;
			t->e[kept++] = t->e[i];
			continue;
		}
		t->other.net += t->e[i].net;
		t->other.count += t->e[i].count;
	}
	t->n = kept;
	return tp_sub_sat(to - from, named + t->other.net);
}

/*
 * What ran inside the gap [@from, @to] on the CPU of @c, read on that CPU
 * right after the gap (its sources have ended by then), into @out, the
 * interrupt threads among them into @th.
 */
void tp_src_event(const struct tp_src_cpu *c, uint64_t from, uint64_t to,
		  struct tp_src_threads *th, struct tp_src_gap_scratch *scratch,
		  struct tp_event_sources *out)
{
	struct tp_src_table *t = &scratch->table;
	uint32_t n, i;

	n = tp_src_collect(&c->ring, from, to, scratch->spans, TP_SRC_RING);
	n += tp_src_collect(&c->nmi_ring, from, to, scratch->spans + n,
			    TP_SRC_RING);
	out->probed = 1;
	if (!n) {
		/* Most gaps with interrupts off: no table to build. */
		out->unexplained = to - from;
		out->n = 0;
		out->other = (struct tp_src_total){ .key.kind = TP_SRC_KINDS };
		return;
	}
	out->unexplained = tp_src_gap(scratch->spans, n, from, to,
				      TP_EVENT_SOURCES, th, &scratch->threads,
				      t);
	out->n = t->n;
	for (i = 0; i < t->n; i++)
		out->e[i] = t->e[i];
	out->other = t->other;
}

/**
 * tp_src_cause() - an event's cause word, from what ran inside its gap
 * @s: the gap's sources (NULL or not probed: none traced)
 * @counter_cause: the counter rule's cause (tp_event_cause())
 *
 * The kind of the largest named source when it accounts for at least as
 * much of the gap as is left unexplained: a thread that held the CPU for
 * 20 ms is the culprit, not the tick that came meanwhile.  Otherwise the
 * counters decide: an SMI or the hypervisor shows as unexplained time, and
 * a short interrupt inside it is not to blame.
 *
 * Return: an enum tscprobe_cause.
 */
unsigned int tp_src_cause(const struct tp_event_sources *s,
			  unsigned int counter_cause)
{
	static const unsigned int kind_cause[TP_SRC_KINDS] = {
		[TP_SRC_THREAD] = TSCPROBE_CAUSE_THREAD,
		[TP_SRC_SOFTIRQ] = TSCPROBE_CAUSE_SOFTIRQ,
		[TP_SRC_IRQ] = TSCPROBE_CAUSE_IRQ,
		[TP_SRC_NMI] = TSCPROBE_CAUSE_NMI,
	};
	const struct tp_src_total *top;

	if (!s || !s->probed || !s->n)
		return counter_cause;
	top = &s->e[0];
	if (!top->net || top->net < s->unexplained ||
	    top->key.kind >= TP_SRC_KINDS)
		return counter_cause;
	return kind_cause[top->key.kind];
}
