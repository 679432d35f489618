/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Nanoseconds and TSC cycles at the kernel's tsc_khz, for every room of
 * the module: inline, so that the rooms below info.c need nothing of it.
 */
#ifndef TSCPROBE_KMOD_CYCLES_H
#define TSCPROBE_KMOD_CYCLES_H

#include <linux/math64.h>
#include <linux/types.h>
#include <asm/tsc.h>

/* Rounded down; no overflow for any run length allowed. */
static inline u64 tp_ns_to_cycles(u64 ns)
{
	return mul_u64_u32_div(ns, tsc_khz, 1000000);
}

/* Rounded down; 0 while the TSC rate is unknown. */
static inline u64 tp_cycles_to_ns(u64 cycles)
{
	return tsc_khz ? mul_u64_u32_div(cycles, 1000000, tsc_khz) : 0;
}

#endif /* TSCPROBE_KMOD_CYCLES_H */
