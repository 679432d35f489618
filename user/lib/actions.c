// SPDX-License-Identifier: GPL-2.0
/*
 * Actions on a noise run's events and at its end (actions.h).  Snapshots
 * come before commands, so that a command finds the event's trace in
 * TSCPROBE_SNAPSHOT.  A command's standard output goes to the CLI's
 * standard error: the report on standard output stays whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "user/lib/actions.h"
#include "user/lib/cli.h"
#include "user/lib/clock.h"
#include "user/lib/json_write.h"
#include "core/names.h"
#include "core/report.h"
#include "user/lib/format.h"

/* How long the end of a run waits for the commands it started. */
#define TP_ACTION_WAIT_NS	(30 * 1000000000ull)

static const char *const tp_tracing_dirs[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

/* "snapshot", "snapshot=DIR", "exec CMD" or "stop" into @act. */
static int tp_action_parse(struct tp_action *act, const char *cmd,
			   const char *opt, char *arg, bool at_end)
{
	if (!strcmp(arg, "stop") && !at_end) {
		act->kind = TP_ACTION_STOP;
		return TP_EXIT_OK;
	}
	if (!strcmp(arg, "snapshot") || !strncmp(arg, "snapshot=", 9)) {
		act->kind = TP_ACTION_SNAPSHOT;
		act->arg = arg[8] ? arg + 9 : ".";
		if (!*act->arg)
			return tp_usage_err(cmd, "%s '%s': give the directory after snapshot=",
					    opt, arg);
		return TP_EXIT_OK;
	}
	if (!strncmp(arg, "exec", 4) && (!arg[4] || arg[4] == ' ')) {
		act->kind = TP_ACTION_EXEC;
		act->arg = arg + 4 + strspn(arg + 4, " ");
		if (!*act->arg)
			return tp_usage_err(cmd, "%s '%s': give the command after exec",
					    opt, arg);
		return TP_EXIT_OK;
	}
	if (at_end)
		return tp_usage_err(cmd, "%s '%s': give snapshot[=DIR] or 'exec CMD'",
				    opt, arg);
	return tp_usage_err(cmd, "%s '%s': give snapshot[=DIR], 'exec CMD' or stop",
			    opt, arg);
}

/**
 * tp_actions_option() - take --on-threshold or --on-end
 * @a: the actions, updated
 * @cmd: the subcommand, for errors
 * @c: what getopt_long() returned
 * @arg: the option's value; kept, as the report names the action by it
 * @ret: set to the option's enum tp_exit when it was one of them
 *
 * Return: true when @c was one of them.
 */
bool tp_actions_option(struct tp_actions *a, const char *cmd, int c,
		       char *arg, int *ret)
{
	bool at_end = c == TP_OPT_ON_END;
	const char *opt = at_end ? "--on-end" : "--on-threshold";
	struct tp_actions_report *r = &a->r;
	unsigned int *n = at_end ? &r->nend : &r->nthreshold;

	if (c != TP_OPT_ON_THRESHOLD && c != TP_OPT_ON_END)
		return false;
	if (*n == TP_MAX_ACTIONS) {
		*ret = tp_usage_err(cmd, "%s: at most %d of them", opt,
				    TP_MAX_ACTIONS);
		return true;
	}
	*ret = tp_action_parse(at_end ? &a->end[*n] : &a->threshold[*n], cmd,
			       opt, arg, at_end);
	if (*ret == TP_EXIT_OK) {
		(at_end ? r->on_end : r->on_threshold)[*n] = arg;
		if (!at_end && a->threshold[*n].kind == TP_ACTION_STOP)
			r->stop = true;
		(*n)++;
	}
	return true;
}

/* The tracefs directory that has a snapshot file to write, or NULL. */
static const char *tp_tracing_snapshot_dir(void)
{
	char path[64];
	size_t i;

	for (i = 0; i < sizeof(tp_tracing_dirs) / sizeof(*tp_tracing_dirs); i++) {
		snprintf(path, sizeof(path), "%s/snapshot", tp_tracing_dirs[i]);
		if (!access(path, W_OK))
			return tp_tracing_dirs[i];
	}
	return NULL;
}

/* One action can run here: its tracing snapshot, directory and shell. */
static int tp_action_check(struct tp_actions *a, const struct tp_action *act,
			   const char *cmd, const char *opt)
{
	struct stat st;

	if (act->kind == TP_ACTION_EXEC && access("/bin/sh", X_OK))
		return tp_usage_err(cmd, "%s exec: /bin/sh cannot be run: %s",
				    opt, strerror(errno));
	if (act->kind != TP_ACTION_SNAPSHOT)
		return TP_EXIT_OK;
	if (!a->tracing)
		a->tracing = tp_tracing_snapshot_dir();
	if (!a->tracing)
		return tp_usage_err(cmd, "%s snapshot: no tracing snapshot to take (needs tracefs at /sys/kernel/tracing, CONFIG_TRACER_SNAPSHOT and root)",
				    opt);
	if (stat(act->arg, &st) || !S_ISDIR(st.st_mode) ||
	    access(act->arg, W_OK | X_OK))
		return tp_usage_err(cmd, "%s snapshot=%s: not a directory this user can write",
				    opt, act->arg);
	return TP_EXIT_OK;
}

/**
 * tp_actions_check() - refuse actions that cannot run, before anything
 *	starts
 * @a: the actions given
 * @cmd: the subcommand, for errors
 * @level_ns: --stop-at in ns (0: not given, or in cycles)
 * @level_cycles: --stop-at in cycles (0: not given, or in ns)
 *
 * Return: TP_EXIT_OK, or TP_EXIT_USAGE (one line printed).
 */
int tp_actions_check(struct tp_actions *a, const char *cmd, uint64_t level_ns,
		     uint64_t level_cycles)
{
	struct tp_actions_report *r = &a->r;
	unsigned int i;
	int ret;

	if (r->nthreshold && !level_ns && !level_cycles)
		return tp_usage_err(cmd, "--on-threshold needs --stop-at: the gap at which it acts");
	r->level_ns = level_ns;
	r->level_cycles = level_cycles;
	for (i = 0; i < r->nthreshold; i++) {
		ret = tp_action_check(a, &a->threshold[i], cmd,
				      "--on-threshold");
		if (ret)
			return ret;
	}
	for (i = 0; i < r->nend; i++) {
		ret = tp_action_check(a, &a->end[i], cmd, "--on-end");
		if (ret)
			return ret;
	}
	return TP_EXIT_OK;
}

/* Copy the snapshot @fd reads into a new file @path; false on failure. */
static bool tp_snapshot_copy(int fd, const char *path)
{
	char buf[65536];
	bool ok = true;
	ssize_t n;
	int out;

	out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		tp_err("snapshot: cannot create %s: %s", path, strerror(errno));
		return false;
	}
	while (ok && (n = read(fd, buf, sizeof(buf))) != 0)
		ok = n > 0 && write(out, buf, (size_t)n) == n;
	if (close(out))
		ok = false;
	if (!ok) {
		tp_err("snapshot: %s is incomplete: %s", path, strerror(errno));
		return false;
	}
	return true;
}

