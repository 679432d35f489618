// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel engine's run loop, shared by every measurement.
 *
 * Two sockets: one listens to the events group, the other sends requests.
 * A notification arriving on the request socket could be mistaken for a
 * reply (both may carry sequence 0), so they never share one.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "user/lib/clock.h"
#include "user/lib/context.h"
#include "user/lib/decode.h"
#include "user/lib/nl.h"
#include "user/lib/sigint.h"
#include "user/lib/module_run.h"

static uint64_t tp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int tp_start_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];

	if (tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_ERROR;
	tp_result_decode_run(tb, data);
	return MNL_CB_OK;
}

struct tp_finish_wait {
	uint64_t run_id;
	bool finished;
	uint32_t reason;
	const struct tp_start *st;
	const struct tp_result *run;
};

/* An event of the run, handed to its actions. */
static void tp_act_on_event(uint64_t run_id, const struct tp_cpu_event *ev,
			    void *arg)
{
	const struct tp_finish_wait *w = arg;
	struct tp_action_event e;

	(void)run_id;	/* the run's: tp_pass_event() passes no other */
	tp_actions_event(w->st->actions,
			 tp_result_action_event(w->run, ev->cpu, &ev->e, &e));
}

/* Hand the run's EVENT notifications to its actions and live printer. */
static void tp_pass_event(const struct nlmsghdr *nlh,
			  struct tp_finish_wait *w)
{
	bool act = w->st && tp_actions_on_events(w->st->actions);

	if (!w->st || (!w->st->on_event && !act) ||
	    tp_notification_cmd(nlh) != TSCPROBE_CMD_EVENT ||
	    tp_notification_run_id(nlh) != w->run_id)
		return;
	if (act)
		tp_notification_each_event(nlh, tp_act_on_event, w);
	if (w->st->on_event)
		w->st->on_event(nlh, w->run, w->st->event_arg);
}

static int tp_finished_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *tb[TSCPROBE_A_MAX + 1];
	struct tp_finish_wait *w = data;

	tp_pass_event(nlh, w);
	if (g->cmd != TSCPROBE_CMD_RUN_FINISHED ||
	    tp_nl_parse(nlh, tb, TSCPROBE_A_MAX))
		return MNL_CB_OK;
	if (tp_nl_u64(tb[TSCPROBE_A_RUN_ID], 0) != w->run_id)
		return MNL_CB_OK;
	w->finished = true;
	w->reason = tp_nl_u32(tb[TSCPROBE_A_STOP_REASON], TSCPROBE_STOP_NONE);
	return MNL_CB_STOP;
}

/* Show one progress line, overwritten in place. */
static void tp_show_progress(struct tp_nl *nl, const struct tp_start *st)
{
	struct tp_result status;
	struct tp_nl_error error;
	char line[256];

	tp_result_init(&status, st->kind);
	if (!tp_fetch_status(nl, &status, &error)) {
		st->progress(&status, line, sizeof(line));
		fprintf(stderr, "\r\033[K%s", line);
		fflush(stderr);
	}
	tp_result_free(&status);
}

/* Whether @run_id still runs; if it has ended, why (@reason, if given). */
static bool tp_run_still_running(struct tp_nl *nl, uint64_t run_id,
				 uint32_t *reason)
{
	struct tp_result status;
	struct tp_nl_error error;
	bool ours, running;

	tp_result_init(&status, 0);
	ours = !tp_fetch_run_status(nl, &status, &error) && status.run_id == run_id;
	running = ours && status.state == TSCPROBE_STATE_RUNNING;
	if (reason)
		*reason = ours ? status.reason : TSCPROBE_STOP_NONE;
	tp_result_free(&status);
	return running;
}

/**
 * tp_wait_run_end() - wait until a run has ended, after STOP
 * @ev: a socket that joined the events group before STOP was sent
 * @req: the request socket
 * @run_id: the run
 * @timeout_ns: how long to wait at most
 *
 * STOP returns at once; the run ends within a window and a gap, and then
 * the module sends RUN_FINISHED.  A lost notification (the listener's
 * queue full) is made up for by asking GET_STATUS every second.
 *
 * Return: 0 once the run has ended, -ETIMEDOUT if it has not in time, or
 * another negative errno.
 */
int tp_wait_run_end(struct tp_nl *ev, struct tp_nl *req, uint64_t run_id,
		    uint64_t timeout_ns)
{
	struct tp_finish_wait w = { run_id, false, TSCPROBE_STOP_NONE,
				    NULL, NULL };
	uint64_t end = tp_now_ns() + timeout_ns;
	int ret;

	while (!w.finished) {
		ret = tp_nl_wait_event(ev, 1000, tp_finished_cb, &w);
		if (ret < 0 && ret != -EINTR && ret != -ENOBUFS)
			return ret;
		if (!w.finished && !tp_run_still_running(req, run_id, NULL))
			break;
		if (!w.finished && tp_now_ns() > end)
			return -ETIMEDOUT;
	}
	return 0;
}

