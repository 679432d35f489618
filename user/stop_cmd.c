// SPDX-License-Identifier: GPL-2.0
/*
 * tscprobe stop: end the current run and wait until it has ended.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/commands.h"
#include "user/lib/decode.h"
#include "user/lib/nl.h"
#include "user/lib/module_run.h"
#include "user/lib/options.h"

static const char tp_stop_usage[] =
	"usage: tscprobe stop\n"
	"\n"
	"End the current run within one window and wait until it has ended; its\n"
	"results stay readable with 'tscprobe show'.  Exits 6 when nothing runs,\n"
	"1 when the run has not ended in time.\n"
	"\n"
	"  -h, --help   show this help\n";

/* STOP, then wait for the end of the run it stopped. */
static int tp_stop_and_wait(struct tp_nl *ev, struct tp_nl *req)
{
	struct tp_nl_error error;
	struct tp_result st;
	int ret;

	tp_result_init(&st, 0);
	if (tp_fetch_status(req, &st, &error)) {
		ret = tp_nl_report("stop", &error);
		goto out;
	}
	if (tp_nl_talk(req, tp_nl_request(req, TSCPROBE_CMD_STOP, false),
		       NULL, NULL, &error)) {
		ret = tp_nl_report("stop", &error);
		goto out;
	}
	ret = tp_wait_run_end(ev, req, st.run_id, tp_stop_timeout_ns(&st.p));
	if (ret == -ETIMEDOUT)
		tp_err("stop: run %llu has not ended yet",
		       (unsigned long long)st.run_id);
	else if (ret)
		tp_err("stop: waiting for run %llu to end: %s",
		       (unsigned long long)st.run_id, strerror(-ret));
	ret = ret ? TP_EXIT_FAIL : TP_EXIT_OK;
out:
	tp_result_free(&st);
	return ret;
}

/**
 * tp_cmd_stop() - the "stop" subcommand
 * @argc: argument count
 * @argv: arguments
 *
 * Return: an enum tp_exit; TP_EXIT_NORESULT when nothing runs.
 */
int tp_cmd_stop(int argc, char **argv)
{
	struct tp_nl *ev = NULL, *req = NULL;
	int ret;

	ret = tp_simple_opts("stop", tp_stop_usage, argc, argv, NULL);
	if (ret)
		return ret < 0 ? TP_EXIT_OK : ret;
	ret = tp_nl_open_listening(&req, &ev);
	if (!ret)
		ret = tp_stop_and_wait(ev, req);
	tp_nl_close_listening(req, ev);
	return ret;
}
