// SPDX-License-Identifier: GPL-2.0
/*
 * Building the random cycle of a working set, and chasing it.
 */
#include "cache.h"
#include "chase.h"
#include "tsc.h"

#define TP_LINE_SHIFT	6	/* 64-byte lines */

/* The first word of line @k of the working set. */
static inline void **tp_chase_slot(const struct tp_chase *ch, uint64_t k)
{
	uint64_t mask = ((uint64_t)1 << ch->chunk_shift) - 1;

	return (void **)((char *)ch->chunks[k >> ch->chunk_shift] +
			 ((k & mask) << TP_LINE_SHIFT));
}

/*
 * Uniform in [0, n) for n > 0: xorshift64* scaled by a 64x64->128 multiply
 * (the kernel has 128-bit multiplication, not division).
 */
static inline uint64_t tp_chase_below(uint64_t *state, uint64_t n)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return (uint64_t)(((__uint128_t)(x * 0x2545f4914f6cdd1dULL) * n) >> 64);
}

/**
 * tp_chase_init() - prepare a working set for building
 * @ch: the chase
 * @chunks: the memory: chunks of 1 << @chunk_shift lines, as many as
 *	@lines needs (the working set is their first @lines lines)
 * @chunk_shift: log2 of the lines per chunk
 * @lines: lines in the working set, at least 2
 * @seed: the permutation's seed (any value)
 */
void tp_chase_init(struct tp_chase *ch, void *const *chunks,
		   unsigned int chunk_shift, uint64_t lines, uint64_t seed)
{
	ch->chunks = chunks;
	ch->chunk_shift = chunk_shift;
	ch->lines = lines;
	ch->step = 0;
	ch->rng = seed | 1;
	ch->pos = NULL;
	ch->fastest = TP_U64_MAX;
	tp_chase_reset_counts(ch);
	ch->pace.units = 0;
	ch->pace.cycles = 0;
}

/**
 * tp_chase_build() - advance the building of the cycle
 * @ch: the chase, from tp_chase_init()
 * @steps: the most steps to do in this call
 *
 * Three passes of @lines steps, in place in the lines themselves: number
 * every line with its index; Sattolo's shuffle of those numbers, which
 * leaves one cycle through all lines, uniformly chosen among all such
 * cycles (line k's number is now the line after k); and turn every number
 * into the address of its line, so that the chase is a bare p = *p.
 *
 * Return: true once the cycle is complete (@ch->pos is then set).
 */
bool tp_chase_build(struct tp_chase *ch, uint64_t steps)
{
	const uint64_t n = ch->lines;
	uint64_t s, i, j;
	void **a, **b, *t;

	for (; steps && ch->step < 3 * n; steps--) {
		s = ch->step++;
		if (s < n) {
			*tp_chase_slot(ch, s) = (void *)(uintptr_t)s;
		} else if (s < 2 * n - 1) {
			i = 2 * n - 1 - s;		/* n - 1 down to 1 */
			j = tp_chase_below(&ch->rng, i);	/* j < i */
			a = tp_chase_slot(ch, i);
			b = tp_chase_slot(ch, j);
			t = *a;
			*a = *b;
			*b = t;
		} else if (s >= 2 * n) {
			a = tp_chase_slot(ch, s - 2 * n);
			*a = tp_chase_slot(ch, (uint64_t)(uintptr_t)*a);
		}
	}
	if (ch->step < 3 * n)
		return false;
	ch->pos = tp_chase_slot(ch, 0);
	return true;
}

/**
 * tp_chase_reset_counts() - forget the loads timed so far (after warm-up)
 * @ch: the chase
 *
 * The fastest unit is remembered: the warm-up has found it already.
 */
void tp_chase_reset_counts(struct tp_chase *ch)
{
	ch->loads = 0;
	ch->cycles = 0;
	ch->disturbed = 0;
}

/**
 * tp_chase_warmup_units() - units that bring a working set into the cache
 * @ch: the chase
 *
 * One pass over the cycle, but no more than TP_CHASE_LOADS loads: a set
 * larger than that does not fit any cache anyway.
 *
 * Return: units of TP_CHASE_UNIT loads, at least 1.
 */
uint64_t tp_chase_warmup_units(const struct tp_chase *ch)
{
	uint64_t loads = ch->lines < TP_CHASE_LOADS ? ch->lines : TP_CHASE_LOADS;

	return (loads + TP_CHASE_UNIT - 1) / TP_CHASE_UNIT;
}

/**
 * tp_chase_batch() - chase and time units of TP_CHASE_UNIT loads
 * @chase: the struct tp_chase, built
 * @units: how many units, at least 1
 *
 * A tp_batch_fn.  Each unit is one bracket: "lfence; rdtsc" waits for the
 * load before it, so the cycles are the chain's plus one TSC read per
 * TP_CHASE_UNIT loads (well under 0.1 cycle per load).  The "memory"
 * clobber of the TSC reads keeps the compiler from moving loads across
 * them.  A unit slower than TP_CHASE_DISTURBED times the fastest was
 * interrupted, preempted or hit by an SMI: a single one would dominate a
 * curve point (one 4 ms preemption quadruples an L1 figure), so it is left
 * out and counted; latency varies far less than that between units of one
 * working set.
 *
 * Return: the TSC at the end.
 */
uint64_t tp_chase_batch(void *chase, uint64_t units)
{
	struct tp_chase *ch = chase;
	uint64_t i, t0, t1 = 0, cycles;
	void **p = ch->pos;

	while (units--) {
		t0 = tp_rdtsc_lfence();
		for (i = 0; i < TP_CHASE_UNIT; i++)
			p = (void **)*p;
		t1 = tp_rdtsc_lfence();
		cycles = t1 - t0;
		if (cycles < ch->fastest)
			ch->fastest = cycles;
		if (cycles / TP_CHASE_DISTURBED > ch->fastest) {
			ch->disturbed++;
			continue;
		}
		ch->loads += TP_CHASE_UNIT;
		ch->cycles += cycles;
	}
	ch->pos = p;
	return t1;
}

/**
 * tp_chase_level() - one point of the memory-level curve
 * @chunks: the working set's memory, as for tp_chase_init()
 * @chunk_shift: log2 of the lines per chunk
 * @bytes: the working set's size
 * @cpu: the measuring CPU (it seeds the cycle: each CPU its own order)
 * @host: how the runner stops and paces
 * @lat: set to the size, the loads timed and their cycles
 *
 * The sequence the module and the userspace engine share: seed and build
 * the random cycle, warm it (one pass, at most TP_CHASE_LOADS loads),
 * forget the warm-up's counts, then time TP_CHASE_LOADS loads.
 *
 * Return: false when the run ended first (@lat untouched).
 */
bool tp_chase_level(void *const *chunks, unsigned int chunk_shift,
		    uint64_t bytes, unsigned int cpu,
		    const struct tp_chase_host *host, struct tp_latency *lat)
{
	struct tp_chase ch;

	tp_chase_init(&ch, chunks, chunk_shift, bytes >> TP_LINE_SHIFT,
		      0x9e3779b97f4a7c15ULL * (cpu + 1) + bytes);
	while (!tp_chase_build(&ch, TP_CHASE_BUILD_STEPS))
		if (host->stop(host->arg))
			return false;
	if (!host->windows(host->arg, &ch, tp_chase_warmup_units(&ch)))
		return false;
	tp_chase_reset_counts(&ch);
	if (!host->windows(host->arg, &ch, TP_CHASE_LOADS / TP_CHASE_UNIT))
		return false;
	lat->size = bytes;
	lat->loads = ch.loads;
	lat->cycles = ch.cycles;
	return true;
}
