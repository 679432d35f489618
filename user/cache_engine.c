// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace cache engine: core/'s cache rounds, node probe and pointer
 * chase on one thread per CPU, each created already pinned to its CPU,
 * in the same paced windows as the module but with interrupts on, so an
 * interrupt that lands inside a measurement shows in its maximum (and
 * slightly in its average; the percentiles do not mind).
 *
 * Memory: each thread's state (with its victim line) is allocated and
 * touched by the thread itself, so it sits on the CPU's node, and locked
 * once every thread has it (mlockall(MCL_CURRENT)).  Not MCL_FUTURE: the
 * level buffers are large, and under MCL_FUTURE an unprivileged user's
 * RLIMIT_MEMLOCK would refuse them; they are advised to use transparent
 * huge pages instead, so that large working sets are not also measuring
 * TLB misses.  --nodes binds one page per node with mbind(2).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>

#include "core/chase.h"
#include "user/lib/clock.h"
#include "user/engines.h"
#include "user/lib/env.h"
#include "user/lib/sigint.h"
#include "user/lib/pinned.h"
#include "core/tsc.h"

/* Rounds run and forgotten before measuring: page faults, cold caches. */
#define TP_CACHE_WARMUP_ROUNDS	10000

/**
 * struct tp_cache_thread - one CPU of a userspace cache run
 * @pin: the thread and its CPU
 * @p: the run's parameters
 * @width: window length, cycles (only the deadline checks use it here)
 * @level_bytes: the largest working set to try (--levels)
 * @nodes: the NUMA nodes with memory (--nodes)
 * @loop: core's state, allocated by the thread (page aligned)
 * @first_tsc: start of the rounds
 * @last_tsc: end of their last window
 * @windows: windows run, every phase
 * @nlevels: points in @levels
 * @nnodes: points in @node_lat
 * @levels: the memory-level curve
 * @node_lat: the uncached load per node
 * @complete: every phase ran to its end
 * @unmap: mappings the phases are done with, unmapped only once every
 *	thread has measured (an unmap interrupts the others: TLB shootdowns)
 * @unmap_len: their lengths
 * @nunmap: how many
 */
struct tp_cache_thread {
	struct tp_pinned pin;
	const struct tp_run_params *p;
	uint64_t width;
	size_t level_bytes;
	const struct tp_cpuset *nodes;
	struct tp_cache *loop;
	uint64_t first_tsc;
	uint64_t last_tsc;
	uint64_t windows;
	unsigned int nlevels;
	unsigned int nnodes;
	struct tp_latency levels[TP_CACHE_MAX_LEVELS];
	struct tp_latency node_lat[TP_CACHE_MAX_NODES];
	bool complete;
	void *unmap[TP_CACHE_MAX_NODES + 1];
	size_t unmap_len[TP_CACHE_MAX_NODES + 1];
	unsigned int nunmap;
};

/* Unmap @mem after the measurement (tp_cache_thread_main()). */
static void tp_unmap_later(struct tp_cache_thread *t, void *mem, size_t len)
{
	t->unmap[t->nunmap] = mem;
	t->unmap_len[t->nunmap++] = len;
}

/* Windows of a paced loop until @units are done; false on Ctrl-C. */
static bool tp_user_windows(struct tp_cache_thread *t, tp_batch_fn fn,
			    void *state, struct tp_pace *pace, uint64_t units,
			    uint32_t batch)
{
	while (units) {
		if (tp_interrupted())
			return false;
		units -= tp_paced_window(pace, fn, state, units, batch,
					 tp_rdtsc() + t->width);
		t->windows++;
	}
	return true;
}

/* mbind(2) without libnuma: bind [addr, addr + len) to @node. */
static int tp_bind_node(void *addr, size_t len, unsigned int node)
{
	unsigned long mask[TP_CACHE_MAX_NODES / (8 * sizeof(long))] = { 0 };

	mask[node / (8 * sizeof(long))] |= 1UL << (node % (8 * sizeof(long)));
	return (int)syscall(SYS_mbind, addr, len, MPOL_BIND, mask,
			    TP_CACHE_MAX_NODES + 1, MPOL_MF_STRICT);
}

