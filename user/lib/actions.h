/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a noise run does at its events and at its end (--on-threshold,
 * --on-end), without ending unless told: save a tracing snapshot, run a
 * command with the event's figures in its environment, or stop.  The
 * module notifies every event it keeps; the CLI acts on those at or above
 * the --stop-at level, at most once a second, and counts what it left
 * undone, so that a night of incidents gives one trace each and nothing
 * is dropped unseen.
 */
#ifndef TSCPROBE_USER_ACTIONS_H
#define TSCPROBE_USER_ACTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct jw;

/** enum tp_action_kind - what an action does */
enum tp_action_kind {
	TP_ACTION_STOP,		/* end the run: the module's --stop-at */
	TP_ACTION_SNAPSHOT,	/* swap the trace buffer, save the snapshot */
	TP_ACTION_EXEC,		/* run a shell command, not waited for */
};

#define TP_MAX_ACTIONS		8
#define TP_ACTION_INTERVAL_NS	1000000000ull

/* getopt values of the options. */
enum { TP_OPT_ON_THRESHOLD = 1500, TP_OPT_ON_END };

#define TP_ACTION_OPTIONS						\
	{ "on-threshold", required_argument, NULL, TP_OPT_ON_THRESHOLD }, \
	{ "on-end", required_argument, NULL, TP_OPT_ON_END }

/**
 * struct tp_action - one action asked for
 * @kind: enum tp_action_kind
 * @arg: exec: the command; snapshot: the directory (NULL: stop)
 * @pid: exec: its command still running (0: none)
 */
struct tp_action {
	unsigned int kind;
	const char *arg;
	pid_t pid;
};

/**
 * struct tp_actions_report - what the actions did, for the report
 * @level_ns: the level of --on-threshold, ns (0: in cycles)
 * @level_cycles: the level in cycles (0: in ns)
 * @stop: --on-threshold stop was asked for
 * @nthreshold: entries in @on_threshold
 * @on_threshold: the actions, as given
 * @nend: entries in @on_end
 * @on_end: the actions, as given
 * @events: notified events at or above the level
 * @acted: events the actions ran for
 * @limited: events left alone, within TP_ACTION_INTERVAL_NS of the last
 *	one acted on; @events is always @acted plus @limited
 * @failed: actions that failed: a command that exited non-zero or could
 *	not start, a snapshot not saved
 * @busy: commands not started because the same action's last one still
 *	ran
 * @snapshots: snapshots saved
 * @overruns: times notifications were lost (the socket overflowed)
 * @ended: the --on-end actions ran
 */
struct tp_actions_report {
	uint64_t level_ns;
	uint64_t level_cycles;
	bool stop;
	unsigned int nthreshold;
	const char *on_threshold[TP_MAX_ACTIONS];
	unsigned int nend;
	const char *on_end[TP_MAX_ACTIONS];
	uint64_t events;
	uint64_t acted;
	uint64_t limited;
	uint64_t failed;
	uint64_t busy;
	uint64_t snapshots;
	uint64_t overruns;
	bool ended;
};

/**
 * struct tp_actions - the actions of a run, and their state while it runs
 * @threshold: the --on-threshold actions
 * @end: the --on-end actions
 * @tracing: the tracefs directory, when a snapshot is asked for
 * @taken: snapshots taken, saved or not: the number in the next file name
 * @last_ns: when the actions last ran (CLOCK_MONOTONIC_RAW)
 * @r: what they did
 */
struct tp_actions {
	struct tp_action threshold[TP_MAX_ACTIONS];
	struct tp_action end[TP_MAX_ACTIONS];
	const char *tracing;
	unsigned int taken;
	uint64_t last_ns;
	struct tp_actions_report r;
};

/* Any action was asked for. */
static inline bool tp_actions_asked(const struct tp_actions_report *r)
{
	return r->nthreshold || r->nend;
}

bool tp_actions_option(struct tp_actions *a, const char *cmd, int c,
		       char *arg, int *ret);
int tp_actions_check(struct tp_actions *a, const char *cmd, uint64_t level_ns,
		     uint64_t level_cycles);
/* The actions want the run's events: --on-threshold was given. */
static inline bool tp_actions_on_events(const struct tp_actions *a)
{
	return a && a->r.nthreshold;
}

/**
 * struct tp_action_event - an event, as the --on-threshold actions see it
 * @run_id: the run
 * @cpu: the CPU that saw it
 * @cycles: the gap
 * @cause: its cause's name ("" when none was given)
 * @tsc_khz: the run's TSC rate
 */
struct tp_action_event {
	uint64_t run_id;
	unsigned int cpu;
	uint64_t cycles;
	const char *cause;
	uint32_t tsc_khz;
};

void tp_actions_event(struct tp_actions *a, const struct tp_action_event *ev);
void tp_actions_overrun(struct tp_actions *a);
/**
 * struct tp_action_end - how a run ended, as the --on-end actions see it
 * @run_id: the run
 * @reason: why it stopped (TSCPROBE_STOP_*)
 * @max_gap: its largest gap, in cycles
 * @max_gap_cpu: where it was
 * @tsc_khz: the TSC rate
 */
struct tp_action_end {
	uint64_t run_id;
	uint32_t reason;
	uint64_t max_gap;
	unsigned int max_gap_cpu;
	uint32_t tsc_khz;
};

void tp_actions_end(struct tp_actions *a, const struct tp_action_end *end);
void tp_actions_text(const struct tp_actions_report *r, FILE *f);
void tp_actions_json(const struct tp_actions_report *r, struct jw *j);

#endif /* TSCPROBE_USER_ACTIONS_H */
