/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load-to-use latency by pointer chasing (Documentation/cache.rst, "Memory
 * levels").  The memory comes as equal power-of-two chunks; building is
 * resumable because in the kernel it must yield and notice STOP.
 */
#ifndef TSCPROBE_CORE_CHASE_H
#define TSCPROBE_CORE_CHASE_H

#include "host.h"
#include "pace.h"

/* Loads per unit of a chase batch, timed together: one bracket each. */
#define TP_CHASE_UNIT		1024
/* A unit slower than this many times the fastest was disturbed. */
#define TP_CHASE_DISTURBED	8
/* Loads timed per working set (and at most this many warm it up). */
#define TP_CHASE_LOADS		(1024U * 1024)
/* Build steps per call of tp_chase_build() in the module. */
#define TP_CHASE_BUILD_STEPS	(64U * 1024)
/* Units (of TP_CHASE_UNIT loads) between two deadline checks of a chase. */
#define TP_CHASE_BATCH		64

/*
 * One working set: chunks of 1 << chunk_shift lines each; step counts build
 * progress up to 3 * lines; rng is never 0; loads and cycles are what was
 * kept, disturbed the units left out.
 */
struct tp_chase {
	void *const *chunks;
	unsigned int chunk_shift;
	uint64_t lines;
	uint64_t step;
	uint64_t rng;
	void **pos;
	struct tp_pace pace;
	uint64_t loads;
	uint64_t cycles;
	uint64_t fastest;
	uint64_t disturbed;
};

/*
 * The runner's side: stop() between build steps (the module also yields
 * there), windows() chases units in paced windows; both false once the run
 * ended.
 */
struct tp_chase_host {
	bool (*stop)(void *arg);
	bool (*windows)(void *arg, struct tp_chase *ch, uint64_t units);
	void *arg;
};

struct tp_latency;

bool tp_chase_level(void *const *chunks, unsigned int chunk_shift,
		    uint64_t bytes, unsigned int cpu,
		    const struct tp_chase_host *host, struct tp_latency *lat);
void tp_chase_init(struct tp_chase *ch, void *const *chunks,
		   unsigned int chunk_shift, uint64_t lines, uint64_t seed);
bool tp_chase_build(struct tp_chase *ch, uint64_t steps);
void tp_chase_reset_counts(struct tp_chase *ch);
uint64_t tp_chase_batch(void *chase, uint64_t units);
uint64_t tp_chase_warmup_units(const struct tp_chase *ch);

#endif /* TSCPROBE_CORE_CHASE_H */
