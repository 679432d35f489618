// SPDX-License-Identifier: GPL-2.0
/*
 * kthread_create_on_cpu() is exported to modules since 5.16 ("kthread: add
 * the helper function kthread_run_on_cpu()", 800977f6f32e).
 *
 * probe-export: kthread_create_on_cpu
 */
#include <linux/kthread.h>

static __maybe_unused struct task_struct *tp_probe(int (*fn)(void *data))
{
	return kthread_create_on_cpu(fn, NULL, 0, "tp/%u");
}