static void tp_send_stop(struct tp_nl *nl)
{
	struct tp_nl_error error;
	int err;

	err = tp_nl_talk(nl, tp_nl_request(nl, TSCPROBE_CMD_STOP, false),
			 NULL, NULL, &error);
	if (err && err != -ENOENT)
		tp_nl_report("stop", &error);
}

/*
 * Read what the events socket still holds, for at most 200 ms, until the
 * run-finished notification of @w's run is among it.
 */
static void tp_last_events(struct tp_nl *ev, struct tp_finish_wait *w)
{
	uint64_t end = tp_now_ns() + 200000000ULL;
	int ret;

	while (!w->finished && tp_now_ns() < end) {
		ret = tp_nl_wait_event(ev, 50, tp_finished_cb, w);
		if (ret == -ENOBUFS && w->st)
			tp_actions_overrun(w->st->actions);
		if (ret < 0 && ret != -EINTR && ret != -ENOBUFS)
			break;
	}
}

/*
 * This CLI's wait past the module's bound: the finisher, its notification
 * and this CLI's next look (once a second) each need a CPU.
 */
#define TP_END_GRACE_NS		3000000000ULL

/**
 * tp_run_bound_ns() - how long after START the module ends a run
 * @p: the run's parameters, as START's reply gave them
 *
 * The bound the module states for a run with a duration (noise; see
 * TSCPROBE_END_MARGIN_MS): warm-up and duration, TSCPROBE_START_LIMIT_MS,
 * two windows, a gap and the margin.
 *
 * Return: the bound, 0 for a run without a duration (cache and skew end
 * after their rounds and pairs).
 */
uint64_t tp_run_bound_ns(const struct tp_run_params *p)
{
	if (!p->duration_ns)
		return 0;
	return p->warm_up_ns + p->duration_ns +
	       TSCPROBE_START_LIMIT_MS * 1000000ULL + 2 * p->width_ns +
	       p->gap_ns + TSCPROBE_END_MARGIN_MS * 1000000ULL;
}

/**
 * tp_stop_timeout_ns() - how long a run takes to end after STOP, at most
 * @p: the run's parameters
 *
 * The module moves a thread that cannot get its CPU away two windows, a
 * gap and 2 s after STOP, and it then finishes its window elsewhere; 3 s
 * more for the scheduler.
 *
 * Return: the timeout.
 */
uint64_t tp_stop_timeout_ns(const struct tp_run_params *p)
{
	return 3 * p->width_ns + 2 * p->gap_ns + 5000000000ULL;
}

/*
 * The wait's own end: @end_by (0: none) is the run's bound and a grace
 * (tp_run_bound_ns()), or once a STOP went out (Ctrl-C's or the CLI's
 * own, @overran), the stop timeout.
 */
struct tp_end_by {
	const struct tp_result *run;
	uint64_t end_by;
	bool stopped;
	bool overran;
};

static void tp_end_by_init(struct tp_end_by *e, const struct tp_result *run)
{
	uint64_t bound = tp_run_bound_ns(&run->p);

	e->run = run;
	e->end_by = bound ? tp_now_ns() + bound + TP_END_GRACE_NS : 0;
	e->stopped = false;
	e->overran = false;
}

static void tp_end_by_stop(struct tp_end_by *e, struct tp_nl *req)
{
	if (e->stopped)
		return;
	e->stopped = true;
	tp_send_stop(req);
	e->end_by = tp_now_ns() + tp_stop_timeout_ns(&e->run->p);
}

static bool tp_end_by_passed(const struct tp_end_by *e, uint64_t now)
{
	return e->end_by && now > e->end_by;
}

/*
 * @e's time is up and the run still runs: stop it, once; false when it
 * was stopped already, and then has not ended in time either.
 */
static bool tp_end_by_act(struct tp_end_by *e, struct tp_nl *req)
{
	char t[32];

	if (!e->stopped) {
		e->overran = true;
		tp_end_by_stop(e, req);
		return true;
	}
	tp_format_ns(tp_stop_timeout_ns(&e->run->p), t, sizeof(t));
	tp_err("run %llu has not ended %s after STOP: it still runs (tscprobe status)",
	       (unsigned long long)e->run->run_id, t);
	return false;
}

