// SPDX-License-Identifier: GPL-2.0
/*
 * Time for the userspace engines: CLOCK_MONOTONIC_RAW, the TSC rate
 * calibrated against it, and the conversion of a duration to cycles.
 */
#include <stdlib.h>
#include <time.h>

#include "user/lib/clock.h"
#include "user/lib/nl.h"
#include "core/tsc.h"

/**
 * tp_mono_raw_ns() - CLOCK_MONOTONIC_RAW in nanoseconds
 *
 * Return: the time.
 */
uint64_t tp_mono_raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Sleep @ms, or less when a signal comes (Ctrl-C is looked at after). */
void tp_pause_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000,
	};

	nanosleep(&ts, NULL);
}

/* One calibration: TSC cycles over ~20 ms of CLOCK_MONOTONIC_RAW. */
static uint32_t tp_tsc_khz_once(void)
{
	struct timespec nap = { 0, 20000000 };
	uint64_t t0, t1, c0, c1;

	t0 = tp_mono_raw_ns();
	c0 = tp_rdtsc_lfence();
	nanosleep(&nap, NULL);
	t1 = tp_mono_raw_ns();
	c1 = tp_rdtsc_lfence();
	return t1 > t0 ? (uint32_t)((c1 - c0) * 1000000ULL / (t1 - t0)) : 0;
}

static int tp_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x > y ? 1 : x < y ? -1 : 0;
}

/**
 * tp_user_tsc_khz() - the TSC rate, calibrated against CLOCK_MONOTONIC_RAW
 *
 * The median of five 20 ms calibrations: good to about 10 ppm, enough for
 * every ns figure of a report (the module uses the kernel's tsc_khz).
 *
 * Return: kHz.
 */
uint32_t tp_user_tsc_khz(void)
{
	uint32_t k[5];
	unsigned int i;

	for (i = 0; i < 5; i++)
		k[i] = tp_tsc_khz_once();
	qsort(k, 5, sizeof(k[0]), tp_cmp_u32);
	return k[2];
}

/**
 * tp_ns_cycles() - nanoseconds to TSC cycles, rounded down
 * @ns: nanoseconds
 * @khz: the TSC rate
 *
 * Return: cycles.
 */
uint64_t tp_ns_cycles(uint64_t ns, uint32_t khz)
{
	return ns / 1000000 * khz + ns % 1000000 * khz / 1000000;
}

/**
 * tp_engine_tsc_khz() - the TSC rate every userspace engine converts with
 *
 * One rule for the noise, cache and skew engines: the kernel's tsc_khz
 * when the module is loaded (the rate the kernel keeps time with, refined
 * at boot over far longer than we can afford), else our own calibration.
 *
 * Return: kHz.
 */
uint32_t tp_engine_tsc_khz(void)
{
	uint32_t khz = tp_module_tsc_khz();

	return khz ? khz : tp_user_tsc_khz();
}
