// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU's interrupts, softirqs and steal time from /proc, read between
 * windows, never inside one; and what they name over a run, as the
 * sources of a result whose times are unknown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "user/lib/context.h"
#include "user/lib/cpu_counters.h"
#include "user/lib/result.h"

const struct tp_proc_paths tp_proc_paths_live = {
	.interrupts = "/proc/interrupts",
	.softirqs = "/proc/softirqs",
	.stat = "/proc/stat",
};

/**
 * struct tp_steal_line - a CPU's line of /proc/stat being looked for
 * @name: "cpuN "
 * @len: its length
 * @ticks: its eighth value, steal time in clock ticks, once found
 */
struct tp_steal_line {
	char name[24];
	size_t len;
	uint64_t ticks;
};

/* 1 (stop) at the CPU's line with its eighth value, -1 at a broken one. */
static int tp_steal_line(void *arg, const char *s, const char *e)
{
	struct tp_steal_line *l = arg;
	struct tp_proc_row r = { .p = s + l->len, .e = e };
	int i;

	if ((size_t)(e - s) < l->len || memcmp(s, l->name, l->len))
		return 0;
	for (i = 0; i < 8; i++)
		if (!tp_proc_row_count(&r, &l->ticks))
			return -1;
	return 1;
}

/* The CPU's steal time now, into @c->steal_ns; false when unreadable. */
static bool tp_cpu_steal_read(struct tp_cpu_counters *c)
{
	struct tp_steal_line l;
	long hz = sysconf(_SC_CLK_TCK);

	l.len = (size_t)snprintf(l.name, sizeof(l.name), "cpu%u ", c->cpu);
	if (hz <= 0 || tp_proc_file_lines(&c->stat, tp_steal_line, &l) != 1)
		return false;
	c->steal_ns = l.ticks * (1000000000ULL / (uint64_t)hz);
	return true;
}

/**
 * tp_cpu_counters_open() - open a CPU's counters and take the first reading
 * @c: set up; a file that cannot be read leaves its counts unknown
 * @cpu: the CPU
 * @paths: where to read (&tp_proc_paths_live)
 */
void tp_cpu_counters_open(struct tp_cpu_counters *c, unsigned int cpu,
			  const struct tp_proc_paths *paths)
{
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->opened = true;
	tp_proc_rows_open(&c->irqs, paths->interrupts, cpu, false,
			  tp_irq_row_taken);
	tp_proc_rows_open(&c->softirqs, paths->softirqs, cpu, true, NULL);
	tp_proc_file_open(&c->stat, paths->stat);
	c->steal_ok = tp_cpu_steal_read(c);
}

/**
 * tp_cpu_counters_read() - read the counters again
 * @c: the counters
 * @d: what they counted since the previous reading; a counter unreadable
 *	at either reading is unknown
 */
void tp_cpu_counters_read(struct tp_cpu_counters *c, struct tp_cpu_window *d)
{
	bool was_ok = c->steal_ok;
	uint64_t was = c->steal_ns;

	memset(d, 0, sizeof(*d));
	d->irq_ok = tp_proc_rows_read(&c->irqs);
	d->irq = c->irqs.window;
	tp_proc_rows_read(&c->softirqs);
	c->steal_ok = tp_cpu_steal_read(c);
	d->steal_ok = was_ok && c->steal_ok;
	d->steal_ns = d->steal_ok ? c->steal_ns - was : 0;
}

void tp_cpu_counters_close(struct tp_cpu_counters *c)
{
	if (!c->opened)
		return;
	c->opened = false;
	tp_proc_rows_close(&c->irqs);
	tp_proc_rows_close(&c->softirqs);
	tp_proc_file_close(&c->stat);
}

/**
 * struct tp_counted - a row that counted something over the run
 * @kind: enum tscprobe_source
 * @order: its place in the files, for ties
 * @row: the row
 */
struct tp_counted {
	uint32_t kind;
	unsigned int order;
	const struct tp_row_count *row;
};

