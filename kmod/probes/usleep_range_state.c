// SPDX-License-Identifier: GPL-2.0
/*
 * 5.16 added usleep_range_state() ("timers: implement usleep_idle_range()");
 * before it, usleep_range() always slept uninterruptibly.
 */
#include <linux/delay.h>
#include <linux/sched.h>

static __maybe_unused void tp_probe(void)
{
	usleep_range_state(10, 20, TASK_INTERRUPTIBLE);
}
