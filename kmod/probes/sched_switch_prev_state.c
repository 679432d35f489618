// SPDX-License-Identifier: GPL-2.0
/*
 * 5.18 passed the previous task's state to sched_switch's probes as a
 * fourth argument ("sched/tracing: Don't re-read p->state when emitting
 * sched_switch event").
 */
#include <trace/events/sched.h>

static void tp_probe_switch(void *data, bool preempt, struct task_struct *prev,
			    struct task_struct *next, unsigned int prev_state)
{
}

static __maybe_unused void tp_probe(void)
{
	check_trace_callback_type_sched_switch(tp_probe_switch);
}