/* Write @what ("1\n": swap, "2\n": clear) to @file; false on failure. */
static bool tp_snapshot_write(const char *file, const char *what)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC);

	if (fd < 0 || write(fd, what, 2) != 2 || close(fd)) {
		tp_err("snapshot: cannot write %c to %s: %s", what[0], file,
		       strerror(errno));
		return false;
	}
	return true;
}

/*
 * Swap the trace buffer into the snapshot (tracing goes on in the other)
 * and save it to DIR/tscprobe-RUN-N.trace; @path gets the file's name.
 * The swap and the read are two opens: a reader of the snapshot file
 * holds it open against a swap (EBUSY).  Once saved, the snapshot buffer
 * is cleared, so that the next swap brings back an empty one: each file
 * holds what was traced since the last.
 */
static bool tp_snapshot_take(struct tp_actions *a, const struct tp_action *act,
			     uint64_t run_id, char *path, size_t len)
{
	char file[96];
	bool ok;
	int fd;

	snprintf(file, sizeof(file), "%s/snapshot", a->tracing);
	if (!tp_snapshot_write(file, "1\n"))
		return false;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		tp_err("snapshot: cannot read %s: %s", file, strerror(errno));
		return false;
	}
	snprintf(path, len, "%s/tscprobe-%" PRIu64 "-%u.trace", act->arg,
		 run_id, ++a->taken);
	ok = tp_snapshot_copy(fd, path);
	close(fd);
	ok = tp_snapshot_write(file, "2\n") && ok;
	if (ok)
		a->r.snapshots++;
	return ok;
}