static bool tp_user_nodes(struct tp_cache_thread *t)
{
	uint64_t rounds = t->p->rounds < TP_CACHE_NODE_ROUNDS ?
		t->p->rounds : TP_CACHE_NODE_ROUNDS;
	struct tp_node_probe probe;
	long page = sysconf(_SC_PAGESIZE);
	int node = -1;
	void *mem;
	bool ok;

	while ((node = tp_cpuset_next(t->nodes, node)) >= 0 &&
	       node < TP_CACHE_MAX_NODES && t->nnodes < TP_CACHE_MAX_NODES) {
		mem = mmap(NULL, page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			continue;
		tp_unmap_later(t, mem, page);
		if (tp_bind_node(mem, page, node))
			continue;	/* no such node here: left out */
		memset(mem, 0, page);	/* fault it in, on that node */
		memset(&probe, 0, sizeof(probe));
		probe.line = mem;
		probe.lat.node = node;
		ok = tp_user_windows(t, tp_cache_node_batch, &probe,
				     &probe.pace, rounds, t->p->batch);
		if (!ok)
			return false;
		t->node_lat[t->nnodes++] = probe.lat;
	}
	return true;
}

static bool tp_user_chase_stop(void *arg)
{
	(void)arg;
	return tp_interrupted();
}

static bool tp_user_chase_windows(void *arg, struct tp_chase *ch,
				  uint64_t units)
{
	return tp_user_windows(arg, tp_chase_batch, ch, &ch->pace, units,
			       TP_CHASE_BATCH);
}

/* One point of the curve (core's sequence, in this thread's windows). */
static bool tp_user_level(struct tp_cache_thread *t, void *const *chunks,
			  unsigned int shift, size_t bytes)
{
	const struct tp_chase_host host = {
		.stop = tp_user_chase_stop,
		.windows = tp_user_chase_windows,
		.arg = t,
	};

	if (!tp_chase_level(chunks, shift, bytes, t->pin.cpu, &host,
			    &t->levels[t->nlevels]))
		return false;
	t->nlevels++;
	return true;
}

/* One mapping, halved until the system grants it; huge pages advised. */
static void *tp_user_level_mem(size_t *bytes)
{
	void *mem;

	for (; *bytes >= (size_t)1 << TP_CACHE_LEVEL_MIN_SHIFT; *bytes >>= 1) {
		mem = mmap(NULL, *bytes, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem != MAP_FAILED) {
			madvise(mem, *bytes, MADV_HUGEPAGE);
			return mem;
		}
	}
	return NULL;
}

static bool tp_user_levels(struct tp_cache_thread *t)
{
	size_t max = t->level_bytes, bytes;
	unsigned int shift = 0;
	void *chunks[1];
	bool ok = true;

	chunks[0] = tp_user_level_mem(&max);
	if (!chunks[0])
		return true;	/* no memory: no curve */
	tp_unmap_later(t, chunks[0], max);
	while (((size_t)64 << shift) < max)
		shift++;
	for (bytes = (size_t)1 << TP_CACHE_LEVEL_MIN_SHIFT; ok && bytes <= max;
	     bytes <<= 1)
		ok = tp_user_level(t, chunks, shift, bytes);
	return ok;
}

static void *tp_cache_thread_main(void *arg)
{
	struct tp_cache_thread *t = arg;
	const struct tp_run_params *p = t->p;
	uint64_t warm = p->rounds < TP_CACHE_WARMUP_ROUNDS ?
		p->rounds : TP_CACHE_WARMUP_ROUNDS;
	bool ok;

	t->loop = aligned_alloc(4096, (sizeof(*t->loop) + 4095) & ~4095UL);
	if (t->loop) {
		/* Warm-up: fault in, warm caches and predictors; forget it. */
		tp_cache_init(t->loop);
		tp_paced_window(&t->loop->pace, tp_cache_batch, t->loop, warm,
				p->batch, TP_U64_MAX);
		tp_cache_init(t->loop);
	}
	tp_pinned_go(&t->pin);
	if (t->loop) {
		t->first_tsc = tp_rdtsc();
		ok = tp_user_windows(t, tp_cache_batch, t->loop,
				     &t->loop->pace, p->rounds, p->batch);
		t->last_tsc = tp_rdtsc();
		if (ok && p->nodes)
			ok = tp_user_nodes(t);
		if (ok && p->levels)
			ok = tp_user_levels(t);
		t->complete = ok;
	}
	tp_pinned_end(&t->pin);
	while (t->nunmap--)
		munmap(t->unmap[t->nunmap], t->unmap_len[t->nunmap]);
	return NULL;
}

/* Bytes of MemAvailable in /proc/meminfo; 0 when unknown. */
static uint64_t tp_mem_available(void)
{
	uint64_t kib;

	return tp_proc_value("/proc/meminfo", "MemAvailable", &kib) ?
	       kib << 10 : 0;
}

/*
 * The largest working set per thread: a power of two, at most 256 MiB and
 * at most half the available memory shared among the threads.
 */
static size_t tp_level_target(unsigned int threads)
{
	uint64_t bytes = tp_mem_available() / (2 * (threads ? threads : 1));
	size_t target = (size_t)1 << TP_CACHE_LEVEL_MAX_SHIFT;

	while (target > bytes && target >= (size_t)2 << TP_CACHE_LEVEL_MIN_SHIFT)
		target >>= 1;
	return target > bytes ? 0 : target;
}

static void tp_cache_collect(struct tp_result *res,
			     const struct tp_cache_thread *t)
{
	struct tp_cpu_res *c = tp_result_cpu(res, t->pin.cpu);
	const struct tp_cache *l = t->loop;
	const struct tp_cache_series *s;
	struct tp_series_res *r;
	unsigned int i, k;
	int node;

	node = tp_env_node(t->pin.cpu);
	c->node = node < 0 ? 0 : (uint32_t)node;
	c->flags = TSCPROBE_CPU_F_DONE;
	c->windows = t->windows;
	c->wall_cycles = t->last_tsc - t->first_tsc;
	c->nlevels = t->nlevels;
	c->nnodes = t->nnodes;
	memcpy(c->levels, t->levels, sizeof(c->levels));
	memcpy(c->nodes, t->node_lat, sizeof(c->nodes));
	if (!l)
		return;
	c->rounds = l->pace.units;
	c->measured_cycles = l->pace.cycles;
	for (i = 0; i < TP_CACHE_SERIES; i++) {
		s = &l->s[i];
		r = &c->series[TP_CACHE_ID(i)];
		r->present = true;
		r->stats = s->stats;
		*tp_series_hist(r) = s->hist;
		for (k = 0; k < TP_CACHE_WINDOWS; k++) {
			if (!s->win[k].blocks)
				continue;
			r->win[k].rounds = tp_cache_window_rounds(k);
			r->win[k].sum = s->win[k].sum;
			r->win[k].blocks = s->win[k].blocks;
		}
	}
}

/* Once every thread has its memory, and before they measure: lock it. */
static void tp_cache_lock_memory(void *arg)
{
	(void)arg;
	if (mlockall(MCL_CURRENT))
		tp_err("warning: cannot lock memory (%s): page faults may show in the maximum",
		       strerror(errno));
}

/**
 * tp_user_cache() - measure cache timing in userspace
 * @cpus: the CPUs (online, checked by the caller)
 * @p: the parameters
 * @quiet: no progress line (the engine shows none: a run of 1e6 rounds
 *	takes a fraction of a second)
 * @res: initialised; filled with the results
 *
 * Return: TP_EXIT_OK, TP_EXIT_INTERRUPTED after Ctrl-C, TP_EXIT_FAIL when
 * memory ran out.
 */
int tp_user_cache(const struct tp_cpuset *cpus, const struct tp_run_params *p,
		  bool quiet, struct tp_result *res)
{
	(void)quiet;
	unsigned int n = tp_cpuset_count(cpus), i = 0;
	uint32_t khz = tp_engine_tsc_khz();
	size_t level_bytes = p->levels ? tp_level_target(n) : 0;
	struct tp_pinned_run run;
	struct tp_cache_thread *t;
	struct tp_cpuset nodes;
	const char *why;
	uint64_t t0;
	int cpu = -1, ret;

	/* Without NUMA in the kernel there is no such file: node 0 only. */
	if (tp_read_list("/sys/devices/system/node/has_memory", &nodes))
		tp_parse_cpus("0", &nodes, &why);
	t = calloc(n, sizeof(*t));
	if (!t) {
		tp_err("out of memory");
		return TP_EXIT_FAIL;
	}
	while ((cpu = tp_cpuset_next(cpus, cpu)) >= 0) {
		t[i].pin.cpu = (unsigned int)cpu;
		t[i].p = p;
		t[i].width = tp_ns_cycles(p->width_ns, khz);
		t[i].level_bytes = level_bytes;
		t[i].nodes = &nodes;
		i++;
	}
	res->cpus = *cpus;
	res->tsc_khz = khz;
	run = (struct tp_pinned_run){
		.threads = t, .stride = sizeof(*t), .n = n,
		.body = tp_cache_thread_main,
		.prepare = tp_cache_lock_memory, .res = res,
		.priority = p->priority,
	};
	t0 = tp_mono_raw_ns();
	tp_pinned_run(&run);
	tp_user_fill(res, p, khz, tp_mono_raw_ns() - t0);
	res->start_tsc = t[0].first_tsc;
	ret = tp_interrupted() ? TP_EXIT_INTERRUPTED : TP_EXIT_OK;
	for (i = 0; i < n; i++) {
		if (!t[i].loop) {
			tp_err("out of memory on CPU %u", t[i].pin.cpu);
			ret = TP_EXIT_FAIL;
		}
		tp_cache_collect(res, &t[i]);
		free(t[i].loop);
	}
	free(t);
	return ret;
}
