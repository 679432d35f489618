/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An independent reference for the one-way hand-off latency: the
 * compare-and-swap ping-pong that core-to-core-latency measures.  Two
 * threads pinned on CPUs a and b share one word on its own cache line; a
 * turns it from 2k to 2k+1, b from 2k+1 to 2k+2, each spinning on
 * __atomic_compare_exchange_n until it succeeds.  Nothing of core/skew.c
 * is used: no log, no fences, no TSC inside the loop.  Thread a reads the
 * TSC around every chunk of round trips; a chunk's one-way latency is its
 * cycles / (2 * round trips).  The median chunk is the figure (a chunk hit
 * by an interrupt or a preemption is an outlier, not the median).
 */
#ifndef TSCPROBE_CAS_PINGPONG_H
#define TSCPROBE_CAS_PINGPONG_H

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "tsc.h"

#define CAS_MAX_CHUNKS	1024

struct cas_pingpong {
	uint64_t word __attribute__((aligned(64)));
	char pad[64 - sizeof(uint64_t)];
	unsigned int cpu_a, cpu_b;
	unsigned int chunks, per_chunk;
	double one_way[CAS_MAX_CHUNKS];	/* cycles, per chunk */
};

static inline int cas_pin(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static inline void cas_turn(uint64_t *w, uint64_t from)
{
	uint64_t expect = from;

	while (!__atomic_compare_exchange_n(w, &expect, from + 1, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		expect = from;
}

static inline void *cas_side_b(void *arg)
{
	struct cas_pingpong *c = arg;
	uint64_t k, n = (uint64_t)c->chunks * c->per_chunk + 16;

	cas_pin(c->cpu_b);
	for (k = 0; k < n; k++)
		cas_turn(&c->word, 2 * k + 1);
	return NULL;
}

static inline int cas_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Run the ping-pong between @cpu_a and @cpu_b; returns the median chunk's
 * one-way latency in cycles, or a negative value on error.  16 warm-up
 * round trips are not timed.
 */
static inline double cas_pingpong_run(struct cas_pingpong *c, unsigned int cpu_a,
				      unsigned int cpu_b, unsigned int chunks,
				      unsigned int per_chunk)
{
	uint64_t k = 0, t0, t1;
	unsigned int i, j;
	pthread_t tb;

	if (chunks > CAS_MAX_CHUNKS || !chunks || !per_chunk)
		return -1;
	c->word = 0;
	c->cpu_a = cpu_a;
	c->cpu_b = cpu_b;
	c->chunks = chunks;
	c->per_chunk = per_chunk;
	if (cas_pin(cpu_a) || pthread_create(&tb, NULL, cas_side_b, c))
		return -1;
	for (; k < 16; k++)
		cas_turn(&c->word, 2 * k);
	for (i = 0; i < chunks; i++) {
		t0 = tp_rdtsc_lfence();
		for (j = 0; j < per_chunk; j++, k++)
			cas_turn(&c->word, 2 * k);
		/* the chunk's last round trip: b's answer to its last turn */
		while (__atomic_load_n(&c->word, __ATOMIC_ACQUIRE) != 2 * k)
			;
		t1 = tp_rdtsc_lfence();
		c->one_way[i] = (double)(t1 - t0) / (2.0 * per_chunk);
	}
	pthread_join(tb, NULL);
	qsort(c->one_way, chunks, sizeof(double), cas_cmp_double);
	return c->one_way[(chunks - 1) / 2];
}

#endif /* TSCPROBE_CAS_PINGPONG_H */
