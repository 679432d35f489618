/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Independent references for the one-way hand-off latency.  Two threads
 * pinned on CPUs a and b share one word on its own cache line; a turns it
 * from 2k to 2k+1, b from 2k+1 to 2k+2, in one of two ways:
 *
 *   PP_CAS      spinning on __atomic_compare_exchange_n until it
 *               succeeds: the ping-pong core-to-core-latency measures;
 *   PP_HANDOFF  spinning on a load until the word is its turn, then
 *               lfence; rdtsc, then a store: the original skew program's
 *               hand-off without its log and its sfence.
 *
 * They measure different protocols.  The hand-off reads the TSC between
 * seeing the counter and passing it on, as the causality argument of
 * tp_skew_in_sync() needs; the store can then not take the line early,
 * as a store right behind the load (or a CAS) does, and between two cores
 * that do not share a cache the line moves once more per hand-off: on one
 * host here 2.4 times the CAS figure, against 1.2 for a bare store/load.
 *
 * Nothing of core/skew.c is used.  Thread a reads the TSC around every
 * chunk of round trips; a chunk's one-way latency is its cycles / (2 *
 * round trips).  The median chunk is the figure (a chunk hit by an
 * interrupt or a preemption is an outlier, not the median).
 */
#ifndef TSCPROBE_PINGPONG_H
#define TSCPROBE_PINGPONG_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/tsc.h"

#define PP_MAX_CHUNKS	1024

enum pp_mode { PP_CAS, PP_HANDOFF };

struct pingpong {
	uint64_t word __attribute__((aligned(64)));
	char pad[64 - sizeof(uint64_t)];
	enum pp_mode mode;
	unsigned int cpu_a, cpu_b;
	unsigned int chunks, per_chunk;
	double one_way[PP_MAX_CHUNKS];	/* cycles, per chunk */
};

static inline int pp_pin(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Turn the word from @from to @from + 1, once it is @from. */
static inline void pp_turn(enum pp_mode mode, uint64_t *w, uint64_t from)
{
	uint64_t expect = from;

	if (mode == PP_HANDOFF) {
		while (__atomic_load_n(w, __ATOMIC_ACQUIRE) != from)
			;
		(void)tp_rdtsc_lfence();	/* volatile asm: not left out */
		__atomic_store_n(w, from + 1, __ATOMIC_RELEASE);
		return;
	}
	while (!__atomic_compare_exchange_n(w, &expect, from + 1, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		expect = from;
}

static inline void *pp_side_b(void *arg)
{
	struct pingpong *c = arg;
	uint64_t k, n = (uint64_t)c->chunks * c->per_chunk + 16;

	pp_pin(c->cpu_b);
	for (k = 0; k < n; k++)
		pp_turn(c->mode, &c->word, 2 * k + 1);
	return NULL;
}

static inline int pp_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Run the ping-pong of @mode between @cpu_a and @cpu_b; returns the median
 * chunk's one-way latency in cycles, or a negative value on error.  16
 * warm-up round trips are not timed.
 */
static inline double pingpong_run(struct pingpong *c, enum pp_mode mode,
				  unsigned int cpu_a, unsigned int cpu_b,
				  unsigned int chunks, unsigned int per_chunk)
{
	uint64_t k = 0, t0, t1;
	unsigned int i, j;
	pthread_t tb;

	if (chunks > PP_MAX_CHUNKS || !chunks || !per_chunk)
		return -1;
	c->word = 0;
	c->mode = mode;
	c->cpu_a = cpu_a;
	c->cpu_b = cpu_b;
	c->chunks = chunks;
	c->per_chunk = per_chunk;
	if (pp_pin(cpu_a) || pthread_create(&tb, NULL, pp_side_b, c))
		return -1;
	for (; k < 16; k++)
		pp_turn(mode, &c->word, 2 * k);
	for (i = 0; i < chunks; i++) {
		t0 = tp_rdtsc_lfence();
		for (j = 0; j < per_chunk; j++, k++)
			pp_turn(mode, &c->word, 2 * k);
		/* the chunk's last round trip: b's answer to its last turn */
		while (__atomic_load_n(&c->word, __ATOMIC_ACQUIRE) != 2 * k)
			;
		t1 = tp_rdtsc_lfence();
		c->one_way[i] = (double)(t1 - t0) / (2.0 * per_chunk);
	}
	pthread_join(tb, NULL);
	qsort(c->one_way, chunks, sizeof(double), pp_cmp_double);
	return c->one_way[(chunks - 1) / 2];
}

#endif /* TSCPROBE_PINGPONG_H */