/* A TSCPROBE_* variable of a command, in the child. */
static void tp_setenv_u64(const char *name, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	setenv(name, buf, 1);
}

/**
 * struct tp_action_env - what a command finds in its environment
 * @what: "threshold" or "end"
 * @run_id: the run
 * @cpu: the event's CPU, or the CPU of the worst gap at the end
 * @cycles: the event's gap, or the worst gap at the end
 * @ns: the same in ns
 * @cause: the event's cause (NULL at the end)
 * @reason: why the run ended (NULL at an event)
 * @events: events at or above the level so far
 * @snapshot: the file of the snapshot this event saved ("" when none)
 */
struct tp_action_env {
	const char *what;
	uint64_t run_id;
	unsigned int cpu;
	uint64_t cycles;
	uint64_t ns;
	const char *cause;
	const char *reason;
	uint64_t events;
	char snapshot[4096];
};

static void tp_env_set(const struct tp_action_env *e)
{
	setenv("TSCPROBE_ACTION", e->what, 1);
	tp_setenv_u64("TSCPROBE_RUN_ID", e->run_id);
	tp_setenv_u64("TSCPROBE_CPU", e->cpu);
	tp_setenv_u64("TSCPROBE_GAP_CYCLES", e->cycles);
	tp_setenv_u64("TSCPROBE_GAP_NS", e->ns);
	tp_setenv_u64("TSCPROBE_EVENTS", e->events);
	if (e->cause)
		setenv("TSCPROBE_CAUSE", e->cause, 1);
	if (e->reason)
		setenv("TSCPROBE_STOP_REASON", e->reason, 1);
	setenv("TSCPROBE_SNAPSHOT", e->snapshot, 1);
}

/* Start @act's command with @e in its environment; its pid, or 0. */
static pid_t tp_exec_start(const struct tp_action *act,
			   const struct tp_action_env *e)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		tp_err("exec: cannot start '%s': %s", act->arg, strerror(errno));
		return 0;
	}
	if (pid)
		return pid;
	tp_env_set(e);
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		_exit(127);
	execl("/bin/sh", "sh", "-c", act->arg, (char *)NULL);
	_exit(127);
}

/* A command that ended: failed when it did not exit 0. */
static void tp_exec_ended(struct tp_actions *a, struct tp_action *act,
			  int status)
{
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		a->r.failed++;
		if (WIFEXITED(status))
			tp_err("exec: '%s' exited %d", act->arg,
			       WEXITSTATUS(status));
		else
			tp_err("exec: '%s' ended by signal %d", act->arg,
			       WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
	act->pid = 0;
}

/* Collect @act's command if it ended; true when none runs any more. */
static bool tp_exec_reap(struct tp_actions *a, struct tp_action *act)
{
	int status;
	pid_t pid;

	if (!act->pid)
		return true;
	pid = waitpid(act->pid, &status, WNOHANG);
	if (pid == 0)
		return false;
	if (pid == act->pid)
		tp_exec_ended(a, act, status);
	else
		act->pid = 0;	/* not ours to wait for any more */
	return true;
}

/* Run @n actions of @acts for one event or the end: snapshots first. */
static void tp_actions_run(struct tp_actions *a, struct tp_action *acts,
			   unsigned int n, struct tp_action_env *e)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (acts[i].kind == TP_ACTION_SNAPSHOT &&
		    !tp_snapshot_take(a, &acts[i], e->run_id, e->snapshot,
				      sizeof(e->snapshot)))
			a->r.failed++;
	for (i = 0; i < n; i++) {
		if (acts[i].kind != TP_ACTION_EXEC)
			continue;
		if (!tp_exec_reap(a, &acts[i])) {
			a->r.busy++;
			continue;
		}
		acts[i].pid = tp_exec_start(&acts[i], e);
		if (!acts[i].pid)
			a->r.failed++;
	}
}

