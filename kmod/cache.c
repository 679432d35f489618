// SPDX-License-Identifier: GPL-2.0
/*
 * The cache measurement in the kernel: core/'s cache rounds on every chosen
 * CPU with interrupts off, in windows bounded by a TSC deadline (the run's
 * width, at most TSCPROBE_MAX_WIDTH_NS) and separated by the same short
 * sleeps as the noise measurement; then, when asked, the uncached load to
 * every NUMA node's memory (--nodes) and the memory-level curve by pointer
 * chasing (--levels), in windows too.
 *
 * Memory comes from each CPU's own node: the state with its victim line,
 * and the level buffers, which are large (up to 256 MiB per CPU).  These
 * are sized to what the node has free, shared among the run's CPUs on it,
 * allocated when a CPU reaches its levels and freed as soon as it is done.
 * They are physically contiguous chunks of the direct map, which the
 * kernel maps with huge pages, so that the large working sets measure
 * the memory and not also page walks.
 *
 * Nothing runs long with interrupts off: every loop of core/ checks the
 * window's deadline between batches whose size follows the measured pace
 * (core/pace.c), and building a working set (seconds for 256 MiB under
 * emulation) runs with interrupts on, in steps between which the thread
 * reschedules and looks for STOP.
 */
#include <linux/gfp.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/nodemask.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/vmstat.h>
#include <asm/tsc.h>

#include <linux/tscprobe.h>
#include "compat.h"
#include "cycles.h"
#include "attrs.h"
#include "cache_kind.h"
#include "info.h"
#include "kinds.h"
#include "run.h"
#include "core/cache.h"
#include "core/chase.h"
#include "trace.h"

/* The memory of one CPU's working sets: chunks of 2^order pages. */
struct tp_levels_mem {
	void **chunks;		/* direct map */
	unsigned int nchunks;
	unsigned int order;
};

static const unsigned long tp_cache_attrs[BITS_TO_LONGS(TSCPROBE_A_MAX + 1)] = {
	BIT(TSCPROBE_A_ROUNDS) | BIT(TSCPROBE_A_BATCH) |
	BIT(TSCPROBE_A_LEVELS) | BIT(TSCPROBE_A_NODES) |
	BIT(TSCPROBE_A_WIDTH_NS) | BIT(TSCPROBE_A_GAP_NS),
};

static int tp_cache_parse(struct tp_run *run, struct nlattr **attrs,
			  struct netlink_ext_ack *extack)
{
	struct nlattr *batch = attrs[TSCPROBE_A_BATCH];
	struct tp_params *p = &run->params;
	int err;

	err = tp_nla_reject(attrs, tp_cache_attrs, "cache", extack);
	if (err)
		return err;
	p->rounds = tp_attr_u64(attrs, TSCPROBE_A_ROUNDS,
				TSCPROBE_DEFAULT_ROUNDS);
	p->batch = tp_attr_u32(attrs, TSCPROBE_A_BATCH,
			       min_t(u64, TSCPROBE_DEFAULT_BATCH, p->rounds));
	p->width_ns = tp_attr_u64(attrs, TSCPROBE_A_WIDTH_NS,
				  TSCPROBE_DEFAULT_WIDTH_NS);
	p->gap_ns = tp_attr_u64(attrs, TSCPROBE_A_GAP_NS,
				TSCPROBE_DEFAULT_GAP_NS);
	p->levels = nla_get_flag(attrs[TSCPROBE_A_LEVELS]);
	p->nodes = nla_get_flag(attrs[TSCPROBE_A_NODES]);
	p->clock = TSCPROBE_CLOCK_LFENCE;
	if (p->batch > p->rounds) {
		tp_set_err(extack, batch, "batch is more than the rounds",
			   "batch %u is more than the %llu rounds",
			   p->batch, p->rounds);
		return -EINVAL;
	}
	if (!boot_cpu_has(X86_FEATURE_CLFLUSH)) {
		NL_SET_ERR_MSG(extack, "this CPU has no clflush");
		return -EOPNOTSUPP;
	}
	return tp_info_need_tsc_khz(extack);
}

/*
 * The victim line needs 128-byte alignment: every allocator aligns a
 * power-of-two size (kmalloc() to its size since 5.4, pages and vmalloc()
 * to a page), and 49 KiB take a 64 KiB kmalloc cache or order-4 block anyway.
 */
#define TP_CACHE_CPU_SIZE	roundup_pow_of_two(sizeof(struct tp_cache_cpu))

static int tp_cache_cpu_init(struct tp_run *run, struct tp_cpu *c)
{
	struct tp_cache_cpu *n = c->hot;

	BUILD_BUG_ON(TP_CACHE_CPU_SIZE < 128);
	if (WARN_ON_ONCE(!IS_ALIGNED((unsigned long)n->loop.victim, 128)))
		return -EINVAL;
	tp_cache_init(&n->loop);
	return 0;
}