/* Past its bound, the run ended after this CLI stopped it. */
static int tp_end_by_overran(const struct tp_end_by *e)
{
	char t[32];

	tp_format_ns(tp_run_bound_ns(&e->run->p), t, sizeof(t));
	tp_err("run %llu did not end within its bound (%s after START): stopped; its results: tscprobe show",
	       (unsigned long long)e->run->run_id, t);
	return TP_EXIT_FAIL;
}

/*
 * The run has ended without a notification received: the module sets the
 * reason, then the final state, then notifies, then (on unload) goes away.
 * The notification is queued or about to be; if it is late, the status
 * said why (@reason), unless the module had already gone.
 */
static void tp_ended_unheard(struct tp_nl *ev, struct tp_nl *req,
			     struct tp_finish_wait *w, uint32_t reason)
{
	tp_last_events(ev, w);
	if (!w->finished)
		w->reason = reason;
	if (!w->finished && tp_nl_family_gone(req))
		w->reason = TSCPROBE_STOP_UNLOAD;
}

/*
 * Wait for the run-finished notification.  On a terminal the wait wakes
 * every 250 ms to redraw the progress line; otherwise it sleeps until the
 * run should be over (plus slack), then asks every second whether it
 * still runs, in case a notification was lost.  A run that outlives its
 * bound is stopped, and one that outlives a STOP is left behind: the wait
 * is bounded whatever the module does.
 */
static int tp_wait_finished(struct tp_nl *ev, struct tp_nl *req,
			    const struct tp_start *st,
			    const struct tp_result *run)
{
	struct tp_finish_wait w = { run->run_id, false, TSCPROBE_STOP_NONE,
				    st, run };
	bool show = st->progress && !st->quiet && isatty(STDERR_FILENO);
	uint64_t now, due = tp_now_ns() + st->expect_ns + 2000000000ULL;
	struct tp_end_by e;
	uint32_t reason;
	int ret;

	tp_end_by_init(&e, run);
	while (!w.finished) {
		if (tp_interrupted())
			tp_end_by_stop(&e, req);
		if (show)
			tp_show_progress(req, st);
		ret = tp_nl_wait_event(ev, show ? 250 : 1000, tp_finished_cb, &w);
		if (ret == -EINTR)
			continue;
		if (ret == -ENOBUFS)
			tp_actions_overrun(st->actions);
		if (ret < 0 && ret != -ENOBUFS) {
			tp_err("waiting for the run to finish: %s", strerror(-ret));
			return TP_EXIT_FAIL;
		}
		now = tp_now_ns();
		if (w.finished || (ret != -ENOBUFS && now <= due &&
				   !tp_end_by_passed(&e, now)))
			continue;
		if (!tp_run_still_running(req, run->run_id, &reason)) {
			tp_ended_unheard(ev, req, &w, reason);
			break;
		}
		due = now + 1000000000ULL;
		if (tp_end_by_passed(&e, now) && !tp_end_by_act(&e, req))
			return TP_EXIT_FAIL;
	}
	if (show)
		fprintf(stderr, "\r\033[K");
	if (e.overran)
		return tp_end_by_overran(&e);
	if (w.reason == TSCPROBE_STOP_UNLOAD) {
		tp_err("the module was unloaded during the run; its results went with it");
		return TP_EXIT_FAIL;
	}
	return TP_EXIT_OK;
}

/*
 * How long a START refused with EAGAIN is tried again: the module refuses
 * while the last run's probes detach (kernel text patching, seconds on a
 * big machine under a slow hypervisor) rather than wait under genetlink's
 * lock, when a CPU went offline meanwhile, or when a signal ended its wait
 * for another START's attach (Ctrl-C: tp_interrupted() below ends it).
 */
#define TP_START_RETRY_NS	(30ULL * 1000000000)
#define TP_START_RETRY_MAX_MS	500

static int tp_start_run(struct tp_nl *req, const struct tp_start *st,
			struct tp_result *res)
{
	uint64_t due = tp_mono_raw_ns() + TP_START_RETRY_NS;
	unsigned int pause_ms = 10;
	struct tp_nl_error error;
	struct nlmsghdr *nlh;

	for (;;) {
		nlh = tp_nl_request(req, TSCPROBE_CMD_START, false);
		mnl_attr_put_u32(nlh, TSCPROBE_A_KIND, st->kind);
		if (st->cpus)
			mnl_attr_put(nlh, TSCPROBE_A_CPUS, st->cpus->nbytes,
				     st->cpus->bits);
		st->put_attrs(nlh, st->p);
		if (!tp_nl_talk(req, nlh, tp_start_cb, res, &error))
			return TP_EXIT_OK;
		if (error.err != EAGAIN || tp_mono_raw_ns() >= due)
			return tp_nl_report("start", &error);
		tp_pause_ms(pause_ms);
		if (tp_interrupted()) {
			tp_err("start: interrupted, nothing started: %s",
			       error.msg);
			return TP_EXIT_BUSY;
		}
		pause_ms = pause_ms * 2 > TP_START_RETRY_MAX_MS ?
			   TP_START_RETRY_MAX_MS : pause_ms * 2;
	}
}

