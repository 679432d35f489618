// SPDX-License-Identifier: GPL-2.0
#include "cache.h"
#include "chase.h"
#include "tsc.h"

#define TP_LINE_SHIFT	6	/* 64-byte lines */

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

/* The working set is the first @lines (at least 2) lines of @chunks. */
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

/*
 * At most @steps of three in-place passes: number every line; Sattolo's
 * shuffle, which leaves one uniformly random cycle (line k's number is the
 * line after k); numbers to addresses, so the chase is a bare p = *p.
 * True once complete.
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

/* After warm-up; the fastest unit is kept: the warm-up found it. */
void tp_chase_reset_counts(struct tp_chase *ch)
{
	ch->loads = 0;
	ch->cycles = 0;
	ch->disturbed = 0;
}

/* One pass, at most TP_CHASE_LOADS loads: more fits no cache anyway. */
uint64_t tp_chase_warmup_units(const struct tp_chase *ch)
{
	uint64_t loads = ch->lines < TP_CHASE_LOADS ? ch->lines : TP_CHASE_LOADS;

	return (loads + TP_CHASE_UNIT - 1) / TP_CHASE_UNIT;
}

/*
 * A tp_batch_fn, one bracket per unit; the "memory" clobber of the TSC
 * reads keeps loads from moving across them.  Disturbed units are left out
 * and counted (Documentation/cache.rst, "Memory levels").
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
 * @cpu: the measuring CPU; it seeds the cycle, so each CPU has its own
 * @host: how the runner stops and paces
 * @lat: set to the size, the loads kept and their cycles
 *
 * Build, warm, forget the warm-up's counts, time TP_CHASE_LOADS loads.
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