/* The level in cycles, converted as the module converts --stop-at. */
static uint64_t tp_actions_level(const struct tp_actions_report *r,
				 uint32_t tsc_khz)
{
	uint64_t level = r->level_cycles;

	if (!level)
		level = tp_ns_cycles(r->level_ns, tsc_khz);
	return level ? level : 1;
}

/**
 * tp_actions_event() - act on an event of the run
 * @a: the actions (nothing happens without --on-threshold)
 * @ev: the event
 *
 * Events below the level are left alone; those at or above it are acted
 * on at most once a TP_ACTION_INTERVAL_NS, and counted either way.
 */
void tp_actions_event(struct tp_actions *a, const struct tp_action_event *ev)
{
	struct tp_actions_report *r;
	struct tp_action_env e;
	uint64_t now;

	if (!tp_actions_on_events(a) ||
	    ev->cycles < tp_actions_level(&a->r, ev->tsc_khz))
		return;
	r = &a->r;
	r->events++;
	now = tp_mono_raw_ns();
	if (r->acted && now - a->last_ns < TP_ACTION_INTERVAL_NS) {
		r->limited++;
		return;
	}
	r->acted++;
	a->last_ns = now;
	e = (struct tp_action_env){
		.what = "threshold",
		.run_id = ev->run_id,
		.cpu = ev->cpu,
		.cycles = ev->cycles,
		.ns = tp_cycles_to_ns_round(ev->cycles, ev->tsc_khz),
		.cause = ev->cause,
		.events = r->events,
	};
	tp_actions_run(a, a->threshold, r->nthreshold, &e);
}

/**
 * tp_actions_overrun() - notifications were lost: the actions may have
 *	missed events, and the report says so
 * @a: the actions (NULL: none)
 */
void tp_actions_overrun(struct tp_actions *a)
{
	if (a && a->r.nthreshold)
		a->r.overruns++;
}

/* Wait, for TP_ACTION_WAIT_NS at most, for the commands of @acts. */
static void tp_exec_wait(struct tp_actions *a, struct tp_action *acts,
			 unsigned int n)
{
	const struct timespec tick = { .tv_nsec = 10000000 };
	uint64_t due = tp_mono_raw_ns() + TP_ACTION_WAIT_NS;
	bool running = true;
	unsigned int i;

	while (running && tp_mono_raw_ns() < due) {
		running = false;
		for (i = 0; i < n; i++)
			if (!tp_exec_reap(a, &acts[i]))
				running = true;
		if (running)
			nanosleep(&tick, NULL);
	}
	for (i = 0; i < n; i++)
		if (!tp_exec_reap(a, &acts[i])) {
			tp_err("exec: '%s' still runs after 30s (pid %d): left running, counted as failed",
			       acts[i].arg, (int)acts[i].pid);
			a->r.failed++;
			acts[i].pid = 0;
		}
}

/**
 * tp_actions_end() - the run is over: wait for the commands its events
 *	started, then run the --on-end actions and wait for theirs
 * @a: the actions (NULL: none)
 * @end: how the run ended, or NULL when it has no results (the --on-end
 *	actions do not run then)
 *
 * A command still running TP_ACTION_WAIT_NS after this is left running
 * and counted as failed, so that a report is never held up for good.
 */