/* The CLI off the CPUs the module measures (all online ones by default). */
static void tp_run_place(const struct tp_start *st, struct tp_result *res)
{
	struct tp_cpuset online;

	if (st->cpus)
		tp_cli_place(st->cpus, &res->cli);
	else if (!tp_online_cpus(&online))
		tp_cli_place(&online, &res->cli);
}

/**
 * tp_run_kernel() - run a measurement in the module and fetch its results
 * @st: what to run
 * @res: initialised; filled with the results
 *
 * Return: an enum tp_exit; TP_EXIT_INTERRUPTED when Ctrl-C stopped the run
 * (its partial results are in @res).
 */
int tp_run_kernel(const struct tp_start *st, struct tp_result *res)
{
	struct tp_nl *ev = NULL, *req = NULL;
	struct tp_nl_error error;
	int ret;

	ret = tp_nl_open_listening(&req, &ev);
	if (ret)
		goto out;
	tp_catch_interrupt();
	tp_run_place(st, res);
	res->ctx = tp_context_begin();
	ret = tp_start_run(req, st, res);
	if (!ret)
		ret = tp_wait_finished(ev, req, st, res);
	if (!ret)
		tp_context_end(res->ctx, &res->cpus, res->tsc_khz);
	if (!ret && tp_result_fetch(req, res->run_id, res, &error))
		ret = tp_nl_report("results", &error);
	if (!ret && tp_interrupted())
		ret = TP_EXIT_INTERRUPTED;
out:
	tp_nl_close_listening(req, ev);
	return ret;
}

/**
 * tp_run_cmd() - run a measurement subcommand and print its report
 * @st: the measurement, its CPUs and parameters, as for tp_run_kernel()
 * @user: run @engine in userspace instead of the module
 * @engine: the measurement's userspace engine
 * @output: its report, in every format
 * @out: the format asked for (and the SVG file, if any)
 *
 * The conditions of @st->hold are held, and the load of @st->load runs,
 * from before the run starts to its end, and the report states them;
 * noise with interrupts on holds /dev/cpu_dma_latency at 0 unless told
 * otherwise, as rtla and cyclictest do.  What was measured is printed also
 * after Ctrl-C, with its verdict when @out has limits.  The report's
 * TP_EXIT_FAIL (it could not be written) comes first, then the run's own
 * code (TP_EXIT_INTERRUPTED), then the verdict's TP_EXIT_OVER_LIMIT: a
 * partial run is not judged by its code.
 *
 * Return: an enum tp_exit.
 */
int tp_run_cmd(const struct tp_start *st, bool user, tp_user_engine_fn engine,
	       tp_output_fn output, const struct tp_output *out)
{
	bool dma_default = st->kind == TSCPROBE_KIND_NOISE &&
			   (user || st->p->irqs == TSCPROBE_IRQS_ON);
	struct tp_load *load = NULL;
	struct tp_action_end end;
	struct tp_result res;
	struct tp_hold hold;
	int ret, printed;

	tp_result_init(&res, st->kind);
	res.started = time(NULL);
	ret = tp_hold_begin(&hold, st->hold, st->cpus, dma_default);
	if (ret == TP_EXIT_OK)
		ret = tp_load_start(&load, st->load);
	if (ret != TP_EXIT_OK) {
		tp_load_stop(load, &res.load);
		tp_hold_end(&hold);
		tp_result_free(&res);
		return ret;
	}
	/*
	 * A userspace engine reads the machine's state itself, right around
	 * its threads (tp_pinned_run()); the module's run is read around here.
	 */
	if (user)
		ret = engine(st->cpus, st->p, st->quiet, &res);
	else
		ret = tp_run_kernel(st, &res);
	tp_load_stop(load, &res.load);
	tp_hold_end(&hold);
	res.held = hold.c;
	if (ret != TP_EXIT_OK && ret != TP_EXIT_INTERRUPTED)
		tp_actions_end(st->actions, NULL);
	if (ret == TP_EXIT_OK || ret == TP_EXIT_INTERRUPTED) {
		tp_result_group(&res);
		if (st->on_end)
			st->on_end(&res, st->event_arg);
		tp_actions_end(st->actions, tp_result_action_end(&res, &end));
		if (st->actions)
			res.actions = st->actions->r;
		printed = output(&res, out, stdout);
		if (printed == TP_EXIT_FAIL || ret == TP_EXIT_OK)
			ret = printed;
	}
	tp_result_free(&res);
	return ret;
}