/* One window of a paced loop: its batches, and the units they did. */
struct tp_cache_win {
	tp_batch_fn fn;
	void *state;
	struct tp_pace *pace;
	u64 units;
	u32 batch;
	u64 width;
	u64 done;
};

static void tp_cache_window_body(struct tp_cpu *c, void *arg, u64 start)
{
	struct tp_cache_win *w = arg;

	w->done = tp_paced_window(w->pace, w->fn, w->state, w->units, w->batch,
				  start + w->width);
	trace_tscprobe_cache_window(c->cpu, start, rdtsc(), w->done);
}

static const struct tp_window_ops tp_cache_window_ops = {
	.body = tp_cache_window_body,
};

/*
 * @units of a paced loop in interrupts-off windows of at most @batch units
 * between deadline checks, a gap after each.  Every window does at least
 * one unit, so at most @units windows.  @last_end (may be NULL): the TSC
 * after every window.  False when the thread must stop.
 */
static bool tp_cache_windows(struct tp_run *run, struct tp_cpu *c,
			     tp_batch_fn fn, void *state, struct tp_pace *pace,
			     u64 units, u32 batch, u64 *last_end)
{
	struct tp_cache_win w = {
		.fn = fn,
		.state = state,
		.pace = pace,
		.units = units,
		.batch = batch,
		.width = max(tp_ns_to_cycles(run->params.width_ns), 1ULL),
	};
	struct tp_cache_cpu *n = c->hot;

	while (w.units) {
		if (tp_cpu_should_stop(c))
			return false;
		if (tp_cpu_window(c, &tp_cache_window_ops, &w, false) !=
		    TP_WINDOW_DONE)
			return false;
		w.units -= w.done;
		if (last_end)
			*last_end = rdtsc();
		n->windows++;
		tp_cpu_publish(c, false);
		tp_cpu_sleep_gap(c);
	}
	return true;
}

/* --nodes: the uncached load to one line of every node's memory. */
static bool tp_cache_nodes(struct tp_run *run, struct tp_cpu *c)
{
	u64 rounds = min_t(u64, run->params.rounds, TP_CACHE_NODE_ROUNDS);
	struct tp_cache_cpu *n = c->hot;
	struct tp_node_probe probe;
	struct page *page;
	bool ok;
	int nid;

	for_each_node_state(nid, N_MEMORY) {
		if (n->nnodes == TP_CACHE_MAX_NODES)
			break;
		page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE |
					__GFP_NOWARN, 0);
		if (!page)
			continue;	/* no free page there: left out */
		memset(&probe, 0, sizeof(probe));
		probe.line = page_address(page);
		probe.lat.node = nid;
		ok = tp_cache_windows(run, c, tp_cache_node_batch, &probe,
				      &probe.pace, rounds, run->params.batch,
				      NULL);
		__free_page(page);
		if (!ok)
			return false;
		n->nodes[n->nnodes++] = probe.lat;
	}
	return true;
}

/* Free pages of a node, every zone. */
static u64 tp_node_free_bytes(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	unsigned long pages = 0;
	int z;

	for (z = 0; z < MAX_NR_ZONES; z++)
		pages += zone_page_state(&pgdat->node_zones[z], NR_FREE_PAGES);
	return (u64)pages << PAGE_SHIFT;
}

/*
 * The largest working set a CPU may take on @nid: a power of two, at most
 * 256 MiB, and at most half the node's free memory shared out among the
 * run's CPUs that take theirs from the same node.  0: not even 4 KiB.
 */
static u64 tp_cache_levels_target(const struct tp_run *run, int nid)
{
	unsigned int cpu, share = 0;
	u64 bytes;

	for_each_cpu(cpu, run->cpus)
		if (cpu_to_mem(cpu) == nid)
			share++;
	bytes = div_u64(tp_node_free_bytes(nid), 2 * max(share, 1U));
	bytes = min_t(u64, bytes, 1ULL << TP_CACHE_LEVEL_MAX_SHIFT);
	if (bytes < 1ULL << TP_CACHE_LEVEL_MIN_SHIFT)
		return 0;
	return rounddown_pow_of_two(bytes);
}

static void tp_levels_free(struct tp_levels_mem *m)
{
	unsigned int i;

	for (i = 0; i < m->nchunks; i++)
		free_pages((unsigned long)m->chunks[i], m->order);
	kvfree(m->chunks);
	m->chunks = NULL;
	m->nchunks = 0;
}

