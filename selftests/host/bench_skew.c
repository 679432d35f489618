// SPDX-License-Identifier: GPL-2.0
/*
 * bench_skew - the skew hand-off on two CPUs, next to an independent
 * reference.  Not a test: figures measured side by side, in turns, on this
 * machine.  Per round it runs the userspace skew engine (core/skew.c on
 * pinned threads) on the pair a <-> b, and the two ping-pongs of
 * pingpong.h (CAS, and the hand-off without its log) between the same CPUs; it prints the
 * median over rounds of
 *
 *   per-pair cost   what one ordered pair takes, wake-ups included
 *   one-way         engine: avg (latij + latji) / 2;  ping-pongs: median
 *                   chunk
 *   sd skew, sd one-way   the engine's spread within a pair
 *
 * Usage: bench_skew [A [B [ROUNDS [SAMPLES]]]]   (defaults: 0 1 11 256)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "pingpong.h"
#include "user/engines.h"
#include "user/lib/result.h"

#define MAX_ROUNDS	101

static double median(double *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), pp_cmp_double);
	return v[(n - 1) / 2];
}

int main(int argc, char **argv)
{
	unsigned int a = argc > 1 ? atoi(argv[1]) : 0;
	unsigned int b = argc > 2 ? atoi(argv[2]) : 1;
	unsigned int rounds = argc > 3 ? atoi(argv[3]) : 11;
	unsigned int samples = argc > 4 ? atoi(argv[4]) : 256;
	static double cost[MAX_ROUNDS], ow[MAX_ROUNDS], sdsk[MAX_ROUNDS],
		sdow[MAX_ROUNDS], cas[MAX_ROUNDS], sl[MAX_ROUNDS],
		skew[MAX_ROUNDS];
	struct pingpong *c = aligned_alloc(64, sizeof(*c));
	struct tp_run_params p = { .samples = samples, .repeats = 1 };
	struct tp_cpuset set = { 0 };
	uint32_t khz = 0;
	unsigned int r, k, n = 0;
	cpu_set_t all;

	if (!c || rounds < 1 || rounds > MAX_ROUNDS || a == b)
		return 2;
	sched_getaffinity(0, sizeof(all), &all);
	tp_cpuset_add(&set, a);
	tp_cpuset_add(&set, b);
	for (r = 0; r < rounds; r++) {
		struct tp_result res;

		tp_result_init(&res, TSCPROBE_KIND_SKEW);
		if (tp_user_skew(&set, &p, true, &res) != TP_EXIT_OK)
			return 1;
		khz = res.tsc_khz;
		for (k = 0; k < res.npairs; k++) {
			const struct tp_pair_res *pr = &res.pair[k];

			if (pr->from != a || pr->status != TSCPROBE_PAIR_OK)
				continue;
			cost[n] = pr->elapsed_cycles * 1e3 / khz;	/* us */
			ow[n] = pr->st.one_way2.sum / (2.0 * pr->st.one_way2.count);
			skew[n] = pr->st.skew2.sum / (2.0 * pr->st.skew2.count);
			sdsk[n] = tp_sstats_sd_div(&pr->st.skew2, 1) / 2.0;
			sdow[n] = tp_sstats_sd_div(&pr->st.one_way2, 1) / 2.0;
			n++;
		}
		tp_result_free(&res);
		cas[r] = pingpong_run(c, PP_CAS, a, b, 101, 1000);
		sl[r] = pingpong_run(c, PP_HANDOFF, a, b, 101, 1000);
		sched_setaffinity(0, sizeof(all), &all);
	}
	if (!n)
		return 1;
	printf("cpus %u <-> %u, tsc %u kHz, %u rounds, %u samples per pair (medians over rounds)\n",
	       a, b, khz, rounds, samples);
	printf("%-34s %10.1f us\n", "per-pair cost (user engine)", median(cost, n));
	printf("%-34s %10.1f cycles  %8.1f ns\n", "one-way, skew engine (avg)",
	       median(ow, n), median(ow, n) * 1e6 / khz);
	printf("%-34s %10.1f cycles  %8.1f ns\n", "one-way, CAS ping-pong (median)",
	       median(cas, rounds), median(cas, rounds) * 1e6 / khz);
	printf("%-34s %10.1f cycles  %8.1f ns\n",
	       "one-way, bare hand-off ping-pong", median(sl, rounds),
	       median(sl, rounds) * 1e6 / khz);
	printf("%-34s %10.2f\n", "engine / CAS", median(ow, n) / median(cas, rounds));
	printf("%-34s %10.2f\n", "engine / bare hand-off",
	       median(ow, n) / median(sl, rounds));
	printf("%-34s %10.1f cycles\n", "skew TSC_b - TSC_a (avg)", median(skew, n));
	printf("%-34s %10.1f cycles\n", "sd of skew within a pair", median(sdsk, n));
	printf("%-34s %10.1f cycles\n", "sd of one-way within a pair", median(sdow, n));
	free(c);
	return 0;
}
