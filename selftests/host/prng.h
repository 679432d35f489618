/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small deterministic generator for the host tests: the same seed gives
 * the same data on every machine, so a failure can be reproduced.
 */
#ifndef TSCPROBE_TEST_PRNG_H
#define TSCPROBE_TEST_PRNG_H

#include <stdint.h>

/* xorshift64*: good enough for test data, and never returns to 0. */
static inline uint64_t tr_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* Uniform in [0, n), n > 0 (the modulo bias is irrelevant here). */
static inline uint64_t tr_below(uint64_t *state, uint64_t n)
{
	return tr_next(state) % n;
}

/* Log-uniform over [1, 2^bits): every octave equally likely. */
static inline uint64_t tr_log(uint64_t *state, unsigned int bits)
{
	unsigned int k = tr_below(state, bits);
	uint64_t v = (uint64_t)1 << k;

	return v | (tr_next(state) & (v - 1));
}

#endif /* TSCPROBE_TEST_PRNG_H */
