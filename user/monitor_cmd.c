// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe monitor: print the module's notifications as they arrive (like
 * `ip monitor`): every noise event and the end of every run, until Ctrl-C
 * or, with --run, until that run ends.
 *
 * Two sockets, as in module_run.c: one listens to the events group, the
 * other asks GET_STATUS (a run's start, to time its events) and GET_RESULT
 * (a run's totals, for its end line).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/commands.h"
#include "user/lib/decode.h"
#include "user/lib/nl.h"
#include "user/lib/sigint.h"
#include "user/lib/live.h"
#include "user/lib/module_run.h"
#include "user/lib/options.h"
#include "user/lib/parse.h"

static const char tp_monitor_usage[] =
	"usage: tscprobe monitor [-j] [--run ID]\n"
	"\n"
	"Print the module's notifications as they arrive: every noise event (time\n"
	"since its run's start, CPU, length, cause and the counters behind it)\n"
	"and the end of every run, with each CPU's events and how many of them\n"
	"could not be notified.  Until Ctrl-C (exit 0), or with --run until that\n"
	"run ends; exit 1 when the module is unloaded.\n"
	"\n"
	"  -j, --json    one JSON object per line (kind \"event\" or \"run_finished\")\n"
	"      --run ID  only run ID, the current or the last one; end with it\n"
	"  -h, --help    show this help\n";

enum { OPT_RUN = 256 };

/**
 * struct tp_monitor - the command's state
 * @json: -j
 * @run_given: --run was given
 * @run: its run id
 * @done: the run of --run has ended
 * @tsc_khz: the module's TSC rate
 * @req: the socket for requests
 * @ev: the socket that listens
 * @live: the printer, following the run of the last event
 */
struct tp_monitor {
	bool json;
	bool run_given;
	uint64_t run;
	bool done;
	uint32_t tsc_khz;
	struct tp_nl *req;
	struct tp_nl *ev;
	struct tp_live live;
};

static int tp_monitor_option(void *ctx, int c, char **argv)
{
	struct tp_monitor *m = ctx;
	const char *why;

	switch (c) {
	case 'j':
		m->json = true;
		return TP_EXIT_OK;
	case OPT_RUN:
		m->run_given = true;
		if (tp_parse_u64(optarg, 1, UINT64_MAX, &m->run, &why))
			return tp_usage_err("monitor", "--run '%s': %s", optarg,
					    why);
		return TP_EXIT_OK;
	default:
		return tp_bad_option("monitor", c, argv);
	}
}

static int tp_monitor_parse(struct tp_monitor *m, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "run", required_argument, NULL, OPT_RUN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ret;

	ret = tp_getopt(argc, argv, "+:jh", opts, tp_monitor_usage,
			tp_monitor_option, m);
	if (!ret)
		ret = tp_no_more_args("monitor", argc, argv);
	return ret;
}

/* Learn @run_id's start from GET_STATUS, if it is the module's current run. */
static void tp_monitor_follow(struct tp_monitor *m, uint64_t run_id)
{
	struct tp_nl_error error;
	struct tp_result st;

	tp_result_init(&st, 0);
	if (!tp_fetch_status(m->req, &st, &error) && st.run_id == run_id)
		tp_live_begin(&m->live, run_id, st.start_tsc,
			      st.tsc_khz ? st.tsc_khz : m->tsc_khz);
	else
		tp_live_begin(&m->live, run_id, 0, m->tsc_khz);
	tp_result_free(&st);
}

/*
 * The end line of a run.  A noise run's totals travel in its RUN_FINISHED
 * notification; a module that leaves them out is asked for the results.
 */
static void tp_monitor_end(struct tp_monitor *m, const struct tp_result *end)
{
	struct tp_nl_error error;
	struct tp_result res;
	bool fetched;

	if (end->run_id != m->live.run_id)
		tp_live_begin(&m->live, end->run_id, 0, m->tsc_khz);
	tp_result_init(&res, end->kind);
	fetched = end->kind == TSCPROBE_KIND_NOISE && !end->ncpus &&
		  !tp_result_fetch(m->req, end->run_id, &res, &error);
	tp_live_print_end(&m->live, fetched ? &res : end);
	tp_result_free(&res);
	if (m->run_given && end->run_id == m->run)
		m->done = true;
}

static int tp_monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	struct tp_monitor *m = data;
	struct tp_result end;
	uint64_t run_id;

	switch (tp_notification_cmd(nlh)) {
	case TSCPROBE_CMD_EVENT:
		run_id = tp_notification_run_id(nlh);
		if (m->run_given && run_id != m->run)
			return MNL_CB_OK;
		if (run_id != m->live.run_id)
			tp_monitor_follow(m, run_id);
		tp_live_events(&m->live, nlh);
		return MNL_CB_OK;
	case TSCPROBE_CMD_RUN_FINISHED:
		tp_result_init(&end, 0);
		if (!tp_result_decode_notification(nlh, &end) &&
		    (!m->run_given || end.run_id == m->run))
			tp_monitor_end(m, &end);
		tp_result_free(&end);
		return m->done ? MNL_CB_STOP : MNL_CB_OK;
	default:
		return MNL_CB_OK;
	}
}

/*
 * The end of a run that has ended already (its notification went before
 * this command listened, or was lost): from its results, else its status.
 */
static void tp_monitor_end_from_status(struct tp_monitor *m,
				       const struct tp_result *st)
{
	struct tp_nl_error error;
	struct tp_result res;

	tp_result_init(&res, st->kind);
	if (tp_result_fetch(m->req, st->run_id, &res, &error) ||
	    res.run_id != st->run_id)
		tp_monitor_end(m, st);
	else
		tp_monitor_end(m, &res);
	tp_result_free(&res);
}

/*
 * Where --run stands: its run is going on (follow it), has ended (print
 * its end now), or is neither the current nor the last run (exit 2).
 */
static int tp_monitor_start(struct tp_monitor *m)
{
	struct tp_nl_error error;
	struct tp_result st;
	int ret = TP_EXIT_OK;

	tp_result_init(&st, 0);
	if (tp_fetch_status(m->req, &st, &error)) {
		ret = tp_nl_report("status", &error);
		goto out;
	}
	m->tsc_khz = st.tsc_khz;
	if (st.state == TSCPROBE_STATE_RUNNING)
		tp_live_begin(&m->live, st.run_id, st.start_tsc, st.tsc_khz);
	if (!m->run_given || st.run_id == m->run) {
		if (m->run_given && st.state != TSCPROBE_STATE_RUNNING)
			tp_monitor_end_from_status(m, &st);
		goto out;
	}
	if (st.run_id)
		ret = tp_usage_err("monitor", "--run %llu: no such run (the %s run is %llu)",
				   (unsigned long long)m->run,
				   st.state == TSCPROBE_STATE_RUNNING ?
				   "current" : "last",
				   (unsigned long long)st.run_id);
	else
		ret = tp_usage_err("monitor", "--run %llu: no such run (no run since the module was loaded or reset)",
				   (unsigned long long)m->run);
out:
	tp_result_free(&st);
	return ret;
}

/*
 * After a quiet second: is the module still there, and (with --run) is
 * its run still going on?  A run-finished notification lost to a full
 * socket must not leave the command waiting forever, nor must an unloaded
 * module (its family goes, and with it the group, silently).
 *
 * Return: TP_EXIT_OK to go on (m->done set when --run's run is over), or
 * TP_EXIT_FAIL when the module is gone.
 */
static int tp_monitor_check(struct tp_monitor *m)
{
	struct tp_nl_error error;
	struct tp_result st;
	int ret = TP_EXIT_OK;

	tp_result_init(&st, 0);
	if (tp_fetch_status(m->req, &st, &error)) {
		tp_err("monitor: the module is gone (%s)", strerror(error.err));
		ret = TP_EXIT_FAIL;
	} else if (m->run_given &&
		   (st.run_id != m->run || st.state != TSCPROBE_STATE_RUNNING)) {
		if (st.run_id == m->run)
			tp_monitor_end_from_status(m, &st);
		m->done = true;
	}
	tp_result_free(&st);
	return ret;
}

/* Wait for notifications until Ctrl-C or the end of --run's run. */
static int tp_monitor_loop(struct tp_monitor *m)
{
	int ret;

	while (!m->done && !tp_interrupted()) {
		ret = tp_nl_wait_event(m->ev, 1000, tp_monitor_cb, m);
		if (ret == -EINTR)
			continue;
		if (ret == -ENOBUFS) {
			m->live.overruns++;
			tp_live_print_overrun(&m->live);
			continue;
		}
		if (ret < 0) {
			tp_err("monitor: %s", strerror(-ret));
			return TP_EXIT_FAIL;
		}
		if (ret == 0 && tp_monitor_check(m))
			return TP_EXIT_FAIL;
	}
	return TP_EXIT_OK;
}

static int tp_monitor_open(struct tp_monitor *m)
{
	/* Joined before the first GET_STATUS: nothing falls in between. */
	return tp_nl_open_listening(&m->req, &m->ev);
}

static void tp_monitor_close(struct tp_monitor *m)
{
	tp_nl_close_listening(m->req, m->ev);
	tp_live_free(&m->live);
}

/**
 * tp_cmd_monitor() - the "monitor" subcommand
 * @argc: argument count
 * @argv: arguments
 *
 * Return: an enum tp_exit; TP_EXIT_OK after Ctrl-C.
 */
int tp_cmd_monitor(int argc, char **argv)
{
	struct tp_monitor m;
	int ret;

	memset(&m, 0, sizeof(m));
	tp_live_init(&m.live, stdout, false);
	ret = tp_monitor_parse(&m, argc, argv);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	m.live.json = m.json;
	ret = tp_monitor_open(&m);
	if (!ret) {
		tp_catch_interrupt();
		ret = tp_monitor_start(&m);
	}
	if (!ret)
		ret = tp_monitor_loop(&m);
	tp_monitor_close(&m);
	return ret;
}