void tp_actions_end(struct tp_actions *a, const struct tp_action_end *end)
{
	struct tp_action_env e = { .what = "end" };

	if (!a || !tp_actions_asked(&a->r))
		return;
	tp_exec_wait(a, a->threshold, a->r.nthreshold);
	if (!end || !a->r.nend)
		return;
	e.run_id = end->run_id;
	e.reason = tp_stop_reason_name(end->reason);
	e.events = a->r.events;
	e.cycles = end->max_gap;
	e.cpu = end->max_gap_cpu;
	e.ns = tp_cycles_to_ns_round(e.cycles, end->tsc_khz);
	tp_actions_run(a, a->end, a->r.nend, &e);
	tp_exec_wait(a, a->end, a->r.nend);
	a->r.ended = true;
}

/* The actions of one option, comma-separated, as given. */
static void tp_actions_list_text(const char *const *acts, unsigned int n,
				 FILE *f)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? ", " : "", acts[i]);
}

/**
 * tp_actions_text() - the report's "actions:" lines, if any were asked for
 * @r: what the actions did
 * @f: where to
 */
void tp_actions_text(const struct tp_actions_report *r, FILE *f)
{
	char level[32];

	if (!tp_actions_asked(r))
		return;
	if (r->nthreshold) {
		if (r->level_cycles)
			snprintf(level, sizeof(level), "%" PRIu64 " cycles",
				 r->level_cycles);
		else
			tp_format_ns(r->level_ns, level, sizeof(level));
		fprintf(f, "actions at gaps of %s or more: ", level);
		tp_actions_list_text(r->on_threshold, r->nthreshold, f);
		fprintf(f, "\n  %" PRIu64 " events: %" PRIu64 " acted on, %"
			PRIu64 " limited (once a second); %" PRIu64
			" snapshots saved, %" PRIu64
			" commands skipped (the last still ran), %" PRIu64
			" failed\n", r->events, r->acted, r->limited,
			r->snapshots, r->busy, r->failed);
		if (r->overruns)
			fprintf(f, "  notifications lost %" PRIu64 " times: events may have gone without action\n",
				r->overruns);
	}
	if (r->nend) {
		fprintf(f, "actions at the end: ");
		tp_actions_list_text(r->on_end, r->nend, f);
		fprintf(f, r->ended ? " (ran)\n" : " (did not run: no results)\n");
	}
}

static void tp_actions_list_json(struct jw *j, const char *key,
				 const char *const *acts, unsigned int n)
{
	unsigned int i;

	jw_arr(j, key);
	for (i = 0; i < n; i++)
		jw_str(j, NULL, acts[i]);
	jw_arr_end(j);
}

/**
 * tp_actions_json() - the report's "actions" object (null: none asked for)
 * @r: what the actions did
 * @j: the writer, inside the report's top-level object
 */
void tp_actions_json(const struct tp_actions_report *r, struct jw *j)
{
	if (!tp_actions_asked(r)) {
		jw_null(j, "actions");
		return;
	}
	jw_obj(j, "actions");
	if (r->level_cycles || !r->level_ns)
		jw_null(j, "level_ns");
	else
		jw_u64(j, "level_ns", r->level_ns);
	if (r->level_cycles)
		jw_u64(j, "level_cycles", r->level_cycles);
	else
		jw_null(j, "level_cycles");
	tp_actions_list_json(j, "on_threshold", r->on_threshold, r->nthreshold);
	tp_actions_list_json(j, "on_end", r->on_end, r->nend);
	jw_u64(j, "events", r->events);
	jw_u64(j, "acted", r->acted);
	jw_u64(j, "limited", r->limited);
	jw_u64(j, "busy", r->busy);
	jw_u64(j, "failed", r->failed);
	jw_u64(j, "snapshots", r->snapshots);
	jw_u64(j, "overruns", r->overruns);
	jw_bool(j, "ended", r->ended);
	jw_obj_end(j);
}