/* @bytes on @nid in chunks of 2^@order pages, all or nothing. */
static bool tp_levels_alloc_order(struct tp_levels_mem *m, int nid,
				  u64 bytes, unsigned int order)
{
	unsigned int i, n = bytes >> (PAGE_SHIFT + order);
	struct page *page;

	m->chunks = kvcalloc(n, sizeof(*m->chunks), GFP_KERNEL);
	if (!m->chunks)
		return false;
	m->order = order;
	for (i = 0; i < n; i++) {
		page = alloc_pages_node(nid, GFP_KERNEL | __GFP_THISNODE |
					__GFP_NORETRY | __GFP_NOWARN, order);
		if (!page) {
			tp_levels_free(m);
			return false;
		}
		m->chunks[m->nchunks++] = page_address(page);
		cond_resched();
	}
	return true;
}

/*
 * The largest working set to be had, up to @bytes (a power of two):
 * chunks as large as the page allocator gives, then smaller, then a
 * smaller set; never retried hard or warned of, as a small node runs short.
 * Bounded: 17 sizes times TP_MAX_PAGE_ORDER + 1 orders.  0: nothing.
 */
static u64 tp_levels_alloc(struct tp_levels_mem *m, int nid, u64 bytes)
{
	int order;

	for (; bytes >= 1ULL << TP_CACHE_LEVEL_MIN_SHIFT; bytes >>= 1)
		for (order = min_t(int, TP_MAX_PAGE_ORDER, get_order(bytes));
		     order >= 0; order--)
			if (tp_levels_alloc_order(m, nid, bytes, order))
				return bytes;
	return 0;
}

/* The run and CPU a working set is timed on. */
struct tp_cache_chaser {
	struct tp_run *run;
	struct tp_cpu *c;
};

/* Between build steps: the build runs with interrupts on, so yield. */
static bool tp_cache_chase_stop(void *arg)
{
	struct tp_cache_chaser *ck = arg;

	if (tp_cpu_should_stop(ck->c))
		return true;
	cond_resched();
	return false;
}

static bool tp_cache_chase_windows(void *arg, struct tp_chase *ch, u64 units)
{
	struct tp_cache_chaser *ck = arg;

	return tp_cache_windows(ck->run, ck->c, tp_chase_batch, ch, &ch->pace,
				units, TP_CHASE_BATCH, NULL);
}

/* One point of the curve (core's sequence, in this CPU's windows). */
static bool tp_cache_level(struct tp_run *run, struct tp_cpu *c,
			   const struct tp_levels_mem *m, u64 bytes)
{
	struct tp_cache_chaser ck = { .run = run, .c = c };
	const struct tp_chase_host host = {
		.stop = tp_cache_chase_stop,
		.windows = tp_cache_chase_windows,
		.arg = &ck,
	};
	struct tp_cache_cpu *n = c->hot;

	if (!tp_chase_level(m->chunks, m->order + PAGE_SHIFT - 6, bytes,
			    c->cpu, &host, &n->levels[n->nlevels]))
		return false;
	n->nlevels++;
	return true;
}

/* --levels: every working set from 4 KiB to the largest to be had. */
static bool tp_cache_levels(struct tp_run *run, struct tp_cpu *c)
{
	int nid = cpu_to_mem(c->cpu);
	struct tp_levels_mem m = {};
	bool ok = true;
	u64 max, bytes;

	max = tp_levels_alloc(&m, nid, tp_cache_levels_target(run, nid));
	for (bytes = 1ULL << TP_CACHE_LEVEL_MIN_SHIFT; ok && bytes <= max;
	     bytes <<= 1)
		ok = tp_cache_level(run, c, &m, bytes);
	tp_levels_free(&m);
	return ok;
}

static bool tp_cache_cpu_main(struct tp_run *run, struct tp_cpu *c)
{
	const struct tp_params *p = &run->params;
	struct tp_cache_cpu *n = c->hot;
	bool ok;

	n->first_tsc = rdtsc();
	n->last_tsc = n->first_tsc;
	ok = tp_cache_windows(run, c, tp_cache_batch, &n->loop, &n->loop.pace,
			      p->rounds, p->batch, &n->last_tsc);
	if (ok && p->nodes)
		ok = tp_cache_nodes(run, c);
	if (ok && p->levels)
		ok = tp_cache_levels(run, c);
	return ok;
}

static const struct tp_measure_ops tp_cache_measure_ops = {
	.parse = tp_cache_parse,
	.cpu_init = tp_cache_cpu_init,
	.cpu_main = tp_cache_cpu_main,
	.clock_around = true,
	.cpu_size = TP_CACHE_CPU_SIZE,
	.snap_size = sizeof(struct tp_cache_cpu),
};

const struct tp_kind tp_cache_kind = {
	.id = TSCPROBE_KIND_CACHE,
	.measure = &tp_cache_measure_ops,
	.report = &tp_cache_report_ops,
};