/* Largest count first; ties in the files' order. */
static int tp_counted_cmp(const void *a, const void *b)
{
	const struct tp_counted *x = a, *y = b;

	if (x->row->total != y->row->total)
		return x->row->total < y->row->total ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The rows of a readable file that counted something, appended to @out. */
static unsigned int tp_counted_rows(const struct tp_proc_rows *t, uint32_t kind,
				    struct tp_counted *out, unsigned int n)
{
	unsigned int i;

	for (i = 0; t->ok && i < t->n; i++) {
		if (!t->row[i].total)
			continue;
		out[n] = (struct tp_counted){ kind, n, &t->row[i] };
		n++;
	}
	return n;
}

/* The largest TSCPROBE_MAX_SOURCES rows by count, the rest as other. */
static void tp_counted_list(const struct tp_cpu_counters *c,
			    struct tp_cpu_res *res)
{
	struct tp_counted *all = calloc(c->irqs.n + c->softirqs.n + 1,
					sizeof(*all));
	struct tp_source_res *s;
	unsigned int n, i;

	res->nsources = 0;
	if (!all)
		return;
	n = tp_counted_rows(&c->irqs, TSCPROBE_SOURCE_IRQ, all, 0);
	n = tp_counted_rows(&c->softirqs, TSCPROBE_SOURCE_SOFTIRQ, all, n);
	qsort(all, n, sizeof(*all), tp_counted_cmp);
	for (i = 0; i < n && i < TSCPROBE_MAX_SOURCES; i++) {
		s = &res->sources[res->nsources++];
		memset(s, 0, sizeof(*s));
		s->kind = all[i].kind;
		s->id = all[i].row->numbered ? all[i].row->id : 0;
		s->no_id = !all[i].row->numbered;
		/* x86's named rows (LOC, RES, CAL...) are system vectors. */
		s->vector = s->kind == TSCPROBE_SOURCE_IRQ && s->no_id;
		snprintf(s->name, sizeof(s->name), "%s", all[i].row->name);
		s->count = all[i].row->total;
	}
	if (n > TSCPROBE_MAX_SOURCES) {
		s = &res->sources[res->nsources++];
		memset(s, 0, sizeof(*s));
		s->kind = TSCPROBE_SOURCE_OTHER;
		snprintf(s->name, sizeof(s->name), "other");
		for (; i < n; i++)
			s->count += all[i].row->total;
	}
	free(all);
}

/**
 * tp_cpu_counters_sources() - what the counters name over the run, as a
 *	result's sources: counts, no time
 * @c: the counters, after the last reading
 * @res: the CPU's result, its context switches already in (the thread
 *	kind is the measuring thread's involuntary ones: preemptions, by a
 *	thread this cannot name)
 *
 * NMIs are never known: /proc/interrupts counts them, not the handlers
 * that ran (the CPU's nmi_count has the count).
 */
void tp_cpu_counters_sources(const struct tp_cpu_counters *c,
			     struct tp_cpu_res *res)
{
	unsigned int k;

	if (!c->opened)
		return;
	res->sources_untimed = true;
	res->kinds_known = 0;
	for (k = 0; k < TSCPROBE_SOURCE_OTHER; k++) {
		memset(&res->kinds[k], 0, sizeof(res->kinds[k]));
		res->kinds[k].kind = k;
	}
	if (res->ctx_invol.ok) {
		res->kinds_known |= 1U << TSCPROBE_SOURCE_THREAD;
		res->kinds[TSCPROBE_SOURCE_THREAD].count = res->ctx_invol.v;
	}
	if (c->irqs.ok) {
		res->kinds_known |= 1U << TSCPROBE_SOURCE_IRQ;
		res->kinds[TSCPROBE_SOURCE_IRQ].count = tp_proc_rows_total(&c->irqs);
	}
	if (c->softirqs.ok) {
		res->kinds_known |= 1U << TSCPROBE_SOURCE_SOFTIRQ;
		res->kinds[TSCPROBE_SOURCE_SOFTIRQ].count =
			tp_proc_rows_total(&c->softirqs);
	}
	tp_counted_list(c, res);
}
